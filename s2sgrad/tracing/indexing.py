"""``x[key]`` and ``x[key] = v`` on traced values, with NumPy's rules.

Basic indexing (ints, slices, None, ...) becomes one StridedSlice, written as the same
subscript in the generated code, so negative indices and out-of-range slices behave as
in NumPy. Integer arrays (and constant boolean masks) are advanced indices: one gather,
placed where NumPy places the broadcast index dimensions. Assignment is functional: the
array gets a new value (a select between the old value and the scattered update); it is
refused where NumPy's answer would depend on memory shared with views.
"""
from __future__ import annotations

import operator
from typing import Any

import numpy as np

from ..ops import array_ops as a
from ..ops.convert import constant
from ..ops.overloads import getitem as basic_getitem
from .convert import as_tensor, as_traced, cast, contains_traced
from .reductions import normalize_axes
from .registry import implements, unsupported, user_line
from .shaping import broadcast_tensor, view
from .traced import Traced

__all__ = ["getitem", "setitem", "assign_all"]


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _item(v: Any) -> Any:
    """One index item as None, Ellipsis, a slice, an int, a traced int scalar, or an index array."""
    if isinstance(v, slice):
        for bound in (v.start, v.stop, v.step):
            if isinstance(bound, Traced):
                operator.index(bound)  # a slice of traced length: TracedValueError at the user's line
        return v
    if v is None or v is Ellipsis or _is_int(v):
        return int(v) if _is_int(v) else v
    if isinstance(v, Traced) and v.value is not None:
        v = v.value                               # an array made in the function, with known values
        if v.ndim == 0 and v.dtype.kind in "iu":
            return int(v)
    if isinstance(v, Traced):
        if v.dtype.kind not in "iub":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        if v.dtype.kind == "b":
            raise unsupported("indexing with a boolean mask computed from traced values",
                              "The result's shape would depend on the values; use np.where(mask, x, 0), or "
                              "np.sum(np.where(mask, x, 0)) for masked sums.")
        return v
    if isinstance(v, (bool, np.bool_)):
        raise unsupported("indexing with a Python bool")
    arr = np.asarray(v)
    if arr.size == 0 and arr.dtype.kind == "f":
        arr = arr.astype(np.int64)
    if arr.dtype.kind not in "iub":
        raise IndexError("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
                         "boolean arrays are valid indices")
    return arr


def _advanced(v: Any) -> bool:
    return isinstance(v, np.ndarray) or (isinstance(v, Traced) and v.ndim > 0)


def _expand(x: Traced, key: Any) -> list:
    """The key as a list of items, each indexing one axis of ``x`` (or a ``None``): boolean masks
    become one index array per masked axis, the ellipsis and missing trailing axes ``:``."""
    items: list[Any] = []
    for v in (key if isinstance(key, tuple) else (key,)):
        v = _item(v)
        if isinstance(v, np.ndarray) and v.dtype == np.bool_:
            if v.ndim == 0:
                raise unsupported("indexing with a 0-d boolean array")
            items.extend(np.nonzero(v))
        else:
            items.append(v)
    consumed = sum(1 for v in items if v is not None and v is not Ellipsis)
    if consumed > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, but {consumed} were indexed")
    ellipses = [i for i, v in enumerate(items) if v is Ellipsis]
    if len(ellipses) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    fill = [slice(None)] * (x.ndim - consumed)
    if ellipses:
        return items[:ellipses[0]] + fill + items[ellipses[0] + 1:]
    return items + fill


def _axes_of(items: list) -> list:
    """For each item, the input axis it indexes (None for ``None`` items)."""
    axes, axis = [], 0
    for v in items:
        axes.append(None if v is None else axis)
        axis += v is not None
    return axes


def _checked(index: np.ndarray, size: int, axis: int) -> np.ndarray:
    bad = index[(index >= size) | (index < -size)]
    if bad.size:
        raise IndexError(f"index {int(bad.flat[0])} is out of bounds for axis {axis} with size {size}")
    return np.where(index < 0, index + size, index).astype(np.int64)


def _basic(x: Traced, items: list) -> Traced:
    """Basic indexing: a view of ``x`` (a copy for a single element, as NumPy's scalars)."""
    for v, axis in zip(items, _axes_of(items), strict=True):
        if _is_int(v) and not -x.shape[axis] <= v < x.shape[axis]:
            raise IndexError(f"index {v} is out of bounds for axis {axis} with size {x.shape[axis]}")
    key = tuple(v.tensor if isinstance(v, Traced) else v for v in items)
    whole = all(isinstance(v, slice) and v == slice(None) for v in key)
    tensor = x.tensor if whole else basic_getitem(x.tensor, key)
    if any(isinstance(v, Traced) for v in items):
        return view(x, tensor)
    static = tuple(items)
    value = None if x.value is None else x.value[static]
    if all(_is_int(v) for v in items):
        return Traced(tensor, value=None if value is None else np.array(value))
    if x.base is not None and x.locate is None:
        return Traced(tensor, base=x.base, value=value)
    return Traced(tensor, base=_root(x), locate=_locator(x, static), value=value)


def _locator(x: Traced, key: tuple) -> Any:
    return lambda: _positions(x)[key]


def getitem(x: Traced, key: Any) -> Traced:
    """``x[key]`` with NumPy semantics."""
    items = _expand(x, key)
    adv = [k for k, v in enumerate(items) if _advanced(v)]
    if not adv:
        return _basic(x, items)
    ints = [k for k, v in enumerate(items) if _is_int(v) or isinstance(v, Traced) and v.ndim == 0]
    group = sorted(adv + ints)
    if len(adv) == 1 and group == list(range(group[0], group[-1] + 1)):
        y = _single_array(x, items, adv[0])
    else:
        y = _multiple_arrays(x, items, group)
    if x.value is not None and not any(isinstance(v, Traced) for v in items):
        y.value = x.value[tuple(items)]  # advanced indexing copies
    return y


def _single_array(x: Traced, items: list, k: int) -> Traced:
    """One index array (next to any integer indices): a gather along the axis it lands on."""
    index = items[k]
    axis = _axes_of(items)[k]
    rest = items[:k] + [slice(None)] + items[k + 1:]
    y = _basic(x, rest)
    out_axis = sum(1 for v in items[:k] if v is None or isinstance(v, slice))
    if isinstance(index, np.ndarray):
        index_tensor = constant(_checked(index, x.shape[axis], axis))
    else:
        index_tensor = index.tensor
    return Traced(a.gather(y.tensor, index_tensor, axis=out_axis))


def _multiple_arrays(x: Traced, items: list, group: list) -> Traced:
    """Several advanced indices: merge their axes into one, gather by the linear index, and put
    the broadcast index dimensions first, or in place when the indices are adjacent."""
    axes = _axes_of(items)
    y = _basic(x, [slice(None) if k in group else v for k, v in enumerate(items)])
    sizes = [x.shape[axes[k]] for k in group]
    indices = [items[k] for k in group]
    shape = np.broadcast_shapes(*(np.shape(i) for i in indices))
    if not any(isinstance(i, Traced) for i in indices):
        linear: Any = constant(np.ravel_multi_index(
            [np.broadcast_to(_checked(np.asarray(i), n, axes[k]), shape)
             for i, n, k in zip(indices, sizes, group, strict=True)],
            sizes))
    else:
        strides = np.cumprod([1] + sizes[:0:-1])[::-1].tolist()
        terms = [np.where(i < 0, i + n, i) * s for i, n, s in zip(indices, sizes, strides, strict=True)]
        linear = as_tensor(sum(terms[1:], terms[0]), np.int64)
    rest = [i for i in range(y.ndim) if i not in group]  # every item is one axis of y
    perm = group + rest
    moved = a.transpose(y.tensor, perm) if perm != sorted(perm) else y.tensor
    merged = a.reshape(moved, [int(np.prod(sizes))] + [y.shape[i] for i in rest])
    out = a.gather(merged, linear, axis=0)
    first = group[0]
    if group == list(range(group[0], group[-1] + 1)) and first > 0:
        n = len(shape)
        lead = sum(1 for i in rest if i < first)
        perm = list(range(n, n + lead)) + list(range(n)) + list(range(n + lead, n + len(rest)))
        out = a.transpose(out, perm)
    return Traced(out)


# -- assignment ----------------------------------------------------------------------------------------
# A write goes to the root array (a view writes into the array it was taken from, at the flat
# positions its ``locate`` gives); then every live view that shares a written element is read
# again from the root, so views see the change as in NumPy.

def _root(x: Traced) -> Traced:
    return x.base if x.base is not None else x


def _positions(x: Traced) -> np.ndarray:
    """For each element of ``x``, its flat position in its root array."""
    if x.base is None:
        return np.arange(x.size, dtype=np.int64).reshape(x.shape)
    if x.locate is None:
        raise NotImplementedError(
            f"s2sgrad cannot trace an assignment into this view (at {user_line()}; the view was made at "
            f"{x.tensor.op.where}): views made by reshape, transpose, broadcasting or diagonal are read-only "
            f"while tracing. Index the array it was taken from, or take a .copy() first.")
    return x.locate()


def _affected(root: Traced, written: np.ndarray, writer: Traced) -> list[Traced]:
    """The live views of ``root`` (besides ``writer``) sharing an element with the flat ``written`` positions."""
    hit = np.zeros(root.size, dtype=bool)
    hit[written.ravel()] = True
    views = []
    for v in root.live_views():
        if v is writer:
            continue
        if v.locate is None:
            raise NotImplementedError(
                f"s2sgrad cannot trace an in-place change of an array while views of it are alive (at "
                f"{user_line()}; a view was made at {v.tensor.op.where} by reshape, transpose, broadcasting or "
                f"diagonal): NumPy would change that view too. Make it a copy (.copy()) or create it after the "
                f"assignment.")
        if hit[v.locate().ravel()].any():
            views.append(v)
    return views


def _reread(v: Traced, root: Traced) -> None:
    """``v``'s value read again from its root after a write (the view shares the written elements)."""
    if root.value is not None and v.value is not None:
        v.tensor = constant(v.value.copy(), v.tensor.dtype)
        return
    v.value = None
    flat = a.reshape(root.tensor, [-1])
    v.tensor = a.reshape(a.gather(flat, constant(v.locate().ravel())), list(v.shape))  # type: ignore[misc]


def assign_all(x: Traced, result: Traced) -> None:
    """``x op= y``: x takes the new value in place (NumPy's same-kind casting rule)."""
    if result.shape != x.shape:
        raise ValueError(f"non-broadcastable output operand with shape {x.shape} doesn't match the broadcast "
                         f"shape {result.shape}")
    if not x.weak and not np.can_cast(result.dtype, x.dtype, "same_kind"):
        raise TypeError(f"Cannot cast ufunc output from {result.dtype!r} to {x.dtype!r} with casting rule "
                        f"'same_kind' (at {user_line()})")
    if x.base is not None or x.live_views():
        setitem(x, Ellipsis, result)
        return
    x.tensor = result.tensor if x.weak else cast(result.tensor, x.dtype)
    x.weak = x.weak and result.weak
    x.value = None


def _masked(x: Traced, mask: Traced, value: Any) -> None:
    if x.base is not None or x.live_views():
        raise NotImplementedError(f"s2sgrad cannot trace an assignment through a traced mask into a view or into "
                                  f"an array that has live views (at {user_line()}); use x = np.where(mask, v, x).")
    if mask.shape != x.shape or np.ndim(value) != 0:
        raise unsupported("assignment through a traced boolean mask unless the mask has the array's shape "
                          "and the value is a scalar", "Use x = np.where(mask, value, x).")
    x.tensor = a.where(mask.tensor, as_tensor(value, x.dtype), x.tensor)
    x.weak = False
    x.value = None


def setitem(x: Traced, key: Any, value: Any) -> None:
    """``x[key] = value`` with NumPy's aliasing: x, the array it views and the views sharing
    the written elements get their new values."""
    if isinstance(key, Traced) and key.dtype == np.bool_ and key.value is None:
        return _masked(x, key, value)
    items = _expand(x, key)
    if any(isinstance(v, Traced) for v in items):
        raise unsupported("assignment at a position given by a traced value",
                          "Use np.where with a comparison against np.arange(n) to select the position.")
    static_key = tuple(items)
    root = _root(x)
    written = _positions(x)[static_key]
    views = _affected(root, written, x)
    if isinstance(value, Traced) and value.value is not None:
        value = value.value                    # known values (an element read from such an array)
    if root.value is not None and not contains_traced(value):
        flat = root.value.reshape(-1)          # a view: root values are contiguous
        flat[written] = np.asarray(value)      # NumPy's casting and broadcasting errors
        root.tensor = constant(root.value.copy(), root.tensor.dtype)
    else:
        _write_traced(root, written, static_key if x is root else None, value)
        root.value = None
    for v in views + ([x] if x is not root else []):
        _reread(v, root)


def _write_traced(root: Traced, written: np.ndarray, key: tuple | None, value: Any) -> None:
    """``root`` with ``value`` (broadcast to ``written``'s shape) at the flat positions ``written``;
    ``key`` is the root's own index when the write is ``root[key] = value``."""
    update = broadcast_tensor(as_tensor(value, root.dtype), written.shape)
    flat = np.full(root.size, -1, dtype=np.int64)
    flat[written.ravel()] = np.arange(written.size)
    position = flat.reshape(root.shape)
    if key is not None and not any(_advanced(v) for v in key):
        placed = a.scatter_into_zeros(update, root.tensor, key, [])
    else:
        placed = a.gather(a.reshape(update, [-1]), constant(np.maximum(position, 0)))
    mask = position >= 0
    root.tensor = broadcast_tensor(placed, root.shape) if mask.all() else a.where(constant(mask), placed, root.tensor)
    root.weak = False


# -- take / take_along_axis -----------------------------------------------------------------------------

@implements(np.take)
def _take(a_: Any, indices: Any, axis: Any = None, out: Any = None, mode: str = "raise") -> Traced:
    x = as_traced(a_)
    if out is not None:
        raise unsupported("numpy.take(..., out=...)")
    if axis is None:
        x, axis = np.ravel(x), 0  # type: ignore[assignment]  # NumPy's stubs say ndarray; on a Traced it dispatches to __array_function__
    (ax,) = normalize_axes(axis, x.ndim)
    if isinstance(indices, Traced):
        if mode != "raise":
            raise unsupported(f"numpy.take(..., mode={mode!r}) with traced indices")
        return Traced(a.gather(x.tensor, indices.tensor, axis=ax))
    index = np.take(np.arange(x.shape[ax]), indices, mode=mode)  # type: ignore[call-overload]  # mode: NumPy checks it
    return Traced(a.gather(x.tensor, constant(index.astype(np.int64)), axis=ax))


@implements(np.take_along_axis)
def _take_along_axis(arr: Any, indices: Any, axis: Any = -1) -> Traced:
    """One gather from the flattened array at linear positions (computed in the graph for
    traced indices, such as an argmax)."""
    x = as_traced(arr)
    if axis is None:
        x, axis = np.ravel(x), 0  # type: ignore[assignment]  # NumPy's stubs say ndarray; on a Traced it dispatches to __array_function__
    (ax,) = normalize_axes(axis, x.ndim)
    positions = np.arange(x.size, dtype=np.int64).reshape(x.shape)
    flat = a.reshape(x.tensor, [-1])
    if not isinstance(indices, Traced):
        return Traced(a.gather(flat, constant(np.take_along_axis(positions, np.asarray(indices), ax))))
    base = np.take_along_axis(positions, np.zeros(indices.shape, dtype=np.int64), ax)
    n, stride = x.shape[ax], int(np.prod(x.shape[ax + 1:], dtype=np.int64))
    linear = base + np.where(indices < 0, indices + n, indices) * stride
    return Traced(a.gather(flat, as_tensor(linear, np.int64)))
