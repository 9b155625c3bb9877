"""Recording a Python function into a region, and the control-flow op that owns regions.

``trace`` runs a branch or loop function with the region as the place new ops go, so the ops it
makes belong to the block; ``control_op`` makes the If/While/For op whose inputs are its own
operands followed by the captures (what its regions read from enclosing blocks).
"""
from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

from ..primitives.control import BLOCK_PARAM, STEP_GRAD, STEP_READ, UNDEFINED
from ..primitives.core import Primitive
from ..shapes import TensorShape
from ..ssa.graph import Graph, Operation, Tensor, get_default_graph
from ..ssa.regions import Region, captures
from .convert import convert_to_tensor, record1

__all__ = ["trace", "block_param", "control_op", "as_result", "step_read", "step_grad", "undefined"]


def block_param(graph: Graph, region: Region, dtype: Any, shape: TensorShape, label: str,
                gradient_of: Tensor | None = None) -> Tensor:
    """A parameter of ``region`` (a loop variable's value at the start of an iteration);
    ``gradient_of``: the tensor whose gradient it sums (a gradient loop's accumulator)."""
    attrs = {"dtype": dtype, "shape": shape.sizes, "label": label}
    if gradient_of is not None:
        attrs["gradient_of"] = gradient_of
    with graph._in_region(region):
        t = graph.create_op(BLOCK_PARAM, [], attrs, name=label).outputs[0]
    region.params.append(t)
    return t


def trace(graph: Graph, region: Region, fn: Callable, args: Sequence[Any], what: str) -> Any:
    """``fn(*args)`` with the ops it makes recorded into ``region``; returns what ``fn`` returns.
    TypeError naming ``what`` when ``fn`` cannot take those arguments."""
    try:
        inspect.signature(fn).bind(*args)
    except TypeError as e:
        raise TypeError(f"{what} cannot be called with {len(args)} argument(s) {list(args)!r}: {e}") from None
    except ValueError:  # no signature to check (a builtin): the call itself will tell
        pass
    with graph._in_region(region):
        return fn(*args)


def as_result(value: Any, what: str, dtype: Any = None) -> Tensor:
    """A block's returned leaf as a tensor (Python numbers and arrays become constants)."""
    if value is None:
        raise ValueError(f"{what} returned None; return a tensor (or a structure of tensors)")
    if isinstance(value, Operation):
        raise TypeError(f"{what} returned the operation {value.name!r}; return tensors (use "
                        "tf.control_dependencies to order an operation before a returned tensor)")
    return convert_to_tensor(value, dtype=dtype)


def control_op(graph: Graph, prim: Primitive, operands: Sequence[Tensor], regions: Sequence[Region],
               attrs: dict, name: str) -> Operation:
    """The op running ``regions``: inputs ``operands`` + captures; it depends on what they depend on."""
    tensors, controls = captures(regions)
    with graph.control_dependencies(controls):
        op = graph.create_op(prim, [*operands, *tensors], {"_regions": tuple(regions), **attrs}, name=name)
    for region in regions:
        region.owner = op
    return op


def step_read(steps: Tensor, index: Tensor) -> Tensor:
    """The value a loop recorded at iteration ``index`` (``steps``: one record per iteration)."""
    return record1(STEP_READ, [steps, index], None, "step")


def step_grad(steps: Tensor, index: Tensor, g: Tensor) -> Tensor:
    """Zeros shaped like the records ``steps`` with ``g`` at iteration ``index`` (StepRead's gradient)."""
    return record1(STEP_GRAD, [steps, index, g], None, "step_grad")


def undefined(like: Tensor) -> Tensor:
    """No value (``None``), typed like ``like``: what a branch yields for an output only the other branch has."""
    return get_default_graph().create_op(UNDEFINED, [], {"dtype": like.dtype, "shape": like.shape.sizes},
                                         name="undefined").outputs[0]
