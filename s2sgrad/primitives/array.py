"""Array structure: shape queries, reshape, transpose, expand/squeeze, and basic indexing
(StridedSlice, Slice) with its adjoint (ScatterIntoZeros)."""
from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..index_spec import TensorIndex
from ..shapes import TensorShape
from ..static import constant_value
from .common import (
    LOAD,
    axes_literal,
    const_ints,
    int_vector,
    known_shape,
    normalize_axes,
    normalize_axis,
    rt_call,
    same_shape_input,
    shape_or,
    unknown_dims,
)
from .core import define, literal, np_attr

# -- shape queries (their input is read only for its shape) ----------------------------------------

def _shape_infer(inputs: Sequence[Any], attrs: dict) -> list:
    rank = inputs[0].shape.rank
    return [(attrs["out_type"], TensorShape([rank]))]


def _known_shape(op: Any) -> np.ndarray | None:
    """A Shape op's value, when its input's static shape is fully known."""
    x = op.inputs[0]
    return np.array(x.shape.sizes, dtype=op.outputs[0].dtype.np) if x.shape.is_fully_defined() else None


def _emit_shape(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    x, out = ins.args[0], ins.outs[0]
    if x.shape.is_fully_defined():
        return literal(np.array(x.shape.sizes, dtype=out.dtype.np))
    return ast.Call(np_attr("array"), [ast.Attribute(args[0], "shape", LOAD)],
                    [ast.keyword("dtype", literal(out.dtype))])


def _emit_size(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    x, out = ins.args[0], ins.outs[0]
    if x.shape.is_fully_defined():
        return literal(out.dtype.np.type(x.shape.num_elements()))
    return ast.Call(literal(out.dtype), [ast.Call(np_attr("size"), [args[0]], [])], [])


def _emit_rank(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    x = ins.args[0]
    if x.shape.rank is not None:
        return literal(np.int32(x.shape.rank))
    return ast.Call(np_attr("int32"), [ast.Call(np_attr("ndim"), [args[0]], [])], [])


SHAPE = define("Shape", _shape_infer, _emit_shape, differentiable=False, shape_only=(0,), known_value=_known_shape)
SIZE = define("Size", lambda ins, at: [(at["out_type"], TensorShape([]))], _emit_size, differentiable=False,
              shape_only=(0,))
RANK = define("Rank", lambda ins, at: [(_dt.int32, TensorShape([]))], _emit_rank, differentiable=False,
              shape_only=(0,))


# -- reshape and friends -------------------------------------------------------------------------

def reshape_dims(shape: TensorShape, target: Any) -> TensorShape:
    """The shape ``np.reshape`` gives, resolving one -1; ValueError when element counts differ."""
    dims = [int(d) for d in target]
    if dims.count(-1) > 1:
        raise ValueError(f"Cannot infer multiple unknown dimensions in shape {dims}")
    if any(d < -1 for d in dims):
        raise ValueError(f"Dimension size must be non-negative, got {dims}")
    total = shape.num_elements()
    if -1 in dims:
        known = int(np.prod([d for d in dims if d != -1]))
        if total is None:
            return TensorShape([None if d == -1 else d for d in dims])
        if known == 0 or total % known:
            raise ValueError(f"Cannot reshape a tensor with {total} elements to shape {dims}")
        dims[dims.index(-1)] = total // known
    elif total is not None and total != int(np.prod(dims)):
        raise ValueError(f"Cannot reshape a tensor with {total} elements to shape {dims} "
                         f"({int(np.prod(dims))} elements)")
    return TensorShape(dims)


def _reshape_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x, shape = inputs
    if not shape.dtype.is_integer:
        raise TypeError(f"reshape: shape must be an integer tensor, got {shape.dtype.name}")
    target = constant_value(shape)
    if target is not None:
        return [(x.dtype, reshape_dims(x.shape, np.reshape(target, -1)))]
    return [(x.dtype, unknown_dims(shape))]


def _emit_reshape(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    target = known_shape(ins.outs[0].shape)
    if target is None:
        dims = const_ints(ins.args[1])
        target = literal(tuple(dims)) if dims is not None else args[1]
    return ast.Call(np_attr("reshape"), [args[0], target], [])


RESHAPE = define("Reshape", _reshape_infer, _emit_reshape, simplify=same_shape_input, view="input",
                 uniform_from=0)


def _expand_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None))]
    axis = normalize_axis(attrs["axis"], x.shape.rank + 1, "expand_dims")
    dims = list(x.shape.sizes)
    dims.insert(axis, 1)
    return [(x.dtype, TensorShape(dims))]


def _emit_expand(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    axis = normalize_axis(ins.attrs["axis"], ins.outs[0].shape.rank)
    return ast.Call(np_attr("expand_dims"), [args[0], literal(axis)], [])


EXPAND_DIMS = define("ExpandDims", _expand_infer, _emit_expand, view="input", uniform_from=0)


def _squeeze_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None))]
    axes = normalize_axes(attrs["axis"], x.shape.rank, "squeeze")
    dims = x.shape.sizes
    if axes is None:
        if None in dims:
            return [(x.dtype, TensorShape(None))]
        axes = tuple(i for i, d in enumerate(dims) if d == 1)
    for ax in axes:
        if dims[ax] is not None and dims[ax] != 1:
            raise ValueError(f"Can not squeeze dim[{ax}], expected a dimension of 1, got {dims[ax]}")
    return [(x.dtype, TensorShape([d for i, d in enumerate(dims) if i not in axes]))]


def _emit_squeeze(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    x = ins.args[0]
    axes = normalize_axes(ins.attrs["axis"], x.shape.rank)
    if axes is None and x.shape.is_fully_defined():
        axes = tuple(i for i, d in enumerate(x.shape.sizes) if d == 1)
    keywords = [] if axes is None else [ast.keyword("axis", axes_literal(axes))]
    return ast.Call(np_attr("squeeze"), [args[0]], keywords)


SQUEEZE = define("Squeeze", _squeeze_infer, _emit_squeeze, view="input", uniform_from=0,
                 simplify=same_shape_input)


def _transpose_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    perm = attrs["perm"]
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None if perm is None else [None] * len(perm)))]
    rank = x.shape.rank
    perm = tuple(reversed(range(rank))) if perm is None else perm
    if sorted(p % rank if -rank <= p < rank else p for p in perm) != list(range(rank)):
        raise ValueError(f"transpose expects a permutation of 0..{rank - 1}, got perm={list(perm)}")
    return [(x.dtype, TensorShape([x.shape.sizes[p] for p in perm]))]


def _perm(ins: Any) -> tuple:
    rank = ins.args[0].shape.rank
    perm = ins.attrs["perm"]
    return tuple(reversed(range(rank))) if perm is None else tuple(p % rank for p in perm)


def _emit_transpose(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    if ins.args[0].shape.rank is None:
        perm = ins.attrs["perm"]
        return ast.Call(np_attr("transpose"), [args[0]] + ([] if perm is None else [literal(perm)]), [])
    perm = _perm(ins)
    if perm == (1, 0):
        view = ast.Attribute(args[0], "T", LOAD)
        return ast.Call(np_attr("ascontiguousarray"), [view], []) if ins.attrs.get("contiguous") else view
    return ast.Call(np_attr("transpose"), [args[0], literal(perm)], [])


def _identity_perm(ins: Any) -> Any:
    rank = ins.args[0].shape.rank
    return ins.args[0] if rank is not None and _perm(ins) == tuple(range(rank)) else None


TRANSPOSE = define("Transpose", _transpose_infer, _emit_transpose, view="input", uniform_from=0,
                   simplify=_identity_perm)


# -- basic indexing ---------------------------------------------------------------------------------

def sliced_shape(shape: TensorShape, index: tuple) -> TensorShape:
    """The shape of ``x[index]`` for basic indexing (ints, slices, None, ...)."""
    if shape.sizes is None:
        return TensorShape(None)
    dims = list(shape.sizes)
    consumed = sum(1 for item in index if item is not None and item is not Ellipsis)
    if consumed > len(dims):
        raise ValueError(f"Index {_index_text(index)} has too many indices for a tensor of rank {len(dims)}")
    out: list = []
    pos = 0
    for item in index:
        if item is None:
            out.append(1)
        elif item is Ellipsis:
            n = len(dims) - consumed
            out.extend(dims[pos:pos + n])
            pos += n
        elif isinstance(item, slice):
            d = dims[pos]
            pos += 1
            static = all(not isinstance(v, TensorIndex) for v in (item.start, item.stop, item.step))
            if item.step == 0:
                raise ValueError("slice step cannot be zero")
            out.append(len(range(*item.indices(d))) if d is not None and static else None)
        else:
            d = dims[pos]
            pos += 1
            if isinstance(item, int) and d is not None and not -d <= item < d:
                raise ValueError(f"slice index {item} of dimension {pos - 1} out of bounds (size {d})")
    out.extend(dims[pos:])
    return TensorShape(out)


def _index_text(index: tuple) -> str:
    return "[" + ", ".join("..." if i is Ellipsis else repr(i) for i in index) + "]"


def _strided_infer(inputs: Sequence[Any], attrs: dict) -> list:
    for t in inputs[1:]:
        if not t.dtype.is_integer or t.shape.rank not in (None, 0):
            raise TypeError(f"tensor indices must be scalar integers, got {t.dtype.name} {t.shape}")
    return [(inputs[0].dtype, sliced_shape(inputs[0].shape, attrs["index"]))]


def index_expr(index: tuple, args: Sequence[ast.expr], as_value: bool = False) -> ast.expr:
    """The subscript for ``x[...]`` (or, ``as_value``, the same index as a runtime tuple)."""
    def bound(v: Any) -> ast.expr | None:
        if v is None:
            return None
        return args[v.k] if isinstance(v, TensorIndex) else literal(v)

    def bound_value(v: Any) -> ast.expr:
        e = bound(v)
        return ast.Constant(None) if e is None else e

    items: list[ast.expr] = []
    for item in index:
        if isinstance(item, slice):
            if as_value:
                items.append(ast.Call(ast.Name("slice", LOAD), [bound_value(item.start), bound_value(item.stop),
                                                                 bound_value(item.step)], []))
            else:
                items.append(ast.Slice(bound(item.start), bound(item.stop), bound(item.step)))
        elif isinstance(item, TensorIndex):
            items.append(args[item.k])
        else:
            items.append(ast.Constant(item))
    return items[0] if len(items) == 1 and not as_value else ast.Tuple(items, LOAD)


def _emit_strided(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    return ast.Subscript(args[0], index_expr(ins.attrs["index"], args), LOAD)


STRIDED_SLICE = define("StridedSlice", _strided_infer, _emit_strided, default_name="strided_slice",
                       view="input", uniform_from=0)


def _scatter_infer(inputs: Sequence[Any], attrs: dict) -> list:
    g, like = inputs[:2]
    return [(g.dtype, like.shape)]


def _emit_scatter(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    like = ins.args[1]
    shape = shape_or(like.shape, args, 1)
    # the index's tensor inputs start after (g, like): shift their positions by one
    index = tuple(TensorIndex(i.k + 1) if isinstance(i, TensorIndex) else i for i in ins.attrs["index"])
    return rt_call("scatter_into_zeros", [args[0], shape, index_expr(index, args, as_value=True)])


SCATTER_INTO_ZEROS = define("ScatterIntoZeros", _scatter_infer, _emit_scatter, shape_only=(1,))


# -- tf.slice: a block given by begin and size (-1: to the end) ------------------------------------------

def _slice_dims(x: Any, begin: list | None, size: list | None, n: int) -> list:
    dims = []
    for i in range(n):
        d = x.shape.sizes[i] if x.shape.rank is not None else None
        b = None if begin is None else begin[i]
        s = None if size is None else size[i]
        if b is not None and (b < 0 or (d is not None and b > d)):
            raise ValueError(f"Expected begin[{i}] in [0, {'?' if d is None else d}], but got {b}")
        if s is not None and (s < -1 or (d is not None and b is not None and s > d - b)):
            raise ValueError(f"Expected size[{i}] in [0, {'?' if d is None or b is None else d - b}], but got {s}")
        if s == -1:
            dims.append(None if d is None or b is None else d - b)
        else:
            dims.append(s)
    return dims


def _slice_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x, begin, size = inputs
    int_vector(begin, "begin")
    int_vector(size, "size")
    if begin.dtype is not size.dtype:
        raise TypeError(f"begin and size must have the same dtype, got {begin.dtype.name} and {size.dtype.name}")
    b, s = const_ints(begin), const_ints(size)
    lengths = {len(v) for v in (b, s) if v is not None} | {t.shape.sizes[0] for t in (begin, size)
                                                           if t.shape.rank == 1 and t.shape.sizes[0] is not None}
    if x.shape.rank is not None:
        lengths.add(x.shape.rank)
    if len(lengths) > 1:
        raise ValueError(f"Expected begin, size and the input's rank to agree, got lengths {sorted(lengths)}")
    if not lengths:
        return [(x.dtype, TensorShape(None))]
    return [(x.dtype, TensorShape(_slice_dims(x, b, s, lengths.pop())))]


def _emit_slice(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    """``x[1:3, :, 2:]`` when begin and size are known, else the same index built at run time."""
    x, begin, size = ins.args
    b, s = const_ints(begin), const_ints(size)
    if b is None or s is None:
        ends = ast.Call(np_attr("where"), [ast.Compare(args[2], [ast.Eq()], [ast.Constant(-1)]),
                                           ast.Call(np_attr("shape"), [args[0]], []),
                                           ast.BinOp(args[1], ast.Add(), args[2])], [])
        index: ast.expr = ast.Call(ast.Name("tuple", LOAD), [
            ast.Call(ast.Name("map", LOAD), [ast.Name("slice", LOAD), args[1], ends], [])], [])
        return ast.Subscript(args[0], index, LOAD)
    items = []
    for i, (start, n) in enumerate(zip(b, s, strict=True)):
        d = x.shape.sizes[i] if x.shape.rank is not None else None
        stop = None if n == -1 or (d is not None and start + n == d) else start + n
        items.append(ast.Slice(literal(start) if start else None, None if stop is None else literal(stop), None))
    while items and items[-1].lower is None and items[-1].upper is None:
        items.pop()
    return ast.Subscript(args[0], items[0] if len(items) == 1 else ast.Tuple([*items], LOAD), LOAD)


SLICE = define("Slice", _slice_infer, _emit_slice, view="input", uniform_from=0,
               simplify=same_shape_input)
