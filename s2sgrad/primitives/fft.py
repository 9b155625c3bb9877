"""Discrete Fourier transforms over some axes: FFT and IFFT (complex to complex), RFFT (real to the
``n // 2 + 1`` non-negative frequencies) and IRFFT (back to ``n`` reals), as NumPy's ``np.fft``.

Attrs: ``axes`` (ints, negative ones count from the end; TensorFlow's transforms use the innermost
axes), ``lengths`` (the transform length per axis, the input being cropped or zero-padded to it;
None: the input's own sizes, and for IRFFT ``2 (m - 1)`` on the last axis) and ``norm``
(``"backward"``: only the inverse scales by ``1/n``; ``"ortho"``: both by ``1/sqrt(n)``;
``"forward"``: only the forward one). TensorFlow's ops are the ``"backward"`` ones.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import dtypes as _dt
from ..shapes import TensorShape
from .core import define

__all__ = ["FFT", "IFFT", "RFFT", "IRFFT", "NORMS", "transformed_axes", "output_lengths"]

NORMS = ("backward", "ortho", "forward")
_COMPLEX_OF = {"float32": _dt.complex64, "float64": _dt.complex128}


def transformed_axes(axes: Sequence[int], rank: int) -> tuple[int, ...]:
    """``axes`` made non-negative for a tensor of ``rank``; ValueError when out of range or repeated."""
    out = []
    for ax in axes:
        if not -rank <= ax < rank:
            raise ValueError(f"FFT axis {ax} is out of range for a tensor of rank {rank}")
        out.append(ax % rank)
    if len(set(out)) != len(out):
        raise ValueError(f"FFT axes must not repeat, got {tuple(axes)}")
    return tuple(out)


def output_lengths(kind: str, sizes: Sequence[int | None], attrs: dict) -> list[int | None]:
    """The output's sizes along ``attrs["axes"]`` (in order) for input sizes ``sizes`` along them."""
    lengths = attrs["lengths"]
    if lengths is None:
        lengths = list(sizes)
        if kind == "irfft" and sizes[-1] is not None:
            lengths[-1] = 2 * (sizes[-1] - 1)
    out = list(lengths)
    if kind == "rfft" and out[-1] is not None:
        out[-1] = out[-1] // 2 + 1
    return out


def _infer(kind: str) -> Any:
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        (x,) = inputs
        dtype = _dtype(kind, x.dtype)
        axes, lengths, norm = attrs["axes"], attrs["lengths"], attrs["norm"]
        if norm not in NORMS:
            raise ValueError(f"FFT norm must be one of {NORMS} (or None), got {norm!r}")
        if not axes or (lengths is not None and len(lengths) != len(axes)):
            raise ValueError(f"FFT needs one length per axis, got axes {axes} and lengths {lengths}")
        if lengths is not None and any(n < 1 for n in lengths):
            raise ValueError(f"FFT lengths must be positive, got {tuple(lengths)}")
        if x.shape.rank is None:
            return [(dtype, TensorShape(None))]
        if x.shape.rank < len(axes):
            raise ValueError(f"{kind.upper()} over {len(axes)} axes needs a tensor of rank >= {len(axes)}, "
                             f"got shape {x.shape}")
        positions = transformed_axes(axes, x.shape.rank)
        sizes = list(x.shape.sizes)
        new = output_lengths(kind, [sizes[p] for p in positions], attrs)
        if new[-1] is not None and new[-1] < 1:
            raise ValueError(f"IRFFT of an axis of size {sizes[positions[-1]]} needs an output length: "
                             f"the default 2 (m - 1) is {new[-1]}")
        for p, n in zip(positions, new, strict=True):
            sizes[p] = n
        return [(dtype, TensorShape(sizes))]
    return infer


def _dtype(kind: str, dtype: _dt.DType) -> _dt.DType:
    if kind == "rfft":
        if dtype.name not in _COMPLEX_OF:
            raise TypeError(f"RFFT needs a float32 or float64 tensor, got {dtype.name}")
        return _COMPLEX_OF[dtype.name]
    if not dtype.is_complex:
        raise TypeError(f"{kind.upper()} needs a complex64 or complex128 tensor, got {dtype.name}")
    return dtype.real_dtype if kind == "irfft" else dtype


FFT = define("FFT", _infer("fft"), printed_attrs=("axes", "lengths", "norm"))
IFFT = define("IFFT", _infer("ifft"), printed_attrs=("axes", "lengths", "norm"))
RFFT = define("RFFT", _infer("rfft"), printed_attrs=("axes", "lengths", "norm"))
IRFFT = define("IRFFT", _infer("irfft"), printed_attrs=("axes", "lengths", "norm"))
