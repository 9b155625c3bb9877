"""Gradients of the Fourier transforms, in TensorFlow's complex convention (``dL/dx + i dL/dy``).

Each transform is linear, so its gradient is its adjoint applied to the incoming gradient:

- FFT (``F``, then scaled by ``norm``): the adjoint of ``F`` is ``n`` times the inverse, so it is the
  IFFT with the opposite ``norm`` (``"backward"`` <-> ``"forward"``, ``"ortho"`` stays); IFFT's is the FFT.
- RFFT keeps the first ``n // 2 + 1`` rows of ``F`` of a real ``x``: the gradient is
  ``Re(F^H pad(g))``, which is IRFFT of ``g`` with the bins between DC and Nyquist halved (IRFFT
  counts each of them twice, for its mirror image, and ignores the imaginary parts of DC and
  Nyquist, which do not reach a real ``x``'s gradient either).
- IRFFT sums each interior bin twice (its value and its conjugate mirror): the gradient is RFFT of
  ``g`` with those bins doubled.

A transform that cropped or zero-padded its input (``lengths``) has the transposed resize after the
adjoint: the gradient is zero-padded or cropped back to the input's sizes.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...ops import fft_ops as f
from ...ops import indexing_ops as ix
from ...ops import layout_ops as lay
from ...ops.convert import constant
from ...primitives import fft as P
from ...primitives.core import Primitive
from ...ssa.nodes import Operation, Tensor
from .common import Grads, Needed, Rule

__all__ = ["RULES"]

_ADJOINT_NORM = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _sizes(t: Tensor, what: str) -> list[int]:
    if not t.shape.is_fully_defined():
        raise ValueError(f"the gradient of {what} needs static shapes, got {t.name} of shape {t.shape}")
    return list(t.shape.known_sizes())


def _resized(g: Tensor, like: Tensor, what: str) -> Tensor:
    """``g`` cropped and zero-padded to ``like``'s sizes (a no-op where they agree)."""
    have, want = _sizes(g, what), _sizes(like, what)
    if any(h > w for h, w in zip(have, want, strict=True)):
        g = ix.slice(g, [0] * len(have), [min(h, w) for h, w in zip(have, want, strict=True)])
    if any(h < w for h, w in zip(have, want, strict=True)):
        g = lay.pad(g, [[0, max(w - h, 0)] for h, w in zip(have, want, strict=True)])
    return g


def _hermitian_weights(g: Tensor, axis: int, n: int, interior: float) -> Tensor:
    """``g`` times ``interior`` on the bins of ``axis`` strictly between DC and Nyquist (of length ``n``)."""
    weights = np.full(n // 2 + 1, interior)
    weights[0] = 1.0
    if n % 2 == 0:
        weights[-1] = 1.0
    shape = [n // 2 + 1] + [1] * (len(_sizes(g, "a real FFT")) - 1 - axis)
    return g * constant(weights.reshape(shape).astype(g.dtype.np), name="hermitian_weights")


def _positions(op: Operation, t: Tensor) -> tuple[int, ...]:
    return P.transformed_axes(op.attrs["axes"], len(_sizes(t, op.type)))


def _complex_grad(adjoint: str) -> Rule:
    def rule(op: Operation, needed: Needed, g: Tensor) -> Grads:
        (x,) = op.inputs
        back = f.transform(adjoint, g, op.attrs["axes"], norm=_ADJOINT_NORM[op.attrs["norm"]])
        return [_resized(back, x, op.type)]
    return rule


def _rfft_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    (x,) = op.inputs
    positions = _positions(op, x)
    y_sizes = _sizes(op.outputs[0], op.type)
    lengths = _lengths(op, x, positions)
    halved = _hermitian_weights(g, positions[-1], lengths[-1], 0.5)
    back = f.transform("irfft", halved, op.attrs["axes"], [y_sizes[p] for p in positions[:-1]] + [lengths[-1]],
                       norm=_ADJOINT_NORM[op.attrs["norm"]])
    return [_resized(back, x, op.type)]


def _irfft_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    (x,) = op.inputs
    positions = _positions(op, x)
    n = _sizes(g, op.type)[positions[-1]]
    spectrum = f.transform("rfft", g, op.attrs["axes"], norm=_ADJOINT_NORM[op.attrs["norm"]])
    return [_resized(_hermitian_weights(spectrum, positions[-1], n, 2.0), x, op.type)]


def _lengths(op: Operation, x: Tensor, positions: Sequence[int]) -> list[int]:
    lengths = op.attrs["lengths"]
    return list(lengths) if lengths is not None else [_sizes(x, op.type)[p] for p in positions]


RULES: dict[Primitive, Rule] = {
    P.FFT: _complex_grad("ifft"),
    P.IFFT: _complex_grad("fft"),
    P.RFFT: _rfft_grad,
    P.IRFFT: _irfft_grad,
}
