"""Shape and layout functions on traced values: reshape, transpose, stack/concatenate, split,
broadcast, tile/repeat/flip/roll/pad, diff.

Shapes are concrete while tracing, so NumPy's own rules (``-1`` in reshape, split points,
pad widths, index maps for tile/repeat/roll) are computed here with NumPy on the shapes,
and the graph gets plain reshapes, slices and gathers.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..ops import array_ops as a
from ..ops.convert import constant
from .convert import as_tensor, as_traced, promote
from .reductions import normalize_axes
from .registry import implements, unsupported
from .traced import Traced

__all__ = ["view", "broadcast_tensor", "gather_axis"]


def view(x: Traced, tensor: Any) -> Traced:
    """A result that NumPy would return as a view of ``x`` (in-place writes check these)."""
    return Traced(tensor, base=x.base if x.base is not None else x)


def broadcast_tensor(t: Any, shape: Sequence[int] | np.ndarray) -> Any:
    """``np.broadcast_to(t, shape)`` as a graph op (nothing when the shape already matches)."""
    shape = tuple(int(d) for d in shape)
    if tuple(t.shape.sizes) == shape:
        return t
    np.broadcast_shapes(tuple(t.shape.sizes), shape)  # NumPy's error for incompatible shapes
    return a.broadcast_like(t, a.fill(list(shape), constant(0, t.dtype)))


def gather_axis(t: Any, index: np.ndarray, axis: int) -> Any:
    """``np.take(t, index, axis)`` for a constant index map (tile, repeat, roll, pad)."""
    index = np.asarray(index, dtype=np.int64)
    if index.ndim == 1 and np.array_equal(index, np.arange(t.shape.sizes[axis])):
        return t
    return a.gather(t, constant(index), axis=axis)


# -- reshaping ----------------------------------------------------------------------------------------

@implements(np.reshape)
def _reshape(a_: Any, shape: Any = None, order: str = "C", *, newshape: Any = None, copy: Any = None) -> Traced:
    x = as_traced(a_)
    if order != "C":
        raise unsupported(f"numpy.reshape(..., order={order!r})")
    shape = newshape if shape is None else shape
    dims = [int(d) for d in np.atleast_1d(shape)] if np.ndim(shape) <= 1 else None
    if dims is None or dims.count(-1) > 1 or any(d < -1 for d in dims):
        raise ValueError(f"invalid shape {shape!r} for reshape")
    known = int(np.prod([d for d in dims if d != -1], dtype=np.int64))
    if -1 in dims:
        if known == 0 or x.size % known:
            target = tuple(shape) if np.ndim(shape) else shape
            raise ValueError(f"cannot reshape array of size {x.size} into shape {target}")
        dims[dims.index(-1)] = x.size // known
    elif known != x.size:
        raise ValueError(f"cannot reshape array of size {x.size} into shape {tuple(dims)}")
    return view(x, a.reshape(x.tensor, dims))


@implements(np.ravel)
def _ravel(a_: Any, order: str = "C") -> Traced:
    return _reshape(a_, -1, order)


@implements(np.transpose)
def _transpose(a_: Any, axes: Any = None) -> Traced:
    x = as_traced(a_)
    if axes is None:
        perm = list(reversed(range(x.ndim)))
    else:
        perm = [int(p) % x.ndim if -x.ndim <= int(p) < x.ndim else int(p) for p in axes]
        if sorted(perm) != list(range(x.ndim)):
            raise ValueError("axes don't match array")
    return view(x, a.transpose(x.tensor, perm) if x.ndim > 1 else x.tensor)


@implements(np.swapaxes)
def _swapaxes(a_: Any, axis1: int, axis2: int) -> Traced:
    x = as_traced(a_)
    (i,), (j,) = normalize_axes(axis1, x.ndim), normalize_axes(axis2, x.ndim)
    perm = list(range(x.ndim))
    perm[i], perm[j] = perm[j], perm[i]
    return _transpose(x, perm)


@implements(np.moveaxis)
def _moveaxis(a_: Any, source: Any, destination: Any) -> Traced:
    x = as_traced(a_)
    src = [normalize_axes(s, x.ndim)[0] for s in np.atleast_1d(source)]
    dst = [normalize_axes(d, x.ndim)[0] for d in np.atleast_1d(destination)]
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    order = [n for n in range(x.ndim) if n not in src]
    for d, s in sorted(zip(dst, src, strict=True)):
        order.insert(d, s)
    return _transpose(x, order)


@implements(np.expand_dims)
def _expand_dims(a_: Any, axis: Any) -> Traced:
    x = as_traced(a_)
    axes = normalize_axes(axis, x.ndim + len(np.atleast_1d(axis)))
    if len(axes) == 1:
        return view(x, a.expand_dims(x.tensor, axes[0]))
    dims = list(x.shape)
    for ax in axes:
        dims.insert(ax, 1)
    return _reshape(x, dims)


@implements(np.squeeze)
def _squeeze(a_: Any, axis: Any = None) -> Traced:
    x = as_traced(a_)
    axes = normalize_axes(axis, x.ndim)
    if axes is not None and any(x.shape[i] != 1 for i in axes):
        raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    return view(x, a.squeeze(x.tensor, axes))


def _atleast(ndim: int, place: Callable[[tuple], tuple]) -> Callable:
    def atleast(*arys: Any) -> Any:
        outs = []
        for v in arys:
            x = as_traced(v)
            outs.append(_reshape(x, place(x.shape)) if x.ndim < ndim else x)
        return outs[0] if len(outs) == 1 else tuple(outs)
    return atleast


implements(np.atleast_1d)(_atleast(1, lambda s: (1,)))
implements(np.atleast_2d)(_atleast(2, lambda s: (1,) + s + (1,) * (1 - len(s))))
implements(np.atleast_3d)(_atleast(3, lambda s: {0: (1, 1, 1), 1: (1,) + s + (1,), 2: s + (1,)}[len(s)]))


@implements(np.broadcast_to)
def _broadcast_to(array: Any, shape: Any, subok: bool = False) -> Traced:
    x = as_traced(array)
    return view(x, broadcast_tensor(x.tensor, np.atleast_1d(shape) if np.ndim(shape) else (shape,)))


@implements(np.broadcast_arrays)
def _broadcast_arrays(*args: Any, subok: bool = False) -> tuple:
    shape = np.broadcast_shapes(*(np.shape(v) for v in args))
    return tuple(_broadcast_to(v, shape) for v in args)


# -- joining and splitting -------------------------------------------------------------------------

def _promoted(arrays: Sequence[Any], dtype: Any) -> list:
    if dtype is not None:
        return [as_tensor(v, dtype) for v in arrays]
    return promote(list(arrays))[0]


@implements(np.stack)
def _stack(arrays: Sequence[Any], axis: int = 0, out: Any = None, *, dtype: Any = None,
           casting: str = "same_kind") -> Traced:
    arrays = list(arrays)
    if not arrays:
        raise ValueError("need at least one array to stack")
    if len({np.shape(v) for v in arrays}) != 1:
        raise ValueError("all input arrays must have the same shape")
    (ax,) = normalize_axes(axis, np.ndim(arrays[0]) + 1)
    tensors = _promoted(arrays, dtype)
    if len(tensors) == 1:  # one array: a new axis (the one-element Pack's gradient keeps the axis)
        return Traced(a.expand_dims(tensors[0], ax))
    return Traced(a.stack(tensors, axis=int(axis)))


@implements(np.concatenate)
def _concatenate(arrays: Sequence[Any], axis: Any = 0, out: Any = None, *, dtype: Any = None,
                 casting: str = "same_kind") -> Traced:
    arrays = list(arrays)
    if axis is None:
        arrays, axis = [_ravel(as_traced(v)) for v in arrays], 0
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if any(np.ndim(v) == 0 for v in arrays):
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    (ax,) = normalize_axes(axis, np.ndim(arrays[0]))
    tensors = _promoted(arrays, dtype)
    return Traced(a.concat(tensors, ax) if len(tensors) > 1 else tensors[0])


@implements(np.hstack)
def _hstack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> Traced:
    arrs = [np.atleast_1d(v) for v in tup]
    return _concatenate(arrs, 0 if arrs and arrs[0].ndim == 1 else 1, dtype=dtype)


@implements(np.vstack)
def _vstack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> Traced:
    return _concatenate([np.atleast_2d(v) for v in tup], 0, dtype=dtype)


@implements(np.dstack)
def _dstack(tup: Sequence[Any]) -> Traced:
    return _concatenate([np.atleast_3d(v) for v in tup], 2)


@implements(np.column_stack)
def _column_stack(tup: Sequence[Any]) -> Traced:
    return _concatenate([np.reshape(v, (-1, 1)) if np.ndim(v) < 2 else v for v in tup], 1)


def _split(ary: Any, indices_or_sections: Any, axis: int, even: bool) -> list:
    x = as_traced(ary)
    (ax,) = normalize_axes(axis, x.ndim)
    n = x.shape[ax]
    if np.ndim(indices_or_sections) == 0:
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.")
        if even and n % sections:
            raise ValueError("array split does not result in an equal division")
        size, extra = divmod(n, sections)
        bounds = np.cumsum([0] + [size + 1] * extra + [size] * (sections - extra)).tolist()
    else:
        bounds = [0] + [int(i) for i in indices_or_sections] + [n]
    lead = (slice(None),) * ax
    return [x[lead + (slice(start, max(start, stop)),)] for start, stop in zip(bounds[:-1], bounds[1:], strict=True)]


@implements(np.append)
def _append(arr: Any, values: Any, axis: Any = None) -> Traced:
    if axis is None:
        return _concatenate([np.ravel(arr), np.ravel(values)])
    return _concatenate([arr, values], axis)


@implements(np.split)
def _split_even(ary: Any, indices_or_sections: Any, axis: int = 0) -> list:
    return _split(ary, indices_or_sections, axis, even=True)


@implements(np.array_split)
def _array_split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list:
    return _split(ary, indices_or_sections, axis, even=False)


# -- index maps: tile, repeat, roll, pad, flip ----------------------------------------------------------

@implements(np.tile)
def _tile(A: Any, reps: Any) -> Traced:  # NumPy's parameter name
    x = as_traced(A)
    reps = [int(r) for r in np.atleast_1d(reps)]
    if len(reps) > x.ndim:
        x = _reshape(x, (1,) * (len(reps) - x.ndim) + x.shape)
    reps = [1] * (x.ndim - len(reps)) + reps
    t = x.tensor
    for ax, r in enumerate(reps):
        t = gather_axis(t, np.tile(np.arange(x.shape[ax]), r), ax)
    return Traced(t)


@implements(np.repeat)
def _repeat(a_: Any, repeats: Any, axis: Any = None) -> Traced:
    x = as_traced(a_)
    t, ax = (a.reshape(x.tensor, [-1]), 0) if axis is None else (x.tensor, normalize_axes(axis, x.ndim)[0])
    n = t.shape.known_sizes()[ax]
    return Traced(gather_axis(t, np.repeat(np.arange(n), repeats), ax))


@implements(np.roll)
def _roll(a_: Any, shift: Any, axis: Any = None) -> Traced:
    x = as_traced(a_)
    if axis is None:
        return _reshape(_roll(_ravel(x), shift, 0), x.shape)
    t = x.tensor
    shifts, axes = np.broadcast_arrays(np.atleast_1d(shift), np.atleast_1d(axis))
    for s, ax in zip(shifts.tolist(), axes.tolist(), strict=True):
        (ax,) = normalize_axes(ax, x.ndim)
        t = gather_axis(t, np.roll(np.arange(x.shape[ax]), s), ax)
    return Traced(t)


@implements(np.pad)
def _pad(array: Any, pad_width: Any, mode: str = "constant", **kwargs: Any) -> Traced:
    x = as_traced(array)
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (x.ndim, 2)).tolist()
    t = x.tensor
    if mode == "constant":
        value = kwargs.pop("constant_values", 0)
        if kwargs or np.ndim(value) != 0:
            raise unsupported("numpy.pad with per-axis constant_values or extra options")
        for ax, (before, after) in enumerate(widths):
            dims = list(t.shape.known_sizes())
            blocks = []
            for width in (before, after):
                dims[ax] = width
                blocks.append(as_tensor(np.full(dims, value, dtype=x.dtype)) if width else None)
            parts = [b for b in (blocks[0], t, blocks[1]) if b is not None]
            t = a.concat(parts, ax) if len(parts) > 1 else t
        return Traced(t)
    for ax, (before, after) in enumerate(widths):
        # mode and kwargs are the user's, checked by NumPy (its stubs want a literal mode)
        t = gather_axis(t, np.pad(np.arange(x.shape[ax]), (before, after), mode=mode, **kwargs), ax)  # type: ignore[call-overload]
    return Traced(t)


@implements(np.flip)
def _flip(m_: Any, axis: Any = None) -> Traced:
    x = as_traced(m_)
    axes = normalize_axes(axis, x.ndim)
    axes = range(x.ndim) if axes is None else axes
    return x[tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(x.ndim))]


implements(np.fliplr)(lambda m_: _flip(m_, 1))
implements(np.flipud)(lambda m_: _flip(m_, 0))


@implements(np.diff)
def _diff(a_: Any, n: int = 1, axis: int = -1, prepend: Any = np._NoValue, append: Any = np._NoValue) -> Traced:
    x = as_traced(a_)
    (ax,) = normalize_axes(axis, x.ndim)
    parts = [p for p in (prepend, x, append) if p is not np._NoValue]
    if len(parts) > 1:
        shape = list(x.shape)
        shape[ax] = 1
        x = np.concatenate([np.broadcast_to(p, shape) if np.ndim(p) == 0 else p for p in parts],  # type: ignore[assignment]
                           axis=ax)  # NumPy's stubs say ndarray; on a Traced it dispatches to __array_function__
    lead = (slice(None),) * ax
    for _ in range(n):
        x = x[lead + (slice(1, None),)] - x[lead + (slice(None, -1),)]
    return x
