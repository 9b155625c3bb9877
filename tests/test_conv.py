"""tf.nn convolutions and pooling against TensorFlow: static shapes, op types and names, errors
(tests/data/conv/tf_shapes.json) and values and gradients, ties included (tf_values.npz); the
generated code (one ``rt.conv`` call per convolution). Values against nested loops and gradients
against finite differences are the op cases of tests/cases_conv.py."""
import json
import pathlib

import numpy as np
import pytest

import s2sgrad as tf

DATA = pathlib.Path(__file__).parent / "data" / "conv"
SHAPES = json.loads((DATA / "tf_shapes.json").read_text())
VALUES = np.load(DATA / "tf_values.npz")

# the calls of tests/data/conv/record_tf.py: (function, input shape, filter shape or ksize, kwargs)
CALLS = {
    "conv2d_same": ("conv2d", [2, 7, 8, 3], [3, 3, 3, 4], {"strides": [1, 1, 1, 1], "padding": "SAME"}),
    "conv2d_same_stride2": ("conv2d", [2, 7, 8, 3], [3, 2, 3, 4], {"strides": [1, 2, 3, 1], "padding": "SAME"}),
    "conv2d_valid_stride2": ("conv2d", [2, 7, 8, 3], [3, 2, 3, 4], {"strides": [1, 2, 2, 1], "padding": "VALID"}),
    "conv2d_valid_dilated": ("conv2d", [2, 9, 8, 3], [3, 2, 3, 4],
                             {"strides": [1, 1, 1, 1], "padding": "VALID", "dilations": [1, 2, 3, 1]}),
    "conv2d_explicit": ("conv2d", [2, 7, 8, 3], [3, 3, 3, 4],
                        {"strides": [1, 2, 1, 1], "padding": [[0, 0], [2, 1], [0, 3], [0, 0]]}),
    "conv2d_nchw_valid": ("conv2d", [2, 3, 7, 8], [3, 3, 3, 4],
                          {"strides": [1, 1, 2, 2], "padding": "VALID", "data_format": "NCHW"}),
    "conv1d_same": ("conv1d", [2, 9, 3], [3, 3, 4], {"stride": 2, "padding": "SAME"}),
    "conv3d_same": ("conv3d", [1, 5, 6, 7, 2], [2, 3, 2, 2, 3], {"strides": [1, 2, 1, 3, 1], "padding": "SAME"}),
    "depthwise_same": ("depthwise_conv2d", [2, 7, 8, 3], [3, 3, 3, 2], {"strides": [1, 2, 2, 1], "padding": "SAME"}),
    "max_pool_same": ("max_pool", [2, 7, 8, 3], [1, 3, 3, 1], {"strides": [1, 2, 2, 1], "padding": "SAME"}),
    "max_pool_valid": ("max_pool", [2, 7, 8, 3], [1, 3, 2, 1], {"strides": [1, 2, 3, 1], "padding": "VALID"}),
    "avg_pool_same": ("avg_pool", [2, 7, 8, 3], [1, 2, 3, 1], {"strides": [1, 3, 2, 1], "padding": "SAME"}),
    "conv2d_rank3_input": ("conv2d", [7, 8, 3], [3, 3, 3, 4], {"strides": [1, 1, 1, 1], "padding": "SAME"}),
    "conv2d_depth_mismatch": ("conv2d", [2, 7, 8, 3], [3, 3, 5, 4], {"strides": [1, 1, 1, 1], "padding": "SAME"}),
    "conv2d_bad_padding": ("conv2d", [2, 7, 8, 3], [3, 3, 3, 4], {"strides": [1, 1, 1, 1], "padding": "FULL"}),
    "conv2d_bad_strides": ("conv2d", [2, 7, 8, 3], [3, 3, 3, 4], {"strides": [1, 1, 1], "padding": "SAME"}),
    "conv2d_filter_too_big": ("conv2d", [2, 2, 8, 3], [3, 3, 3, 4], {"strides": [1, 1, 1, 1], "padding": "VALID"}),
    "max_pool_bad_ksize": ("max_pool", [2, 7, 8, 3], [1, 3, 3], {"strides": [1, 2, 2, 1], "padding": "SAME"}),
}


def _call(case_id):
    function, in_shape, second, kwargs = CALLS[case_id]
    x = tf.placeholder(tf.float32, in_shape)
    if "pool" in function:
        return getattr(tf.nn, function)(x, second, **kwargs)
    return getattr(tf.nn, function)(x, tf.constant(np.zeros(second, np.float32)), **kwargs)


def test_every_recorded_case_is_called():
    assert sorted(set(SHAPES) - {"conv2d_batch_stride"}) == sorted(CALLS)


@pytest.mark.parametrize("case_id", sorted(c for c in CALLS if "shape" in SHAPES[c]))
def test_static_shape_op_type_and_name_are_tensorflows(case_id):
    with tf.Graph().as_default():
        y = _call(case_id)
    expected = SHAPES[case_id]
    assert y.shape.as_list() == expected["shape"]
    assert (y.op.type, y.op.name) == (expected["op"], expected["name"])


@pytest.mark.parametrize("case_id", sorted(c for c in CALLS if "error" in SHAPES[c]))
def test_bad_arguments_raise_tensorflows_error(case_id):
    expected = SHAPES[case_id]
    head = expected["message"].split(" for '")[0]
    with tf.Graph().as_default(), pytest.raises(getattr(tf.errors, expected["error"], None) or ValueError) as info:
        _call(case_id)
    assert type(info.value).__name__ == expected["error"]
    assert str(info.value).startswith(head.split("{{")[0])


def test_strides_in_the_batch_dimension_are_refused_when_the_graph_is_built():
    # TF accepts them when building and fails at run time ("does not yet support strides in the batch")
    with tf.Graph().as_default(), pytest.raises(ValueError, match="batch and depth"):
        tf.nn.conv2d(tf.placeholder(tf.float32, [2, 7, 8, 3]), np.zeros((3, 3, 3, 4), np.float32), [2, 1, 1, 1],
                     "SAME")


@pytest.mark.parametrize("kwargs, error, match", [
    ({"padding": "same"}, ValueError, "not in: \"SAME\", \"VALID\", \"EXPLICIT\""),
    ({"padding": [[0, 0], [1, 1], [1, 1]]}, ValueError, "must be of size 4"),
    ({"padding": [[1, 1], [1, 1], [1, 1], [0, 0]]}, ValueError, "batch or depth"),
    ({"data_format": "NCHW2"}, ValueError, "'data_format' of 'Conv2D'"),
    ({"dilations": [1, 0, 1, 1]}, ValueError, "dilations must be positive"),
])
def test_conv2d_argument_errors(kwargs, error, match):
    args = {"strides": 1, "padding": "SAME", **kwargs}
    with tf.Graph().as_default(), pytest.raises(error, match=match):
        tf.nn.conv2d(tf.placeholder(tf.float32, [2, 7, 8, 3]), np.zeros((3, 3, 3, 4), np.float32), **args)


def test_filter_of_another_dtype_is_a_type_error():
    with tf.Graph().as_default(), pytest.raises(TypeError, match="'filter' has type float64 that does not match"):
        tf.nn.conv2d(tf.placeholder(tf.float32, [2, 7, 8, 3]), tf.zeros([3, 3, 3, 4], tf.float64), 1, "SAME")


def test_avg_pool_has_no_explicit_padding():
    with tf.Graph().as_default(), pytest.raises(ValueError, match="'padding' of 'AvgPool'"):
        tf.nn.avg_pool(tf.placeholder(tf.float32, [2, 7, 8, 3]), 2, 2, [[0, 0], [1, 1], [1, 1], [0, 0]])


def test_gradient_ops_are_tensorflows():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, 7, 8, 3])
        gx, gw = tf.gradients(tf.nn.conv2d(x, tf.zeros([3, 3, 3, 4]), 1, "SAME"), [x, tf.get_default_graph()
                                                                                    .get_operations()[1].outputs[0]])
        pooled = tf.gradients(tf.nn.max_pool(x, 2, 2, "SAME"), x)[0]
        averaged = tf.gradients(tf.nn.avg_pool(x, 2, 2, "SAME"), x)[0]
    assert [gx.op.type, gw.op.type, pooled.op.type, averaged.op.type] == [
        "Conv2DBackpropInput", "Conv2DBackpropFilter", "MaxPoolGrad", "AvgPoolGrad"]
    assert gx.op.name == "gradients/Conv2D_grad/Conv2DBackpropInput"


# -- values and gradients recorded from TensorFlow (tests/data/conv/record_values.py) ---------------

def _weights(y):
    return tf.constant(np.linspace(-1.0, 1.0, int(np.prod(y.shape.as_list()))).reshape(y.shape.as_list()), y.dtype)


def _with_grads(f):
    def build(*ts):
        y = f(*ts)
        return [y] + tf.gradients(tf.reduce_sum(y * _weights(y)), list(ts))
    return build


TF_CASES = {
    "conv2d_same_s2": _with_grads(lambda x, w: tf.nn.conv2d(x, w, [1, 2, 2, 1], "SAME")),
    "conv2d_explicit": _with_grads(lambda x, w: tf.nn.conv2d(x, w, 1, [[0, 0], [1, 2], [2, 0], [0, 0]])),
    "convolution_dilated": _with_grads(lambda x, w: tf.nn.convolution(x, w, "SAME", dilation_rate=[2, 1])),
    "conv2d_transpose": lambda g, w: [tf.nn.conv2d_transpose(g, w, [2, 5, 6, 3], [1, 2, 2, 1], "SAME")],
    "depthwise_same_s2": _with_grads(lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "SAME")),
    "max_pool_ties": _with_grads(lambda x: tf.nn.max_pool(x, 3, [1, 2, 1, 1], "SAME")),
    "max_pool_ties_valid": _with_grads(lambda x: tf.nn.max_pool(x, 2, 2, "VALID")),
    "avg_pool_same": _with_grads(lambda x: tf.nn.avg_pool(x, 3, 2, "SAME")),
    "max_pool_argmax_ties": lambda x: list(tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")),
    "max_pool_argmax_batch": lambda x: list(tf.nn.max_pool_with_argmax(x, [1, 3, 3, 1], [1, 2, 2, 1], "VALID",
                                                                      include_batch_in_index=True)),
}


def recorded(case_id):
    """The inputs and TensorFlow's outputs of a recorded case."""
    inputs = [VALUES[f"{case_id}/in{i}"] for i in range(4) if f"{case_id}/in{i}" in VALUES]
    outputs = [VALUES[f"{case_id}/out{j}"] for j in range(4) if f"{case_id}/out{j}" in VALUES]
    return inputs, outputs


def run_recorded(build, inputs):
    with tf.Graph().as_default():
        holders = [tf.placeholder(tf.float64, v.shape) for v in inputs]
        results = build(*holders)
        with tf.Session() as sess:
            return sess.run(results, dict(zip(holders, inputs, strict=True)))


@pytest.mark.parametrize("case_id", sorted(TF_CASES))
def test_values_and_gradients_equal_tensorflows(case_id):
    inputs, expected = recorded(case_id)
    got = run_recorded(TF_CASES[case_id], inputs)
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert g.dtype == e.dtype and g.shape == e.shape
        np.testing.assert_allclose(g, e, rtol=1e-10, atol=1e-12, err_msg=case_id)


def test_tied_maxima_send_the_gradient_to_the_first_one():
    inputs, expected = recorded("max_pool_ties_valid")
    assert (expected[1] != 0).sum() == expected[0].size   # one receiver per window, as TF does


# -- the generated code -----------------------------------------------------------------------------

def test_generated_code_is_one_rt_call_per_convolution_and_gradient():
    images = tf.placeholder(tf.float32, [8, 12, 12, 3])
    kernel = tf.Variable(np.ones((3, 3, 3, 4), np.float32))
    features = tf.nn.conv2d(images, kernel, [1, 2, 2, 1], "SAME")
    loss = tf.reduce_sum(tf.nn.max_pool(features, 2, 2, "VALID"))
    text = tf.source(tf.gradients(loss, [images, kernel]), [images])
    assert "features = rt.conv(images, kernel, strides=(2, 2), padding='SAME')" in text
    assert "rt.conv_backprop_input((8, 12, 12, 3), kernel, " in text
    assert "rt.conv_backprop_filter(images, (3, 3, 3, 4), " in text
    assert text.count("rt.conv") == 3 and "np.array([8, 12, 12, 3]" not in text


def test_unknown_batch_size_reads_the_sizes_at_run_time():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, [None, 5, 5, 2])
        w = tf.constant(np.arange(2 * 2 * 2 * 3, dtype=np.float64).reshape(2, 2, 2, 3))
        gx = tf.gradients(tf.reduce_sum(tf.nn.conv2d(x, w, 1, "VALID") ** 2), x)[0]
        assert gx.shape.as_list() == [None, 5, 5, 2]
        with tf.Session() as sess:
            for batch in (1, 3):
                value = sess.run(gx, {x: np.ones((batch, 5, 5, 2))})
                assert value.shape == (batch, 5, 5, 2)
                np.testing.assert_allclose(value[0], value[-1])


def test_grouped_convolution_is_refused_clearly():
    with tf.Graph().as_default(), pytest.raises(NotImplementedError, match="grouped convolution"):
        tf.nn.conv2d(tf.placeholder(tf.float32, [1, 5, 5, 6]), np.zeros((3, 3, 3, 4), np.float32), 1, "SAME")
