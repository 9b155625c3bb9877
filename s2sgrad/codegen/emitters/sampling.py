"""Emitters of the candidate samplers: ``rt.sample_candidates(rng, true_classes, ...)``."""
from __future__ import annotations

import ast
from collections.abc import Sequence

from ...primitives import sampling as P
from ...primitives.core import Primitive
from ..program import Instr
from .common import Emitter, literal, rt_call


def _sampler(distribution: str) -> Emitter:
    def emit(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
        attrs = ins.attrs
        return rt_call("sample_candidates", [args[0], args[1], literal(distribution), literal(attrs["num_sampled"]),
                                             literal(attrs["unique"]), literal(attrs["range_max"])])
    return emit


EMITTERS: dict[Primitive, Emitter] = {
    P.LOG_UNIFORM_CANDIDATE_SAMPLER: _sampler("log_uniform"),
    P.UNIFORM_CANDIDATE_SAMPLER: _sampler("uniform"),
}
