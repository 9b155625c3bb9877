"""Products and matrix structure on traced values: matmul (``@``), dot, inner, outer, vdot,
tensordot, einsum, diagonal/diag/trace, triu/tril and ``np.linalg.norm``
(real and complex).

Everything lowers to the graph's MatMul (batched, rank >= 2) plus transposes and reshapes,
which vanish from the generated code when they do nothing. 1-D operands follow NumPy: they
are promoted to matrices and the added axis is removed again.
"""
from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..ops import array_ops as a
from ..ops import math_ops as m
from ..ops import reduce_ops as r
from ..ops.convert import constant
from .convert import as_tensor, as_traced, dtype_of
from .reductions import normalize_axes
from .registry import FUNCTIONS, implements, ufunc_rule, unsupported
from .shaping import broadcast_tensor, view
from .traced import Traced

__all__ = ["matmul_tensors", "tensordot_tensors"]


def _dims(t: Any) -> list[int]:
    return list(t.shape.sizes)


def _strong(*values: Any) -> np.dtype:
    """Products convert Python scalars with ``np.asarray`` (no weak promotion), as NumPy does."""
    return np.result_type(*(dtype_of(v) for v in values))


@ufunc_rule(np.matmul)
def matmul_tensors(x: Any, y: Any) -> Any:
    """NumPy's ``x @ y``: 1-D operands become a row/column and that axis is dropped again."""
    xd, yd = _dims(x), _dims(y)
    if not xd or not yd:
        raise ValueError("matmul: Input operand does not have enough dimensions (scalars are not allowed; use *)")
    if xd[-1] != yd[-2 if len(yd) > 1 else 0]:
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0 "
                         f"(size {yd[-2 if len(yd) > 1 else 0]} is different from {xd[-1]})")
    x2 = a.reshape(x, [1, xd[0]]) if len(xd) == 1 else x
    y2 = a.reshape(y, [yd[0], 1]) if len(yd) == 1 else y
    out = m.matmul(x2, y2)
    if len(xd) > 1 and len(yd) > 1:
        return out
    dims = _dims(out)[:-2] + (xd[-2:-1] if len(xd) > 1 else []) + (yd[-1:] if len(yd) > 1 else [])
    return a.reshape(out, dims)


def _tensors(*values: Any, dtype: Any = None) -> list:
    dtype = _strong(*values) if dtype is None else np.dtype(dtype)
    return [as_tensor(v, dtype) for v in values]


def _merge(t: Any, perm: Sequence[int], groups: Sequence[int]) -> Any:
    """Transpose ``t`` by ``perm`` and merge consecutive axes into blocks of sizes ``groups``."""
    dims = _dims(t)
    t = a.transpose(t, list(perm)) if list(perm) != list(range(len(dims))) else t
    moved = [dims[p] for p in perm]
    sizes, start = [], 0
    for n in groups:
        sizes.append(int(np.prod(moved[start:start + n], dtype=np.int64)))
        start += n
    return a.reshape(t, sizes) if sizes != moved else t


def tensordot_tensors(x: Any, y: Any, axes_x: Sequence[int], axes_y: Sequence[int]) -> Any:
    """Contract ``axes_x`` of x with ``axes_y`` of y as one matrix product."""
    xd, yd = _dims(x), _dims(y)
    if [xd[i] for i in axes_x] != [yd[i] for i in axes_y]:
        raise ValueError("shape-mismatch for sum")
    free_x = [i for i in range(len(xd)) if i not in axes_x]
    free_y = [i for i in range(len(yd)) if i not in axes_y]
    lhs = _merge(x, free_x + list(axes_x), [len(free_x), len(axes_x)])
    rhs = _merge(y, list(axes_y) + free_y, [len(axes_y), len(free_y)])
    return a.reshape(m.matmul(lhs, rhs), [xd[i] for i in free_x] + [yd[i] for i in free_y])


@implements(np.tensordot)
def _tensordot(a_: Any, b: Any, axes: Any = 2) -> Traced:
    x, y = _tensors(a_, b)
    nx, ny = x.shape.rank, y.shape.rank
    if np.ndim(axes) == 0:
        axes_x, axes_y = list(range(nx - int(axes), nx)), list(range(int(axes)))
    else:
        axes_x, axes_y = (list(np.atleast_1d(ax_)) for ax_ in axes)
    axes_x = [normalize_axes(i, nx)[0] for i in axes_x]
    axes_y = [normalize_axes(i, ny)[0] for i in axes_y]
    return Traced(tensordot_tensors(x, y, axes_x, axes_y))


@implements(np.dot)
def _dot(a_: Any, b: Any, out: Any = None) -> Traced:
    if out is not None:
        raise unsupported("numpy.dot(..., out=...)")
    x, y = _tensors(a_, b)
    if x.shape.rank == 0 or y.shape.rank == 0:
        return Traced(m.multiply(x, y))
    if y.shape.rank <= 2:
        return Traced(matmul_tensors(x, y))
    return Traced(tensordot_tensors(x, y, [x.shape.rank - 1], [y.shape.rank - 2]))


@implements(np.inner)
def _inner(a_: Any, b: Any) -> Traced:
    x, y = _tensors(a_, b)
    if x.shape.rank == 0 or y.shape.rank == 0:
        return Traced(m.multiply(x, y))
    return Traced(tensordot_tensors(x, y, [x.shape.rank - 1], [y.shape.rank - 1]))


@implements(np.vdot)
def _vdot(a_: Any, b: Any) -> Traced:
    return _dot(np.conj(np.ravel(as_traced(a_))), np.ravel(as_traced(b)))  # NumPy conjugates a


@implements(np.cross)
def _cross(a_: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: Any = None) -> Traced:
    """2- and 3-vectors along any axes, by the textbook formula (a 2-vector has z = 0; two
    2-vectors give the scalar z component, as NumPy does)."""
    x, y = as_traced(a_), as_traced(b)
    if axis is not None:
        axisa = axisb = axisc = axis
    moveaxis = FUNCTIONS[np.moveaxis]
    x, y = moveaxis(x, axisa, -1), moveaxis(y, axisb, -1)
    if x.shape[-1] not in (2, 3) or y.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    u: list[Any] = [x[..., i] for i in range(x.shape[-1])] + [0.0] * (3 - x.shape[-1])  # a 2-vector's z is 0
    v: list[Any] = [y[..., i] for i in range(y.shape[-1])] + [0.0] * (3 - y.shape[-1])
    z = u[0] * v[1] - u[1] * v[0]
    if x.shape[-1] == y.shape[-1] == 2:
        return z
    parts = FUNCTIONS[np.broadcast_arrays](u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], z)
    return moveaxis(FUNCTIONS[np.stack](parts, axis=-1), -1, axisc)


@implements(np.outer)
def _outer(a_: Any, b: Any, out: Any = None) -> Traced:
    x, y = _tensors(a_, b)
    return Traced(m.multiply(a.reshape(x, [-1, 1]), a.reshape(y, [1, -1])))


# -- einsum -------------------------------------------------------------------------------------------

def _parse_einsum(subscripts: str, ranks: Sequence[int]) -> tuple[list[str], str]:
    subscripts = subscripts.replace(" ", "")
    inputs, arrow, output = subscripts.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(ranks):
        raise ValueError(f"einsum: {len(terms)} operand subscripts for {len(ranks)} operands")
    spare = iter(c for c in string.ascii_letters[::-1] if c not in subscripts)
    ellipsis = "".join(next(spare) for _ in range(max([r - len(t.replace("...", "")) for t, r in
                                                       zip(terms, ranks, strict=True) if "..." in t] or [0])))
    expanded = []
    for term, rank in zip(terms, ranks, strict=True):
        if "..." in term:
            n = rank - len(term.replace("...", ""))
            term = term.replace("...", ellipsis[len(ellipsis) - n:] if n else "")
        if len(term) != rank or not term.isalpha():
            raise ValueError(f"einsum: subscripts {term!r} do not match an operand of rank {rank}")
        expanded.append(term)
    if arrow:
        output = output.replace("...", ellipsis)
    else:
        counts = "".join(expanded)
        output = ellipsis + "".join(sorted(c for c in set(counts) if counts.count(c) == 1 and c not in ellipsis))
    return expanded, output


def _take_diagonals(t: Any, letters: str) -> tuple[Any, str]:
    """Repeated subscripts within one operand (``'ii'``) select its diagonal."""
    while len(set(letters)) != len(letters):
        c = next(c for c in letters if letters.count(c) > 1)
        i = letters.index(c)
        j = letters.index(c, i + 1)
        t = _diagonal_tensor(t, 0, i, j)
        letters = "".join(ch for k, ch in enumerate(letters) if k not in (i, j)) + c
    return t, letters


def _sum_out(t: Any, letters: str, keep: set) -> tuple[Any, str]:
    axes = [i for i, c in enumerate(letters) if c not in keep]
    if axes:
        t = r.reduce_sum(t, axes)
        letters = "".join(c for c in letters if c in keep)
    return t, letters


def _contract(x: Any, lx: str, y: Any, ly: str, keep: set) -> tuple[Any, str]:
    batch = [c for c in lx if c in ly and c in keep]
    summed = [c for c in lx if c in ly and c not in keep]
    free_x = [c for c in lx if c not in ly]
    free_y = [c for c in ly if c not in lx]
    size = dict(zip(lx, _dims(x), strict=True)) | dict(zip(ly, _dims(y), strict=True))
    lead = [len(batch)] if batch else []
    lhs = _merge(x, [lx.index(c) for c in batch + free_x + summed], lead + [len(free_x), len(summed)])
    rhs = _merge(y, [ly.index(c) for c in batch + summed + free_y], lead + [len(summed), len(free_y)])
    out = a.reshape(m.matmul(lhs, rhs), [size[c] for c in batch + free_x + free_y])
    return out, "".join(batch + free_x + free_y)


def _letters(sublist: Sequence[Any]) -> str:
    return "".join("..." if s is Ellipsis else string.ascii_letters[int(s)] for s in sublist)


def _from_sublists(args: tuple) -> tuple[str, tuple]:
    """``einsum(x, [0, 1], y, [1, 2], [0, 2])`` as ``einsum('ab,bc->ac', x, y)``."""
    operands, sublists = list(args[0::2]), args[1::2]
    output = ""
    if len(operands) > len(sublists):  # an odd count: the last item is the output's sublist
        output = "->" + _letters(operands.pop())
    return ",".join(_letters(s) for s in sublists) + output, tuple(operands)


@implements(np.einsum)
def _einsum(subscripts: Any, *operands: Any, out: Any = None, dtype: Any = None, order: str = "K",
            casting: str = "safe", optimize: Any = False) -> Traced:
    if out is not None:
        raise unsupported("numpy.einsum(..., out=...)")
    if not isinstance(subscripts, str):
        subscripts, operands = _from_sublists((subscripts,) + operands)
    tensors = _tensors(*operands, dtype=dtype)
    terms, output = _parse_einsum(subscripts, [t.shape.rank for t in tensors])
    size: dict[str, int] = {}
    for t, letters in zip(tensors, terms, strict=True):
        for c, d in zip(letters, _dims(t), strict=True):
            if size.get(c, 1) not in (1, d) and d != 1:
                raise ValueError(f"einsum: operands could not be broadcast together on subscript {c!r}")
            size[c] = max(size.get(c, 1), d)
    work = []
    for i, (t, letters) in enumerate(zip(tensors, terms, strict=True)):
        t = broadcast_tensor(t, [size[c] for c in letters])
        t, letters = _take_diagonals(t, letters)
        later = set(output).union(*(terms[j] for j in range(len(terms)) if j != i))
        work.append(_sum_out(t, letters, later))
    t, letters = work[0]
    for k, (u, lu) in enumerate(work[1:], start=2):
        keep = set(output).union(*(lw for _, lw in work[k:]))
        t, letters = _contract(t, letters, u, lu, keep)
    t, letters = _sum_out(t, letters, set(output))
    perm = [letters.index(c) for c in output]
    return Traced(a.transpose(t, perm) if perm != list(range(len(perm))) else t)


# -- diagonals and triangles -------------------------------------------------------------------------

def _diagonal_tensor(t: Any, offset: int, axis1: int, axis2: int) -> Any:
    """The diagonal over (axis1, axis2) as the last axis, from a strided slice of the merged axes."""
    dims = _dims(t)
    rest = [i for i in range(len(dims)) if i not in (axis1, axis2)]
    n, k = dims[axis1], dims[axis2]
    count = max(0, min(n, k - offset) if offset >= 0 else min(n + offset, k))
    start = offset if offset >= 0 else -offset * k
    flat = _merge(t, rest + [axis1, axis2], [1] * len(rest) + [2])
    step = k + 1
    index = (Ellipsis, slice(start, start + (count - 1) * step + 1 if count else start, step))
    return a.strided_slice(flat, index, [])


@implements(np.diagonal)
def _diagonal(a_: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Traced:
    x = as_traced(a_)
    (i,), (j,) = normalize_axes(axis1, x.ndim), normalize_axes(axis2, x.ndim)
    if i == j:
        raise ValueError("axis1 and axis2 cannot be the same")
    return view(x, _diagonal_tensor(x.tensor, int(offset), i, j))


@implements(np.trace)
def _trace(a_: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None, out: Any = None) -> Traced:
    return np.sum(_diagonal(a_, offset, axis1, axis2), axis=-1, dtype=dtype, out=out)


@implements(np.diag)
def _diag(v: Any, k: int = 0) -> Traced:
    x = as_traced(v)
    if x.ndim == 2:
        return _diagonal(x, k)
    if x.ndim != 1:
        raise ValueError("Input must be 1- or 2-d.")
    n = x.shape[0] + abs(k)
    position = np.full((n, n), -1, dtype=np.int64)
    rows = np.arange(x.shape[0])
    position[rows + max(-k, 0), rows + max(k, 0)] = rows
    values = a.gather(x.tensor, constant(np.maximum(position, 0)))
    return Traced(a.where(constant(position >= 0), values, constant(0, x.tensor.dtype)))


def _triangle(keep: Any) -> Any:
    def triangle(m_: Any, k: int = 0) -> Traced:
        x = as_traced(m_)
        if x.ndim < 2:
            raise unsupported(f"numpy.{keep.__name__} of a {x.ndim}-d array")
        mask = keep(np.ones(x.shape[-2:], dtype=bool), k)
        return Traced(a.where(constant(mask), x.tensor, constant(0, x.tensor.dtype)))
    return triangle


implements(np.triu)(_triangle(np.triu))
implements(np.tril)(_triangle(np.tril))


# -- norms ----------------------------------------------------------------------------------------------

def _vector_norm(x: Traced, ord: Any, axis: Any, keepdims: bool) -> Traced:
    if ord is None or ord == 2:
        return np.sqrt(np.sum(np.square(x), axis=axis, keepdims=keepdims))
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    magnitude = np.abs(x)
    if ord == np.inf:
        return np.max(magnitude, axis=axis, keepdims=keepdims)
    if ord == -np.inf:
        return np.min(magnitude, axis=axis, keepdims=keepdims)
    if ord == 0:
        return np.sum((x != 0).astype(x.dtype), axis=axis, keepdims=keepdims)
    if ord == 1:
        return np.sum(magnitude, axis=axis, keepdims=keepdims)
    return np.sum(magnitude ** ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)


def _matrix_norm(x: Traced, ord: Any, axes: tuple, keepdims: bool) -> Traced:
    row, col = axes
    if ord in (None, "fro"):
        result = np.sqrt(np.sum(np.square(x), axis=axes))
    elif ord in (1, -1, np.inf, -np.inf):
        summed, other = (row, col) if ord in (1, -1) else (col, row)
        sums = np.sum(np.abs(x), axis=summed)
        other -= other > summed
        result = np.max(sums, axis=other) if ord > 0 else np.min(sums, axis=other)
    elif ord in (2, -2, "nuc"):
        singular = FUNCTIONS[np.linalg.svd](FUNCTIONS[np.moveaxis](x, axes, (-2, -1)), compute_uv=False)
        pick: dict[Any, Any] = {2: np.max, -2: np.min, "nuc": np.sum}
        result = FUNCTIONS[pick[ord]](singular, axis=-1)
    else:
        raise ValueError("Invalid norm order for matrices.")
    if keepdims:
        result = np.reshape(result, [1 if i in axes else d for i, d in enumerate(x.shape)])
    return result


@implements(np.linalg.norm)
def _norm(x_: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Traced:
    x = as_traced(x_)
    if x.dtype.kind not in "fc":
        x = x.astype(np.float64)
    spectral = ord in (2, -2, "nuc") and (x.ndim == 2 if axis is None else np.ndim(axis) == 1 and len(axis) == 2)
    if x.dtype.kind == "c" and not spectral:  # the SVD-based norms take the complex matrix's singular values
        x = np.abs(x)  # type: ignore[assignment]  # a Traced (NumPy's stubs say ndarray): the moduli's norms
    if axis is None:
        if ord is None:
            result = np.sqrt(np.sum(np.square(x)))
            # np.reshape of a Traced dispatches to __array_function__ (NumPy's stubs say ndarray)
            return np.reshape(result, (1,) * x.ndim) if keepdims else result  # type: ignore[return-value]
        if x.ndim not in (1, 2):
            raise ValueError("Improper number of dimensions to norm.")
        axis = tuple(range(x.ndim))
    axes = normalize_axes(axis, x.ndim)
    if len(axes) == 1:
        return _vector_norm(x, ord, axes[0], keepdims)
    if len(axes) == 2:
        original = tuple(int(i) % x.ndim for i in axis)
        return _matrix_norm(x, ord, original, keepdims)
    raise ValueError("Improper number of dimensions to norm.")
