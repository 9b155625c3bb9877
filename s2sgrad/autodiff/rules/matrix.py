"""Gradient rules of the matrix functions and decompositions, TensorFlow's (``linalg_grad.py``)
formulas, written with adjoints (conjugate transposes) so that they hold for complex matrices in
TensorFlow's convention (``dL/dx + i dL/dy``); for real matrices an adjoint is a transpose.
Two differ from TensorFlow 2.21 for complex matrices, where its gradient is not the derivative:
the determinant's (``g conj(det) A^-H``; TensorFlow multiplies by ``det``) and the log-determinant's
(only the real part of the log's gradient counts, and the sign's phase is differentiated)."""
from __future__ import annotations

from typing import Any

from ...ops import array_ops as a
from ...ops import complex_ops as cx
from ...ops import creation as c
from ...ops import math_ops as m
from ...ops import matrix_ops as mx
from ...ops.layout_ops import broadcast_to
from ...primitives import matrix as P
from ...ssa.nodes import Operation, Tensor
from .common import Grads, Needed

__all__ = ["RULES"]

H = mx.adjoint_last


def _scalars_times(g: Tensor, matrices: Tensor) -> Tensor:
    """``g[..., None, None] * matrices``."""
    return m.multiply(a.expand_dims(a.expand_dims(g, -1), -1), matrices)


def _inverse(op: Operation, needed: Needed, g: Tensor) -> Grads:
    inv = op.outputs[0]
    grad = m.negative(m.matmul(inv, m.matmul(g, inv, adjoint_b=True), adjoint_a=True))
    return [H(grad) if op.attrs["adjoint"] else grad]


def _determinant(op: Operation, needed: Needed, g: Tensor) -> Grads:
    return [_scalars_times(m.multiply(g, cx.conj(op.outputs[0])), mx.matrix_inverse(op.inputs[0], adjoint=True))]


def _log_determinant(op: Operation, needed: Needed, g_sign: Any, g_log: Any) -> Grads:
    """``g_log A^-T``. For a complex ``A``, ``log|det|`` is ``Re(log det)`` and ``sign`` is
    ``exp(i Im(log det))``, so the multiplier of ``A^-H`` is ``g_log + i Im(g_sign conj(sign))``."""
    sign, log_abs = op.outputs
    if sign.dtype.is_complex and not _unused(g_sign, sign):
        turn = cx.imag(m.multiply(g_sign, cx.conj(sign)))
        g_log = cx.complex(a.zeros_like(turn) if _unused(g_log, log_abs) else g_log, turn)
    elif g_log is None:
        return [None]
    elif sign.dtype.is_complex:
        g_log = m.cast(g_log, sign.dtype)
    return [_scalars_times(g_log, mx.matrix_inverse(op.inputs[0], adjoint=True))]


def _eye_like(x: Tensor) -> Tensor:
    n = x.shape.sizes[-1] if x.shape.sizes is not None else None
    if n is None:
        raise ValueError(f"the gradient of '{x.op.name}' needs the matrix size")
    return c.eye(n, dtype=x.dtype)


def _cholesky(op: Operation, needed: Needed, g: Tensor) -> Grads:
    l = op.outputs[0]  # noqa: E741 - the factor's usual name
    l_inverse = mx.matrix_triangular_solve(l, broadcast_to(_eye_like(l), a.shape(l)), lower=True)
    middle = m.matmul(l, g, adjoint_a=True)
    middle = mx.matrix_set_diag(middle, m.multiply(0.5, mx.matrix_diag_part(middle)))
    middle = mx.matrix_band_part(middle, -1, 0)
    grad = m.matmul(m.matmul(l_inverse, middle, adjoint_a=True), l_inverse)
    return [m.multiply(0.5, m.add(grad, H(grad)))]


def _solve(op: Operation, needed: Needed, g: Tensor) -> Grads:
    matrix, _ = op.inputs
    x = op.outputs[0]
    adjoint = op.attrs["adjoint"]
    grad_b = mx.matrix_solve(matrix, g, adjoint=not adjoint)
    grad_a = m.negative(m.matmul(x, grad_b, adjoint_b=True) if adjoint else m.matmul(grad_b, x, adjoint_b=True))
    return [grad_a, grad_b]


def _triangular_solve(op: Operation, needed: Needed, g: Tensor) -> Grads:
    matrix, _ = op.inputs
    x = op.outputs[0]
    lower, adjoint = op.attrs["lower"], op.attrs["adjoint"]
    grad_b = mx.matrix_triangular_solve(matrix, g, lower=lower, adjoint=not adjoint)
    grad_a = m.negative(m.matmul(x, grad_b, adjoint_b=True) if adjoint else m.matmul(grad_b, x, adjoint_b=True))
    return [mx.matrix_band_part(grad_a, -1, 0) if lower else mx.matrix_band_part(grad_a, 0, -1), grad_b]


def _eigh(op: Operation, needed: Needed, g_e: Any, g_v: Any) -> Grads:
    e, v = op.outputs   # e is real (v complex for a Hermitian matrix)
    inner = m.cast(mx.matrix_diag(g_e), v.dtype) if g_e is not None else a.zeros_like(v)
    if not _unused(g_v, v):
        gaps = m.subtract(a.expand_dims(e, -2), a.expand_dims(e, -1))   # e_j - e_i
        safe = m.add(gaps, _eye_like(gaps))                             # no division by the zero diagonal
        f = m.multiply(m.reciprocal(safe), m.subtract(1.0, _eye_like(gaps)))
        inner = m.add(inner, m.multiply(m.cast(f, v.dtype), m.matmul(v, g_v, adjoint_a=True)))
    grad = m.matmul(v, m.matmul(inner, v, adjoint_b=True))
    lower, upper = (0, -1) if op.attrs.get("upper") else (-1, 0)   # the triangle the decomposition read
    grad = mx.matrix_band_part(m.add(grad, H(grad)), lower, upper)
    return [mx.matrix_set_diag(grad, m.multiply(0.5, mx.matrix_diag_part(grad)))]


def _band_part(op: Operation, needed: Needed, g: Any) -> Grads:
    """The band of the gradient, with the same counts (computed ones are inputs: they get none)."""
    if len(op.inputs) == 3:
        return [mx.matrix_band_part(g, op.inputs[1], op.inputs[2]), None, None]
    return [mx.matrix_band_part(g, op.attrs["num_lower"], op.attrs["num_upper"])]


def _unused(g: Any, t: Tensor) -> bool:
    """No gradient reached output ``t``: the walk passes zeros of it (or nothing)."""
    return g is None or (g.op.type == "ZerosLike" and g.op.inputs[0] is t)


def _svd(op: Operation, needed: Needed, g_s: Any, g_u: Any, g_v: Any) -> Grads:
    s, u, v = op.outputs
    if _unused(g_u, u) and _unused(g_v, v):
        return [_svd_values(op, g_s)]
    dims = op.inputs[0].shape.sizes
    if dims is None or dims[-2] is None or dims[-1] is None:
        raise NotImplementedError(f"the gradient of the singular vectors of '{op.name}' (created at {op.where}) "
                                  "needs known matrix sizes, as in TensorFlow")
    rows, cols = dims[-2], dims[-1]
    if op.attrs["full_matrices"] and abs(rows - cols) > 1:
        raise NotImplementedError(f"the gradient of the singular vectors of '{op.name}' (created at {op.where}) "
                                  f"is not defined for a {rows} x {cols} matrix with full_matrices=True (only when "
                                  "the sizes differ by at most 1, as in TensorFlow); use full_matrices=False")
    g_s, g_u, g_v = (None if _unused(g, t) else g for g, t in zip((g_s, g_u, g_v), (s, u, v), strict=True))
    full, k, n = op.attrs["full_matrices"], min(rows, cols), max(rows, cols)
    if rows <= cols:
        return [_svd_wide(s, u, v, g_s, g_u, g_v, k, n, full)]
    return [H(_svd_wide(s, v, u, g_s, g_v, g_u, k, n, full))]   # x^H = v s u^H is wide


def _svd_values(op: Operation, g_s: Any) -> Tensor | None:
    """``u diag(g_s) v^H`` over the first ``k = min(m, n)`` singular vectors."""
    if g_s is None:
        return None
    _, u, v = op.outputs
    k = op.outputs[0].shape.sizes[-1] if op.outputs[0].shape.sizes is not None else None
    if op.attrs["full_matrices"] and k is not None:
        u, v = u[..., :, :k], v[..., :, :k]
    return m.matmul(m.multiply(u, a.expand_dims(m.cast(g_s, u.dtype), -2)), v, adjoint_b=True)


def _safe_reciprocal(x: Tensor) -> Tensor:
    """``x / (x^2 + 1e-20)``: ``1 / x``, but 0 rather than infinite at a repeated or zero singular value."""
    return m.divide(x, m.add(m.square(x), 1e-20))


def _svd_wide(s: Tensor, u: Tensor, v: Tensor, g_s: Any, g_u: Any, g_v: Any, k: int, n: int, full: bool) -> Tensor:
    """The gradient of a ``k x n`` matrix ``x = u diag(s) v1^H`` (``k <= n``; ``v1``: the first ``k`` columns of
    ``v``, all of them unless ``full``), with ``f[i, j] = 1 / (s_j^2 - s_i^2)`` coupling the singular vectors.
    A gradient that is None (an unused output) drops its terms."""
    s = m.cast(s, u.dtype)
    squares = m.square(s)
    gaps = m.subtract(a.expand_dims(squares, -2), a.expand_dims(squares, -1))
    # masked, not computed, on the diagonal: there the reciprocal's slope is 1e20 (the second derivative)
    f = m.multiply(_safe_reciprocal(gaps), m.subtract(1.0, _eye_like(gaps)))
    v1 = v[..., :, :k] if full and n > k else v
    s_inverse = _safe_reciprocal(s)
    inner = [mx.matrix_diag(m.cast(g_s, u.dtype))] if g_s is not None else []
    if g_u is not None:
        f_u = m.multiply(f, m.matmul(u, g_u, adjoint_a=True))
        inner.append(m.multiply(m.add(f_u, H(f_u)), a.expand_dims(s, -2)))
    if g_v is not None:
        g_v1 = g_v[..., :, :k] if full and n > k else g_v
        v_gv = m.matmul(v1, g_v1, adjoint_a=True)
        f_v = m.multiply(f, v_gv)
        inner.append(m.multiply(a.expand_dims(s, -1), m.add(f_v, H(f_v))))
        if u.dtype.is_complex:   # a singular pair's common phase: the imaginary part of v1^H g_v1's diagonal
            turn = mx.matrix_diag_part(v_gv)
            inner.append(mx.matrix_diag(m.multiply(0.5, m.multiply(s_inverse, m.subtract(cx.conj(turn), turn)))))
    grad = m.matmul(u, m.matmul(m.add_n(inner) if len(inner) > 1 else inner[0], v1, adjoint_b=True))
    if n == k or g_v is None:   # square, or no gradient of v's columns beyond the row space
        return grad
    g_v1_h = H(g_v1)
    rest = m.subtract(g_v1_h, m.matmul(m.matmul(g_v1_h, v1), v1, adjoint_b=True))
    if full:   # v's extra columns v2
        v2, g_v2 = v[..., :, k:], g_v[..., :, k:]
        rest = m.subtract(rest, m.matmul(m.matmul(v1, g_v2, adjoint_a=True), v2, adjoint_b=True))
    return m.add(grad, m.matmul(m.multiply(u, a.expand_dims(s_inverse, -2)), rest))


def _qr(op: Operation, needed: Needed, g_q: Any, g_r: Any) -> Grads:
    q, rr = op.outputs
    dims = op.inputs[0].shape.sizes
    if dims is None or dims[-2] is None or dims[-1] is None or (dims[-2] > dims[-1] and op.attrs["full_matrices"]):
        raise NotImplementedError(f"the gradient of '{op.name}' (created at {op.where}) needs known matrix sizes and "
                                  "is not defined for a tall matrix with full_matrices=True, as in TensorFlow")
    g_q = g_q if g_q is not None else a.zeros_like(q)
    g_r = g_r if g_r is not None else a.zeros_like(rr)
    rows = dims[-2]
    if rows >= dims[-1]:
        return [_qr_square_or_tall(q, rr, g_q, g_r)]
    # a wide matrix [x, y] = q [u, v]: x = q u is a square QR, y = q v
    y, u = op.inputs[0][..., :, rows:], rr[..., :, :rows]
    g_u, g_v = g_r[..., :, :rows], g_r[..., :, rows:]
    g_x = _qr_square_or_tall(q, u, m.add(g_q, m.matmul(y, g_v, adjoint_b=True)), g_u)
    return [a.concat([g_x, m.matmul(q, g_v)], -1)]


def _qr_square_or_tall(q: Tensor, rr: Tensor, g_q: Tensor, g_r: Tensor) -> Tensor:
    qdq = m.matmul(q, g_q, adjoint_a=True)
    rdr = m.matmul(rr, g_r, adjoint_b=True)
    tril = mx.matrix_band_part(m.add(m.subtract(qdq, H(qdq)), m.subtract(rdr, H(rdr))), -1, 0)

    def right_solve(x: Tensor) -> Tensor:   # x @ inv(r)^H: r y = x^H, y^H
        return H(mx.matrix_triangular_solve(rr, H(x), lower=False, adjoint=False))

    grad_a = m.matmul(q, m.add(g_r, right_solve(tril)))
    grad_b = right_solve(m.subtract(g_q, m.matmul(q, qdq)))
    grad = m.add(grad_a, grad_b)
    if q.dtype.is_complex:   # r's diagonal is real: the imaginary part of diag(r dr^H - dq^H q) comes back
        turn = cx.imag(mx.matrix_diag_part(m.subtract(rdr, H(qdq))))
        grad = m.add(grad, right_solve(m.matmul(q, mx.matrix_diag(cx.complex(a.zeros_like(turn), m.negative(turn))))))
    return grad


RULES: dict = {
    P.MATRIX_INVERSE: _inverse,
    P.MATRIX_DETERMINANT: _determinant,
    P.LOG_MATRIX_DETERMINANT: _log_determinant,
    P.CHOLESKY: _cholesky,
    P.MATRIX_SOLVE: _solve,
    P.MATRIX_TRIANGULAR_SOLVE: _triangular_solve,
    P.SELF_ADJOINT_EIG: _eigh,
    P.SVD: _svd,
    P.QR: _qr,
    P.MATRIX_DIAG: lambda op, needed, g: [mx.matrix_diag_part(g)],
    P.MATRIX_DIAG_PART: lambda op, needed, g: [mx.matrix_set_diag(a.zeros_like(op.inputs[0]), g)],
    P.MATRIX_SET_DIAG: lambda op, needed, g: [mx.matrix_set_diag(g, a.zeros_like(op.inputs[1])),
                                              mx.matrix_diag_part(g)],
    P.MATRIX_BAND_PART: _band_part,
}
