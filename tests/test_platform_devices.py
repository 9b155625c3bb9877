"""tf.device / tf.colocate_with / tf.DeviceSpec: device strings recorded as TF-1.x records them.

Every expected string below was recorded from TensorFlow 2.21 (``tf.compat.v1`` with eager
execution disabled): ``with tf.device(spec): c = tf.constant(1.0); c.device``.
"""
import numpy as np
import pytest

import s2sgrad as tf


@pytest.fixture
def graph():
    g = tf.Graph()
    with g.as_default():
        yield g


def const_under(*scopes):
    """A constant made inside the nested device scopes ``scopes`` (outermost first)."""
    if not scopes:
        return tf.constant(1.0)
    with tf.device(scopes[0]):
        return const_under(*scopes[1:])


@pytest.mark.parametrize("spec, recorded", [
    ("/cpu:0", "/device:CPU:0"),
    ("/device:GPU:0", "/device:GPU:0"),
    ("/job:worker/task:0", "/job:worker/task:0"),
    ("/gpu:1", "/device:GPU:1"),
    ("cpu:0", "/device:CPU:0"),
    ("/CPU:0", "/device:CPU:0"),
    ("/job:worker/replica:0/task:1/device:GPU:2", "/job:worker/replica:0/task:1/device:GPU:2"),
    ("", ""),
    ("/device:CPU:*", "/device:CPU:*"),
    ("/cpu:*", "/device:CPU:*"),
    ("gpu", "/device:GPU:*"),
    ("/job:a/job:b", "/job:b"),
    ("/device:XLA_CPU:0", "/device:XLA_CPU:0"),
])
def test_device_strings_are_normalised_as_tf(graph, spec, recorded):
    c = const_under(spec)
    assert c.op.device == recorded
    assert c.device == recorded


@pytest.mark.parametrize("scopes, recorded", [
    (["/job:worker", "/cpu:0"], "/job:worker/device:CPU:0"),
    (["/job:worker", "/task:3", "/gpu:1"], "/job:worker/task:3/device:GPU:1"),
    (["/job:worker", None], ""),
    (["/job:worker", ""], "/job:worker"),
    (["/gpu:0", "/cpu:1"], "/device:CPU:1"),
    (["/gpu:0", "/job:ps"], "/job:ps/device:GPU:0"),
    (["/job:w", lambda op: "/gpu:0"], "/job:w/device:GPU:0"),   # the outer string merges onto the result
    ([lambda op: "/job:w", "/gpu:0"], "/job:w"),                # the function overrides the inner scopes
    ([lambda op: "gpu:0"], "gpu:0"),                            # a function's string is kept as it is
    ([None, "/cpu:0"], "/device:CPU:0"),
])
def test_nested_scopes_merge_as_tf1(graph, scopes, recorded):
    assert const_under(*scopes).device == recorded


def test_a_device_function_sees_the_op(graph):
    with tf.device(lambda op: "/cpu:0" if op.type == "Const" else "/gpu:0"):
        c = tf.constant(1.0)
        d = c + c
    assert (c.device, d.device) == ("/cpu:0", "/gpu:0")


def test_the_scope_ends_with_the_block_and_ops_outside_have_no_device(graph):
    with tf.device("/gpu:0"):
        pass
    assert tf.constant(1.0).device == ""


def test_graph_device_is_the_same_scope(graph):
    with graph.device("/cpu:0"):
        c = tf.constant(1.0)
    assert c.device == "/device:CPU:0"


def test_device_scopes_belong_to_their_graph():
    g1, g2 = tf.Graph(), tf.Graph()
    with g1.as_default(), tf.device("/gpu:0"):
        with g2.as_default():
            other = tf.constant(1.0)
        mine = tf.constant(1.0)
    assert (mine.device, other.device) == ("/device:GPU:0", "")


@pytest.mark.parametrize("spec, error, message", [
    ("/foo:0", ValueError, "Unknown attribute 'foo' is encountered while parsing the device spec: '/foo:0'."),
    ("/gpu:0/cpu:0", ValueError, "Multiple device types are not allowed while parsing the device spec: /gpu:0/cpu:0."),
    ("/cpu:x", ValueError, "Invalid index 'x'"),
    (3, TypeError, "tf.device takes a device string"),
])
def test_bad_device_specs_raise(graph, spec, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(".", r"\.").replace("*", r"\*")):
        with tf.device(spec):
            pass
    assert tf.constant(1.0).device == ""   # nothing left pushed


def test_a_device_function_must_return_a_string(graph):
    with pytest.raises(TypeError, match="returned None for op 'Const'"):
        with tf.device(lambda op: None):
            tf.constant(1.0)


def test_placement_is_a_no_op_the_program_still_runs(graph):
    with tf.device("/gpu:0"):
        x = tf.placeholder(tf.float32, [2])
        y = tf.reduce_sum(x * x)
        g, = tf.gradients(y, [x])
    assert y.device == "/device:GPU:0"
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(g, {x: [1.0, 2.0]}), [2.0, 4.0])


def test_device_spec():
    spec = tf.DeviceSpec(job="worker", device_type="GPU", device_index=0)
    assert spec.to_string() == "/job:worker/device:GPU:0"
    assert repr(spec) == "<DeviceSpec(job=worker, replica=None, task=None, device_type=GPU, device_index=0)>"
    assert tf.DeviceSpec.from_string("/cpu:0").to_string() == "/device:CPU:0"
    assert tf.DeviceSpec.from_string("/job:a/task:1").to_string() == "/job:a/task:1"
    assert tf.DeviceSpec.from_string("/job:a").make_merged_spec(tf.DeviceSpec(task=2)).to_string() == "/job:a/task:2"
    assert tf.DeviceSpec.from_string("/gpu:0") == tf.DeviceSpec(device_type="GPU", device_index=0)
    with tf.Graph().as_default(), tf.device(spec):
        assert tf.constant(1.0).device == "/job:worker/device:GPU:0"


# -- colocation: recorded as TF's ``_class`` attr, b"loc:@<op name>" -----------------------------------

def test_colocation_groups_as_tf(graph):
    x = tf.constant(1.0, name="x")
    with tf.device("/gpu:0"):
        x2 = tf.constant(1.0, name="x2")
    with tf.colocate_with(x):
        y = tf.constant(2.0, name="y")
        with tf.colocate_with(x2):
            z = tf.constant(2.0, name="z")
        with tf.colocate_with(x2, ignore_existing=True):
            w = tf.constant(2.0, name="w")
        with tf.colocate_with(None, ignore_existing=True):
            q = tf.constant(2.0, name="q")
    with tf.colocate_with(y):
        of_y = tf.constant(2.0, name="of_y")
    assert x.op.colocation_groups() == [b"loc:@x"]
    assert y.op.colocation_groups() == [b"loc:@x"]
    assert y.op.get_attr("_class") == [b"loc:@x"]
    assert z.op.colocation_groups() == [b"loc:@x", b"loc:@x2"]
    assert w.op.colocation_groups() == [b"loc:@x2"]
    assert q.op.colocation_groups() == [b"loc:@q"]
    assert of_y.op.colocation_groups() == [b"loc:@x"]   # colocating with y joins y's group
    with pytest.raises(ValueError, match=r"Operation 'x' \(Const\) has no attr named '_class'"):
        x.op.get_attr("_class")


def test_colocation_takes_the_device_of_the_op_it_follows(graph):
    x = tf.constant(1.0, name="x")
    with tf.device("/gpu:0"):
        x2 = tf.constant(1.0, name="x2")
    with tf.device("/job:w"):
        x3 = tf.constant(1.0, name="x3")
    with tf.colocate_with(x2):
        plain = tf.constant(2.0)
        with tf.device("/cpu:0"):
            inner = tf.constant(2.0)
    with tf.device("/cpu:0"), tf.colocate_with(x2):
        outer = tf.constant(2.0)
    with tf.device("/gpu:0"), tf.colocate_with(x):
        no_device = tf.constant(2.0)    # outer scopes do not apply inside colocate_with
    with tf.colocate_with(x), tf.device("/cpu:0"):
        inner_only = tf.constant(2.0)
    with tf.device("/gpu:0"), tf.colocate_with(x3):
        job = tf.constant(2.0)
    assert [t.device for t in (plain, inner, outer, no_device, inner_only, job)] == [
        "/device:GPU:0", "/device:GPU:0", "/device:GPU:0", "", "/device:CPU:0", "/job:w"]


def test_colocate_with_a_variable_or_an_op(graph):
    v = tf.Variable(1.0, name="v")
    x = tf.constant(1.0, name="x")
    with tf.colocate_with(v):
        a = tf.constant(2.0)
    with tf.colocate_with(x.op):
        b = tf.constant(2.0)
        c = b + b
    assert a.op.colocation_groups() == [b"loc:@v"]
    assert b.op.colocation_groups() == c.op.colocation_groups() == [b"loc:@x"]


def test_bad_colocation_targets(graph):
    with pytest.raises(ValueError, match=r"Trying to reset colocation \(op is None\) but ignore_existing is not True"):
        with tf.colocate_with(None):
            pass
    with pytest.raises(TypeError, match="Can not use 3 as the op to colocate with"):
        with tf.colocate_with(3):
            pass
    assert tf.constant(1.0).op.colocation_groups() == [b"loc:@Const"]


def test_a_variable_reports_its_device(graph):
    with tf.device("/cpu:0"):
        v = tf.Variable(1.0)
    assert v.device == v.op.device == "/device:CPU:0"
    assert tf.Variable(2.0).device == ""
