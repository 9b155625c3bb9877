"""``tf.complex``, ``tf.real``, ``tf.imag``, ``tf.conj`` and ``tf.angle`` (also in ``tf.math``).

As in TensorFlow, ``real``/``conj`` of a real tensor are the tensor, ``imag`` of it zeros and
``angle`` of it ``pi`` where it is negative, else 0.
"""
from __future__ import annotations

import math
from typing import Any

from ..primitives import complex as P
from ..ssa.graph import Tensor
from . import array_ops as a
from . import math_ops as m
from .convert import convert_operands, convert_to_tensor, record1

__all__ = ["complex", "real", "imag", "conj", "angle"]


def complex(real: Any, imag: Any, name: str | None = None) -> Tensor:
    """The complex tensor ``real + 1j * imag`` (two float32 parts: complex64; float64: complex128)."""
    return record1(P.COMPLEX, convert_operands([real, imag]), name=name or "Complex")


def real(input: Any, name: str | None = None) -> Tensor:
    """The real part of a complex tensor (a real tensor itself)."""
    z = convert_to_tensor(input)
    return record1(P.REAL, [z], name=name or "Real") if z.dtype.is_complex else z


def imag(input: Any, name: str | None = None) -> Tensor:
    """The imaginary part of a complex tensor (zeros for a real one)."""
    z = convert_to_tensor(input)
    return record1(P.IMAG, [z], name=name or "Imag") if z.dtype.is_complex else a.zeros_like(z, name=name)


def conj(x: Any, name: str | None = None) -> Tensor:
    """The complex conjugate (a real tensor itself)."""
    z = convert_to_tensor(x)
    return record1(P.CONJ, [z], name=name or "Conj") if z.dtype.is_complex else z


def angle(input: Any, name: str | None = None) -> Tensor:
    """The argument of each complex element, in (-pi, pi]; for real ones pi where negative, else 0."""
    z = convert_to_tensor(input)
    if z.dtype.is_complex:
        return record1(P.ANGLE, [z], name=name or "Angle")
    return a.where_v2(m.less(z, a.zeros_like(z)), m.multiply(a.ones_like(z), math.pi), a.zeros_like(z), name=name)
