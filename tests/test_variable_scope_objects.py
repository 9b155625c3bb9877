"""``tf.variable_scope(scope_object)`` re-enters that scope, as the multi-tower programs use it
(expected names are what TensorFlow 2.21's compat.v1 gives for the same code)."""
import s2sgrad as tf


def test_root_scope_object_reenters_root_and_keeps_reuse_inside():
    with tf.name_scope("n"):
        with tf.variable_scope(tf.get_variable_scope()):
            tf.get_variable_scope().reuse_variables()
            assert tf.get_variable_scope().reuse is True
            c = tf.constant(1.0, name="c")
    assert tf.get_variable_scope().reuse is False
    assert c.name == "n/c:0"
    assert tf.get_variable("x", [1]).name == "x:0"


def test_captured_scope_object_is_absolute_for_variables_and_relative_for_ops():
    with tf.variable_scope("a") as scope_a:
        created = tf.get_variable("v", [1])
    with tf.variable_scope("b"):
        with tf.variable_scope(scope_a, reuse=True):
            shared = tf.get_variable("v", [1])
            c = tf.constant(1.0, name="c")
        w = tf.get_variable("w", [1])
    with tf.variable_scope(scope_a):
        d = tf.constant(1.0, name="d")
    assert shared is created
    assert (c.name, w.name, d.name) == ("b/a/c:0", "b/w:0", "a_1/d:0")


def test_nested_scope_object_opens_a_name_scope_named_like_its_last_part():
    with tf.variable_scope("a/b") as scope_ab:
        pass
    with tf.name_scope("n"):
        with tf.variable_scope(scope_ab):
            c = tf.constant(1.0, name="c")
            v = tf.get_variable("v", [1])
    assert (c.name, v.name) == ("n/b/c:0", "a/b/v:0")
