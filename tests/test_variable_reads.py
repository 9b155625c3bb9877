"""Which value a read of a variable sees in a run that also assigns it.

Ops created under ``tf.control_dependencies`` on an assignment read the assigned value, as in
TensorFlow; other reads in the run see the value the run started with. The expected numbers
were printed by TensorFlow 2.21's ``tf.compat.v1`` (graph mode, ref variables) for the same
programs.
"""
import numpy as np
import pytest

import s2sgrad as tf


def initialized(sess):
    sess.run(tf.global_variables_initializer())
    return sess


def test_reads_under_control_dependencies_see_the_assignment():
    v = tf.Variable(1.0, name="v")
    a = tf.assign(v, 5.0)
    with tf.control_dependencies([a]):
        by_identity = tf.identity(v)
        by_read_value = v.read_value()
        plus_one = v + 1.0
    with initialized(tf.Session()) as sess:
        assert sess.run([by_identity, by_read_value, plus_one]) == [5.0, 5.0, 6.0]   # TF: [5.0, 5.0, 6.0]


def test_an_update_under_control_dependencies_builds_on_the_earlier_one():
    v = tf.Variable(1.0, name="v")
    first = tf.assign_add(v, 1.0)
    with tf.control_dependencies([first]):
        second = tf.assign_add(v, 10.0)
    with initialized(tf.Session()) as sess:
        assert sess.run(second) == 12.0       # TF: 12.0
        assert sess.run(v) == 12.0


def test_a_chain_of_ordered_updates_adds_up():
    v = tf.Variable(0.0, name="v")
    update = tf.assign_add(v, 1.0)
    for _ in range(49):
        with tf.control_dependencies([update]):
            update = tf.assign_add(v, 1.0)
    with tf.control_dependencies([update]):
        last = v.read_value()
    with initialized(tf.Session()) as sess:
        assert sess.run([update, last]) == [50.0, 50.0]
        assert sess.run(v) == 50.0


def test_dependencies_through_a_group_and_on_vectors():
    v = tf.Variable(1.0, name="v")
    with tf.control_dependencies([tf.group(tf.assign(v, 7.0))]):
        doubled = v.read_value() * 2.0
    w = tf.Variable([1.0, 2.0], name="w")
    update = tf.assign_sub(w, [0.5, 0.5])
    with tf.control_dependencies([update]):
        total = tf.reduce_sum(w)
    with initialized(tf.Session()) as sess:
        assert sess.run(doubled) == 14.0      # TF: 14.0
        assert sess.run(total) == 2.0         # TF: 2.0
        np.testing.assert_array_equal(sess.run(w), [0.5, 1.5])


def test_reads_without_a_dependency_see_the_value_the_run_started_with():
    v = tf.Variable(1.0, name="v")
    a = tf.assign(v, 5.0)
    read = v + 0.0
    with initialized(tf.Session()) as sess:
        assert sess.run([a, read])[1] == 1.0
        assert sess.run(v) == 5.0


def test_a_failed_run_with_ordered_reads_changes_nothing():
    v = tf.Variable(1.0, name="v")
    x = tf.placeholder(tf.float32, [], name="x")
    a = tf.assign(v, x)
    with tf.control_dependencies([a]):
        checked = tf.debugging.check_numerics(tf.log(v.read_value()), "log of v")
    with initialized(tf.Session()) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="log of v"):
            sess.run(checked, {x: -1.0})
        assert sess.run(v) == 1.0
        assert sess.run(checked, {x: np.e}) == pytest.approx(1.0)
