"""``np.linalg`` matrix functions on traced values: inv, det, slogdet, solve, cholesky, eigh,
eigvalsh, eig/eigvals (real spectra), svd, qr, pinv, matrix_power, multi_dot, tensorinv and
tensorsolve, recorded as the graph's matrix primitives (so their gradients are TensorFlow's
formulas, written with adjoints: complex matrices work, in TensorFlow's convention). eig/eigvals
take real matrices only."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..ops import array_ops as a
from ..ops import creation as c
from ..ops import eig_ops
from ..ops import math_ops as m
from ..ops import matrix_ops as mx
from .convert import as_tensor, dtype_of
from .linalg import matmul_tensors
from .registry import implements, unsupported
from .traced import Traced

__all__: list[str] = []


def _inexact(x: Any) -> Any:
    """``x`` as a float or complex tensor (integer matrices are inverted, solved... in float64, as
    NumPy does)."""
    return as_tensor(x, None if dtype_of(x).kind in "fc" else np.float64)


def _inexact_pair(a_: Any, b: Any) -> tuple[Any, Any]:
    """A matrix and a right-hand side in their common float or complex dtype (a real matrix and a
    complex right-hand side solve in complex, as in NumPy)."""
    dtype = np.result_type(dtype_of(a_), dtype_of(b))
    dtype = dtype if dtype.kind in "fc" else np.dtype(np.float64)
    return as_tensor(a_, dtype), as_tensor(b, dtype)


def _sizes(t: Any) -> list[int]:
    """The static sizes of a traced tensor (always known while tracing)."""
    return list(t.shape.as_list())


def _real(x: Any, function: str) -> Any:
    if dtype_of(x).kind == "c":
        raise unsupported(f"numpy.linalg.{function} of complex matrices (complex eigenvalues and eigenvectors)")
    return _inexact(x)


@implements(np.linalg.inv)
def _inv(x: Any) -> Traced:
    return Traced(mx.matrix_inverse(_inexact(x)))


@implements(np.linalg.det)
def _det(x: Any) -> Traced:
    return Traced(mx.matrix_determinant(_inexact(x)))


@implements(np.linalg.slogdet)
def _slogdet(x: Any) -> tuple[Traced, Traced]:
    sign, logdet = mx.slogdet(_inexact(x))   # NumPy's dtypes: the log is real
    return Traced(sign), Traced(logdet)


@implements(np.linalg.solve)
def _solve(a_: Any, b: Any) -> Traced:
    x, rhs = _inexact_pair(a_, b)
    if rhs.shape.rank == 1:  # a vector right-hand side, as NumPy takes it
        return Traced(a.squeeze(mx.matrix_solve(x, a.expand_dims(rhs, -1)), [-1]))
    return Traced(mx.matrix_solve(x, rhs))


@implements(np.linalg.cholesky)
def _cholesky(x: Any, upper: bool = False) -> Traced:
    lower = mx.cholesky(_inexact(x))
    return Traced(mx.adjoint_last(lower) if upper else lower)   # x = U^H U


@implements(np.linalg.eigh)
def _eigh(x: Any, UPLO: str = "L") -> tuple[Traced, Traced]:
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    e, v = (mx.eigh if UPLO == "L" else mx.upper_eigh)(_inexact(x))   # the eigenvalues are real
    return Traced(e), Traced(v)


@implements(np.linalg.eig)
def _eig(x: Any) -> tuple[Traced, Traced]:
    """Matrices with real eigenvalues (the generated code raises LinAlgError for complex ones)."""
    w, v = eig_ops.real_eig(_real(x, "eig"))
    return Traced(w), Traced(v)


@implements(np.linalg.eigvals)
def _eigvals(x: Any) -> Traced:
    return _eig(x)[0]


@implements(np.linalg.eigvalsh)
def _eigvalsh(x: Any, UPLO: str = "L") -> Traced:
    return _eigh(x, UPLO)[0]


@implements(np.linalg.svd)
def _svd(x: Any, full_matrices: bool = True, compute_uv: bool = True, hermitian: bool = False) -> Any:
    if hermitian:
        return _hermitian_svd(Traced(_inexact(x)), compute_uv)
    s, u, v = mx.svd(_inexact(x), full_matrices=full_matrices)
    if not compute_uv:
        return Traced(s)
    return Traced(u), Traced(s), Traced(mx.adjoint_last(v))


def _hermitian_svd(x: Traced, compute_uv: bool) -> Any:
    """NumPy's SVD of a Hermitian matrix, from its eigendecomposition (reading the lower triangle):
    the singular values are the eigenvalues' magnitudes, largest first, and each eigenvalue's sign
    goes into the matching row of ``vh`` (``u`` the eigenvectors in that order)."""
    if not compute_uv:
        return np.sort(np.abs(np.linalg.eigvalsh(x)), axis=-1)[..., ::-1]
    e, v = np.linalg.eigh(x)
    order = np.argsort(np.abs(e), axis=-1)[..., ::-1]
    sign = np.take_along_axis(np.copysign(1.0, e), order, axis=-1)   # (zero counts as positive, -0.0 not)
    u = np.take_along_axis(v, order[..., None, :], axis=-1)
    return u, np.take_along_axis(np.abs(e), order, axis=-1), np.swapaxes(u * sign[..., None, :], -1, -2).conj()


@implements(np.linalg.qr)
def _qr(x: Any, mode: str = "reduced") -> Any:
    if mode not in ("reduced", "complete", "r"):
        raise unsupported(f"numpy.linalg.qr(..., mode={mode!r})")
    q, r = mx.qr(_inexact(x), full_matrices=mode == "complete")
    return Traced(r) if mode == "r" else (Traced(q), Traced(r))


_NOT_GIVEN: Any = object()   # pinv's rtol default (None is a value: the cutoff max(m, n) * eps)


def _cut_pinv(x: Traced, rcond: Any, hermitian: bool, rtol: Any) -> Any:
    """NumPy's pinv: ``vh^H diag(1/s) u^H`` of the SVD of ``x``'s conjugate, with 0 for the singular
    values at most ``rcond`` times the largest (``rtol`` the newer name; None: ``max(m, n)`` epsilons)."""
    if rcond is None:
        rcond = 1e-15 if rtol is _NOT_GIVEN else rtol
        if rcond is None:
            rcond = max(x.shape[-2:]) * np.finfo(x.dtype).eps
    elif rtol is not _NOT_GIVEN:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    if isinstance(rcond, Traced):
        raise unsupported("numpy.linalg.pinv with a traced rcond or rtol")
    u, s, vh = np.linalg.svd(x.conj(), full_matrices=False, hermitian=hermitian)
    large = s > np.asarray(rcond)[..., None] * np.max(s, axis=-1, keepdims=True)
    inverse = np.where(large, 1 / np.where(large, s, 1.0), 0.0)
    return np.matmul(np.swapaxes(vh, -1, -2), inverse[..., None] * np.swapaxes(u, -1, -2))


@implements(np.linalg.pinv)
def _pinv(x: Any, rcond: Any = None, hermitian: bool = False, *, rtol: Any = _NOT_GIVEN) -> Traced:
    """``pinv(x) = inv(x^H x) x^H`` for a full-column-rank (or ``x^H (x x^H)^-1`` wide) matrix, the
    cutoff of small singular values not applied; with ``rcond``, ``rtol`` or ``hermitian``, NumPy's own
    construction from the SVD (``_cut_pinv``)."""
    if hermitian or rcond is not None or rtol is not _NOT_GIVEN:
        return _cut_pinv(Traced(_inexact(x)), rcond, hermitian, rtol)
    t = _inexact(x)
    rows, cols = t.shape.sizes[-2:]
    xt = mx.adjoint_last(t)
    if rows >= cols:
        return Traced(m.matmul(mx.matrix_inverse(m.matmul(xt, t)), xt))
    return Traced(m.matmul(xt, mx.matrix_inverse(m.matmul(t, xt))))


@implements(np.linalg.matrix_power)
def _matrix_power(x: Any, n: int) -> Traced:
    if not isinstance(n, (int, np.integer)):
        raise unsupported("numpy.linalg.matrix_power with a non-integer power")
    t = _inexact(x) if n < 0 else as_tensor(x)
    base = mx.matrix_inverse(t) if n < 0 else t
    if n == 0:
        return Traced(m.add(a.zeros_like(t), c.eye(int(t.shape.as_list()[-1] or 0), dtype=t.dtype)))
    result = base
    for _ in range(abs(int(n)) - 1):
        result = m.matmul(result, base)
    return Traced(result)


def _chain_order(dims: Sequence[int]) -> list[list[int]]:
    """``split[i][j]``: where the cheapest product of matrices i..j splits (matrix i is
    ``dims[i] x dims[i + 1]``), as NumPy's ``multi_dot`` orders it."""
    n = len(dims) - 1
    cost = [[0.0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = np.inf
            for k in range(i, j):
                c_ = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c_ < cost[i][j]:
                    cost[i][j], split[i][j] = c_, k
    return split


@implements(np.linalg.multi_dot)
def _multi_dot(arrays: Sequence[Any], *, out: Any = None) -> Traced:
    """The product of two or more matrices in the cheapest order; a 1-D first (last) array is a row
    (column), and its axis is dropped from the result, as in NumPy."""
    if out is not None:
        raise unsupported("numpy.linalg.multi_dot(..., out=...)")
    if len(arrays) < 2:
        raise ValueError("Expecting at least two arrays.")
    dtype = np.result_type(*(dtype_of(v) for v in arrays))
    tensors = [as_tensor(v, dtype) for v in arrays]
    first, last = tensors[0].shape.rank, tensors[-1].shape.rank
    if first == 1:
        tensors[0] = a.reshape(tensors[0], [1, -1])
    if last == 1:
        tensors[-1] = a.reshape(tensors[-1], [-1, 1])
    if any(t.shape.rank != 2 for t in tensors):
        raise ValueError("multi_dot: the arrays must be 2-D (the first and the last may be 1-D)")
    split = _chain_order([_sizes(t)[0] for t in tensors] + [_sizes(tensors[-1])[1]])

    def product(i: int, j: int) -> Any:
        return tensors[i] if i == j else matmul_tensors(product(i, split[i][j]), product(split[i][j] + 1, j))

    result = product(0, len(tensors) - 1)
    dims = _sizes(result)
    return Traced(a.reshape(result, [d for d, drop in zip(dims, (first == 1, last == 1), strict=True) if not drop])
                  if first == 1 or last == 1 else result)


@implements(np.linalg.tensorinv)
def _tensorinv(x: Any, ind: int = 2) -> Traced:
    """The inverse of ``x`` read as a matrix of its first ``ind`` axes by the others."""
    t = _inexact(x)
    dims = _sizes(t)
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    rows, cols = int(np.prod(dims[:ind], dtype=np.int64)), int(np.prod(dims[ind:], dtype=np.int64))
    if rows != cols:
        raise ValueError(f"tensorinv: the first {ind} axes ({rows} elements) and the others ({cols}) must match")
    return Traced(a.reshape(mx.matrix_inverse(a.reshape(t, [rows, cols])), dims[ind:] + dims[:ind]))


@implements(np.linalg.tensorsolve)
def _tensorsolve(a_: Any, b: Any, axes: Any = None) -> Traced:
    """``x`` with ``tensordot(a, x, x.ndim) == b``; ``axes`` of ``a`` move to the end first."""
    x, rhs = _inexact_pair(a_, b)
    dims = _sizes(x)
    if axes is not None:
        moved = [i % len(dims) for i in np.atleast_1d(axes)]
        order = [i for i in range(len(dims)) if i not in moved] + moved
        x, dims = a.transpose(x, order), [dims[i] for i in order]
    rows = int(np.prod(_sizes(rhs), dtype=np.int64))
    unknown = dims[rhs.shape.rank:]
    if rows != int(np.prod(unknown, dtype=np.int64)):
        raise ValueError("tensorsolve: the result's axes and b's must have as many elements (a square problem)")
    solved = mx.matrix_solve(a.reshape(x, [rows, rows]), a.reshape(rhs, [rows, 1]))
    return Traced(a.reshape(solved, unknown))
