"""Bad arguments to the tf.layers functions get clear, typed errors (the robustness sweep of
tests/test_robust_errors_api.py, with a valid call per layer function)."""
import pytest

import s2sgrad as tf
from test_robust_errors_api import _problems

X4 = lambda c: tf.ones([2, 5, 5, 3])  # noqa: E731
X3 = lambda c: tf.ones([2, 6, 3])  # noqa: E731
X2 = lambda c: tf.ones([4, 3])  # noqa: E731
CONV = {"filters": 2, "kernel_size": 3, "strides": 1, "padding": "same"}
POOL = {"pool_size": 2, "strides": 2, "padding": "valid"}
CALLS = {  # function: its valid keyword arguments (each is swept with every bad value)
    "dense": {"inputs": X2, "units": 3},
    "dropout": {"inputs": X2, "rate": 0.5, "training": True, "noise_shape": None},
    "flatten": {"inputs": X4},
    "batch_normalization": {"inputs": X4, "axis": -1, "momentum": 0.9, "epsilon": 1e-3, "training": True},
    "conv1d": {"inputs": X3, **CONV},
    "conv2d": {"inputs": X4, **CONV, "dilation_rate": 1},
    "conv2d_transpose": {"inputs": X4, **CONV},
    "separable_conv2d": {"inputs": X4, **CONV, "depth_multiplier": 1},
    "max_pooling1d": {"inputs": X3, **POOL}, "average_pooling1d": {"inputs": X3, **POOL},
    "max_pooling2d": {"inputs": X4, **POOL}, "average_pooling2d": {"inputs": X4, **POOL},
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_bad_arguments_to_layer_functions_get_clear_errors(name):
    fn = getattr(tf.layers, name)

    def make_call(c):
        kwargs = {k: v(c) if callable(v) else v for k, v in CALLS[name].items()}
        return fn, [], kwargs, [k for k in kwargs if k != "noise_shape"]
    assert _problems(make_call, "layers." + name) == []
