"""The public VariableStore and pipeline API that export and other front doors build on."""
import numpy as np
import pytest

import s2sgrad as tf
from s2sgrad import pipeline
from s2sgrad.pipeline.variable_store import VariableStore


def test_a_session_store_snapshots_commits_and_specs_its_variables():
    w = tf.Variable(np.ones(3), name="w")
    v = tf.Variable(np.zeros(2), name="v", validate_shape=False)
    with tf.Session() as sess:
        store = sess.variable_store
        assert isinstance(store, VariableStore) and w.op not in store
        with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized value w"):
            store.snapshot([w.op])
        sess.run(tf.global_variables_initializer())
        (before,) = store.snapshot([w.op])
        store.commit([(w.op, np.full(3, 2.0)), (v.op, np.zeros(5))])
        np.testing.assert_array_equal(sess.run(w), [2.0, 2.0, 2.0])
        np.testing.assert_array_equal(before, [1.0, 1.0, 1.0])        # a snapshot is not overwritten
        assert store.spec(w.op) == (tf.float64, (3,))
        assert store.spec(v.op) == (tf.float64, (5,))                  # unknown static shape: the stored one


def test_a_failed_run_commits_nothing():
    w = tf.Variable(1.0, name="w")
    i = tf.placeholder(tf.int32, [])
    bad = tf.gather(tf.constant([1.0, 2.0]), i)
    step = tf.assign(w, bad)
    with tf.Session() as sess:
        sess.run(w.initializer)
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(step, {i: 7})
        assert sess.variable_store.snapshot([w.op]) == [1.0]


def test_plan_compile_and_generate_agree_with_session_run():
    x = tf.placeholder(tf.float32, [None], name="x")
    w = tf.Variable(np.float32(3.0), name="w")
    y = tf.reduce_sum(x * w)
    values = [np.array([1.0, 2.0], np.float32)]
    with tf.Session() as sess:
        sess.run(w.initializer)
        graph_slice = pipeline.plan(sess.graph, y, [x])
        assert graph_slice.fed == [x] and graph_slice.structure.tensors == [y]
        specs = graph_slice.feed_specs(values)
        assert specs == {x: (tf.float32, (2,))}
        exe = pipeline.compile(graph_slice, specs, sess.variable_store.spec)
        store_values = sess.variable_store.snapshot(exe.var_ops)
        (result,) = exe.call([values[i] for i in exe.feed_positions] + store_values)
        assert result == sess.run(y, {x: values[0]}) == 9.0
        assert type(result) is np.float32                                  # 0-d results come back as scalars
        assert pipeline.generate(graph_slice, specs, sess.variable_store.spec).source == exe.source
        assert graph_slice.executable(values, sess.variable_store.spec) is \
            graph_slice.executable([np.zeros(2, np.float32)], sess.variable_store.spec)  # cached per shapes
        with pytest.raises(ValueError, match="Cannot feed value of shape"):
            pipeline.plan(sess.graph, y, [x]).feed_specs([np.zeros((2, 2), np.float32)])


def test_eval_and_load_reach_the_default_session_through_the_slot():
    w = tf.Variable(np.zeros(2), name="w")
    with tf.Session() as sess:
        w.load([1.0, 2.0])
        np.testing.assert_array_equal(w.eval(), [1.0, 2.0])
        np.testing.assert_array_equal((w * 2.0).eval(), [2.0, 4.0])
        assert tf.get_default_session() is sess
    with pytest.raises(TypeError, match="session must be a tf.Session"):
        w.eval(session=object())
