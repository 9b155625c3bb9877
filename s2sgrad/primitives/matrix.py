"""Matrix functions and decompositions over the last two axes (leading axes are a batch):
inverse, determinant, log-determinant, Cholesky, solves, symmetric eigendecomposition, SVD,
QR, and the band/diagonal structure their gradients need. Float and complex dtypes; for a complex
matrix the outputs that are real by definition (eigh's eigenvalues, singular values, the log of
``|det|``) are real, as NumPy returns them (graph mode casts eigh's and slogdet's to complex, as
TensorFlow types them)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..shapes import TensorShape
from .core import define, same_dtype


def _float_matrix(x: Any, op: str, square: bool = True, complex_ok: bool = True) -> tuple:
    if not (x.dtype.is_floating or (complex_ok and x.dtype.is_complex)):
        allowed = "float16/32/64, complex64/128" if complex_ok else "float16/32/64"
        raise TypeError(f"Value passed to parameter 'input' has DataType {x.dtype.name} not allowed for {op} "
                        f"(expects {allowed})")
    dims = x.shape.sizes
    if dims is None:
        return None, None, None
    if len(dims) < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {len(dims)} for '{op}'")
    if square and None not in dims[-2:] and dims[-1] != dims[-2]:
        raise ValueError(f"Dimensions must be equal, but are {dims[-2]} and {dims[-1]} for '{op}' (a square matrix)")
    return list(dims[:-2]), dims[-2], dims[-1]


def _like(name: str) -> Any:
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        _float_matrix(inputs[0], name)
        return [(inputs[0].dtype, inputs[0].shape)]
    return infer


def _determinant_infer(inputs: Sequence[Any], attrs: dict) -> list:
    batch, _, _ = _float_matrix(inputs[0], "MatrixDeterminant")
    return [(inputs[0].dtype, TensorShape(None if batch is None else batch))]


def _log_determinant_infer(inputs: Sequence[Any], attrs: dict) -> list:
    """``(sign, log|det|)``: the log is real for a complex matrix."""
    batch, _, _ = _float_matrix(inputs[0], "LogMatrixDeterminant")
    shape = TensorShape(None if batch is None else batch)
    return [(inputs[0].dtype, shape), (inputs[0].dtype.real_dtype, shape)]


def _solve_infer(inputs: Sequence[Any], attrs: dict) -> list:
    a, b = inputs
    same_dtype([a, b], "matrix and rhs")
    batch, n, _ = _float_matrix(a, "MatrixSolve")
    dims = b.shape.sizes
    if dims is not None and len(dims) < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {len(dims)} for the rhs of a matrix solve")
    if dims is not None and n is not None and dims[-2] is not None and dims[-2] != n:
        raise ValueError(f"Dimensions must be equal, but are {n} and {dims[-2]} for the matrix and the rhs")
    return [(b.dtype, b.shape)]


def _eig_infer(inputs: Sequence[Any], attrs: dict) -> list:
    batch, n, _ = _float_matrix(inputs[0], "SelfAdjointEigV2")
    dtype = inputs[0].dtype
    if batch is None:
        return [(dtype.real_dtype, TensorShape(None)), (dtype, TensorShape(None))]
    return [(dtype.real_dtype, TensorShape([*batch, n])), (dtype, TensorShape([*batch, n, n]))]


def _svd_infer(inputs: Sequence[Any], attrs: dict) -> list:
    batch, m, n = _float_matrix(inputs[0], "Svd", square=False)
    dtype = inputs[0].dtype
    if batch is None:
        return [(dtype.real_dtype, TensorShape(None))] + [(dtype, TensorShape(None))] * 2
    k = None if m is None or n is None else min(m, n)
    full = attrs["full_matrices"]
    return [(dtype.real_dtype, TensorShape([*batch, k])), (dtype, TensorShape([*batch, m, m if full else k])),
            (dtype, TensorShape([*batch, n, n if full else k]))]


def _qr_infer(inputs: Sequence[Any], attrs: dict) -> list:
    batch, m, n = _float_matrix(inputs[0], "Qr", square=False)
    dtype = inputs[0].dtype
    if batch is None:
        return [(dtype, TensorShape(None))] * 2
    k = None if m is None or n is None else min(m, n)
    cols = m if attrs["full_matrices"] else k
    return [(dtype, TensorShape([*batch, m, cols])), (dtype, TensorShape([*batch, cols, n]))]


def _diag_infer(inputs: Sequence[Any], attrs: dict) -> list:
    dims = inputs[0].shape.sizes
    if dims is not None and not dims:
        raise ValueError("Shape must be at least rank 1 but is rank 0 for 'MatrixDiag'")
    return [(inputs[0].dtype, TensorShape(None if dims is None else [*dims, dims[-1]]))]


def _diag_part_infer(inputs: Sequence[Any], attrs: dict) -> list:
    dims = inputs[0].shape.sizes
    if dims is None:
        return [(inputs[0].dtype, TensorShape(None))]
    if len(dims) < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {len(dims)} for 'MatrixDiagPart'")
    m, n = dims[-2:]
    return [(inputs[0].dtype, TensorShape([*dims[:-2], None if m is None or n is None else min(m, n)]))]


def _band_infer(inputs: Sequence[Any], attrs: dict) -> list:
    dims = inputs[0].shape.sizes
    if dims is not None and len(dims) < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {len(dims)} for 'MatrixBandPart'")
    return [(inputs[0].dtype, inputs[0].shape)]


MATRIX_INVERSE = define("MatrixInverse", _like("MatrixInverse"), printed_attrs=("adjoint",))
MATRIX_DETERMINANT = define("MatrixDeterminant", _determinant_infer)
LOG_MATRIX_DETERMINANT = define("LogMatrixDeterminant", _log_determinant_infer)
CHOLESKY = define("Cholesky", _like("Cholesky"), fusable=False)
MATRIX_SOLVE = define("MatrixSolve", _solve_infer, fusable=False)
MATRIX_TRIANGULAR_SOLVE = define("MatrixTriangularSolve", _solve_infer, fusable=False)
SELF_ADJOINT_EIG = define("SelfAdjointEigV2", _eig_infer, default_name="SelfAdjointEigV2", fusable=False)
SVD = define("Svd", _svd_infer, fusable=False)
QR = define("Qr", _qr_infer, fusable=False)
MATRIX_DIAG = define("MatrixDiag", _diag_infer)
MATRIX_DIAG_PART = define("MatrixDiagPart", _diag_part_infer, view="readonly")


def _set_diag_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x, d = inputs
    same_dtype([x, d], "input and diagonal")
    return [(x.dtype, x.shape)]


MATRIX_SET_DIAG = define("MatrixSetDiag", _set_diag_infer)
MATRIX_BAND_PART = define("MatrixBandPart", _band_infer, printed_attrs=("num_lower", "num_upper"))
