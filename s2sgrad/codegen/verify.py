"""Check a lowered Program: SSA order, no dangling values, recorded specs as the rules say.

Run after lowering and after every pass when the pass manager is in checked mode
(``stages.set_checked``; the test suite turns it on). ``verify_program`` raises
``VerifyError`` naming the instruction (its primitive, graph op and user line) and the value.

A program is one block: parameters, then instructions in order, then outputs and commits.
Values defined outside a block are passed in as ``visible``: that is the extension point for
regions (a control-flow instruction's sub-programs are verified with the ids of the values of
the block that holds them, plus their own parameters).
"""
from __future__ import annotations

from collections.abc import Set as AbstractSet

from ..ssa.verify import VerifyError, check_specs
from .program import Instr, Kind, Program, Value

__all__ = ["VerifyError", "verify_program"]

_PARAM_KINDS = (Kind.FEED, Kind.VAR, Kind.RNG)


def verify_program(prog: Program, visible: AbstractSet[int] = frozenset()) -> None:
    """Every value is defined once (a parameter or one instruction's output) before it is read,
    constants and shape-only arguments need no definition, each instruction's outputs have the
    dtypes its primitive's rule gives for its arguments and shapes at least as specific, and
    every output and commit is defined. ``visible``: ids of values defined by an enclosing block."""
    defined: set[int] = set(visible)
    for i, p in enumerate(prog.params):
        if p.kind not in _PARAM_KINDS:
            raise VerifyError(f"parameter {i} ({p!r}) is a {p.kind.value} value, not a feed, variable or generator")
        if id(p) in defined:
            raise VerifyError(f"parameter {i} ({p!r}) is defined twice")
        defined.add(id(p))
    _check_instrs(prog.instrs, defined)
    for what, values in (("output", prog.outputs), ("commit", [v for _, v in prog.commits])):
        for i, v in enumerate(values):
            if not _available(v, defined):
                raise VerifyError(f"{what} {i} ({v!r}) is never defined (dangling)")


def _check_instrs(instrs: list[Instr], defined: set[int]) -> None:
    for n, ins in enumerate(instrs):
        _check_instr(n, ins, defined)


def _check_blocks(where: str, ins: Instr, defined: set[int]) -> None:
    """Each block of a control-flow instruction: its parameters, then its instructions, see the
    values defined before the instruction; its results and records are defined; what it defines
    stays inside it."""
    for b, block in enumerate(ins.blocks):
        inner = set(defined)
        for p in block.params:
            if p.kind is not Kind.BLOCK or id(p) in inner:
                raise VerifyError(f"{where}: block {b} parameter {p!r} is not a fresh block parameter")
            inner.add(id(p))
        _check_instrs(block.instrs, inner)
        for v in block.results + block.kept:
            if not _available(v, inner):
                raise VerifyError(f"{where}: block {b} result {v!r} is never defined in it (dangling)")


def _check_instr(n: int, ins: Instr, defined: set[int]) -> None:
    where = _what(n, ins)
    for i, a in enumerate(ins.args):
        if not _available(a, defined):
            later = a.producer is not None and a.producer is not ins
            raise VerifyError(f"{where}: argument {i} ({a!r}) is "
                              f"{'used before its definition' if later else 'never defined (dangling)'}")
    _check_blocks(where, ins, defined)
    if not ins.prim.pure and (not ins.args or ins.args[0].kind is not Kind.RNG):
        raise VerifyError(f"{where}: a random primitive's first argument must be its generator parameter")
    for i, out in enumerate(ins.outs):
        if id(out) in defined:
            raise VerifyError(f"{where}: output {i} ({out!r}) is defined twice")
        if out.producer is not ins:
            raise VerifyError(f"{where}: output {i} ({out!r}) names another instruction as its producer")
        if out.kind is not Kind.TEMP or out.const is not None:
            raise VerifyError(f"{where}: output {i} ({out!r}) is a {out.kind.value} value, not a computed one")
        defined.add(id(out))
    if ins.blocks:
        return
    inputs = ins.args if ins.prim.pure else ins.args[1:]
    check_specs(where, [(o.dtype, o.shape) for o in ins.outs], ins.prim.infer(inputs, ins.attrs))


def _available(v: Value, defined: set[int]) -> bool:
    """Defined earlier, or needing no definition: a compile-time constant or a known shape."""
    if id(v) in defined or v.const is not None:
        return True
    return v.kind is Kind.SHAPE and v.shape.is_fully_defined()


def _what(n: int, ins: Instr) -> str:
    op = ins.op
    return f"instruction {n} ({ins.prim.name} for op '{op.name}', created at {op.where})"
