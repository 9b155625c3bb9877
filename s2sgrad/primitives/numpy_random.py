"""Draws from NumPy's own random streams, for the decorator (``np.random.normal``, ``rng.uniform``).

A *stream* is a ``numpy.random.Generator`` or ``RandomState``: a string-dtype (Python object)
scalar that is an argument of the compiled module or made inside it by ``NumpyGenerator``
(``np.random.default_rng(seed)``). ``NumpyRandom`` calls one method of a stream, or of NumPy's
global stream (``np.random.normal``) when it has no stream input; its other inputs are the
method's array arguments. All three are effects (kept though unread, never folded, merged or
hoisted, each on its own line) so the generated code draws exactly what the function would, in
its order; none is differentiable (the gradient treats draws as constants).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import dtypes as _dt
from ..shapes import TensorShape
from .core import define

STREAM_DTYPE = _dt.string   # a stream travels as a Python object: the string (object) dtype


def _draw_infer(inputs: Sequence[Any], attrs: dict) -> list:
    if attrs["stream"] and inputs[0].dtype is not STREAM_DTYPE:
        raise TypeError(f"NumpyRandom draws from a stream, got {inputs[0].dtype.name} input")
    return [(attrs["dtype"], TensorShape(list(attrs["shape"])))]


NUMPY_RANDOM = define("NumpyRandom", _draw_infer, differentiable=False, effect=True, fusable=False, foldable=False,
                      printed_attrs=("method",))
NUMPY_GENERATOR = define("NumpyGenerator", lambda inputs, attrs: [(STREAM_DTYPE, TensorShape([]))],
                         differentiable=False, effect=True, fusable=False, foldable=False, printed_attrs=("kind",))
NUMPY_SEED = define("NumpySeed", lambda inputs, attrs: [], differentiable=False, effect=True, fusable=False,
                    foldable=False)
