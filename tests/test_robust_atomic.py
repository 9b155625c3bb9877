"""Atomic runs: a run that raises changes no variable, no optimizer slot and no global step,
whatever raised and wherever (feed conversion, compilation, the generated code's forward
pass, or a part of the step computed after the new values), with every optimizer."""
from __future__ import annotations

import numpy as np
import pytest

import s2sgrad as tf

OPTIMIZERS = {
    "sgd": lambda: tf.train.GradientDescentOptimizer(0.1),
    "momentum": lambda: tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True),
    "adam": lambda: tf.train.AdamOptimizer(0.05),
    "adagrad": lambda: tf.train.AdagradOptimizer(0.1),
    "rmsprop": lambda: tf.train.RMSPropOptimizer(0.05, momentum=0.5, centered=True),
    "adadelta": lambda: tf.train.AdadeltaOptimizer(1.0),
    "ftrl": lambda: tf.train.FtrlOptimizer(0.1, l1_regularization_strength=0.01,
                                           l2_shrinkage_regularization_strength=0.1),
    "proximal_gd": lambda: tf.train.ProximalGradientDescentOptimizer(0.1, l1_regularization_strength=0.01),
    "proximal_adagrad": lambda: tf.train.ProximalAdagradOptimizer(0.1, l2_regularization_strength=0.01),
    "adagrad_da": lambda: tf.train.AdagradDAOptimizer(0.1, tf.train.get_or_create_global_step()),
}


class Model:
    """A small classifier with an embedding (IndexedSlices gradients) and a dense layer."""

    def __init__(self, optimizer) -> None:
        self.ids = tf.placeholder(tf.int32, [None], name="ids")
        self.x = tf.placeholder(tf.float32, [None, 3], name="x")
        self.labels = tf.placeholder(tf.int32, [None], name="labels")
        embedding = tf.Variable(np.linspace(-1, 1, 12).reshape(4, 3).astype(np.float32), name="embedding")
        self.embedding = embedding
        w = tf.Variable(np.linspace(-0.5, 0.5, 6).reshape(3, 2).astype(np.float32), name="w")
        h = tf.nn.embedding_lookup(embedding, self.ids) + self.x
        logits = tf.matmul(tf.tanh(h), w)
        self.loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=self.labels, logits=logits))
        self.step = tf.train.get_or_create_global_step()
        self.train = optimizer.minimize(self.loss, global_step=self.step)
        self.state = tf.global_variables()

    def feeds(self, **changes):
        feeds = {self.ids: [0, 3, 1], self.x: np.ones((3, 3), np.float32), self.labels: [0, 1, 1]}
        feeds.update({getattr(self, k): v for k, v in changes.items()})
        return feeds


def _snapshot(sess, model):
    return [np.array(v) for v in sess.run(model.state)]


def _assert_unchanged(before, after):
    assert len(before) == len(after)
    for b, a in zip(before, after, strict=True):
        np.testing.assert_array_equal(a, b)


FAILURES = {
    "text feed": lambda m: ([m.train, m.loss], m.feeds(x=[["a", "b", "c"]] * 3), TypeError),
    "ragged feed": lambda m: ([m.train, m.loss], m.feeds(x=[[1.0, 2.0, 3.0], [1.0]]), ValueError),
    "feed shape": lambda m: (m.train, m.feeds(x=np.ones((3, 4))), ValueError),
    "mismatched batch": lambda m: (m.train, m.feeds(labels=[0, 1]), tf.errors.InvalidArgumentError),
    "label out of range": lambda m: ([m.loss, m.train], m.feeds(labels=[0, 1, 9]), tf.errors.InvalidArgumentError),
    "id out of range": lambda m: (m.train, m.feeds(ids=[0, 3, 7]), tf.errors.InvalidArgumentError),
    "after the update": lambda m: ([m.train, tf.gather(m.embedding.assign_add(tf.ones([4, 3])), m.ids)],
                                   m.feeds(ids=[0, 1, 4]), tf.errors.InvalidArgumentError),
    "two train ops": lambda m: ([m.train, tf.train.GradientDescentOptimizer(1.0).minimize(m.loss),
                                 tf.gather(m.x, m.ids)], m.feeds(ids=[0, 1, 5]), tf.errors.InvalidArgumentError),
    "uninitialised": lambda m: ([m.train, tf.Variable(1.0, name="late").read_value()], m.feeds(),
                                tf.errors.FailedPreconditionError),
}


@pytest.mark.parametrize("failure", FAILURES.values(), ids=FAILURES.keys())
@pytest.mark.parametrize("optimizer", OPTIMIZERS.values(), ids=OPTIMIZERS.keys())
def test_a_failed_training_step_changes_nothing(optimizer, failure):
    model = Model(optimizer())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(2):
            sess.run(model.train, model.feeds())
        fetches, feeds, error = failure(model)
        before = _snapshot(sess, model)
        assert sess.run(model.step) == 2
        for _ in range(2):  # fails the same way when compiled and when cached
            with pytest.raises(error):
                sess.run(fetches, feeds)
            _assert_unchanged(before, _snapshot(sess, model))
        sess.run(model.train, model.feeds())  # and the next good step works
        after = _snapshot(sess, model)
        assert sess.run(model.step) == 3
        assert any(not np.array_equal(a, b) for a, b in zip(after, before, strict=True) if a.ndim)


def test_a_failing_callable_changes_nothing():
    model = Model(OPTIMIZERS["adam"]())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        step = sess.make_callable([model.train, model.loss], [model.ids, model.x, model.labels])
        step([0, 1, 2], np.ones((3, 3)), [0, 1, 0])
        before = _snapshot(sess, model)
        with pytest.raises(tf.errors.InvalidArgumentError):
            step([0, 1, 2], np.ones((3, 3)), [0, 1, 2])
        with pytest.raises(TypeError):
            step([0, 1, 2], None, [0, 1, 0])
        _assert_unchanged(before, _snapshot(sess, model))


def test_a_failed_assignment_run_leaves_every_variable():
    a = tf.Variable([1.0, 2.0], name="a")
    b = tf.Variable([3.0, 4.0], name="b")
    i = tf.placeholder(tf.int32, [], name="i")
    updates = [a.assign(a * 10.0), b.assign_add(tf.ones([2])), tf.gather(b, i)]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.InvalidArgumentError, match="index 2 is out of bounds"):
            sess.run(updates, {i: 2})
        np.testing.assert_array_equal(sess.run(a), [1.0, 2.0])
        np.testing.assert_array_equal(sess.run(b), [3.0, 4.0])
        got = sess.run(updates, {i: 1})
        np.testing.assert_array_equal(got[0], [10.0, 20.0])
        assert got[2] == 4.0  # reads in a run see the values from before it
        np.testing.assert_array_equal(sess.run([a, b]), [[10.0, 20.0], [4.0, 5.0]])
