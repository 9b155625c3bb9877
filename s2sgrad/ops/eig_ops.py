"""``real_eig``: eigenvalues and unit-norm eigenvector columns of real matrices whose eigenvalues
are all real (the ``RealEig`` primitive; what the decorator records for ``np.linalg.eig``)."""
from __future__ import annotations

from typing import Any

from ..primitives.eig import REAL_EIG
from ..ssa.graph import Tensor
from .convert import convert_to_tensor, record

__all__ = ["real_eig"]


def real_eig(tensor: Any, name: str | None = None) -> tuple[Tensor, Tensor]:
    """``(w, v)`` with ``x @ v == v * w`` (NumPy's order and eigenvector signs)."""
    op = record(REAL_EIG, [convert_to_tensor(tensor)], None, name or "RealEig")
    return op.outputs[0], op.outputs[1]
