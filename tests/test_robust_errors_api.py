"""Every public function and the methods users call, with one bad argument at a time.

For each function of ``tf``, ``tf.nn``, ``tf.train``, ``tf.losses``, ``tf.math``, ``tf.linalg`` and
``tf.metrics`` (and the methods in ``api_sweep.METHODS``), a call that works is built from a
table; then each argument in turn is replaced by each of ~20 bad values (None, text, objects,
negative or huge numbers, repeated or negative dims, ragged lists, tensors of the wrong dtype,
shape or graph...). The call must either work, or raise a typed error that s2sgrad raised on
purpose (``api_sweep.is_clear``): never an AttributeError, an IndexError or a NumPy traceback
from deep inside the package. Results that build are also run, with the same requirement.
"""
from __future__ import annotations

import numpy as np
import pytest

import s2sgrad as tf
from api_sweep import FLAGS, METHODS, Context, bad_values, describe, is_clear, method_call, public_functions, valid_call
from s2sgrad.tracebacks import FILTERING_ENV

FUNCTIONS = public_functions()


@pytest.fixture(autouse=True)
def _in_a_scratch_directory(tmp_path, monkeypatch):
    """Some swept calls are valid file writes (``export(path="bad")``): keep them out of the checkout."""
    monkeypatch.chdir(tmp_path)


def _problems(make_call, qualname: str) -> list[str]:
    """Run the valid call, then every one-argument mutation of it; describe the unclear errors (with
    tracebacks unfiltered: ``is_clear`` reads where in s2sgrad an error was raised)."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv(FILTERING_ENV, "off")
        return _sweep(make_call, qualname)


def _sweep(make_call, qualname: str) -> list[str]:
    with tf.Graph().as_default():
        fn, args, kwargs, swept = make_call(Context())
        fn(*args, **kwargs)  # the table's call works
    found = []
    for pname in swept:
        if pname in FLAGS:
            continue
        for bname in bad_values_names():
            with tf.Graph().as_default():
                c = Context()
                fn, args, kwargs, _ = make_call(c)
                kwargs[pname] = bad_values(c)[bname]
                try:
                    _run(fn(*args, **kwargs))
                except Exception as e:  # classified below
                    if not is_clear(e):
                        found.append(f"{qualname}({pname}={bname}): {describe(e)}")
    return found


def bad_values_names() -> list[str]:
    with tf.Graph().as_default():
        return list(bad_values(Context()))


def _run(result) -> None:
    """Run what a call built (entering context managers), so errors at run time are seen too."""
    if hasattr(result, "__enter__"):
        with result:
            return
    if isinstance(result, tuple) and result and all(isinstance(r, tf.Tensor) for r in result):
        for r in result:   # (value, update_op) of a metric, (mean, variance) of moments...
            _run(r)
    if isinstance(result, (tf.Tensor, tf.Variable, tf.Operation)):
        with tf.Session(graph=result.graph) as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            sess.run(result)


@pytest.mark.parametrize("qualname, fn", FUNCTIONS, ids=[q for q, _ in FUNCTIONS])
def test_bad_arguments_to_public_functions_get_clear_errors(qualname, fn):
    def make_call(c):
        args, kwargs, swept = valid_call(qualname, fn, c)
        return fn, args, kwargs, swept
    assert _problems(make_call, qualname) == []


@pytest.mark.parametrize("qualname", list(METHODS))
def test_bad_arguments_to_methods_get_clear_errors(qualname):
    def make_call(c):
        fn, kwargs, swept = method_call(qualname, c)
        return fn, [], kwargs, swept
    assert _problems(make_call, qualname) == []


def test_the_sweep_covers_the_public_api():
    names = {q for q, _ in FUNCTIONS}
    assert len(names) > 175
    for expected in ("tf.reshape", "tf.gradients", "nn.softmax_cross_entropy_with_logits_v2",
                     "train.AdamOptimizer", "losses.mean_squared_error", "tf.grad", "tf.source"):
        assert expected in names


def test_is_clear_tells_deliberate_errors_from_incidental_ones():
    with pytest.raises(TypeError) as deliberate:
        tf.reshape(tf.ones([2]), shape="bad")
    assert is_clear(deliberate.value)
    try:
        np.asarray([[1, 2], [3]])
    except ValueError as e:
        assert not is_clear(e)
    try:
        None.graph  # noqa: B018 - an AttributeError on purpose
    except AttributeError as e:
        assert not is_clear(e)


@pytest.mark.parametrize("call, error, message", [
    (lambda: tf.reduce_sum(tf.ones([2, 3]), axis=5), ValueError, r"axis|dimension|out of range|Invalid"),
    (lambda: tf.transpose(tf.ones([2, 3]), perm=[0, 0]), ValueError, r"perm"),
    (lambda: tf.transpose(tf.ones([2, 3]), perm=[0, 2]), ValueError, r"perm"),
    (lambda: tf.zeros([-1, 3]), ValueError, r"negative"),
    (lambda: tf.reshape(tf.ones([2, 3]), [4, 2]), ValueError, r"reshape"),
    (lambda: tf.matmul(tf.ones([2, 3]), tf.ones([2, 3])), ValueError, r"Dimensions must be equal"),
    (lambda: tf.add(tf.ones([2, 3]), tf.ones([4])), ValueError, r"Dimensions must be equal"),
    (lambda: tf.concat([tf.ones([2, 3]), tf.ones([2])], 0), ValueError, r"rank|shape"),
    (lambda: tf.concat([tf.ones([2])], axis=None), TypeError, r"axis must be one integer, got None"),
    (lambda: tf.expand_dims(tf.ones([2]), axis=[0, 1]), TypeError, r"axis must be one integer"),
    (lambda: tf.ones(None), TypeError, r"shape"),
    (lambda: tf.constant([[1, 2], [3]]), ValueError, r"non-rectangular"),
    (lambda: tf.add(tf.ones([2]), "two"), TypeError, r"'two'.*float32.*text"),
    (lambda: tf.cast(tf.constant("1.5"), tf.float32), TypeError, r"Cast from string to float32"),
    (lambda: tf.random_normal([2], seed=1.5), TypeError, r"seed must be an int"),
    (lambda: tf.range(0, float("inf")), ValueError, r"finite"),
    (lambda: tf.as_dtype(None), TypeError, r"None"),
    (lambda: tf.identity(tf.ones([2]), name="a b"), ValueError, r"'a b' is not a valid node name"),
    (lambda: tf.train.get_global_step(graph="g"), TypeError, r"graph must be a tf.Graph"),
    (lambda: tf.losses.softmax_cross_entropy(tf.ones([2, 3]), tf.ones([2, 3]), label_smoothing=2),
     ValueError, r"label_smoothing"),
])
def test_typical_mistakes_name_the_argument_and_what_was_expected(call, error, message):
    with pytest.raises(error, match=message) as info:
        call()
    assert is_clear(info.value), describe(info.value)


def _energy(x, y=1.0):
    return np.sum(x * y)


@pytest.mark.parametrize("call, error, message", [
    (lambda g: g("abc"), TypeError, r"grad\(_energy\): cannot differentiate with respect to argument 'x' = 'abc'"),
    (lambda g: g(None), TypeError, r"argument 'x' = None"),
    (lambda g: g(np.arange(3)), TypeError, r"argument 'x' of dtype int64: gradients need floating-point arrays"),
    (lambda g: g(np.ones(2) * 1j), TypeError, r"returned complex128 values; derivatives need a floating-point "
                                               r"result"),  # complex arguments are differentiable; the result not
    (lambda g: g(np.ones(2), y=[[1.0], [2.0, 3.0]]), (TypeError, ValueError), r"\S"),
    (lambda g: g(np.ones(2), 1.0, 3), TypeError, r"too many positional arguments"),
    (lambda g: tf.grad(_energy, wrt="z")(np.ones(2)), ValueError, r"wrt='z' names no argument of this call"),
    (lambda g: tf.grad(_energy, wrt=1.5), TypeError, r"wrt takes argument positions"),
    (lambda g: tf.grad(lambda x: x)(np.ones(2)), TypeError, r"must return a scalar, got an array of shape \(2,\)"),
    (lambda g: tf.grad(lambda x: np.sum(np.unique(x)))(np.ones(2)), NotImplementedError, r"numpy.unique \(at "),
    (lambda g: tf.grad(lambda x: np.linalg.lstsq(x, x)[0].sum())(np.eye(2)), NotImplementedError,
     r"numpy.linalg.lstsq"),
    (lambda g: tf.grad(lambda x: np.sum(np.convolve(x, x)))(np.ones(2)), NotImplementedError, r"numpy.convolve"),
])
def test_bad_calls_of_decorated_functions_say_what_was_expected(call, error, message):
    with pytest.raises(error, match=message):
        call(tf.grad(_energy))
