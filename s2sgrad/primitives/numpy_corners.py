"""The decorator's NumPy functions whose values or gradients at a corner are NumPy's and autograd's,
not TensorFlow's.

``np.maximum``/``minimum``/``fmax``/``fmin`` split the gradient in half between equal arguments
(TF's ``Maximum`` gives it all to the first), and ``np.clip`` passes no gradient where the result
equals a bound (TF's clip passes it to ``x`` there). Their values are NumPy's own calls; the
graph-mode ops (``tf.maximum``, ``tf.clip_by_value``) keep TensorFlow's rules. ``np.cbrt`` is
NumPy's own call too (``|x| ** (1/3)`` is not the exact cube root), its derivative infinite at 0,
as are ``np.hypot`` and ``np.arccosh`` (their formulas overflow for large values). ``np.copysign``
is NumPy's own call (it reads the sign bit: ``-0.0`` counts as negative).
``np.sort``/``np.partition`` (and their arg- forms) are NumPy's own calls, NaNs last as in NumPy
(TF's TopK puts them first); of equal values each output's gradient goes to the element the stable
sort (``np.argpartition`` for a partition) puts there, as in autograd. Their gradient rules are in
``autodiff/rules/numpy_corners.py``. ``np.nanargmax``/``nanargmin`` are NumPy's own calls, so an
all-NaN slice is NumPy's ValueError.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .core import Primitive, broadcast_shape, define, same_dtype
from .reduce import reduced_shape

_ORDERED = "iuf"   # the dtype kinds these accept (NumPy's order: no complex, no bools)


def _elementwise_infer(name: str) -> Any:
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        dtype = same_dtype(inputs, f"the inputs of {name}")
        if dtype.np.kind not in _ORDERED:
            raise TypeError(f"{name} takes integer or real float values, got {dtype.name}")
        return [(dtype, broadcast_shape(*(t.shape for t in inputs)))]
    return infer


def _split_ties(name: str, ufunc: np.ufunc) -> Primitive:
    return define(name, _elementwise_infer(name), expr=f"np.{ufunc.__name__}(x, y)", ufunc=True, numpy=(ufunc,))


NUMPY_MAXIMUM = _split_ties("NumpyMaximum", np.maximum)
NUMPY_MINIMUM = _split_ties("NumpyMinimum", np.minimum)
NUMPY_FMAX = _split_ties("NumpyFmax", np.fmax)
NUMPY_FMIN = _split_ties("NumpyFmin", np.fmin)
NUMPY_CLIP = define("NumpyClip", _elementwise_infer("NumpyClip"), expr="np.clip(x, lo, hi)",
                    expr_args=("x", "lo", "hi"), ufunc=True)
NUMPY_CBRT = define("NumpyCbrt", _elementwise_infer("NumpyCbrt"), expr="np.cbrt(x)", ufunc=True, numpy=(np.cbrt,))
NUMPY_HYPOT = define("NumpyHypot", _elementwise_infer("NumpyHypot"), expr="np.hypot(x, y)", ufunc=True,
                     numpy=(np.hypot,))
NUMPY_COPYSIGN = define("NumpyCopysign", _elementwise_infer("NumpyCopysign"), expr="np.copysign(x, y)", ufunc=True,
                        numpy=(np.copysign,))
NUMPY_ARCCOSH = define("NumpyArccosh", _elementwise_infer("NumpyArccosh"), expr="np.arccosh(x)", ufunc=True,
                       numpy=(np.arccosh,))


def _along_axis_infer(name: str, out: Any = None) -> Any:
    """The input's shape; ``out`` (an index dtype) or the input's dtype."""
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        x = inputs[0]
        if x.dtype.np.kind not in "biuf":
            raise TypeError(f"{name} takes bool, integer or real float values, got {x.dtype.name}")
        return [(out or x.dtype, x.shape)]
    return infer


NUMPY_SORT = define("NumpySort", _along_axis_infer("NumpySort"), expr="np.sort(x, axis=axis)")
NUMPY_ARGSORT = define("NumpyArgsort", _along_axis_infer("NumpyArgsort", _dt.int64), differentiable=False,
                       expr="np.argsort(x, axis=axis, kind=kind)")
NUMPY_PARTITION = define("NumpyPartition", _along_axis_infer("NumpyPartition"),
                         expr="np.partition(x, kth, axis=axis)")
NUMPY_ARGPARTITION = define("NumpyArgpartition", _along_axis_infer("NumpyArgpartition", _dt.int64),
                            differentiable=False, expr="np.argpartition(x, kth, axis=axis)")


def _nan_arg_infer(name: str) -> Any:
    """One int64 index per line along ``axis`` (the axis dropped)."""
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        x = inputs[0]
        if x.dtype.np.kind not in _ORDERED:
            raise TypeError(f"{name} takes integer or real float values, got {x.dtype.name}")
        return [(_dt.int64, reduced_shape(x.shape, (attrs["axis"],), False))]
    return infer


NUMPY_NANARGMAX = define("NumpyNanargmax", _nan_arg_infer("NumpyNanargmax"), differentiable=False,
                         expr="np.nanargmax(x, axis=axis)")
NUMPY_NANARGMIN = define("NumpyNanargmin", _nan_arg_infer("NumpyNanargmin"), differentiable=False,
                         expr="np.nanargmin(x, axis=axis)")


def _permute_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x, order = inputs
    if not order.dtype.is_integer:
        raise TypeError(f"NumpyPermute's order must be integers, got {order.dtype.name}")
    return [(x.dtype, x.shape)]


NUMPY_PERMUTE = define("NumpyPermute", _permute_infer, expr="np.take_along_axis(x, order, axis=axis)",
                       expr_args=("x", "order"))  # ``order``: a permutation of each line along ``axis``
