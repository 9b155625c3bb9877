"""Complex numbers: building them from parts (Complex), their parts (Real, Imag), Conj and Angle.

``|z|`` is ``math.ABS`` (real output, as TF's ComplexAbs). Their gradient rules, and TF's
conjugation of the holomorphic rules for complex inputs, are in ``autodiff/rules/complex.py``.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import dtypes as _dt
from .core import broadcast_shape, define

_COMPLEX_OF = {"float32": _dt.complex64, "float64": _dt.complex128}


def _complex_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x, y = inputs
    if x.dtype is not y.dtype or x.dtype.name not in _COMPLEX_OF:
        raise TypeError(f"tf.complex needs two float32 or two float64 parts, got {x.dtype.name} and {y.dtype.name}")
    return [(_COMPLEX_OF[x.dtype.name], broadcast_shape(x.shape, y.shape))]


def _part_infer(name: str) -> Any:
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        (z,) = inputs
        if not z.dtype.is_complex:
            raise TypeError(f"{name} needs a complex tensor, got {z.dtype.name}")
        return [(z.dtype.real_dtype, z.shape)]
    return infer


def _conj_infer(inputs: Sequence[Any], attrs: dict) -> list:
    (z,) = inputs
    if not z.dtype.is_complex:
        raise TypeError(f"Conj needs a complex tensor, got {z.dtype.name}")
    return [(z.dtype, z.shape)]


COMPLEX = define("Complex", _complex_infer, expr="x + 1j * y", ufunc=True)
REAL = define("Real", _part_infer("Real"), expr="np.real(x)", ufunc=True, view="input")  # NumPy: a view
IMAG = define("Imag", _part_infer("Imag"), expr="np.imag(x)", ufunc=True, view="input")
CONJ = define("Conj", _conj_infer, expr="np.conj(x)", ufunc=True)
ANGLE = define("Angle", _part_infer("Angle"), expr="np.angle(x)", ufunc=True)
