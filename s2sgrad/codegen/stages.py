"""The pass manager: lower a graph slice, then run each pass over the Program in order.

Every pass rewrites the Program **in place** (``drop_zero_carries``: a zero gradient a gradient
loop carries unchanged leaves it; ``optimize``: fold, simplify, CSE, DCE;
``hoist_invariants``: loop-invariant code moves before its loop; ``share_transposes``: one
contiguous copy of a matrix used transposed several times; ``accumulate``: a gradient summed over
terms made at different times is added up as they come; ``scale_in_place``: a dying gradient is
scaled in its own array, ``g *= lr``; ``reroll``: a long run of identical iterations of a traced
loop becomes a ``For`` loop again); none returns a new Program. In
checked mode (``set_checked(True)``, which the test suite turns on) the graph slice is verified
before lowering and the Program after lowering and after every pass, so a pass that breaks an
invariant is named by the error.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from ..ssa.graph import Operation, Tensor
from ..ssa.verify import verify_graph
from .accumulate import accumulate
from .hoist import hoist_invariants
from .inplace import scale_in_place
from .layout import share_transposes
from .loop_zeros import drop_zero_carries
from .lower import lower
from .passes import optimize
from .program import Program
from .reroll import reroll
from .verify import VerifyError, verify_program

__all__ = ["PASSES", "is_checked", "lower_and_optimize", "set_checked"]

PASSES: tuple[Callable[[Program], object], ...] = (drop_zero_carries, optimize, hoist_invariants,
                                                    share_transposes, accumulate, scale_in_place, reroll)
_checked = False


def set_checked(enabled: bool) -> None:
    """Verify the IR before lowering and the Program after lowering and after every pass."""
    global _checked
    _checked = bool(enabled)


def is_checked() -> bool:
    return _checked


def lower_and_optimize(ops: Sequence[Operation], fetch_tensors: Sequence[Tensor], feeds: dict,
                       variables: dict, rngs: Sequence[Operation]) -> Program:
    """``lower`` (arguments as there), then every pass in ``PASSES``, in place."""
    if _checked and ops:
        verify_graph(ops[0].graph, ops, _recorded_rule)
    prog = lower(ops, fetch_tensors, feeds, variables, rngs)
    _verify(prog, "lowering")
    for run_pass in PASSES:
        run_pass(prog)
        _verify(prog, run_pass.__name__)
    return prog


def _recorded_rule(op: Operation) -> list:
    return op.prim.infer(op.inputs, op.attrs)


def _verify(prog: Program, after: str) -> None:
    if _checked:
        try:
            verify_program(prog)
        except VerifyError as e:
            raise VerifyError(f"after {after}: {e}") from None
