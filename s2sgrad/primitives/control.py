"""Control flow: ``If`` and the loops ``While`` and ``For``, whose regions are their blocks, and
the few primitives that live inside blocks.

A control-flow op's ``attrs["_regions"]`` holds its regions (``ssa.regions.Region``): ``(then,
else)`` for If, ``(cond, body)`` for While, ``(body,)`` for For. Its inputs are the predicate or
the loop's initial values (and For's trip count) followed by the captures, the outer tensors the
regions read. Outputs: If's are its branches' results; a loop's are its final loop variables,
then (While) its trip count, then one per-iteration record for each body tensor in
``attrs["_kept"]`` (what a gradient reads back, iteration by iteration).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import dtypes as _dt
from ..shapes import TensorShape
from .core import define

__all__ = ["IF", "WHILE", "FOR", "BLOCK_PARAM", "STEP_READ", "STEP_GRAD", "UNDEFINED", "merged_result_spec",
           "kept_shape"]


def merged_result_spec(a: Any, b: Any, what: str) -> tuple:
    """The (dtype, shape) of an output two blocks both produce: same dtype, the shape they share."""
    if a.dtype is not b.dtype:
        raise TypeError(f"{what}: the branches return different types: {a.dtype.name} and {b.dtype.name}")
    return a.dtype, a.shape.most_specific_compatible_shape(b.shape)


def kept_shape(t: Any) -> TensorShape:
    """The shape of a per-iteration record of ``t``: one row per iteration."""
    dims = t.shape.sizes
    return TensorShape(None if dims is None else [None, *dims])


def _if_spec(inputs: Sequence[Any], attrs: dict) -> list:
    then, other = attrs["_regions"]
    return [merged_result_spec(a, b, "tf.cond") for a, b in zip(then.results, other.results, strict=True)]


def _loop_spec(attrs: dict, with_count: bool) -> list:
    body = attrs["_regions"][-1]
    params = body.params[1:] if not with_count else body.params
    specs = [(p.dtype, p.shape) for p in params]
    if with_count:
        specs.append((_dt.int32, TensorShape([])))
    return specs + [(t.dtype, kept_shape(t)) for t in attrs["_kept"]]


def _step_read_spec(inputs: Sequence[Any], attrs: dict) -> list:
    steps, index = inputs
    if not index.dtype.is_integer:
        raise TypeError(f"an iteration index must be an integer, got {index.dtype.name}")
    dims = steps.shape.sizes
    return [(steps.dtype, TensorShape(None if dims is None else dims[1:]))]


def _step_grad_spec(inputs: Sequence[Any], attrs: dict) -> list:
    steps, index, g = inputs
    return [(g.dtype, TensorShape(None if steps.shape.rank is None else [steps.shape.sizes[0], *g.shape.sizes])
             if g.shape.sizes is not None else TensorShape(None))]


def _attr_spec(inputs: Sequence[Any], attrs: dict) -> list:
    return [(attrs["dtype"], TensorShape(attrs["shape"]))]


IF = define("If", _if_spec, control=True, default_name="cond")
WHILE = define("While", lambda ins, at: _loop_spec(at, with_count=True), control=True, default_name="while")
FOR = define("For", lambda ins, at: _loop_spec(at, with_count=False), control=True, default_name="for")
BLOCK_PARAM = define("BlockParam", _attr_spec, differentiable=False, default_name="param")
STEP_READ = define("StepRead", _step_read_spec, default_name="step", fusable=False)
STEP_GRAD = define("StepGrad", _step_grad_spec, default_name="step_grad")
UNDEFINED = define("Undefined", _attr_spec, differentiable=False)
