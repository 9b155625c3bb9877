"""Running sums: a gradient summed over terms computed at different times is added up as they come.

``tf.gradients`` sums the contributions to one tensor with a single ``AddN`` once the last one
exists, so a weight used at every step of an unrolled loop keeps every step's term (and what the
terms are computed from) alive until the end of the backward pass. ``accumulate`` splits such a
sum into a chain of two-term sums, each placed right after its term's producer; the emitter
writes the chain as ``g_w = a + b`` then ``g_w += c`` ..., as a hand-written backward pass would.
It is a scheduling change only: the same terms are added in the same order of availability,
and the final value (the one the program's consumers read) is computed before its first use.
"""
from __future__ import annotations

from ..primitives.math import ADD_N
from .emit import DEL_MIN_ELEMENTS
from .program import Instr, Program, Value

__all__ = ["accumulate", "MIN_TERMS", "SPREAD"]

MIN_TERMS = 3   # a sum of two is one statement either way
SPREAD = 2      # split a sum whose terms are made more than this many instructions apart, on average


def accumulate(prog: Program) -> None:
    """Split every spread-out ``AddN`` of at least ``MIN_TERMS`` terms into running sums, in place.
    The Program's ``accumulators`` map each partial sum after the first to the one it adds into."""
    prog.instrs = _scheduled(prog.instrs, prog.accumulators)


def _scheduled(instrs: list[Instr], accumulators: dict[int, Value]) -> list[Instr]:
    """``instrs`` with their spread-out sums split (linear in their number). Loop bodies keep
    theirs: a body's values may be recorded per iteration, so none is added into in place."""
    sums = [i for i, ins in enumerate(instrs) if ins.prim is ADD_N and len(ins.args) >= MIN_TERMS]
    if not sums:
        return instrs
    position = {id(ins): i for i, ins in enumerate(instrs)}
    after: dict[int, list[Instr]] = {}   # position -> the partial sums placed after it
    split: set[int] = set()
    for i in sums:
        ins = instrs[i]
        if _sums_gradients(ins):
            chain = _chain(ins, position, accumulators)
            if chain:
                split.add(i)
                for at, partial in chain:
                    after.setdefault(at, []).append(partial)
    if not split:
        return instrs
    out: list[Instr] = after.get(-1, [])
    for i, ins in enumerate(instrs):
        if i not in split:
            out.append(ins)
        out += after.get(i, ())
    return out


def _sums_gradients(ins: Instr) -> bool:
    """``tf.gradients``' sum of one tensor's gradient contributions (its value is never folded into
    another statement, so each partial sum keeps a name to add into)."""
    t = ins.outs[0].tensor
    return t is not None and t.op.graph.primal_of(t) is not None


def _made_from_large(term: Value) -> bool:
    """Whether keeping ``term`` alive keeps a large array alive: it is one, or is made from one
    (the emitter deletes arrays from this size on; smaller ones cost too little to reorder for)."""
    made_from = term.producer.args if term.producer is not None else []
    return any(v.const is None and (v.size is None or v.size >= DEL_MIN_ELEMENTS) for v in [term, *made_from])


def _chain(ins: Instr, position: dict[int, int], accumulators: dict[int, Value]) -> list[tuple[int, Instr]]:
    """The two-term sums replacing ``ins``, each with the position it follows; [] when the terms
    are made close together or from small arrays only (little would die sooner, and one sum reads
    better)."""
    def made_at(v: Value) -> int:  # -1: before the program (a parameter, a constant)
        return -1 if v.producer is None else position.get(id(v.producer), -1)

    terms = sorted(ins.args, key=made_at)  # stable: terms made together keep the sum's order
    places = [made_at(v) for v in terms]
    if places[-1] - places[0] <= SPREAD * len(terms) or not any(map(_made_from_large, terms)):
        return []
    out = ins.outs[0]
    chain = []
    total = terms[0]
    for k in range(1, len(terms)):
        term = terms[k]
        last = k == len(terms) - 1
        partial = out if last else Value(out.dtype, out.shape, tensor=out.tensor)
        # the term's own op: a term computed for it is written into the sum's statement
        op = term.producer.op if term.producer is not None and not term.producer.blocks else ins.op
        chain.append((places[k], Instr(ADD_N, [total, term], dict(ins.attrs), [partial], op)))
        if k > 1:
            accumulators[id(partial)] = total
        total = partial
    return chain
