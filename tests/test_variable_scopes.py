"""tf.variable_scope / tf.get_variable / collections as TF-1.x has them. The expected names, reuse
behaviour and error texts are what TensorFlow 2.21's tf.compat.v1 gives for the same code
(graph mode; checked with /tmp/tfvenv when these tests were written)."""
import numpy as np
import pytest

import s2sgrad as tf


@pytest.fixture(autouse=True)
def fresh_graph():
    with tf.Graph().as_default() as g:
        yield g


def run(*fetches):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(list(fetches))


def test_get_variable_names_its_initializer_ops_under_the_variable():
    tf.get_variable("v", [2, 3])
    names = [op.name for op in tf.get_default_graph().get_operations()]
    assert "v" in names and any(n.startswith("v/Initializer/random_uniform") for n in names)


def test_reuse_errors_are_tensorflows():
    tf.get_variable("v", [2, 3])
    with pytest.raises(ValueError, match=r"^Variable v already exists, disallowed\. Did you mean to set reuse=True "
                                         r"or reuse=tf\.AUTO_REUSE in VarScope\?$"):
        tf.get_variable("v", [3, 3])
    with tf.variable_scope("", reuse=True):
        with pytest.raises(ValueError, match=r"^Trying to share variable v, but specified shape \(3, 3\) and found "
                                             r"shape \(2, 3\)\.$"):
            tf.get_variable("v", [3, 3])
        with pytest.raises(ValueError, match="^Trying to share variable v, but specified dtype int32 and found "
                                             "dtype float32.$"):
            tf.get_variable("v", [2, 3], dtype=tf.int32)
        with pytest.raises(ValueError, match=r"^Variable w does not exist, or was not created with "
                                             r"tf\.get_variable\(\)\. Did you mean to set reuse=tf\.AUTO_REUSE in "
                                             r"VarScope\?$"):
            tf.get_variable("w", [1])


def test_default_name_scopes_are_numbered_per_enclosing_scope():
    with tf.variable_scope(None, default_name="d") as s1:
        pass
    with tf.variable_scope(None, default_name="d") as s2:
        pass
    assert (s1.name, s2.name, s1.original_name_scope, s2.original_name_scope) == ("d", "d_1", "d/", "d_1/")
    with tf.variable_scope("outer"):
        with tf.variable_scope(None, default_name="u") as u1:
            pass
    with tf.variable_scope("outer"):
        with tf.variable_scope(None, default_name="u") as u2:
            pass
    assert (u1.name, u2.name, u2.original_name_scope) == ("outer/u", "outer/u", "outer_1/u/")


def test_construction_errors():
    with pytest.raises(TypeError, match="^If default_name is None then name_or_scope is required$"):
        tf.variable_scope(None)
    with pytest.raises(ValueError, match="^reuse=True cannot be used without a name_or_scope$"):
        with tf.variable_scope(None, default_name="q", reuse=True):
            pass
    with pytest.raises(TypeError, match="^VariableScope: name_or_scope must be a string or VariableScope.$"):
        tf.variable_scope(3)


def test_auto_reuse_shares_and_cannot_be_turned_off_inside():
    with tf.variable_scope("a", reuse=tf.AUTO_REUSE):
        first = tf.get_variable("x", [1])
    with tf.variable_scope("a", reuse=tf.AUTO_REUSE):
        second = tf.get_variable("x", [1])
        with tf.variable_scope("b", reuse=False):
            assert tf.get_variable_scope().reuse is tf.AUTO_REUSE
    assert first is second and first.name == "a/x:0"
    assert repr(tf.AUTO_REUSE) == "<_ReuseMode.AUTO_REUSE: 1>"


def test_reuse_true_is_inherited_and_reuse_variables_sticks():
    with tf.variable_scope("m") as scope:
        w = tf.get_variable("w", [2])
        scope.reuse_variables()
        assert tf.get_variable("w", [2]) is w
        with tf.variable_scope("inner"):
            assert tf.get_variable_scope().reuse is True
    assert tf.get_variable_scope().reuse is False


def test_scope_defaults_initializer_regularizer_dtype():
    with tf.variable_scope("s", initializer=tf.constant_initializer(0.5), regularizer=lambda w: tf.reduce_sum(w)):
        w = tf.get_variable("w", [2])
        with tf.variable_scope("t", dtype=tf.float64):
            z = tf.get_variable("z", [1])
        unregularized = tf.get_variable("u", [2], regularizer=tf.no_regularizer)
    losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
    assert z.dtype == tf.float64 and z.name == "s/t/z:0"
    assert [loss.name for loss in losses] == ["s/w/Regularizer/Sum:0", "s/t/z/Regularizer/Sum:0"]
    values = run(w, z, unregularized, *losses)
    np.testing.assert_array_equal(values[0], [0.5, 0.5])
    assert values[3] == 1.0 and values[4] == 0.5


def test_variables_get_scope_names_ops_get_name_scope_names():
    with tf.name_scope("ns"):
        with tf.variable_scope("vs"):
            q = tf.get_variable("q", [1])
            op = tf.add(q, 1.0, name="op")
            assert tf.get_variable_scope().original_name_scope == "ns/vs/"
    with tf.variable_scope("vs"):
        again = tf.add(q, 1.0, name="op")
    assert (q.name, op.name, again.name) == ("vs/q:0", "ns/vs/op:0", "vs/op:0")
    with tf.variable_scope("aux", auxiliary_name_scope=False) as aux:
        k = tf.constant(1, name="k")
    assert (aux.original_name_scope, k.name) == ("", "k:0")


def test_constant_initializers():
    with pytest.raises(ValueError, match="^If initializer is a constant, do not specify shape.$"):
        tf.get_variable("c", [2], initializer=tf.constant([1.0, 2.0]))
    c = tf.get_variable("c", initializer=tf.constant([1.0, 2.0]))
    assert c.shape == (2,)
    with pytest.raises(ValueError, match=r"^Initializer type '<dtype: 'float32'>' and explicit dtype "
                                         r"'<dtype: 'int64'>' don't match\.$"):
        tf.get_variable("i", [2], dtype=tf.int64, initializer=tf.constant([1.0, 2.0]))
    with pytest.raises(ValueError, match="^The initializer passed is not valid"):
        tf.get_variable("nf", [None, 2])
    with pytest.raises(ValueError, match="^An initializer for variable str of <dtype: 'complex64'> is required$"):
        tf.get_variable("str", [2], dtype=tf.complex64)
    n = tf.get_variable("n", [3], dtype=tf.int32)
    np.testing.assert_array_equal(run(n)[0], [0, 0, 0])


def test_partitioner_is_refused_clearly():
    with pytest.raises(NotImplementedError, match="partitioner"):
        tf.get_variable("p", [4], partitioner=lambda shape, dtype: [2])


def test_local_variables_and_their_initializer():
    lv = tf.get_local_variable("lv", [2], initializer=tf.ones_initializer())
    assert lv.name == "lv:0" and tf.local_variables() == [lv]
    assert lv not in tf.trainable_variables() and lv not in tf.global_variables()
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        np.testing.assert_array_equal(sess.run(lv), [1.0, 1.0])


def test_collections_scoped_and_by_reference():
    with tf.variable_scope("s"):
        w = tf.get_variable("w", [2])
    tf.get_variable("sx", [2])
    assert tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, "s/") == [w]
    ref = tf.get_collection_ref("mine")
    ref.append(1)
    assert tf.get_collection("mine") == [1]
    with tf.variable_scope("s", reuse=True) as scope:
        assert scope.global_variables() == [w] and scope.trainable_variables() == [w]
    m = tf.get_variable("m", [1], collections=[tf.GraphKeys.MODEL_VARIABLES, tf.GraphKeys.GLOBAL_VARIABLES])
    assert tf.model_variables() == [m]


def test_custom_getters_chain_outer_to_inner():
    def suffix(tag):
        return lambda getter, name, *args, **kwargs: getter(name + tag, *args, **kwargs)
    with tf.variable_scope("cg", custom_getter=suffix("_x")):
        assert tf.get_variable("g", [1]).name == "cg/g_x:0"
        with tf.variable_scope("in", custom_getter=suffix("_y")):
            assert tf.get_variable("h", [1]).name == "cg/in/h_y_x:0"


def test_variable_scope_object_reentered_keeps_its_initializer():
    with tf.variable_scope("a", initializer=tf.constant_initializer(3.0)) as a_scope:
        pass
    with tf.variable_scope(a_scope):
        v = tf.get_variable("v", [1])
    assert v.name == "a/v:0" and run(v)[0] == 3.0


def test_values_pick_the_graph():
    other = tf.Graph()
    with other.as_default():
        x = tf.constant(1.0)
    with tf.variable_scope("g", values=[x]):
        assert tf.get_default_graph() is other
        v = tf.get_variable("v", [1])
    assert v.graph is other


def test_trainable_and_collections_arguments():
    frozen = tf.get_variable("frozen", [1], trainable=False)
    own = tf.get_variable("own", [1], collections=["mine"])
    both = tf.get_variable("both", [1], collections=["mine", tf.GraphKeys.GLOBAL_VARIABLES])
    assert tf.trainable_variables() == [own, both] and tf.global_variables() == [frozen, both]
    assert tf.get_collection("mine") == [own, both]
