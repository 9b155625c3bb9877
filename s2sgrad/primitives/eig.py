"""The general (non-symmetric) eigendecomposition of real matrices with real spectra: ``RealEig``,
NumPy's ``np.linalg.eig`` when every eigenvalue is real (the generated code raises a LinAlgError
naming the op otherwise). Not a TensorFlow op: the decorator records it for ``np.linalg.eig``."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..shapes import TensorShape
from .core import define
from .matrix import _float_matrix


def _real_eig_infer(inputs: Sequence[Any], attrs: dict) -> list:
    batch, n, _ = _float_matrix(inputs[0], "RealEig", complex_ok=False)
    dtype = inputs[0].dtype
    if batch is None:
        return [(dtype, TensorShape(None)), (dtype, TensorShape(None))]
    return [(dtype, TensorShape([*batch, n])), (dtype, TensorShape([*batch, n, n]))]


REAL_EIG = define("RealEig", _real_eig_infer, default_name="RealEig", fusable=False)
