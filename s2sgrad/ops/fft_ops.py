"""Fourier transforms: ``transform`` records any of them (NumPy's arguments: axes, lengths, norm), and
TensorFlow's ``tf.signal``/``tf.spectral`` functions over the innermost 1, 2 or 3 axes (``tf.fft``,
``tf.signal.rfft2d(x, fft_length=[8, 8])``...), unnormalized forward, ``1/n`` inverse.

>>> import numpy as np, s2sgrad as tf
>>> x = tf.constant(np.array([1.0, 2.0, 3.0, 4.0]))
>>> tf.Session().run(tf.signal.rfft(x))
array([10.+0.j, -2.+2.j, -2.+0.j])
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..primitives import fft as P
from ..primitives.core import Primitive
from ..ssa.graph import Tensor
from . import indexing_ops as ix
from .array_ops import concat, static_ints
from .convert import convert_to_tensor, graph_of, record1

__all__ = ["transform", "fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d", "rfft", "irfft", "rfft2d",
           "irfft2d", "rfft3d", "irfft3d", "fftshift", "ifftshift"]

KINDS: dict[str, Primitive] = {"fft": P.FFT, "ifft": P.IFFT, "rfft": P.RFFT, "irfft": P.IRFFT}


def transform(kind: str, x: Tensor, axes: Sequence[int], lengths: Sequence[int] | None = None,
              norm: str = "backward", name: str | None = None) -> Tensor:
    """The ``kind`` transform (``"fft"``, ``"ifft"``, ``"rfft"``, ``"irfft"``) of ``x`` over ``axes``,
    cropped or zero-padded to ``lengths`` (None: the sizes NumPy's default gives)."""
    attrs = {"axes": tuple(int(a) for a in axes), "norm": norm,
             "lengths": None if lengths is None else tuple(int(n) for n in lengths)}
    return record1(KINDS[kind], [x], attrs, name=name)


def _complex(rank: int, kind: str, op_name: str) -> Callable[..., Tensor]:
    def function(input: Any, name: str | None = None) -> Tensor:
        return transform(kind, convert_to_tensor(input), range(-rank, 0), name=name or op_name)
    function.__name__ = function.__qualname__ = op_name.lower()
    function.__doc__ = f"The {'inverse ' if kind == 'ifft' else ''}FFT of a complex tensor over its " \
                       f"innermost {rank} axes{' (scaled by 1/n)' if kind == 'ifft' else ''}."
    return function


def _real(rank: int, kind: str, op_name: str) -> Callable[..., Tensor]:
    def function(input_tensor: Any, fft_length: Any = None, name: str | None = None) -> Tensor:
        lengths = static_ints(fft_length, "fft_length")
        if lengths is not None and len(lengths) != rank:
            raise ValueError(f"fft_length of tf.signal.{op_name.lower()} must have {rank} entries, got {lengths}")
        x = convert_to_tensor(input_tensor)
        return transform(kind, x, range(-rank, 0), lengths, name=name or op_name)
    function.__name__ = function.__qualname__ = op_name.lower()
    what = "real tensor to its non-negative frequencies" if kind == "rfft" else \
        "Hermitian spectrum back to real values (scaled by 1/n)"
    function.__doc__ = f"The FFT of a {what}, over the innermost {rank} axes (``fft_length``: their lengths)."
    return function


fft = _complex(1, "fft", "FFT")
ifft = _complex(1, "ifft", "IFFT")
fft2d = _complex(2, "fft", "FFT2D")
ifft2d = _complex(2, "ifft", "IFFT2D")
fft3d = _complex(3, "fft", "FFT3D")
ifft3d = _complex(3, "ifft", "IFFT3D")
rfft = _real(1, "rfft", "RFFT")
irfft = _real(1, "irfft", "IRFFT")
rfft2d = _real(2, "rfft", "RFFT2D")
irfft2d = _real(2, "irfft", "IRFFT2D")
rfft3d = _real(3, "rfft", "RFFT3D")
irfft3d = _real(3, "irfft", "IRFFT3D")


def _rolled(x: Any, axes: Any, shift: Callable[[int], int], name: str) -> Tensor:
    """``x`` rolled by ``shift(n)`` along each of ``axes`` (all when None), as two slices joined;
    the shape must be known when the graph is built."""
    t = convert_to_tensor(x)
    if not t.shape.is_fully_defined():
        raise ValueError(f"tf.signal.{name} needs a static shape, got {t.name} of shape {t.shape}")
    sizes = list(t.shape.known_sizes())
    ints = static_ints(axes, "axes")
    if ints is not None and any(not -len(sizes) <= a < len(sizes) for a in ints):
        raise ValueError(f"tf.signal.{name}: axes {ints} out of range for a tensor of rank {len(sizes)}")
    graph = graph_of([t])
    with graph.as_default(), graph.name_scope(name):
        for ax in range(len(sizes)) if ints is None else [a % len(sizes) for a in ints]:
            n = sizes[ax]
            k = shift(n) % n if n else 0
            if k:
                tail = ix.slice(t, [0] * ax + [n - k] + [0] * (len(sizes) - ax - 1), sizes[:ax] + [k] + sizes[ax + 1:])
                head = ix.slice(t, [0] * len(sizes), sizes[:ax] + [n - k] + sizes[ax + 1:])
                t = concat([tail, head], ax)
    return t


def fftshift(x: Any, axes: Any = None, name: str | None = None) -> Tensor:
    """The zero frequency moved to the centre: ``x`` rolled by ``n // 2`` along ``axes`` (all by default)."""
    return _rolled(x, axes, lambda n: n // 2, name or "fftshift")


def ifftshift(x: Any, axes: Any = None, name: str | None = None) -> Tensor:
    """``fftshift`` undone: ``x`` rolled by ``-(n // 2)``."""
    return _rolled(x, axes, lambda n: -(n // 2), name or "ifftshift")
