"""Rewrites on a Program: constant folding, per-primitive simplification, CSE and DCE.

``optimize`` makes one forward sweep (each instruction sees its arguments already
rewritten) and one backward sweep (dead code), so the cost is linear in the program.
"""
from __future__ import annotations

import ast
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..primitives.control import IF
from . import runtime
from .compiler import GENERATED_MODULE
from .emitters import EMITTERS
from .program import Block, Instr, Kind, Program, Value, uniform
from .simplify import SIMPLIFY, Simplifier

if TYPE_CHECKING:  # types only: code generation reads the graph and the declarations it is given
    from ..primitives.core import Primitive
    from ..ssa.graph import Tensor

__all__ = ["optimize", "FOLD_LIMIT", "freeze"]

FOLD_LIMIT = 1 << 16   # fold only results with at most this many elements
_CONST_KEY_LIMIT = 4096
_SHAPE, _CONST = Kind.SHAPE, Kind.CONST  # as globals: an Enum member read off its class costs 5x more


def optimize(prog: Program) -> Program:
    """Fold, simplify, merge common subexpressions, then drop what nothing uses."""
    alias: dict[int, Value] = {}
    consts: dict[Hashable, Value] = {}
    canonical: dict[int, tuple[Value, Value]] = {}  # id of a constant -> (it, the equal constant it becomes)

    def resolve(v: Value) -> Value:
        while id(v) in alias:
            v = alias[id(v)]
        if v.const is not None:
            known = canonical.get(id(v))
            if known is not None and known[0] is v:  # (holding v keeps its id from being reused)
                return known[1]
            key = _const_key(v)
            first = v if key is None else consts.setdefault(key, v)
            canonical[id(v)] = (v, first)
            v = first
        return v

    prog.instrs = _rewrite(prog.instrs, resolve, alias, {})
    prog.outputs = [resolve(v) for v in prog.outputs]
    prog.commits = [(var, resolve(v)) for var, v in prog.commits]
    _eliminate_dead(prog)
    return prog


def _rewrite(instrs: list[Instr], resolve: Any, alias: dict[int, Value], seen: dict[Hashable, Instr]) -> list[Instr]:
    """One forward sweep over a block: each instruction sees its arguments already rewritten.
    A block sees the common subexpressions of the blocks around it; its own stay inside it."""
    kept: list[Instr] = []
    for ins in instrs:
        # most arguments are computed values nothing replaced: resolve would return them as they are
        ins.args = [a if a.const is None and id(a) not in alias else resolve(a) for a in ins.args]
        if ins.blocks:
            for block in ins.blocks:
                block.instrs = _rewrite(block.instrs, resolve, alias, dict(seen))
                block.results = [resolve(v) for v in block.results]
                block.kept = [resolve(v) for v in block.kept]
            taken = _taken_branch(ins)
            if taken is None:
                kept.append(ins)
                continue
            kept.extend(taken.instrs)  # a branch known at compile time runs inline
            replacement: list[Value] | None = taken.results
        else:
            replacement = _replacement(ins, seen)
            if replacement is None:
                kept.append(ins)
                continue
        for old, new in zip(ins.outs, replacement or (), strict=True):
            _merge_names(old, new)
            alias[id(old)] = new
    return kept


def _replacement(ins: Instr, seen: dict[Hashable, Instr]) -> list[Value] | None:
    """What an instruction's outputs can be replaced with: a folded constant, a simpler value or
    the outputs of an earlier identical instruction (None: keep it)."""
    prim, outs = ins.prim, ins.outs
    for o in outs:
        if not o.shape.is_fully_defined():
            _refine_shapes(ins)
            break
    applies = _APPLIES.get(prim)
    if applies is None:
        applies = _applies(prim)
    folds, fills, simplify, merges = applies
    args = ins.args  # folding needs every argument known (a computed first one rules it out), or a uniform source
    if folds and (prim.uniform_from is not None or (args and (args[0].const is not None or args[0].kind is _SHAPE))):
        replacement = _fold(ins)
    else:
        replacement = None
    if replacement is None and fills and outs[0].shape.is_fully_defined():
        replacement = [uniform(outs[0], prim.fill)]
    if simplify is not None and replacement is None:
        out = simplify(ins)
        replacement = None if out is None else out if isinstance(out, list) else [out]
    if replacement is None and merges:
        key = _cse_key(ins)
        if key is not None:
            first = seen.setdefault(key, ins)
            if first is not ins:
                replacement = first.outs
    return replacement


_APPLIES: dict[Primitive, tuple[bool, bool, Simplifier | None, bool]] = {}


def _applies(prim: Primitive) -> tuple[bool, bool, Simplifier | None, bool]:
    """What ``_replacement`` tries on an instruction of ``prim``: (fold, fill, its simplifier, merge);
    worked out once per primitive (declarations are immutable)."""
    computes = prim.pure and not prim.effect  # a pure computation: may fold, simplify or merge
    applies = (computes and not prim.lists, prim.fill is not None, SIMPLIFY.get(prim), computes and not prim.assigns)
    if len(_APPLIES) < 4096:
        _APPLIES[prim] = applies
    return applies


def _taken_branch(ins: Instr) -> Block | None:
    """The block an If with a compile-time predicate always runs (None: not known, or not an If)."""
    if ins.prim is not IF or ins.args[0].const is None:
        return None
    return ins.blocks[0 if bool(ins.args[0].const) else 1]


def _refine_shapes(ins: Instr) -> None:
    """Re-run the shape rule now that folding may have made shape arguments constant."""
    try:
        specs = ins.prim.infer(ins.args if ins.prim.pure else ins.args[1:], ins.attrs)
    except (ValueError, TypeError):
        return  # the original specs stand; run time reports the problem with its op and line
    for out, (_, shape) in zip(ins.outs, specs, strict=True):
        if out.shape.is_compatible_with(shape):
            out.shape = out.shape.merge_with(shape)


def _merge_names(old: Value, new: Value) -> None:
    """When two values become one, a gradient-internal temporary takes the more telling name
    (``g_w`` beats ``mul_3``); values the user's program computes keep their own."""
    if new.kind is Kind.TEMP and old.tensor is not None and _rank(new.tensor) <= 1 < _rank(old.tensor):
        new.tensor = old.tensor


def _rank(t: Tensor | None) -> int:
    if t is None:
        return 0
    if t.op.graph.primal_of(t) is not None:
        return 3
    return 1 if t.op.grad_of is not None else 2


def _const_key(v: Value) -> Hashable | None:
    c = v.const
    if isinstance(c, np.ndarray):
        if c.size > _CONST_KEY_LIMIT:
            return None
        return (v.dtype.name, c.shape, c.tobytes() if c.dtype.kind != "O" else repr(c.tolist()))
    return (v.dtype.name, (), repr(c), type(c).__name__)


def freeze(value: Any) -> Hashable:
    """A hashable key of an attribute value, equal for values that mean the same to the bit
    (``-0.0`` is not ``0.0``); raises TypeError for what cannot be told apart that way."""
    if isinstance(value, dict):
        return tuple(sorted((k, freeze(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    if isinstance(value, float):
        return ("float", repr(value))
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, slice):
        return ("slice", value.start, value.stop, value.step)
    hash(value)
    return value


def _cse_key(ins: Instr) -> Hashable | None:
    """What two instructions computing the same thing share (None: it cannot be told)."""
    args, attrs = ins.args, ins.attrs
    if not attrs:  # most instructions: a flat tuple, never equal to the general key (an id is not a tuple)
        if len(args) == 2:
            return (ins.prim.name, id(args[0]), id(args[1]))
        if len(args) == 1:
            return (ins.prim.name, id(args[0]))
    try:
        frozen = freeze(attrs) if attrs else ()
    except TypeError:
        return None
    return (ins.prim.name, tuple(map(id, args)), frozen)


def _fold(ins: Instr) -> list[Value] | None:
    """Evaluate an instruction whose arguments are all constants, if its result is small.

    An op that only copies elements of a uniform constant (broadcast, reshape, tile...) folds
    at any size, to a zero-stride view of one scalar."""
    source = ins.prim.uniform_from
    if source is not None and ins.args[source].const is not None and ins.args[source].is_uniform() \
            and ins.outs[0].shape.is_fully_defined():
        return [uniform(ins.outs[0], ins.args[source].scalar())]
    for a in ins.args:  # first: most instructions have a computed argument
        if a.const is None and a.kind is not _SHAPE:
            return None
    emit = EMITTERS.get(ins.prim)
    if emit is None or not ins.args or not ins.prim.foldable:
        return None
    if any(o.size is None or o.size > FOLD_LIMIT for o in ins.outs):
        return None
    names = [f"_a{i}" for i in range(len(ins.args))]
    expr = emit(ins, [ast.Name(n, ast.Load()) for n in names])
    code = compile(ast.fix_missing_locations(ast.Expression(expr)), "<s2sgrad-fold>", "eval")
    try:
        with np.errstate(all="ignore"):  # thread-safe, unlike warnings.catch_warnings
            namespace = {"__name__": GENERATED_MODULE, "np": np, "rt": runtime}  # quiet like generated code
            result = eval(code, namespace, dict(zip(names, (a.const for a in ins.args), strict=True)))
    except Exception:  # leave it to run time, where the error gets its op and line
        return None
    results = result if len(ins.outs) > 1 else (result,)
    folded = []
    for out, r in zip(ins.outs, results, strict=True):
        r = np.asarray(r, dtype=out.dtype.np)
        if tuple(r.shape) != out.shape.sizes:
            return None
        folded.append(Value(out.dtype, out.shape, const=r[()] if r.ndim == 0 else r, tensor=out.tensor,
                            kind=_CONST))
    return folded


def _eliminate_dead(prog: Program) -> None:
    live = {id(v) for v in prog.outputs} | {id(v) for _, v in prog.commits}
    prog.instrs = _live_instrs(prog.instrs, live)
    prog.params = [p for p in prog.params if id(p) in live]


def _live_instrs(instrs: list[Instr], live: set[int]) -> list[Instr]:
    """The instructions of a block that compute something in ``live`` (which grows with their arguments)."""
    kept = []
    for ins in reversed(instrs):
        if ins.blocks:
            if _prune_control(ins, live):
                kept.append(ins)
            continue
        outs = ins.outs
        if ins.prim.effect or (id(outs[0]) in live if len(outs) == 1 else not live.isdisjoint(map(id, outs))):
            kept.append(ins)
            live.update(map(id, ins.args))
    kept.reverse()
    return kept


def _prune_control(ins: Instr, live: set[int]) -> bool:
    """Drop a control-flow instruction's unused outputs (an If's, a loop's per-iteration records)
    and its blocks' dead code; False when nothing it computes is used."""
    if not any(id(o) in live for o in ins.outs):
        return False
    if ins.prim is IF:
        used = [i for i, o in enumerate(ins.outs) if id(o) in live]
        ins.outs = [ins.outs[i] for i in used]
        for block in ins.blocks:
            block.results = [block.results[i] for i in used]
    else:
        first_kept = len(ins.outs) - len(ins.blocks[-1].kept)
        used = [j for j in range(len(ins.blocks[-1].kept)) if id(ins.outs[first_kept + j]) in live]
        body = ins.blocks[-1]
        ins.outs = ins.outs[:first_kept] + [ins.outs[first_kept + j] for j in used]
        body.kept = [body.kept[j] for j in used]
    for block in reversed(ins.blocks):
        live.update(id(v) for v in block.results)
        live.update(id(v) for v in block.kept)
        block.instrs = _live_instrs(block.instrs, live)
    live.update(id(a) for a in ins.args)
    return True
