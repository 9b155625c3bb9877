"""``tf.while_loop``: a While op whose condition and body are regions.

The loop variables are the body's parameters; the body returns their next values, of the same
structure and dtypes, and of the same shapes unless ``shape_invariants`` allow them to change.
A TensorArray among the loop variables is carried as its value tensor. ``maximum_iterations``
adds a counter, as in TensorFlow.
"""
from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

from .. import dtypes as _dt
from ..primitives.control import WHILE
from ..shapes import TensorShape, as_shape
from ..ssa.graph import Graph, Tensor, get_default_graph
from ..ssa.regions import Region
from . import nest
from .blocks import as_result, block_param, control_op, trace
from .convert import convert_to_tensor
from .math_ops import add, less, logical_and

__all__ = ["while_loop", "loop_value", "rebuild"]


def while_loop(cond: Callable, body: Callable, loop_vars: Any, shape_invariants: Any = None,
               parallel_iterations: int = 10, back_prop: bool = True, swap_memory: bool = False,
               name: str | None = None, maximum_iterations: Any = None, return_same_structure: bool = False) -> Any:
    """Repeat ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)``; the final loop variables.

    >>> # i, acc = tf.while_loop(lambda i, acc: i < 10, lambda i, acc: (i + 1, acc * 2.0), [0, 1.0])
    """
    if not callable(cond):
        raise TypeError("cond must be callable.")
    if not callable(body):
        raise TypeError("body must be callable.")
    if isinstance(parallel_iterations, bool) or not isinstance(parallel_iterations, int) or parallel_iterations < 1:
        raise ValueError("parallel_iterations must be a positive integer.")
    if loop_vars is None or (nest.is_nested(loop_vars) and not nest.flatten(loop_vars)):
        raise ValueError("No loop variables provided")
    graph = get_default_graph()
    with graph.name_scope(name or "while") as scope:
        leaves = nest.flatten(loop_vars)
        inits = [loop_value(v) for v in leaves]
        limit = None
        if maximum_iterations is not None:
            limit = convert_to_tensor(maximum_iterations, name="maximum_iterations")
            if not limit.dtype.is_integer or limit.shape.rank not in (None, 0):
                raise ValueError(f"maximum_iterations must be a scalar integer, got {limit}")
            inits.insert(0, convert_to_tensor(0, dtype=limit.dtype, name="loop_counter"))
        shapes = _invariants(shape_invariants, loop_vars, inits, limit is not None)
        labels = (["iteration"] if limit is not None else []) + _labels(body, len(leaves))
        outer = graph._current_region()
        regions = [Region("cond", outer), Region("body", outer)]
        args = [_params(graph, region, inits, shapes, labels) for region in regions]
        user_args = [_user_args(loop_vars, leaves, params[len(inits) - len(leaves):]) for params in args]
        _record_cond(graph, regions[0], cond, user_args[0], limit)
        _record_body(graph, regions[1], body, user_args[1], loop_vars, inits, limit, return_same_structure)
        op = control_op(graph, WHILE, inits, regions,
                        {"_n_vars": len(inits), "_kept": [], "back_prop": bool(back_prop),
                         "parallel_iterations": parallel_iterations}, scope)
    finals = list(op.outputs[len(inits) - len(leaves):len(inits)])
    out = nest.pack_sequence_as(loop_vars, rebuild(leaves, finals))
    if not return_same_structure and len(leaves) == 1:
        return nest.flatten(out)[0]
    return out


def loop_value(value: Any, dtype: Any = None) -> Tensor:
    """The tensor a loop carries for ``value`` (a TensorArray's value tensor, else the tensor itself)."""
    carried = getattr(value, "_loop_value", None)
    return carried() if carried is not None else convert_to_tensor(value, dtype=dtype)


def rebuild(leaves: Sequence[Any], tensors: Sequence[Tensor]) -> list:
    """``tensors`` as what the loop variables ``leaves`` were (a TensorArray is rebuilt around its tensor)."""
    out = []
    for leaf, t in zip(leaves, tensors, strict=True):
        rebuilt = getattr(leaf, "_with_loop_value", None)
        out.append(rebuilt(t) if rebuilt is not None else t)
    return out


def _record_cond(graph: Graph, region: Region, cond: Callable, args: list, limit: Tensor | None) -> None:
    with graph._in_region(region):
        test = as_result(trace(graph, region, cond, args, "cond"), "cond")
        if test.dtype is not _dt.bool or test.shape.rank not in (None, 0):
            raise TypeError(f"cond must return a boolean scalar tensor, got {test}")
        if limit is not None:
            test = logical_and(less(region.params[0], limit), test)
        region.results = [test]


def _record_body(graph: Graph, region: Region, body: Callable, args: list, loop_vars: Any, inits: list,
                 limit: Tensor | None, same_structure: bool) -> None:
    n_user = len(inits) - (limit is not None)
    with graph._in_region(region):
        nxt = trace(graph, region, body, args, "body")
        if n_user == 1 and nest.is_nested(loop_vars) and not nest.is_nested(nxt):
            nxt = [nxt]
        nest.assert_same_structure(_shape_of(loop_vars), _shape_of(nxt))
        params = region.params[len(inits) - n_user:]
        results = [loop_value(v, None if isinstance(v, Tensor) else p.dtype)
                   for v, p in zip(nest.flatten(nxt), params, strict=True)]
        if limit is not None:
            results.insert(0, add(region.params[0], 1))
        region.results = [_checked(r, p, init) for r, p, init in zip(results, region.params, inits, strict=True)]


def _shape_of(structure: Any) -> Any:
    """The nesting of ``structure`` with TensorArrays as leaves (they are nested objects to no one)."""
    return nest.map_structure(lambda leaf: 0, structure) if nest.is_nested(structure) else 0


def _checked(result: Tensor, param: Tensor, init: Tensor) -> Tensor:
    if result.dtype is not param.dtype:
        raise TypeError(f"Loop var {init.name} enters the loop with type {_dt_repr(param.dtype)} but has type "
                        f"{_dt_repr(result.dtype)} after 1 iteration. {init.name} type should remain constant.")
    if not param.shape.is_compatible_with(result.shape) or not _at_most(result.shape, param.shape):
        raise ValueError(f"Input tensor `{init.name}` enters the loop with shape {param.shape}, but has shape "
                         f"{result.shape} after one iteration. To allow the shape to vary across iterations, use "
                         "the `shape_invariants` argument of tf.while_loop to specify a less-specific shape.")
    return result


def _at_most(shape: TensorShape, invariant: TensorShape) -> bool:
    """``shape`` fits ``invariant``: the invariant's known sizes are ``shape``'s."""
    if invariant.sizes is None:
        return True
    if shape.sizes is None:
        return False
    return all(i is None or s == i for s, i in zip(shape.sizes, invariant.sizes, strict=True))


def _dt_repr(dtype: _dt.DType) -> str:
    return f"<dtype: '{dtype.name}'>"


def _invariants(shape_invariants: Any, loop_vars: Any, inits: list, counted: bool) -> list[TensorShape]:
    if shape_invariants is None:
        return [t.shape for t in inits]
    nest.assert_same_structure(_shape_of(loop_vars), nest.map_structure(lambda s: 0, shape_invariants)
                               if nest.is_nested(shape_invariants) and not _is_shape(shape_invariants) else 0)
    given = [as_shape(s) for s in _shape_leaves(shape_invariants)]
    user = inits[int(counted):]
    for t, s in zip(user, given, strict=True):
        if not s.is_compatible_with(t.shape) or not _at_most(t.shape, s):
            raise ValueError(f"The shape invariant specified for {t.name} is not compatible with the initial shape "
                             f"of the loop variable. It enters the loop with shape {t.shape}, but the specified "
                             f"shape invariant is {s}.")
    return [inits[0].shape] * int(counted) + given


def _is_shape(value: Any) -> bool:
    return isinstance(value, TensorShape) or (isinstance(value, (list, tuple)) and
                                              all(d is None or isinstance(d, int) for d in value))


def _shape_leaves(shape_invariants: Any) -> list:
    if _is_shape(shape_invariants):
        return [shape_invariants]
    out: list = []
    for item in (shape_invariants.values() if isinstance(shape_invariants, dict) else shape_invariants):
        out.extend(_shape_leaves(item))
    return out


def _labels(body: Callable, n: int) -> list[str]:
    """Names for the loop variables: the body's parameter names when it has one per variable."""
    try:
        names = [p.name for p in inspect.signature(body).parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        names = []
    return names if len(names) == n else [f"loop_var_{i}" if n > 1 else "loop_var" for i in range(n)]


def _params(graph: Graph, region: Region, inits: list, shapes: list, labels: list) -> list[Tensor]:
    return [block_param(graph, region, t.dtype, shape, label) for t, shape, label in zip(inits, shapes, labels,
                                                                                        strict=True)]


def _user_args(loop_vars: Any, leaves: list, params: list[Tensor]) -> list:
    """The arguments the user's cond and body get: the loop variables' structure around ``params``."""
    packed = nest.pack_sequence_as(loop_vars, rebuild(leaves, params))
    return list(packed) if isinstance(loop_vars, (list, tuple)) else [packed]
