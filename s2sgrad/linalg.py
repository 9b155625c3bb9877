"""``tf.linalg``: matrix products and constructors under their ``tf.linalg.*`` names.

>>> import s2sgrad as tf
>>> tf.linalg.matmul is tf.matmul
True
"""
from __future__ import annotations

from typing import Any

from .ops import array_ops
from .ops.clip_ops import global_norm
from .ops.convert import convert_to_tensor
from .ops.creation import eye
from .ops.linalg_ops import einsum, tensordot
from .ops.math_ops import matmul
from .ops.matrix_ops import (
    cholesky,
    log_matrix_determinant,
    logdet,
    matrix_band_part,
    matrix_determinant,
    matrix_diag,
    matrix_diag_part,
    matrix_inverse,
    matrix_set_diag,
    matrix_solve,
    matrix_triangular_solve,
    qr,
    self_adjoint_eig,
    self_adjoint_eigvals,
    svd,
    trace,
)
from .ops.nn_ops import l2_normalize
from .ssa.graph import Tensor
from .tf1_api import missing_names as _missing_names

__all__ = ["einsum", "eye", "global_norm", "l2_normalize", "matmul", "matrix_transpose", "tensordot", "transpose",
           "inv", "det", "slogdet", "logdet", "cholesky", "solve", "triangular_solve", "eigh", "eigvalsh", "svd", "qr",
           "diag", "diag_part", "set_diag", "band_part", "trace", "adjoint"]

inv = matrix_inverse
det = matrix_determinant
slogdet = log_matrix_determinant
solve = matrix_solve
triangular_solve = matrix_triangular_solve
eigh = self_adjoint_eig
eigvalsh = self_adjoint_eigvals
diag = matrix_diag
diag_part = matrix_diag_part
set_diag = matrix_set_diag
band_part = matrix_band_part


def matrix_transpose(a: Any, name: str = "matrix_transpose", conjugate: bool = False) -> Tensor:
    """Swap the last two axes of ``a`` (a batch of matrices).

    >>> # tf.linalg.matrix_transpose(tf.zeros([5, 2, 3])).shape  ->  (5, 3, 2)
    """
    x = convert_to_tensor(a)
    rank = x.shape.rank
    if rank is None or rank < 2:
        raise ValueError(f"matrix_transpose needs a tensor of known rank >= 2, got shape {x.shape}")
    return array_ops.transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2], name=name, conjugate=conjugate)


transpose = matrix_transpose  # TF's tf.linalg.transpose swaps the last two axes, unlike tf.transpose


def adjoint(matrix: Any, name: str = "adjoint") -> Tensor:
    """The conjugate transpose of each matrix (the last two axes): ``matrix_transpose(..., conjugate=True)``."""
    return matrix_transpose(matrix, name=name, conjugate=True)


__getattr__ = _missing_names("linalg", __name__)
