"""NumPy's Fourier transforms on traced values: ``np.fft.fft``/``ifft``/``rfft``/``irfft`` and their
``2`` and ``n`` forms, with NumPy's ``n``/``s`` (crop or zero-pad), ``axis``/``axes`` and ``norm``
(None or ``"backward"``, ``"ortho"``, ``"forward"``). Real arguments of the complex transforms are
made complex first, as NumPy does; float16/float32 are transformed in single precision (complex64),
as in NumPy 2.
``np.fft.fftshift``/``ifftshift`` are in ``layout.py``. Gradients are TF's complex convention
(``autodiff/rules/fft.py``)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..ops import fft_ops as f
from ..primitives.fft import NORMS
from .convert import as_traced
from .registry import implements, unsupported
from .traced import Traced

_SINGLE = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.complex64))  # NumPy 2 computes these in complex64


def _norm(norm: str | None) -> str:
    if norm is None:
        return "backward"
    if norm not in NORMS:
        raise ValueError(f'Invalid norm value {norm!r}; should be "backward", "ortho" or "forward".')
    return norm


def _input(a: Any, kind: str) -> Traced:
    """``a`` as the transform's input dtype: complex (single precision kept), real for RFFT."""
    x = as_traced(a)
    if kind == "rfft":
        if x.dtype.kind == "c":
            raise TypeError(f"np.fft.rfft needs a real array, got {x.dtype} (take np.real first, or use np.fft.fft)")
        return as_traced(x, np.float32 if x.dtype in _SINGLE else np.float64)
    return as_traced(x, np.complex64 if x.dtype in _SINGLE else np.complex128)


def _axes_and_lengths(x: Traced, s: Any, axes: Any) -> tuple[list[int], list[int] | None]:
    """NumPy's rules: ``axes`` default to the last ``len(s)`` axes, or all of them."""
    rank = len(x.shape)
    if axes is None:
        axes = list(range(rank - len(s), rank)) if s is not None else list(range(rank))
    axes = [int(a) for a in np.atleast_1d(axes)]
    if s is None:
        return axes, None
    lengths = [int(n) for n in np.atleast_1d(s)]
    if len(lengths) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if any(n < 1 for n in lengths):
        raise ValueError(f"Invalid number of FFT data points {tuple(lengths)} specified.")
    return axes, lengths


def _transform(kind: str, a: Any, s: Any, axes: Any, norm: str | None, out: Any) -> Traced:
    if out is not None:
        raise unsupported(f"np.fft.{kind}(..., out=...)", "Return the result instead of writing into out.")
    x = _input(a, kind)
    positions, lengths = _axes_and_lengths(x, s, axes)
    if not positions:
        raise unsupported(f"np.fft.{kind} over no axes")
    rank = len(x.shape)
    normalized = [p % rank for p in positions if -rank <= p < rank]
    if len(set(normalized)) != len(normalized):
        raise unsupported(f"np.fft.{kind} with repeated axes {tuple(positions)}")
    return Traced(f.transform(kind, x.tensor, positions, lengths, _norm(norm)))


def _one_axis(kind: str) -> Any:
    def transform(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None, out: Any = None) -> Traced:
        return _transform(kind, a, None if n is None else [n], [axis], norm, out)
    return transform


def _several_axes(kind: str, default_axes: Sequence[int] | None) -> Any:
    def transform(a: Any, s: Any = None, axes: Any = default_axes, norm: str | None = None,
                  out: Any = None) -> Traced:
        return _transform(kind, a, s, axes, norm, out)
    return transform


for _kind in ("fft", "ifft", "rfft", "irfft"):
    implements(getattr(np.fft, _kind))(_one_axis(_kind))
    implements(getattr(np.fft, _kind + "2"))(_several_axes(_kind, (-2, -1)))
    implements(getattr(np.fft, _kind + "n"))(_several_axes(_kind, None))
