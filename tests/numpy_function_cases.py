"""Per-function cases for the decorator, in the shape of autograd's own gradient checks.

``CASES`` holds, for every NumPy function and ufunc ``s2sgrad.tracing.supported()`` lists, calls of
it on several shapes and argument kinds. ``Case.func`` names the NumPy object the case covers;
``Case.f(*args)`` calls it (plain NumPy when the arguments are arrays, recorded ops when they are
traced). ``grad`` marks the float arguments the result is differentiable in (the check is against
central differences in float64); ``second`` adds a Hessian-vector check of the first argument.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

R = np.random.default_rng(16)


def u(*shape: int, lo: float = -1.0, hi: float = 1.0) -> np.ndarray:
    """Uniform float64 values in (lo, hi)."""
    return R.uniform(lo, hi, size=shape)


def pos(*shape: int) -> np.ndarray:
    return u(*shape, lo=0.3, hi=0.9)


def distinct(*shape: int) -> np.ndarray:
    """Well-separated values (sorting, max/min, order statistics have no near-ties)."""
    n = int(np.prod(shape, dtype=np.int64))
    return (R.permutation(n) * 0.37 + u(n, lo=0.0, hi=0.05)).reshape(shape)


def spd(n: int) -> np.ndarray:
    m = u(n, n)
    return m @ m.T + n * np.eye(n)


@dataclass
class Case:
    func: Any                      # the NumPy function or ufunc covered
    f: Callable                    # f(*args)
    args: tuple
    grad: tuple = (0,)             # differentiable argument positions (() for a forward-only case)
    second: bool = True            # check second order of argument 0 too
    label: str = ""
    tol: float = 1e-6
    kwargs: dict = field(default_factory=dict)

    @property
    def id(self) -> str:
        name = getattr(self.func, "__name__", str(self.func))
        return f"{name}-{self.label}" if self.label else name


CASES: list[Case] = []


def add(func: Any, f: Callable, *argsets: tuple, **options: Any) -> None:
    """One case per argument tuple."""
    for i, args in enumerate(argsets):
        CASES.append(Case(func, f, args, label=options.pop("label", "") or str(i), **options))


# -- ufuncs -----------------------------------------------------------------------------------------

UNARY_ANY = [np.sin, np.cos, np.tan, np.tanh, np.sinh, np.cosh, np.arctan, np.arcsinh, np.exp, np.expm1, np.exp2,
             np.square, np.negative, np.positive, np.absolute, np.fabs, np.deg2rad, np.rad2deg, np.radians,
             np.degrees, np.cbrt, np.conjugate, np.sign]
UNARY_UNIT = [np.arcsin, np.arccos, np.arctanh]
UNARY_POSITIVE = [np.log, np.log2, np.log10, np.log1p, np.sqrt, np.reciprocal]
UNARY_ABOVE_ONE = [np.arccosh]
PIECEWISE = [np.floor, np.ceil, np.trunc, np.rint, np.sign]  # derivative 0 almost everywhere
BINARY = [np.add, np.subtract, np.multiply, np.maximum, np.minimum, np.fmax, np.fmin, np.hypot, np.arctan2,
          np.logaddexp, np.logaddexp2]
SIGN_BIT = [np.copysign]   # x's magnitude with y's sign bit: derivative +-1 in x, 0 in y (y away from 0)
BINARY_POSITIVE_RIGHT = [np.divide, np.power, np.float_power, np.remainder, np.floor_divide]
PREDICATES = [np.isnan, np.isinf, np.isfinite, np.isposinf, np.isneginf, np.logical_not]
COMPARISONS = [np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal, np.logical_and,
               np.logical_or, np.logical_xor]
BITWISE = [np.bitwise_and, np.bitwise_or, np.bitwise_xor]

for _u in UNARY_ANY:
    add(_u, _u, (u(),), (u(3),), (u(2, 3),), grad=() if _u in PIECEWISE else (0,))
for _u in UNARY_UNIT:
    add(_u, _u, (u(3, lo=-0.8, hi=0.8),), (u(2, 2, lo=-0.8, hi=0.8),))
for _u in UNARY_POSITIVE:
    add(_u, _u, (pos(),), (pos(3),), (pos(2, 3),))
for _u in UNARY_ABOVE_ONE:
    add(_u, _u, (u(3, lo=1.5, hi=3.0),), (u(2, 2, lo=1.5, hi=3.0),))
for _u in PIECEWISE:
    if _u is not np.sign:
        add(_u, _u, (u(4) * 3,), (u(2, 3) * 3,), grad=())
for _u in BINARY:
    add(_u, _u, (distinct(3), distinct(3) + 0.1), (distinct(2, 3), u(3)), (u(2, 1), u(3)), (u(3), 0.25),
        grad=(0, 1))
for _u in SIGN_BIT:
    add(_u, _u, (distinct(3) - 1.0, u(3)), (u(2, 3), u(3)), (u(2, 1), u(3)), (u(3), -0.25), grad=(0, 1))
for _u in BINARY_POSITIVE_RIGHT:
    piecewise = _u in (np.remainder, np.floor_divide)
    add(_u, _u, (pos(3), pos(3) + 0.5), (pos(2, 3), u(3, lo=0.6, hi=1.2)), (pos(3), 2.0),
        grad=() if _u is np.floor_divide else ((0,) if piecewise else (0, 1)))
add(np.isclose, lambda x, y: np.isclose(x, y, atol=0.1), (u(5), u(5)), grad=())
add(np.isclose, lambda x, y: np.isclose(x, y, equal_nan=True), (np.array([1.0, np.nan, np.inf, -np.inf, 2.0]),
                                                                 np.array([1.0, np.nan, np.inf, np.inf, 2.5])),
    grad=(), label="special")
add(np.fix, np.fix, (u(4) * 3,), grad=())
add(np.iscomplexobj, lambda x: x * np.iscomplexobj(x), (u(3),))
for _u in PREDICATES:
    add(_u, _u, (np.array([0.5, np.nan, np.inf, -np.inf, -1.0]),), grad=())
for _u in COMPARISONS:
    add(_u, _u, (distinct(3), distinct(3)), (distinct(2, 3), 0.5), grad=())
for _u in BITWISE:
    add(_u, lambda x, y, _u=_u: _u(x > 0, y > 0), (u(4), u(4)), grad=())
add(np.invert, lambda x: np.invert(x > 0), (u(4),), grad=())
add(np.power, lambda x: np.power(x, 0.0), (np.array([0.0, 0.5]),), label="zero-exponent")
add(np.matmul, np.matmul, (u(2, 3), u(3, 4)), (u(3), u(3, 2)), (u(2, 2, 3), u(3)), (u(2, 2, 3), u(2, 3, 2)),
    grad=(0, 1))

# -- reductions and scans ---------------------------------------------------------------------------

for _r in (np.sum, np.mean, np.prod, np.max, np.min, np.amax, np.amin, np.ptp):
    add(_r, _r, (distinct(4),), (distinct(2, 3),))
    add(_r, lambda x, _r=_r: _r(x, axis=1), (distinct(2, 3),), label="axis1")
    add(_r, lambda x, _r=_r: _r(x, axis=(0, 2), keepdims=True), (distinct(2, 3, 2),), label="axes-keepdims")
for _r in (np.var, np.std):
    add(_r, _r, (u(4),), (u(2, 3),))
    add(_r, lambda x, _r=_r: _r(x, axis=0, ddof=1), (u(3, 2),), label="ddof")
    add(_r, lambda x, _r=_r: _r(x, axis=1), (u(3, 1),), label="length-1-axis", second=False)
    add(_r, _r, (np.array(0.7),), label="scalar", second=False)
add(np.cumsum, np.cumsum, (u(4),), (u(2, 3),))
add(np.cumsum, lambda x: np.cumsum(x, axis=0), (u(2, 3),), label="axis0")
add(np.cumprod, np.cumprod, (u(4),), (u(2, 3),))
# through zeros the first derivative is exact; the second is not (np.prod's gradient is made of cumulative products,
# whose own gradient divides by the values: docs/decorator.md)
add(np.cumprod, lambda x: np.cumprod(x, axis=1), (np.array([[1.0, 0.0, 2.0], [0.5, 3.0, 0.0]]),), label="zeros",
    second=False)
add(np.average, np.average, (u(4),), (u(2, 3),))
add(np.average, lambda x, w: np.average(x, axis=1, weights=w), (u(2, 3), pos(3)), grad=(0, 1), label="weights")
for _r in (np.all, np.any, np.count_nonzero, np.argmax, np.argmin):
    add(_r, _r, (distinct(4) - 1,), grad=())
    add(_r, lambda x, _r=_r: _r(x, axis=0), (distinct(2, 3) - 1,), grad=(), label="axis0")

# -- sorting and order statistics -----------------------------------------------------------------

add(np.sort, np.sort, (distinct(5),), (distinct(2, 3),))
add(np.sort, lambda x: np.sort(x, axis=0), (distinct(3, 2),), label="axis0")
add(np.sort, lambda x: np.sort(x, axis=None), (distinct(2, 3),), label="flat")
add(np.argpartition, lambda x: np.take_along_axis(x, np.argpartition(x, 1), -1)[..., 1], (distinct(5),),
    (distinct(2, 3),), grad=())
add(np.argsort, np.argsort, (distinct(5),), (distinct(2, 3),), grad=())
add(np.partition, lambda x: np.partition(x, 2)[..., 2], (distinct(5),), (distinct(2, 4),))
add(np.median, np.median, (distinct(5),), (distinct(4),), (distinct(2, 3),))
add(np.median, lambda x: np.median(x, axis=0, keepdims=True), (distinct(4, 3),), label="axis")
add(np.percentile, lambda x: np.percentile(x, 30), (distinct(5),))
add(np.percentile, lambda x: np.percentile(x, [10, 75], axis=1), (distinct(2, 5),), label="list")
add(np.quantile, lambda x: np.quantile(x, 0.4), (distinct(6),))
add(np.quantile, lambda x: np.quantile(x, np.array([[0.2], [0.9]]), axis=0, keepdims=True), (distinct(5, 2),),
    label="2d-q")

# -- shapes and layout ------------------------------------------------------------------------------

add(np.reshape, lambda x: np.reshape(x, (3, -1)), (u(2, 3),), (u(6),))
add(np.ravel, np.ravel, (u(2, 3),))
add(np.transpose, np.transpose, (u(2, 3),), (u(2, 3, 4),))
add(np.transpose, lambda x: np.transpose(x, (1, 2, 0)), (u(2, 3, 4),), label="perm")
add(np.swapaxes, lambda x: np.swapaxes(x, 0, 2), (u(2, 3, 4),))
add(np.moveaxis, lambda x: np.moveaxis(x, 0, -1), (u(2, 3, 4),))
add(np.rollaxis, lambda x: np.rollaxis(x, 2), (u(2, 3, 4),))
add(np.rollaxis, lambda x: np.rollaxis(x, 0, 3), (u(2, 3, 4),), label="start")
add(np.expand_dims, lambda x: np.expand_dims(x, (0, 2)), (u(3),))
add(np.squeeze, np.squeeze, (u(1, 3, 1),))
add(np.atleast_1d, np.atleast_1d, (u(),), (u(2),))
add(np.atleast_2d, np.atleast_2d, (u(),), (u(3),))
add(np.atleast_3d, np.atleast_3d, (u(3),), (u(2, 3),))
add(np.broadcast_to, lambda x: np.broadcast_to(x, (2, 3)), (u(3),), (u(2, 1),))
add(np.broadcast_arrays, lambda x, y: np.broadcast_arrays(x, y), (u(3), u(2, 1)), grad=(0, 1))
add(np.stack, lambda x, y: np.stack([x, y], axis=1), (u(3), u(3)), grad=(0, 1))
add(np.stack, lambda x: np.stack((x,)), (u(3),), label="one")
add(np.concatenate, lambda x, y: np.concatenate([x, y], axis=0), (u(2, 3), u(1, 3)), grad=(0, 1))
add(np.concatenate, lambda x, y: np.concatenate([x, y], axis=None), (u(2, 3), u(2)), grad=(0, 1), label="flat")
add(np.hstack, lambda x, y: np.hstack([x, y]), (u(3), u(2)), (u(2, 1), u(2, 2)), grad=(0, 1))
add(np.vstack, lambda x, y: np.vstack([x, y]), (u(3), u(3)), (u(1, 2), u(2, 2)), grad=(0, 1))
add(np.dstack, lambda x, y: np.dstack([x, y]), (u(2, 2), u(2, 2)), grad=(0, 1))
add(np.column_stack, lambda x, y: np.column_stack([x, y]), (u(3), u(3, 2)), grad=(0, 1))
add(np.append, np.append, (u(3), u(2)), grad=(0, 1))
add(np.append, lambda x, y: np.append(x, y, axis=0), (u(2, 2), u(1, 2)), grad=(0, 1), label="axis")
add(np.split, lambda x: np.split(x, 2), (u(4),), (u(4, 2),))
add(np.split, lambda x: np.split(x, [1, 3], axis=1), (u(2, 4),), label="indices")
add(np.array_split, lambda x: np.array_split(x, 3), (u(5),))
add(np.vsplit, lambda x: np.vsplit(x, 2), (u(4, 2),))
add(np.hsplit, lambda x: np.hsplit(x, 2), (u(4),), (u(2, 4),))
add(np.dsplit, lambda x: np.dsplit(x, [1]), (u(2, 2, 3),))
add(np.tile, lambda x: np.tile(x, (2, 1)), (u(3),), (u(2, 2),))
add(np.repeat, lambda x: np.repeat(x, 2), (u(3),))
add(np.repeat, lambda x: np.repeat(x, [1, 2], axis=0), (u(2, 3),), label="axis")
add(np.roll, lambda x: np.roll(x, 1), (u(4),), (u(2, 3),))
add(np.roll, lambda x: np.roll(x, (1, -1), axis=(0, 1)), (u(2, 3),), label="axes")
add(np.pad, lambda x: np.pad(x, 1), (u(3),), (u(2, 2),))
add(np.pad, lambda x: np.pad(x, (1, 2), mode="reflect"), (u(4),), label="reflect")
add(np.flip, np.flip, (u(3),), (u(2, 3),))
add(np.fliplr, np.fliplr, (u(2, 3),))
add(np.flipud, np.flipud, (u(2, 3),))
add(np.rot90, np.rot90, (u(2, 3),))
add(np.rot90, lambda x: np.rot90(x, 2), (u(2, 3),), label="k2")
add(np.rot90, lambda x: np.rot90(x, -1, axes=(1, 2)), (u(2, 3, 2),), label="axes")
add(np.diff, np.diff, (u(4),), (u(2, 3),))
add(np.diff, lambda x: np.diff(x, n=2, axis=0, prepend=0.5), (u(3, 2),), label="n2-prepend")
add(np.gradient, np.gradient, (u(5),), (u(3, 4),))
add(np.gradient, lambda x: np.gradient(x, 0.5, edge_order=2), (u(5),), label="edge2")
add(np.gradient, lambda x: np.gradient(x, np.array([0.0, 0.4, 1.0, 1.3, 2.0]), axis=0), (u(5, 2),),
    label="coordinates")
add(np.kron, np.kron, (u(2), u(3)), (u(2, 2), u(2, 3)), (u(3), u(2, 2)), grad=(0, 1))
add(np.select, lambda x, y: np.select([x > 0.3, x < -0.3], [x * 2, y], default=0.5), (u(5), u(5)), grad=(0, 1))
add(np.where, lambda x, y: np.where(x > 0, x, y), (u(5), u(5)), (u(2, 3), u(3)), grad=(0, 1))
add(np.clip, lambda x: np.clip(x, -0.5, 0.5), (u(6),))
add(np.take, lambda x: np.take(x, [2, 0, 2]), (u(4),))
add(np.take, lambda x: np.take(x, [1, 0], axis=1), (u(2, 3),), label="axis")
add(np.take_along_axis, lambda x: np.take_along_axis(x, np.array([[0, 2], [1, 1]]), axis=1), (u(2, 3),))
add(np.fft.fftshift, np.fft.fftshift, (u(5),), (u(2, 3),))
add(np.fft.ifftshift, np.fft.ifftshift, (u(5),), (u(2, 3),))
if hasattr(np, "row_stack"):
    add(np.row_stack, lambda x, y: np.row_stack([x, y]), (u(3), u(3)), grad=(0, 1))

# -- values, copies and constructors ----------------------------------------------------------------

add(np.copy, np.copy, (u(3),))
if hasattr(np, "astype"):  # NumPy 2.1 and later
    add(np.astype, lambda x: np.astype(x, np.float64) * x, (u(3),))
    add(np.astype, lambda x: np.astype(x * 3, np.int32), (u(3),), grad=(), label="int")
add(np.real, np.real, (u(3),))
# complex paths from real arguments (tests/test_decorator_complex.py checks complex arguments)
add(np.real, lambda x: np.real(np.exp(1j * x) * (2.0 - 1.0j)), (u(3),), (u(2, 3),), label="complex")
add(np.imag, lambda x: np.imag(np.sin(x * (1.0 + 2.0j))), (u(3),), (u(2, 2),))
add(np.angle, lambda x: np.angle(x + 0.5j) * x, (u(3),), (u(2, 3),))
add(np.angle, lambda x: np.angle(x, deg=True) + x, (u(4),), label="real_degrees")
add(np.conjugate, lambda x: np.real(np.conjugate(x * (1.0 + 1.0j)) * (2.0 - 1.0j)), (u(3),), label="complex")
add(np.round, lambda x: np.round(x, 1), (u(4),), grad=())
add(np.around, lambda x: np.around(x, 1), (u(4),), grad=())
add(np.nan_to_num, np.nan_to_num, (u(4),), (np.array([0.5, np.nan, 0.7]),))
add(np.nan_to_num, lambda x: np.nan_to_num(x, nan=1.0, posinf=5.0, neginf=-5.0),
    (np.array([0.5, np.nan, np.inf, -np.inf]),),
    label="inf")
add(np.sinc, np.sinc, (u(4),), (u(2, 3),))
add(np.sinc, np.sinc, (np.array([0.0, 0.5]),), second=False, label="at-zero")
for _c in (np.zeros_like, np.ones_like, np.empty_like):
    add(_c, lambda x, _c=_c: _c(x) * 0.0 + x, (u(3),))
add(np.full_like, lambda x: np.full_like(x, 0.5) * x, (u(3),))
add(np.linspace, lambda x, y: np.linspace(x, y, 4), (u(), u() + 2), grad=(0, 1))
add(np.result_type, lambda x: x.astype(np.result_type(x, np.float32)), (u(3),))
for _q in (np.shape, np.ndim, np.size):
    add(_q, lambda x, _q=_q: x * np.size(_q(x)), (u(2, 3),))

# -- products and linear algebra -----------------------------------------------------------------------

add(np.dot, np.dot, (u(3), u(3)), (u(2, 3), u(3)), (u(2, 3), u(3, 2)), (u(2, 3), u(2, 3, 2)), (u(3), 2.0),
    grad=(0, 1))
add(np.inner, np.inner, (u(3), u(3)), (u(2, 3), u(4, 3)), grad=(0, 1))
add(np.outer, np.outer, (u(3), u(2)), grad=(0, 1))
add(np.vdot, np.vdot, (u(2, 2), u(4)), grad=(0, 1))
add(np.tensordot, np.tensordot, (u(2, 3, 4), u(3, 4, 2)), grad=(0, 1))
add(np.tensordot, lambda x, y: np.tensordot(x, y, axes=([0], [1])), (u(3, 2), u(2, 3)), grad=(0, 1),
    label="axes")
add(np.einsum, lambda x, y: np.einsum("ij,jk->ik", x, y), (u(2, 3), u(3, 2)), grad=(0, 1))
add(np.einsum, lambda x: np.einsum("ii->i", x), (u(3, 3),), label="diag")
add(np.einsum, lambda x, y: np.einsum("...i,...i", x, y), (u(2, 3), u(3)), grad=(0, 1), label="ellipsis")
add(np.einsum, lambda x, y: np.einsum(x, [0, 1], y, [1, 2], [0, 2]), (u(2, 3), u(3, 2)), grad=(0, 1),
    label="sublists")
add(np.einsum, lambda x: np.einsum(x, [Ellipsis, 0]), (u(2, 3),), label="sublist-implicit")
add(np.cross, np.cross, (u(3), u(3)), (u(2, 3), u(3)), grad=(0, 1))
add(np.cross, lambda x, y: np.cross(x, y, axisa=0, axisb=0, axisc=0), (u(3, 2), u(3, 2)), grad=(0, 1),
    label="axes")
add(np.cross, lambda x, y: np.cross(x, y, axis=0), (u(3, 2), u(3, 2)), grad=(0, 1), label="axis")
add(np.diagonal, np.diagonal, (u(3, 3),), (u(2, 3, 4),))
add(np.diagonal, lambda x: np.diagonal(x, 1, 1, 2), (u(2, 3, 4),), label="offset")
add(np.diag, np.diag, (u(3),), (u(3, 3),))
add(np.diag, lambda x: np.diag(x, -1), (u(3),), label="k")
add(np.trace, np.trace, (u(3, 3),), (u(2, 3, 3),))
add(np.triu, np.triu, (u(3, 3),))
add(np.tril, lambda x: np.tril(x, -1), (u(3, 3),), (u(2, 3, 3),))
for _o in (None, 1, 2, np.inf, -np.inf, 3):
    add(np.linalg.norm, lambda x, _o=_o: np.linalg.norm(x, ord=_o), (u(4),), label=f"vec-{_o}")
for _o in (None, "fro", 1, -1, np.inf, 2, -2, "nuc"):
    add(np.linalg.norm, lambda x, _o=_o: np.linalg.norm(x, ord=_o), (distinct(3, 3),), label=f"mat-{_o}")
add(np.linalg.norm, lambda x: np.linalg.norm(x, axis=1, keepdims=True), (u(2, 3),), label="axis")
add(np.linalg.norm, lambda x: np.linalg.norm(x, ord="nuc", axis=(2, 0)), (u(3, 2, 2),), label="nuc-axes")
add(np.linalg.inv, np.linalg.inv, (spd(3),), (u(2, 3, 3) + 3 * np.eye(3),))
add(np.linalg.det, np.linalg.det, (u(3, 3),), (u(2, 2, 2),))
add(np.linalg.slogdet, lambda x: np.linalg.slogdet(x)[1], (spd(3),))
add(np.linalg.solve, np.linalg.solve, (spd(3), u(3)), (spd(3), u(3, 2)), grad=(0, 1))
# NumPy reads only the lower triangle; the gradient is the symmetric one (autograd's, TF's): check symmetric inputs
add(np.linalg.cholesky, lambda x: np.linalg.cholesky((x + x.T) / 2), (spd(3),), second=False)
add(np.linalg.eigh, lambda x: np.linalg.eigh(x + x.T)[0], (spd(3),), second=False)
add(np.linalg.eigvalsh, lambda x: np.linalg.eigvalsh(x + x.T), (spd(3),), second=False)
# UPLO="U" reads only the upper triangle: any square input; its eigenvectors are LAPACK's for that triangle
add(np.linalg.eigh, lambda x: np.linalg.eigh(x, UPLO="U")[1] * np.arange(1.0, 4.0), (u(3, 3),), second=False,
    label="upper vectors")
add(np.linalg.eigvalsh, lambda x: np.linalg.eigvalsh(x, UPLO="U"), (u(3, 3),), second=False, label="upper")
_S = u(3, 3) + 2 * np.eye(3)
REAL_SPECTRUM = _S @ np.diag([1.0, 2.5, 4.0]) @ np.linalg.inv(_S)  # not symmetric, real distinct eigenvalues
add(np.linalg.eig, lambda x: np.linalg.eig(x)[0], (REAL_SPECTRUM,), label="values")
add(np.linalg.eig, lambda x: np.square(np.linalg.eig(x)[1]), (REAL_SPECTRUM,), label="vectors")  # sign-free
add(np.linalg.eigvals, np.linalg.eigvals, (REAL_SPECTRUM,))
add(np.linalg.svd, lambda x: np.linalg.svd(x, compute_uv=False), (distinct(3, 2),))
add(np.linalg.svd, lambda x: np.square(np.linalg.svd(x, full_matrices=False)[0]), (distinct(3, 2),), (u(2, 2, 3),),
    label="u")   # squares: sign-free
add(np.linalg.svd, lambda x: np.abs(np.linalg.svd(x)[2]) + np.linalg.svd(x)[1][:, None], (distinct(3, 3),),
    label="vh-full")
# hermitian=True: NumPy's own construction from eigh (lower triangle), symmetric inputs for the check
add(np.linalg.svd, lambda x: np.linalg.svd(x + x.T, hermitian=True)[0] * np.arange(1.0, 4.0), (u(3, 3),),
    second=False, label="hermitian u")
add(np.linalg.svd, lambda x: np.linalg.svd(x + x.T, hermitian=True)[2] * np.arange(1.0, 4.0) + np.linalg.svd(
    x + x.T, hermitian=True)[1], (u(3, 3),), second=False, label="hermitian s vh")
add(np.linalg.svd, lambda x: np.linalg.svd(x + np.swapaxes(x, -1, -2), hermitian=True, compute_uv=False),
    (u(2, 3, 3),), second=False, label="hermitian values")
add(np.linalg.qr, lambda x: np.linalg.qr(x)[1], (u(3, 3) + 2 * np.eye(3),), second=False)
add(np.linalg.qr, lambda x: np.linalg.qr(x)[0] + np.linalg.qr(x)[1][:, :2], (u(2, 4),), label="wide", second=False)
add(np.linalg.pinv, np.linalg.pinv, (u(3, 2),), (u(2, 3),))
_Q1, _Q2 = np.linalg.qr(u(3, 3))[0], np.linalg.qr(u(3, 3))[0]
NEAR_RANK_2 = _Q1 @ np.diag([3.0, 2.0, 0.1]) @ _Q2   # rtol=0.3 cuts the smallest singular value, locally
add(np.linalg.pinv, lambda x: np.linalg.pinv(x, rcond=1e-10), (distinct(3, 2),), second=False, label="rcond")
add(np.linalg.pinv, lambda x: np.linalg.pinv(x, rtol=0.3), (NEAR_RANK_2,), second=False, label="rtol cut")
add(np.linalg.pinv, lambda x: np.linalg.pinv(x + x.T, hermitian=True), (u(3, 3),), second=False, label="hermitian")
add(np.linalg.matrix_power, lambda x: np.linalg.matrix_power(x, 3), (u(2, 2),))
add(np.linalg.matrix_power, lambda x: np.linalg.matrix_power(x, -1), (spd(2),), label="inverse")
add(np.linalg.tensorinv, lambda x: np.linalg.tensorinv(x, ind=1), (u(4, 2, 2) + np.eye(4).reshape(4, 2, 2),))
add(np.linalg.tensorsolve, np.linalg.tensorsolve, ((u(6, 6) + 3 * np.eye(6)).reshape(2, 3, 6), u(2, 3)), grad=(0, 1))
add(np.linalg.tensorsolve, lambda x, y: np.linalg.tensorsolve(x, y, axes=(0,)),
    ((u(6, 6) + 3 * np.eye(6)).T.reshape(6, 2, 3), u(2, 3)), grad=(0, 1), label="axes")
add(np.linalg.multi_dot, lambda x, y, z: np.linalg.multi_dot([x, y, z]), (u(2, 3), u(3, 4), u(4, 2)),
    (u(3), u(3, 2), u(2)), grad=(0, 1, 2))

# -- NaN-ignoring functions, steps and remainders with corners (docs/decorator.md's corner table) -------

def with_nans(*shape: int) -> np.ndarray:
    """Well-separated values with a NaN in every other row (no slice is all NaN)."""
    x = distinct(*shape)
    x.reshape(-1, shape[-1])[::2, 0] = np.nan
    return x


add(np.compress, lambda x: np.compress([True, False, True], x, axis=-1), (u(3),), (u(2, 3),))
add(np.compress, lambda x: np.compress(np.array([False, True]), x), (u(2, 2),), label="flat")
add(np.compress, lambda x: x.compress([True, True, False, True], axis=0), (u(4, 2),), label="method")
add(np.extract, lambda x: np.extract(np.eye(3, dtype=bool), x), (u(3, 3),))
add(np.fmod, np.fmod, (u(5) * 4, u(5, lo=0.6, hi=1.4)), (u(2, 3) * 4, -1.3), (u(4) * 3, u(2, 1, lo=0.6, hi=1.2)),
    grad=(0, 1))
add(np.heaviside, lambda x, y: np.heaviside(x, y) * x, (u(4), 0.5), (u(2, 3), u(3)), grad=(0, 1), second=False)
add(np.heaviside, np.heaviside, (np.array([-1.0, 0.0, 2.0, 0.0]), u(4)), grad=(1,), label="at-0")
for _f in (np.nansum, np.nanprod, np.nanmean, np.nanvar, np.nanstd, np.nanmax, np.nanmin, np.nanmedian):
    add(_f, _f, (with_nans(5),), (with_nans(3, 4),))
    add(_f, lambda x, f=_f: f(x, axis=0), (with_nans(4, 3),), label="axis")
for _f in (np.nancumsum, np.nancumprod):
    add(_f, lambda x, f=_f: f(x, axis=1), (with_nans(3, 4),))
for _f in (np.nanargmax, np.nanargmin):
    add(_f, lambda x, f=_f: np.take_along_axis(x, f(x, axis=1, keepdims=True), axis=1), (with_nans(4, 3),))
add(np.nanquantile, lambda x: np.nanquantile(x, [0.1, 0.5, 0.8], axis=1), (with_nans(3, 5),))
for _m in ("lower", "higher", "nearest", "midpoint"):
    add(np.nanquantile, lambda x, m=_m: np.nanquantile(x, [0.25, 0.6], method=m, axis=0), (with_nans(5, 2),),
        label=_m)
add(np.nanpercentile, lambda x: np.nanpercentile(x, 35, axis=-1, keepdims=True), (with_nans(2, 6),))
for _m in ("inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "median_unbiased", "normal_unbiased", "lower", "higher", "nearest", "midpoint"):
    add(np.quantile, lambda x, m=_m: np.quantile(x, [0.1, 0.5, 0.75], method=m, axis=1), (distinct(2, 7),), label=_m)


# -- Fourier transforms (complex arguments as ``x + 1j * y``: both parts are checked) ------------------


def spectrum(z: Any) -> Any:
    """A real function of a complex spectrum that sees both parts."""
    return np.real(z) + 0.7 * np.imag(z)


for _t in (np.fft.fft, np.fft.ifft):
    add(_t, lambda x, _t=_t: spectrum(_t(x)), (u(5),), (u(2, 4),))
    add(_t, lambda x, y, _t=_t: spectrum(_t(x + 1j * y, n=8)), (u(6), u(6)), grad=(0, 1), label="pad")
    add(_t, lambda x, y, _t=_t: spectrum(_t(x + 1j * y, n=3, axis=0, norm="ortho")), (u(5, 2), u(5, 2)),
        grad=(0, 1), label="crop-axis-ortho")
    add(_t, lambda x, _t=_t: np.abs(_t(x, norm="forward")) ** 2, (u(2, 3, 4),), label="power-forward")
for _t in (np.fft.fft2, np.fft.ifft2, np.fft.fftn, np.fft.ifftn):
    add(_t, lambda x, _t=_t: spectrum(_t(x)), (u(3, 4),), (u(2, 3, 4),))
    add(_t, lambda x, y, _t=_t: spectrum(_t(x + 1j * y, s=(4, 3), axes=(0, 2), norm="ortho")),
        (u(3, 2, 4), u(3, 2, 4)), grad=(0, 1), label="s-axes-ortho")
    add(_t, lambda x, _t=_t: np.abs(_t(x, s=(5, 2), axes=(0, 1), norm="forward")) ** 2, (u(2, 4, 3),), label="power")
for _t in (np.fft.rfft, np.fft.rfft2, np.fft.rfftn):
    one = _t is np.fft.rfft
    add(_t, lambda x, _t=_t: spectrum(_t(x)), (u(4, 6),), (u(3, 5),), (u(2, 3, 4),))
    add(_t, lambda x, _t=_t, one=one: spectrum(_t(x, 9, axis=0) if one else _t(x, (9, 2), axes=(0, 1))),
        (u(6, 3),), label="pad-odd")
    add(_t, lambda x, _t=_t, one=one: spectrum(_t(x, 4, norm="ortho") if one else _t(x, (2, 4), (0, 1), norm="ortho")),
        (u(3, 7),), label="crop-ortho")
    add(_t, lambda x, _t=_t: np.abs(_t(x, norm="forward")) ** 2, (u(3, 6),), (u(3, 5),), label="power-forward")
for _t in (np.fft.irfft, np.fft.irfft2, np.fft.irfftn):
    one = _t is np.fft.irfft
    add(_t, lambda x, y, _t=_t: _t(x + 1j * y), (u(3, 4), u(3, 4)), (u(5), u(5)) if one else (u(2, 3, 4), u(2, 3, 4)),
        grad=(0, 1))
    add(_t, lambda x, y, _t=_t, one=one: _t(x + 1j * y, 9, axis=0) if one else _t(x + 1j * y, (9, 3), axes=(0, 1)),
        (u(4, 3), u(4, 3)), grad=(0, 1), label="pad-odd")
    add(_t, lambda x, y, _t=_t, one=one: _t(x + 1j * y, 4, norm="ortho") if one else _t(x + 1j * y, (2, 4), (0, 1),
                                                                                            norm="ortho"),
        (u(3, 6), u(3, 6)), grad=(0, 1), label="crop-ortho")
    add(_t, lambda x, _t=_t: _t(x, norm="forward") ** 2, (u(2, 5),), label="real-argument-forward")

# -- ufunc methods (covered as the ufunc's ``reduce``/``accumulate``/``outer``/``at``) ----------------

UFUNC_METHODS: list[Case] = []


def method(name: str, f: Callable, *argsets: tuple, **options: Any) -> None:
    for i, args in enumerate(argsets):
        UFUNC_METHODS.append(Case(name, f, args, label=str(i), **options))


method("add.reduce", lambda x: np.add.reduce(x, axis=1), (u(2, 3),))
method("multiply.reduce", lambda x: np.multiply.reduce(x), (u(3),))
method("maximum.reduce", lambda x: np.maximum.reduce(x, axis=None), (distinct(2, 3),))
method("logaddexp.reduce", lambda x: np.logaddexp.reduce(x), (u(4),), (u(2, 3) * 50,))
method("logaddexp2.reduce", lambda x: np.logaddexp2.reduce(x, axis=1, keepdims=True), (u(2, 3),))
method("hypot.reduce", lambda x: np.hypot.reduce(x, axis=0), (u(3, 2),))
method("subtract.reduce", lambda x: np.subtract.reduce(x, axis=0, initial=1.0), (u(3, 2),))
method("add.accumulate", lambda x: np.add.accumulate(x), (u(4),))
method("maximum.accumulate", lambda x: np.maximum.accumulate(x, axis=1), (distinct(2, 3),))
method("logaddexp.accumulate", lambda x: np.logaddexp.accumulate(x), (u(4),))
method("multiply.outer", lambda x, y: np.multiply.outer(x, y), (u(2), u(2, 3)), grad=(0, 1))
method("subtract.outer", lambda x, y: np.subtract.outer(x, y), (u(3), u(2)), grad=(0, 1))


def _at(ufunc: np.ufunc, *extra: Any) -> Callable:
    def f(x: Any, v: Any) -> Any:
        y = x * 1.0  # a traced copy to write into (NumPy writes in place too)
        ufunc.at(y, [0, 2, 0], v, *extra)
        return y
    return f


method("add.at", _at(np.add), (u(4), u(3)), grad=(0, 1))
method("subtract.at", _at(np.subtract), (u(4), 0.5))
method("multiply.at", _at(np.multiply), (u(4), u(3)), grad=(0, 1))
method("maximum.at", _at(np.maximum), (distinct(4), distinct(3)), grad=(0, 1))
