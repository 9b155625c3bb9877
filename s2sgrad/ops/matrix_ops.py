"""``tf.linalg`` matrix functions and decompositions (TF 1.x also has them at the top level:
``tf.matrix_inverse``, ``tf.cholesky``, ``tf.svd``...), over the last two axes."""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..primitives import matrix as P
from ..ssa.graph import Tensor
from ..static import constant_value
from . import complex_ops as c
from . import math_ops as m
from . import reduce_ops as r
from .array_ops import transpose
from .convert import convert_to_tensor, record, record1

__all__ = ["matrix_inverse", "matrix_determinant", "log_matrix_determinant", "slogdet", "logdet", "cholesky",
           "matrix_solve", "matrix_triangular_solve", "self_adjoint_eig", "eigh", "self_adjoint_eigvals", "svd", "qr",
           "matrix_diag", "matrix_diag_part", "matrix_set_diag", "matrix_band_part", "trace", "matrix_transpose_last",
           "adjoint_last"]


def matrix_inverse(input: Any, adjoint: bool = False, name: str | None = None) -> Tensor:
    """The inverse of each square matrix (of its adjoint with ``adjoint=True``)."""
    return record1(P.MATRIX_INVERSE, [convert_to_tensor(input)], {"adjoint": bool(adjoint)}, name or "MatrixInverse")


def matrix_determinant(input: Any, name: str | None = None) -> Tensor:
    return record1(P.MATRIX_DETERMINANT, [convert_to_tensor(input)], None, name or "MatrixDeterminant")


def slogdet(input: Any, name: str | None = None) -> tuple[Tensor, Tensor]:
    """``(sign, log(abs(det)))`` of each square matrix with NumPy's dtypes (the log is real for a
    complex matrix)."""
    op = record(P.LOG_MATRIX_DETERMINANT, [convert_to_tensor(input)], None, name or "LogMatrixDeterminant")
    return op.outputs[0], op.outputs[1]


def log_matrix_determinant(input: Any, name: str | None = None) -> tuple[Tensor, Tensor]:
    """``(sign, log(abs(det)))`` of each square matrix (``tf.linalg.slogdet``); as in TensorFlow,
    both have the matrix's dtype (a complex log with zero imaginary part for a complex matrix)."""
    sign, log_abs = slogdet(input, name)
    return sign, m.cast(log_abs, sign.dtype)


def logdet(matrix: Any, name: str | None = None) -> Tensor:
    """``log(det(matrix))`` of Hermitian positive definite matrices, through their Cholesky factor
    (whose diagonal is real: the result is real for a complex matrix)."""
    chol = cholesky(matrix)
    return m.multiply(2.0, r.reduce_sum(m.log(c.real(matrix_diag_part(chol))), axis=-1), name=name or "logdet")


def cholesky(input: Any, name: str | None = None) -> Tensor:
    """The lower-triangular Cholesky factor of each symmetric positive definite matrix."""
    return record1(P.CHOLESKY, [convert_to_tensor(input)], None, name or "Cholesky")


def matrix_solve(matrix: Any, rhs: Any, adjoint: bool = False, name: str | None = None) -> Tensor:
    """``x`` with ``matrix @ x = rhs`` (``adjoint``: ``matrix^T @ x = rhs``)."""
    return record1(P.MATRIX_SOLVE, [convert_to_tensor(matrix), convert_to_tensor(rhs)], {"adjoint": bool(adjoint)},
                   name or "MatrixSolve")


def matrix_triangular_solve(matrix: Any, rhs: Any, lower: bool = True, adjoint: bool = False,
                            name: str | None = None) -> Tensor:
    """``x`` with ``matrix @ x = rhs``, reading only the lower (or upper) triangle of ``matrix``."""
    return record1(P.MATRIX_TRIANGULAR_SOLVE, [convert_to_tensor(matrix), convert_to_tensor(rhs)],
                   {"lower": bool(lower), "adjoint": bool(adjoint)}, name or "MatrixTriangularSolve")


def eigh(tensor: Any, name: str | None = None) -> tuple[Tensor, Tensor]:
    """``(e, v)``: eigenvalues (ascending, real) and eigenvectors (columns) of symmetric or Hermitian
    matrices, reading their lower triangles, with NumPy's dtypes."""
    return _eigh(tensor, None, name)


def upper_eigh(tensor: Any, name: str | None = None) -> tuple[Tensor, Tensor]:
    """``eigh`` reading the upper triangles instead (NumPy's ``UPLO='U'``: its eigenvectors are LAPACK's for
    that triangle, which can differ in sign from those of the lower triangle of the adjoint)."""
    return _eigh(tensor, {"upper": True}, name)


def _eigh(tensor: Any, attrs: dict | None, name: str | None) -> tuple[Tensor, Tensor]:
    op = record(P.SELF_ADJOINT_EIG, [convert_to_tensor(tensor)], attrs, name or "SelfAdjointEigV2")
    return op.outputs[0], op.outputs[1]


def self_adjoint_eig(tensor: Any, name: str | None = None) -> tuple[Tensor, Tensor]:
    """``eigh`` as ``tf.linalg.eigh`` types it: the eigenvalues of a complex matrix are complex."""
    e, v = eigh(tensor, name)
    return m.cast(e, v.dtype), v


def self_adjoint_eigvals(tensor: Any, name: str | None = None) -> Tensor:
    return self_adjoint_eig(tensor, name)[0]


def svd(tensor: Any, full_matrices: bool = False, compute_uv: bool = True, name: str | None = None) -> Any:
    """``(s, u, v)`` with ``tensor = u @ diag(s) @ v^H`` (``s`` alone without ``compute_uv``); ``s``
    is real."""
    op = record(P.SVD, [convert_to_tensor(tensor)], {"full_matrices": bool(full_matrices)}, name or "Svd")
    return (op.outputs[0], op.outputs[1], op.outputs[2]) if compute_uv else op.outputs[0]


def qr(input: Any, full_matrices: bool = False, name: str | None = None) -> tuple[Tensor, Tensor]:
    """``(q, r)``: orthonormal columns and an upper-triangular factor, ``input = q @ r``."""
    op = record(P.QR, [convert_to_tensor(input)], {"full_matrices": bool(full_matrices)}, name or "Qr")
    return op.outputs[0], op.outputs[1]


def matrix_diag(diagonal: Any, name: str | None = None, **kwargs: Any) -> Tensor:
    """Square matrices with ``diagonal`` (its last axis) on their diagonals, zeros elsewhere."""
    if kwargs:
        raise TypeError(f"matrix_diag: the v2 arguments {sorted(kwargs)} (k, num_rows...) are not supported")
    return record1(P.MATRIX_DIAG, [convert_to_tensor(diagonal)], None, name or "MatrixDiag")


def matrix_diag_part(input: Any, name: str | None = None, **kwargs: Any) -> Tensor:
    if kwargs:
        raise TypeError(f"matrix_diag_part: the v2 arguments {sorted(kwargs)} (k, padding_value...) are not supported")
    return record1(P.MATRIX_DIAG_PART, [convert_to_tensor(input)], None, name or "MatrixDiagPart")


def matrix_set_diag(input: Any, diagonal: Any, name: str | None = None, **kwargs: Any) -> Tensor:
    """``input`` with its main diagonals replaced by ``diagonal``."""
    if kwargs:
        raise TypeError(f"matrix_set_diag: the v2 arguments {sorted(kwargs)} (k, align) are not supported")
    x = convert_to_tensor(input)
    return record1(P.MATRIX_SET_DIAG, [x, convert_to_tensor(diagonal, x.dtype)], None, name or "MatrixSetDiag")


def matrix_band_part(input: Any, num_lower: Any, num_upper: Any, name: str | None = None) -> Tensor:
    """``input`` with everything outside the band of ``num_lower`` subdiagonals and ``num_upper``
    superdiagonals zeroed (a negative count keeps the whole triangle, as in TF; a count beyond the
    matrix is TF's run-time error).

    Counts known when the graph is built (ints, NumPy ints, constant tensors) are the op's attributes;
    counts computed by the graph are its second and third inputs, as TF's op takes them."""
    x = convert_to_tensor(input)
    lower, upper = _band_count("num_lower", num_lower), _band_count("num_upper", num_upper)
    if isinstance(lower, int) and isinstance(upper, int):
        attrs = {"num_lower": max(lower, -1), "num_upper": max(upper, -1)}
        return record1(P.MATRIX_BAND_PART, [x], attrs, name or "MatrixBandPart")
    counts = [convert_to_tensor(count, dtype=_dt.int64) for count in (lower, upper)]
    return record1(P.MATRIX_BAND_PART, [x, *counts], None, name or "MatrixBandPart")


def _band_count(what: str, value: Any) -> int | Tensor:
    """A band count as a Python int when it is known statically, else as an int64 scalar tensor."""
    if isinstance(value, bool) or isinstance(value, np.bool_):
        raise TypeError(f"{what} must be an integer, got {value!r}")
    if isinstance(value, (int, np.integer)):
        return int(value)
    count = convert_to_tensor(value)
    if not count.dtype.is_integer or count.shape.rank not in (None, 0):
        raise TypeError(f"{what} must be an integer scalar, got {count.name} of type {count.dtype.name} "
                        f"and shape {count.shape}")
    known = constant_value(count)
    return int(known) if known is not None else m.cast(count, _dt.int64)


def trace(x: Any, name: str | None = None) -> Tensor:
    """The sum of each matrix's diagonal."""
    return r.reduce_sum(matrix_diag_part(x), axis=-1, name=name or "trace")


def matrix_transpose_last(x: Tensor) -> Tensor:
    """``x`` with its last two axes swapped (known rank)."""
    rank = x.shape.rank
    if rank is None:
        raise ValueError(f"the rank of {x.name} must be known")
    return transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2])


def adjoint_last(x: Tensor) -> Tensor:
    """``x`` with its last two axes swapped and conjugated (``matrix_transpose_last`` if real)."""
    return c.conj(matrix_transpose_last(x))
