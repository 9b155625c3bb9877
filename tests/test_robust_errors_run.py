"""Bad input to ``Session.run``: typed errors that name the tensor and say what was expected,
and errors raised inside generated code re-raised as TF errors at the user's file:line."""
from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import s2sgrad as tf

HERE = os.path.basename(__file__)


def line_of(tensor) -> str:
    return f"{HERE}:{tensor.op.location[1]}"


@pytest.fixture
def sess():
    with tf.Session() as s:
        yield s


# -- feeds ----------------------------------------------------------------------------------------

FLOAT_FEEDS = [
    (np.ones((2, 4)), ValueError, r"^Cannot feed value of shape \(2, 4\) for Tensor x:0, which has shape \(\?, 3\)$"),
    (np.ones(3), ValueError, r"shape \(3,\) for Tensor x:0"),
    ([[1.0, 2.0, 3.0], [4.0, 5.0]], ValueError, r"for Tensor x:0 .*not a rectangular array"),
    ([["a", "b", "c"]], TypeError, r"^Cannot feed text .* for Tensor x:0 of dtype float32: expected numbers$"),
    ("1.5", TypeError, r"text .* Tensor x:0"),
    (None, TypeError, r"^Cannot feed None for Tensor x:0: expected a value of dtype float32 and shape \(\?, 3\)$"),
    (np.ones((1, 3)) * 1j, TypeError, r"complex values for Tensor x:0 of dtype float32: the imaginary part"),
    ([[object(), 1, 2]], ValueError, r"Tensor x:0 of dtype float32"),
    ({"a": 1}, (TypeError, ValueError), r"Tensor x:0"),
]


@pytest.mark.parametrize("value, error, message", FLOAT_FEEDS)
def test_bad_float_feeds(sess, value, error, message):
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    with pytest.raises(error, match=message):
        sess.run(tf.reduce_sum(x), {x: value})


INT_FEEDS = [
    (np.array([1.0, np.nan]), ValueError, r"^Cannot feed NaN or infinity for Tensor i:0 of dtype int32$"),
    (np.array([1.0, 1e20]), ValueError, r"outside \[-2147483648, 2147483647\] for Tensor i:0"),
    (2 ** 40, TypeError, r"not compatible with Tensor type int32"),
    (np.array([1 + 2j, 0]), TypeError, r"complex values for Tensor i:0"),
]


@pytest.mark.parametrize("value, error, message", INT_FEEDS)
def test_bad_integer_feeds(sess, value, error, message):
    i = tf.placeholder(tf.int32, None, name="i")
    with pytest.raises(error, match=message):
        sess.run(i + 1, {i: value})


def test_text_feeds_are_bytes_like_string_constants(sess):
    s = tf.placeholder(tf.string, [2], name="s")
    mine = np.array(["a", b"b"], dtype=object)
    assert list(sess.run(s, {s: mine})) == [b"a", b"b"]
    assert list(mine) == ["a", b"b"]   # the fed array is not written to
    scalar = tf.placeholder(tf.string, [], name="scalar")
    assert sess.run(tf.identity(scalar), {scalar: "é"}) == "é".encode()
    with pytest.raises(TypeError, match=r"Cannot feed float value 1.5 for Tensor s:0 of dtype string"):
        sess.run(s, {s: [1.5, "x"]})


@given(value=st.one_of(
    st.none(), st.text(max_size=5), st.complex_numbers(allow_nan=False, max_magnitude=1e3).filter(lambda z: z.imag),
    st.lists(st.lists(st.floats(-5, 5), min_size=1, max_size=4), min_size=1, max_size=3),
    st.lists(st.one_of(st.floats(allow_nan=True), st.text(max_size=2), st.none()), min_size=1, max_size=4),
    st.builds(np.full, st.tuples(st.integers(0, 3), st.integers(0, 4)), st.floats(allow_nan=True)),
    st.builds(np.zeros, st.lists(st.integers(0, 3), max_size=3).map(tuple))),
    dtype=st.sampled_from([tf.float32, tf.float64, tf.int32, tf.int64, tf.bool]))
def test_random_feeds_either_work_or_get_a_typed_error_naming_the_tensor(value, dtype):
    with tf.Graph().as_default(), tf.Session() as sess:
        w = tf.Variable(np.arange(3.0), name="w")
        x = tf.placeholder(dtype, [None, 3], name="x")
        step = tf.assign_add(w, tf.reduce_sum(tf.cast(x, tf.float64), axis=0))
        sess.run(w.initializer)
        try:
            got = sess.run(x, {x: value})
        except (TypeError, ValueError) as e:
            assert "x:0" in str(e), e
            with pytest.raises(type(e)):
                sess.run(step, {x: value})
            np.testing.assert_array_equal(sess.run(w), np.arange(3.0))  # nothing changed
        else:
            expected = np.asarray(value, dtype=dtype.as_numpy_dtype)
            assert got.dtype == expected.dtype and got.shape == expected.shape and got.shape[1:] == (3,)
            np.testing.assert_array_equal(got, expected)
        assert sess.run(x, {x: np.ones((1, 3))}).shape == (1, 3)  # the session is still fine


# -- feed keys and fetches ------------------------------------------------------------------------

def test_keys_and_fetches_from_another_graph_or_unknown_names(sess):
    x = tf.placeholder(tf.float32, [], name="x")
    with tf.Graph().as_default():
        other = tf.placeholder(tf.float32, [], name="other")
    with pytest.raises(TypeError, match=r"Cannot interpret feed_dict key as Tensor: .*'other:0'.* is not an element "
                                        r"of this graph"):
        sess.run(x, {other: 1.0, x: 2.0})
    with pytest.raises(ValueError, match=r"Fetch argument .*'other:0'.* cannot be interpreted as a Tensor"):
        sess.run(other)
    with pytest.raises(ValueError, match=r"The operation, 'nope', does not exist in the graph"):
        sess.run("nope:0")
    with pytest.raises(TypeError, match=r"Cannot interpret feed_dict key as Tensor: .*'nope', does not exist"):
        sess.run(x, {"nope:0": 1.0})
    with pytest.raises(ValueError, match=r"'x', exists but only has 1 outputs"):
        sess.run("x:5", {x: 1.0})
    with pytest.raises(TypeError, match=r"Cannot interpret feed_dict key as Tensor: Can not convert an Operation"):
        sess.run(x, {x.op: 1.0})
    assert sess.run("x:0", {"x:0": 3.0}) == 3.0


@pytest.mark.parametrize("nest", [lambda t: None, lambda t: [None], lambda t: {"a": None},
                                  lambda t: ([t], None), lambda t: {"a": [t, {"b": None}]}])
def test_none_fetches_are_a_type_error(sess, nest):
    with pytest.raises(TypeError, match=r"Fetch argument None has invalid type <class 'NoneType'>"):
        sess.run(nest(tf.constant(1.0)))


@pytest.mark.parametrize("fetches", [3, 2.5, object(), np.ones(3), {1, 2}])
def test_fetches_that_are_not_graph_elements_are_a_type_error(sess, fetches):
    with pytest.raises(TypeError, match=r"Fetch argument .* has invalid type"):
        sess.run(fetches)


def test_a_closed_session_and_uninitialised_variables(sess):
    v = tf.Variable([1.0, 2.0], name="weights")
    total = tf.reduce_sum(v)
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match=rf"Attempting to use uninitialized value weights  \[variable created at {line_of(v)}\]"):
        sess.run(total)
    sess.run(v.initializer)
    assert sess.run(total) == 3.0
    callable_total = sess.make_callable(total)
    with pytest.raises(TypeError, match="This callable takes 0 feed values, got 1"):
        callable_total(1.0)
    sess.close()
    for attempt in (lambda: sess.run(total), callable_total):
        with pytest.raises(RuntimeError, match="Attempted to use a closed Session."):
            attempt()


# -- errors inside generated code -------------------------------------------------------------------

def test_errors_inside_generated_code_name_the_op_and_the_users_line(sess):
    params = tf.placeholder(tf.float32, [None], name="params")
    indices = tf.placeholder(tf.int32, [None], name="indices")
    rows = tf.gather(params, indices)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        sess.run(rows, {params: [1.0, 2.0], indices: [0, 5]})
    error = info.value
    assert error.op is rows.op
    assert f"op 'GatherV2' of type GatherV2, created at {line_of(rows)}" in str(error)
    assert "IndexError: index 5 is out of bounds" in str(error)
    assert isinstance(error.__cause__, IndexError)


def test_label_and_shape_errors_at_run_time_name_the_op(sess):
    labels = tf.placeholder(tf.int32, [None], name="labels")
    logits = tf.placeholder(tf.float32, [None, 3], name="logits")
    xent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    with pytest.raises(tf.errors.InvalidArgumentError, match=rf"label value of 7.*created at {line_of(xent)}"):
        sess.run(xent, {labels: [0, 7], logits: np.zeros((2, 3))})
    m = tf.placeholder(tf.float32, None, name="m")
    product = tf.matmul(m, m)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=rf"Dimensions must be equal, but are 3 and 2 .*created at {line_of(product)}"):
        sess.run(product, {m: np.ones((2, 3))})
    flat = tf.reshape(m, [4, -1])
    with pytest.raises(tf.errors.InvalidArgumentError, match=rf"reshape.*created at {line_of(flat)}"):
        sess.run(flat, {m: np.ones(3)})


def test_a_missing_feed_names_the_placeholder_and_where_it_was_made(sess):
    x = tf.placeholder(tf.float32, [None, 2], name="needed")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=rf"^You must feed a value for placeholder tensor 'needed' with dtype float32 and shape "
                             rf"\[\?,2\]  \[created at {line_of(x)}\]$"):
        sess.run(x * 2.0)


def test_running_out_of_memory_is_a_resource_exhausted_error(sess):
    x = tf.placeholder(tf.float64, [None], name="x")
    huge = tf.tile(x, [10 ** 12])   # 8 petabytes for 1000 elements
    with pytest.raises(tf.errors.ResourceExhaustedError, match=rf"MemoryError: .*created at {line_of(huge)}"):
        sess.run(tf.reduce_sum(huge), {x: np.ones(1000)})
