"""Array structure: shape queries, reshape, transpose, expand/squeeze, concat/stack/split,
fills, and basic indexing (StridedSlice) with its adjoint (ScatterIntoZeros)."""
from __future__ import annotations

import ast
from typing import Any, Sequence

import numpy as np

from .. import dtypes as _dt
from ..codegen.program import uniform
from ..ops import array_ops as a
from ..ops import reduce_ops as r
from ..shapes import TensorShape
from ..static import constant_value
from .core import define, literal, np_attr
from .reduce import normalize_axes

_LOAD = ast.Load()


def _known(shape: TensorShape) -> ast.expr | None:
    return literal(tuple(shape.dims)) if shape.is_fully_defined() else None


def _rt(name: str, args: list) -> ast.expr:
    return ast.Call(ast.Attribute(ast.Name("rt", _LOAD), name, _LOAD), args, [])


# -- shape queries (their input is read only for its shape) ----------------------------------------

def _shape_infer(inputs: Sequence[Any], attrs: dict) -> list:
    rank = inputs[0].shape.rank
    return [(attrs["out_type"], TensorShape([rank]))]


def _emit_shape(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    x, out = ins.args[0], ins.outs[0]
    if x.shape.is_fully_defined():
        return literal(np.array(x.shape.dims, dtype=out.dtype.np))
    return ast.Call(np_attr("array"), [ast.Attribute(args[0], "shape", _LOAD)],
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


define("Shape", _shape_infer, _emit_shape, differentiable=False, shape_only=(0,))
define("Size", lambda ins, at: [(at["out_type"], TensorShape([]))], _emit_size, differentiable=False,
       shape_only=(0,))
define("Rank", lambda ins, at: [(_dt.int32, TensorShape([]))], _emit_rank, differentiable=False,
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
    n = shape.shape.dims[0] if shape.shape.rank == 1 else None
    return [(x.dtype, TensorShape(None if n is None else [None] * n))]


def _emit_reshape(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    target = _known(ins.outs[0].shape)
    return ast.Call(np_attr("reshape"), [args[0], target if target is not None else args[1]], [])


def _same_shape(ins: Any) -> Any:
    x = ins.args[0]
    return x if x.shape.is_fully_defined() and x.shape == ins.outs[0].shape else None


def _reshape_grad(op: Any, g: Any) -> list:
    return [a.reshape(g, a.shape(op.inputs[0])), None]


define("Reshape", _reshape_infer, _emit_reshape, _reshape_grad, simplify=_same_shape, view="input",
       uniform_from=0)


def _expand_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None))]
    axis = normalize_axes((attrs["axis"],), x.shape.rank + 1, "expand_dims")[0]
    dims = list(x.shape.dims)
    dims.insert(axis, 1)
    return [(x.dtype, TensorShape(dims))]


def _emit_expand(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    axis = normalize_axes((ins.attrs["axis"],), ins.outs[0].shape.rank)[0]
    return ast.Call(np_attr("expand_dims"), [args[0], literal(axis)], [])


def _reshape_back(op: Any, g: Any) -> list:
    return [a.reshape(g, a.shape(op.inputs[0]))]


define("ExpandDims", _expand_infer, _emit_expand, _reshape_back, view="input", uniform_from=0)


def _squeeze_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None))]
    axes = normalize_axes(attrs["axis"], x.shape.rank, "squeeze")
    dims = x.shape.dims
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
        axes = tuple(i for i, d in enumerate(x.shape.dims) if d == 1)
    keywords = [] if axes is None else [ast.keyword("axis", literal(axes[0] if len(axes) == 1 else axes))]
    return ast.Call(np_attr("squeeze"), [args[0]], keywords)


define("Squeeze", _squeeze_infer, _emit_squeeze, _reshape_back, view="input", uniform_from=0,
       simplify=_same_shape)


def _transpose_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    perm = attrs["perm"]
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None if perm is None else [None] * len(perm)))]
    rank = x.shape.rank
    perm = tuple(reversed(range(rank))) if perm is None else perm
    if sorted(p % rank if -rank <= p < rank else p for p in perm) != list(range(rank)):
        raise ValueError(f"transpose expects a permutation of 0..{rank - 1}, got perm={list(perm)}")
    return [(x.dtype, TensorShape([x.shape.dims[p] for p in perm]))]


def _perm(ins: Any) -> tuple:
    rank = ins.args[0].shape.rank
    perm = ins.attrs["perm"]
    return tuple(reversed(range(rank))) if perm is None else tuple(p % rank for p in perm)


def _emit_transpose(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    if ins.args[0].shape.rank is None:
        return ast.Call(np_attr("transpose"), [args[0]], [])
    perm = _perm(ins)
    if perm == tuple(reversed(range(len(perm)))) and len(perm) == 2:
        return ast.Attribute(args[0], "T", _LOAD)
    return ast.Call(np_attr("transpose"), [args[0], literal(perm)], [])


def _transpose_grad(op: Any, g: Any) -> list:
    perm = op.attrs["perm"]
    if perm is None:
        return [a.transpose(g)]
    rank = len(perm)
    inverse = [0] * rank
    for i, p in enumerate(perm):
        inverse[p % rank] = i
    return [a.transpose(g, inverse)]


def _identity_perm(ins: Any) -> Any:
    rank = ins.args[0].shape.rank
    return ins.args[0] if rank is not None and _perm(ins) == tuple(range(rank)) else None


define("Transpose", _transpose_infer, _emit_transpose, _transpose_grad, view="input", uniform_from=0,
       simplify=_identity_perm)


# -- fills ------------------------------------------------------------------------------------------

def _like_infer(inputs: Sequence[Any], attrs: dict) -> list:
    return [(inputs[0].dtype, inputs[0].shape)]


def _fill_emitter(func: str, scalar: int) -> Any:
    def emit(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
        out = ins.outs[0]
        shape = _known(out.shape)
        if shape is None:
            return ast.Call(np_attr(func + "_like"), [args[0]], [])
        return ast.Call(np_attr(func), [shape], [ast.keyword("dtype", literal(out.dtype))])
    emit.scalar = scalar  # type: ignore[attr-defined]
    return emit


def _uniform_like(scalar: int) -> Any:
    def simplify(ins: Any) -> Any:
        out = ins.outs[0]
        return uniform(out, scalar) if out.shape.is_fully_defined() else None
    return simplify


define("ZerosLike", _like_infer, _fill_emitter("zeros", 0), differentiable=False, shape_only=(0,),
       simplify=_uniform_like(0))
define("OnesLike", _like_infer, _fill_emitter("ones", 1), differentiable=False, shape_only=(0,),
       simplify=_uniform_like(1))


def _fill_infer(inputs: Sequence[Any], attrs: dict) -> list:
    dims, value = inputs
    if value.shape.rank not in (None, 0):
        raise ValueError(f"value must be a scalar, got shape {value.shape}")
    target = constant_value(dims)
    if target is not None:
        target = [int(d) for d in np.reshape(target, -1)]
        if any(d < 0 for d in target):
            raise ValueError(f"Fill dimensions must be >= 0, got {target}")
        return [(value.dtype, TensorShape(target))]
    n = dims.shape.dims[0] if dims.shape.rank == 1 else None
    return [(value.dtype, TensorShape(None if n is None else [None] * n))]


def _emit_fill(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    shape = _known(ins.outs[0].shape)
    return ast.Call(np_attr("full"), [shape if shape is not None else args[0], args[1]],
                    [ast.keyword("dtype", literal(ins.outs[0].dtype))])


define("Fill", _fill_infer, _emit_fill, lambda op, g: [None, r.reduce_sum(g)], uniform_from=1)


# -- joining and splitting -------------------------------------------------------------------------

def _concat_infer(inputs: Sequence[Any], attrs: dict) -> list:
    dtype = inputs[0].dtype
    rank = next((t.shape.rank for t in inputs if t.shape.rank is not None), None)
    if any(t.dtype is not dtype for t in inputs):
        raise TypeError(f"concat inputs must have one dtype, got {[t.dtype.name for t in inputs]}")
    if rank is None:
        return [(dtype, TensorShape(None))]
    if rank == 0:
        raise ValueError("Can't concatenate scalars (use tf.stack instead)")
    axis = normalize_axes((attrs["axis"],), rank, "concat")[0]
    dims: list = [None] * rank
    total: int | None = 0
    for t in inputs:
        if t.shape.rank is None:
            total = None
            continue
        if t.shape.rank != rank:
            raise ValueError(f"Shape must be rank {rank} but is rank {t.shape.rank}")
        for i, d in enumerate(t.shape.dims):
            if i == axis:
                total = None if total is None or d is None else total + d
            elif d is not None:
                if dims[i] is not None and dims[i] != d:
                    raise ValueError(f"Dimension {i} in both shapes must be equal, but are {dims[i]} and {d}")
                dims[i] = d
    dims[axis] = total
    return [(dtype, TensorShape(dims))]


def _emit_concat(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    axis = normalize_axes((ins.attrs["axis"],), ins.outs[0].shape.rank)[0]
    return ast.Call(np_attr("concatenate"), [ast.List(list(args), _LOAD)],
                    [ast.keyword("axis", literal(axis))] if axis else [])


def _concat_grad(op: Any, g: Any) -> list:
    axis = op.attrs["axis"]
    sizes = a.stack([a.shape(t)[axis] for t in op.inputs]) if len(op.inputs) > 1 else None
    if sizes is None:
        return [g]
    return a.split(g, sizes, axis=axis)


define("ConcatV2", _concat_infer, _emit_concat, _concat_grad, default_name="concat",
       simplify=lambda ins: ins.args[0] if len(ins.args) == 1 else None)


def _stack_infer(inputs: Sequence[Any], attrs: dict) -> list:
    shape = TensorShape(None)
    dtype = inputs[0].dtype
    for t in inputs:
        if t.dtype is not dtype:
            raise TypeError(f"stack inputs must have one dtype, got {[t.dtype.name for t in inputs]}")
        if not shape.is_compatible_with(t.shape):
            raise ValueError(f"Shapes {shape} and {t.shape} are incompatible (stack needs equal shapes)")
        shape = shape.merge_with(t.shape)
    if shape.rank is None:
        return [(dtype, TensorShape(None))]
    axis = normalize_axes((attrs["axis"],), shape.rank + 1, "stack")[0]
    dims = list(shape.dims)
    dims.insert(axis, len(inputs))
    return [(dtype, TensorShape(dims))]


def _emit_stack(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    axis = normalize_axes((ins.attrs["axis"],), ins.outs[0].shape.rank)[0]
    return ast.Call(np_attr("stack"), [ast.List(list(args), _LOAD)],
                    [ast.keyword("axis", literal(axis))] if axis else [])


define("Pack", _stack_infer, _emit_stack, lambda op, g: a.unstack(g, len(op.inputs), op.attrs["axis"]),
       default_name="stack")


def _unstack_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    num = attrs["num"]
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None))] * num
    axis = normalize_axes((attrs["axis"],), x.shape.rank, "unstack")[0]
    d = x.shape.dims[axis]
    if d is not None and d != num:
        raise ValueError(f"Cannot unstack {num} tensors from dimension {axis} of size {d}")
    dims = [d for i, d in enumerate(x.shape.dims) if i != axis]
    return [(x.dtype, TensorShape(dims))] * num


def _emit_unstack(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    axis = normalize_axes((ins.attrs["axis"],), ins.args[0].shape.rank)[0]
    value = args[0] if axis == 0 else ast.Call(np_attr("moveaxis"), [args[0], literal(axis), ast.Constant(0)], [])
    return ast.Call(ast.Name("tuple", _LOAD), [value], [])


def _unstack_grad(op: Any, *grads: Any) -> list:
    return [a.stack(list(grads), axis=op.attrs["axis"])]


define("Unpack", _unstack_infer, _emit_unstack, _unstack_grad, default_name="unstack", view="input")


def _split_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x, sizes = inputs
    values = constant_value(sizes)
    num = attrs["num"]
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None))] * num
    axis = normalize_axes((attrs["axis"],), x.shape.rank, "split")[0]
    d = x.shape.dims[axis]
    if values is None:
        outs = [None] * num
    else:
        outs = [int(v) for v in np.reshape(values, -1)]
        if outs.count(-1) == 1 and d is not None:
            outs[outs.index(-1)] = d - (sum(outs) + 1)
        if d is not None and sum(outs) != d or any(v < 0 for v in outs):
            raise ValueError(f"Determined shape must either match input shape along split_dim exactly if "
                             f"fully specified, or be less than the size of the input along split_dim if "
                             f"not fully specified. Got sizes {list(np.reshape(values, -1))} for dimension {d}")
    specs = []
    for size in outs:
        dims = list(x.shape.dims)
        dims[axis] = size
        specs.append((x.dtype, TensorShape(dims)))
    return specs


def _emit_split(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    axis = normalize_axes((ins.attrs["axis"],), ins.args[0].shape.rank)[0]
    sizes = [o.shape.dims[axis] for o in ins.outs]
    if None in sizes:
        cuts: ast.expr = ast.Subscript(ast.Call(np_attr("cumsum"), [args[1]], []),
                                       ast.Slice(None, ast.Constant(-1), None), _LOAD)
    else:
        cuts = literal(list(np.cumsum(sizes[:-1]).tolist()))
    return ast.Call(np_attr("split"), [args[0], cuts], [ast.keyword("axis", literal(axis))] if axis else [])


def _split_grad(op: Any, *grads: Any) -> list:
    parts = [g if g is not None else a.zeros_like(t) for g, t in zip(grads, op.outputs)]
    return [a.concat(parts, axis=op.attrs["axis"]), None]


define("SplitV", _split_infer, _emit_split, _split_grad, default_name="split", view="input")


# -- basic indexing ---------------------------------------------------------------------------------

class TensorIndex:
    """In a StridedSlice index spec: "the value of input ``k``" (a scalar int tensor)."""

    __slots__ = ("k",)

    def __init__(self, k: int) -> None:
        self.k = k

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TensorIndex) and other.k == self.k

    def __hash__(self) -> int:
        return hash(("TensorIndex", self.k))

    def __repr__(self) -> str:
        return f"<input {self.k}>"


def sliced_shape(shape: TensorShape, index: tuple) -> TensorShape:
    """The shape of ``x[index]`` for basic indexing (ints, slices, None, ...)."""
    if shape.dims is None:
        return TensorShape(None)
    dims = list(shape.dims)
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
            return None if not as_value else ast.Constant(None)
        return args[v.k] if isinstance(v, TensorIndex) else literal(v)

    items = []
    for item in index:
        if isinstance(item, slice):
            if as_value:
                items.append(ast.Call(ast.Name("slice", _LOAD), [bound(item.start), bound(item.stop),
                                                                 bound(item.step)], []))
            else:
                items.append(ast.Slice(bound(item.start), bound(item.stop), bound(item.step)))
        elif isinstance(item, TensorIndex):
            items.append(args[item.k])
        else:
            items.append(ast.Constant(item))
    return items[0] if len(items) == 1 and not as_value else ast.Tuple(items, _LOAD)


def _emit_strided(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    return ast.Subscript(args[0], index_expr(ins.attrs["index"], args), _LOAD)


def _strided_grad(op: Any, g: Any) -> list:
    x, *indices = op.inputs
    return [a.scatter_into_zeros(g, x, op.attrs["index"], indices)] + [None] * len(indices)


define("StridedSlice", _strided_infer, _emit_strided, _strided_grad, default_name="strided_slice",
       view="input", uniform_from=0)


def _scatter_infer(inputs: Sequence[Any], attrs: dict) -> list:
    g, like = inputs[:2]
    return [(g.dtype, like.shape)]


def _emit_scatter(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    like = ins.args[1]
    shape = _known(like.shape)
    if shape is None:
        shape = ast.Attribute(args[1], "shape", _LOAD)
    # the index's tensor inputs start after (g, like): shift their positions by one
    index = tuple(TensorIndex(i.k + 1) if isinstance(i, TensorIndex) else i for i in ins.attrs["index"])
    return _rt("scatter_into_zeros", [args[0], shape, index_expr(index, args, as_value=True)])


def _scatter_grad(op: Any, g: Any) -> list:
    _, _, *indices = op.inputs
    return [a.strided_slice(g, op.attrs["index"], indices), None] + [None] * len(indices)


define("ScatterIntoZeros", _scatter_infer, _emit_scatter, _scatter_grad, shape_only=(1,))


# -- gather and its adjoint ---------------------------------------------------------------------------

def _gather_infer(inputs: Sequence[Any], attrs: dict) -> list:
    params, indices = inputs
    if not indices.dtype.is_integer:
        raise TypeError(f"gather indices must be integers, got {indices.dtype.name}")
    if params.shape.rank is None or indices.shape.rank is None:
        return [(params.dtype, TensorShape(None))]
    axis = normalize_axes((attrs["axis"],), params.shape.rank, "gather")[0]
    p = params.shape.dims
    return [(params.dtype, TensorShape(p[:axis] + indices.shape.dims + p[axis + 1:]))]


def _emit_gather(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    axis = normalize_axes((ins.attrs["axis"],), ins.args[0].shape.rank)[0]
    return ast.Call(np_attr("take"), [args[0], args[1]], [ast.keyword("axis", literal(axis))])


def _gather_grad(op: Any, g: Any) -> list:
    from ..ops.indexed_slices import IndexedSlices
    params, indices = op.inputs
    axis = op.attrs["axis"]
    if axis == 0:
        shape = a.shape(params)
        size = a.size(indices)
        values = a.reshape(g, a.concat([a.reshape(size, [1]), shape[1:]], 0))
        values.set_shape(TensorShape([indices.shape.num_elements()]).concatenate(params.shape[1:]))
        return [IndexedSlices(values, a.reshape(indices, [-1]), shape), None]
    rank, irank = params.shape.rank, indices.shape.rank
    if rank is None or irank is None:
        raise ValueError(f"the gradient of gather along axis {axis} needs static ranks ({params.name})")
    axis %= rank
    front = list(range(axis, axis + irank)) + list(range(axis)) + list(range(axis + irank, rank - 1 + irank))
    moved = a.transpose(g, front)
    rows = a.reshape(moved, a.concat([[-1], a.shape(moved)[irank:]], 0))
    summed = a.unsorted_segment_sum(rows, a.reshape(indices, [-1]), a.shape(params)[axis])
    back = list(range(1, axis + 1)) + [0] + list(range(axis + 1, rank))
    return [a.transpose(summed, back), None]


define("GatherV2", _gather_infer, _emit_gather, _gather_grad, default_name="GatherV2", fusable=False)


def _segment_infer(inputs: Sequence[Any], attrs: dict) -> list:
    data, ids, num = inputs
    if not ids.dtype.is_integer or not num.dtype.is_integer:
        raise TypeError("segment ids and num_segments must be integers")
    n = constant_value(num)
    if data.shape.rank is None or ids.shape.rank is None:
        return [(data.dtype, TensorShape(None))]
    rest = data.shape.dims[ids.shape.rank:]
    return [(data.dtype, TensorShape([None if n is None else int(n)] + list(rest)))]


def _emit_segment(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    n = ins.outs[0].shape.dims[0] if ins.outs[0].shape.rank else None
    return _rt("segment_sum", [args[0], args[1], literal(n) if n is not None else args[2]])


define("UnsortedSegmentSum", _segment_infer, _emit_segment,
       lambda op, g: [a.gather(g, op.inputs[1]), None, None], fusable=False)
