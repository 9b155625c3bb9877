"""Rolling traced loops back up: a long run of identical iterations becomes one ``For`` loop.

Tracing records a Python ``for`` loop unrolled: 3000 layers made by one line are 9000
instructions, and their gradient 6000 more, each a line to write and compile. A run of at least
``MIN_TRIPS`` iterations of the same instructions (primitives, attributes, dtypes and shapes,
made at the same user lines) becomes a loop whose body is the first iteration, when every
iteration reads each argument the same way:

- a value made earlier in the iteration;
- a value the previous iteration made: a loop variable (the first iteration's is its initial value);
- the same value in every iteration;
- a constant of the same dtype and shape: constants that differ become one stacked constant,
  read at the iteration's index (``w = w_steps[k]``);
- the value an earlier rolled loop made at an iteration moving with this one's, read back from
  that loop's record (a gradient loop runs its index backwards: ``reversed(range(n))``).

A value read after its loop is recorded per iteration (``h_steps[k] = h``), except the last
iteration's loop variables, which are the loop's results. The loop runs the same operations in
the same order on the same values, so what it computes is bitwise what the unrolled program does.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..primitives.control import FOR, STEP_GRAD, STEP_READ, UNDEFINED
from ..primitives.math import ADD_V2
from ..shapes import TensorShape
from .names import value_name
from .passes import freeze
from .program import Block, Instr, Kind, Program, Value

__all__ = ["reroll", "MIN_TRIPS"]

MIN_TRIPS = 16        # fewer iterations stay unrolled: every value keeps its own name and line
MAX_BODY = 64         # instructions per iteration
_CANDIDATES = 4       # periods tried at one start (the next occurrences of its primitive)
_NOT_INLOOP = frozenset({STEP_GRAD, UNDEFINED})
_SHAPE, _CONST, _BLOCK = Kind.SHAPE, Kind.CONST, Kind.BLOCK

# How an iteration reads one argument (``_Run.reads[q][a]``):
_LOCAL = "local"        # (_LOCAL, position in the iteration, output index)
_CARRIED = "carried"    # (_CARRIED, position in the previous iteration, output index)
_SAME = "same"          # (_SAME, the value)
_STACKED = "const"      # (_STACKED,): a constant per iteration
_SHAPED = "shape"       # (_SHAPED,): a shape-only argument
_RECORD = "record"      # (_RECORD, run, position, output index, that run's iteration, the value)
_BAD = ("bad",)


class _Run:
    """``trips`` iterations of ``period`` instructions from ``start``, and how each reads its arguments."""

    def __init__(self, start: int, period: int, reads: list[list[tuple]]) -> None:
        self.start, self.period, self.reads = start, period, reads
        self.trips = 0
        self.template = 0        # the iteration whose instructions become the body (and name its values)
        self.reverse = False     # the index runs backwards (it follows a record read backwards)
        self.first_reads: dict[tuple[int, int], int] = {}   # (position, argument) of a record read -> its
        #                                                     iteration of the earlier run at iteration 0
        self.carried: list[tuple[int, int]] = []     # loop variables: (position, output index) of the result
        self.recorded: list[tuple[int, int]] = []    # values read after the loop, recorded per iteration
        self.finals: dict[tuple[int, int], Value] = {}    # the loop's outputs: its variables' final values
        self.records: dict[tuple[int, int], Value] = {}   # and its records

    @property
    def end(self) -> int:
        return self.start + self.trips * self.period

    def index_at(self, t: int) -> int:
        """The loop index at iteration ``t`` (in the order the iterations run)."""
        return self.trips - 1 - t if self.reverse else t


def reroll(prog: Program) -> None:
    """Make each long run of identical iterations in ``prog``'s top level a ``For`` loop (in place)."""
    instrs = prog.instrs
    if len(instrs) < 2 * MIN_TRIPS:
        return
    keys = _keys(prog)
    counts = Counter(keys)
    if not any(n >= MIN_TRIPS for key, n in counts.items() if key is not None):
        return
    finder = _Finder(prog, keys, counts)
    runs = finder.runs()
    if runs:
        _Rebuild(prog, runs, finder.where).run()


def _keys(prog: Program) -> list[Any]:
    """Per instruction, its primitive when it may be part of a loop, else None (control flow,
    effects, random draws, assignments, in-place updates, and what may fail on its input values,
    whose error must name its own op: indexing, a Cholesky...)."""
    in_place = set(prog.accumulators) | {id(v) for v in prog.accumulators.values()}
    keys: list[Any] = []
    for ins in prog.instrs:
        prim = ins.prim
        ok = (not ins.blocks and ins.outs and prim.pure and prim.fusable and not prim.assigns
              and prim not in _NOT_INLOOP and not any(id(o) in in_place for o in ins.outs))
        keys.append(prim if ok else None)
    return keys


class _Finder:
    """Finds the runs, left to right, each checked instruction by instruction."""

    def __init__(self, prog: Program, keys: list[Any], counts: Counter) -> None:
        self.instrs, self.keys = prog.instrs, keys
        n = len(keys)
        self.next_same = [-1] * n       # the next instruction with the same primitive
        seen: dict[Any, int] = {}
        for i in range(n - 1, -1, -1):
            key = keys[i]
            if key is not None and counts[key] >= MIN_TRIPS:
                self.next_same[i] = seen.get(key, -1)
                seen[key] = i
        self.made: dict[int, tuple[int, int]] = {}   # id of a value -> (its instruction, output index)
        self.last_read: dict[int, int] = {}          # id of a value -> the last instruction reading it
        for i, ins in enumerate(self.instrs):
            for o, v in enumerate(ins.outs):
                self.made[id(v)] = (i, o)
            for a in _reads(ins):
                self.last_read[id(a)] = i
        self.returned = {id(v) for v in prog.outputs} | {id(v) for _, v in prog.commits}
        self.where: dict[int, tuple[_Run, int, int, int]] = {}  # a rolled value -> (run, iteration, position, output)
        self._ends: dict[int, int] = {}   # period -> where the primitives stop repeating with it
        self._budget = 8 * n + 10_000     # argument checks before giving up (bounds the cost of failed tries)

    def runs(self) -> list[_Run]:
        found: list[_Run] = []
        s, n = 0, len(self.keys)
        while s < n - MIN_TRIPS and self._budget > 0:
            run = self._run_at(s) if self.next_same[s] != -1 else None
            if run is None:
                s += 1
                continue
            found.append(run)
            self._settle(run)
            s = run.end
        return found

    def _run_at(self, s: int) -> _Run | None:
        periods: list[tuple[int, int, int]] = []
        j = self.next_same[s]
        while j != -1 and j - s <= MAX_BODY and len(periods) < _CANDIDATES:
            p = j - s
            trips = (self._end(s, p) + p - s) // p
            if trips >= MIN_TRIPS:
                periods.append((-trips * p, p, trips))
            j = self.next_same[j]
        for _, p, trips in sorted(periods):
            run = self._check(s, p, trips)
            if run is not None:
                return run
        return None

    def _end(self, s: int, p: int) -> int:
        """The first ``k >= s`` whose primitive differs from the one ``p`` later (cached per period)."""
        e = self._ends.get(p, -1)
        if e >= s:
            return e
        keys, n = self.keys, len(self.keys)
        k = s
        while k + p < n and keys[k] is not None and keys[k] is keys[k + p]:
            k += 1
        self._ends[p] = k
        return k

    def _read(self, v: Value, base: int, p: int, s: int) -> tuple:
        """How the iteration starting at ``base`` reads ``v`` (the run starts at ``s``)."""
        if v.const is not None:
            return (_STACKED,)
        if v.kind is _SHAPE:
            return (_SHAPED,)
        made = self.made.get(id(v))
        if made is None:
            return (_SAME, v)
        j, o = made
        if j >= base:
            return (_LOCAL, j - base, o)
        if j >= base - p and base > s:
            return (_CARRIED, j - base + p, o)
        if j >= s:
            return _BAD
        rolled = self.where.get(id(v))
        if rolled is not None:
            return (_RECORD, rolled[0], rolled[2], rolled[3], rolled[1], v)
        return (_SAME, v)

    def _check(self, s: int, p: int, limit: int) -> _Run | None:
        """The run of period ``p`` from ``s``: as many iterations as read their arguments as the
        second one does (None: fewer than ``MIN_TRIPS``)."""
        instrs = self.instrs
        second = s + p
        reads = [[self._read(a, second, p, s) for a in instrs[second + q].args] for q in range(p)]
        run = _Run(s, p, reads)
        inits: dict[tuple[int, int], Value] = {}
        moves: dict[tuple[int, int], int] = {}   # per record read: its run's iterations per iteration
        trips = 0
        for t in range(limit):
            base = s + t * p
            if not self._same_iteration(run, base, t, inits, moves):
                break
            trips = t + 1
        steps = {move * (-1 if run.reads[q][a][1].reverse else 1) for (q, a), move in moves.items()}
        if trips < MIN_TRIPS or len(steps) > 1:  # (record reads in both directions: no one index order)
            return None
        run.trips = trips
        run.reverse = steps == {-1}
        if moves:  # the body: the iteration reading the body of the run it reads back (so a gradient's
            (q, a), move = min(moves.items())   # values are those of the forward values in that body)
            at = (run.reads[q][a][1].template - run.first_reads[(q, a)]) * move
            run.template = at if 0 <= at < trips else 0
        run.carried = sorted({(r[1], r[2]) for row in reads for r in row if r[0] == _CARRIED})
        return run

    def _same_iteration(self, run: _Run, base: int, t: int, inits: dict, moves: dict) -> bool:
        instrs, s, p, made = self.instrs, run.start, run.period, self.made
        for q in range(p):
            ins, first = instrs[base + q], instrs[s + q]
            self._budget -= len(ins.args) + 1
            if t and not _same_instruction(ins, first):
                return False
            for a, (v, want) in enumerate(zip(ins.args, run.reads[q], strict=True)):
                kind = want[0]
                if kind is _LOCAL or (kind is _CARRIED and t):   # (most arguments: no tuple built)
                    if made.get(id(v)) != (base + want[1] - (p if kind is _CARRIED else 0), want[2]):
                        return False
                    continue
                if kind is _CARRIED:   # the first iteration's: the loop variable's initial value
                    known = inits.setdefault(want[1:], v)
                    ref = instrs[s + p + q].args[a]
                    if known is not v or v.dtype is not ref.dtype or v.shape._sizes != ref.shape._sizes:
                        return False
                    continue
                if kind is _SAME:
                    if v is not want[1]:
                        return False
                    continue
                got = self._read(v, base, p, s)
                if got[0] != kind:
                    return False
                if kind is _STACKED or kind is _SHAPED:
                    ref = first.args[a]
                    if v.dtype is not ref.dtype or v.shape._sizes != ref.shape._sizes:
                        return False
                elif kind is _RECORD:
                    if got[1:4] != want[1:4] or not self._follows(run, (q, a), got[4] - want[4], t, moves):
                        return False
                elif got != want:
                    return False
        return True

    @staticmethod
    def _follows(run: _Run, slot: tuple[int, int], late: int, t: int, moves: dict) -> bool:
        """Whether a record read at iteration ``t``, ``late`` iterations of its run after the second
        iteration's, moves one iteration per iteration (the first iteration sets the direction)."""
        if t == 0:
            if late == 0:   # the same value every iteration (made by a loop before)
                run.reads[slot[0]][slot[1]] = (_SAME, run.reads[slot[0]][slot[1]][5])
                return True
            if late not in (1, -1):
                return False
            moves[slot] = -late
            run.first_reads[slot] = run.reads[slot[0]][slot[1]][4] + late
            return True
        return late == moves[slot] * (t - 1)

    def _settle(self, run: _Run) -> None:
        """Note where each of ``run``'s values is and which are read after it (they are recorded)."""
        instrs, s, p, end = self.instrs, run.start, run.period, run.end
        carried = set(run.carried)
        recorded: set[tuple[int, int]] = set()
        last_read, returned, where = self.last_read, self.returned, self.where
        for t in range(run.trips):
            base = s + t * p
            final = t == run.trips - 1
            for q in range(p):
                for o, v in enumerate(instrs[base + q].outs):
                    key = id(v)
                    where[key] = (run, t, q, o)
                    if (last_read.get(key, -1) >= end or key in returned) and not (final and (q, o) in carried):
                        recorded.add((q, o))
        run.recorded = sorted(recorded)


def _reads(ins: Instr) -> list[Value]:
    """The values an instruction reads, its blocks' included (what they capture)."""
    if not ins.blocks:
        return ins.args
    out = list(ins.args)
    for block in ins.blocks:
        for inner in block.instrs:
            out += _reads(inner)
        out += block.results + block.kept
    return out


def _same_instruction(ins: Instr, first: Instr) -> bool:
    """Same attributes, output dtypes and shapes, and made at the same user line as ``first``."""
    attrs, first_attrs = ins.attrs, first.attrs
    if (attrs or first_attrs) and attrs is not first_attrs and not _same_attrs(attrs, first_attrs):
        return False
    outs, first_outs = ins.outs, first.outs
    if len(outs) != len(first_outs) or len(ins.args) != len(first.args):
        return False
    for a, b in zip(outs, first_outs, strict=True):
        if a.dtype is not b.dtype or a.shape._sizes != b.shape._sizes:  # (fields: most of the pass's time)
            return False
    op, first_op = ins.op, first.op
    site = op.location if op.grad_of is None else op.grad_of.location
    return site is (first_site := first_op.location if first_op.grad_of is None else first_op.grad_of.location) \
        or site == first_site


def _same_attrs(a: dict, b: dict) -> bool:
    try:
        return freeze(a) == freeze(b)   # (as common subexpressions are told apart)
    except TypeError:
        return False


class _Rebuild:
    """Writes the program again with each run as its ``For`` instruction."""

    def __init__(self, prog: Program, runs: list[_Run], where: dict[int, tuple[_Run, int, int, int]]) -> None:
        self.prog, self.runs, self.where = prog, runs, where
        self.out: list[Instr] = []
        self.reads_back: dict[int, Value] = {}    # a rolled value read after its loop -> the value read
        self.stacks: dict[tuple[int, ...], Value] = {}

    def run(self) -> None:
        prog, where = self.prog, self.where
        starts = {run.start: run for run in self.runs}
        instrs = prog.instrs
        i = 0
        while i < len(instrs):
            run = starts.get(i)
            if run is not None:
                self._loop(run)
                i = run.end
                continue
            ins = instrs[i]
            if any(id(a) in where for a in _reads(ins)):
                self._resolve_all(ins)
            self.out.append(ins)
            i += 1
        prog.outputs = [self._resolve(v) for v in prog.outputs]
        prog.commits = [(var, self._resolve(v)) for var, v in prog.commits]
        prog.instrs = self.out

    def _resolve_all(self, ins: Instr) -> None:
        ins.args = [self._resolve(a) for a in ins.args]
        for block in ins.blocks:
            for inner in block.instrs:
                self._resolve_all(inner)
            block.results = [self._resolve(v) for v in block.results]
            block.kept = [self._resolve(v) for v in block.kept]

    def _resolve(self, v: Value) -> Value:
        """A value read after its loop: the loop's result, or its record at that iteration."""
        rolled = self.where.get(id(v))
        if rolled is None:
            return v
        run, t, q, o = rolled
        if t == run.trips - 1 and (q, o) in run.finals:
            return run.finals[(q, o)]
        known = self.reads_back.get(id(v))
        if known is None:
            index = _constant(_dt.int32, run.index_at(t))
            known = self.reads_back[id(v)] = Value(v.dtype, v.shape, tensor=v.tensor)
            made_by = self.prog.instrs[run.start + t * run.period + q].op
            self.out.append(Instr(STEP_READ, [run.records[(q, o)], index], {}, [known], made_by))
        return known

    def _loop(self, run: _Run) -> None:
        instrs = self.prog.instrs
        s, p, m = run.start, run.period, run.trips
        last, body_at = s + (m - 1) * p, s + run.template * p
        index = Value(_dt.int32, TensorShape([]), kind=_BLOCK, label="k")
        params = {}
        for q, o in run.carried:
            final = instrs[last + q].outs[o]
            params[(q, o)] = Value(final.dtype, final.shape, tensor=final.tensor, kind=_BLOCK)
        body = Block([index, *params.values()])
        inits: dict[tuple[int, int], Value] = {}
        reading: list[Instr] = []    # the body's reads of stacked constants and records, first
        op = instrs[s].op
        for q in range(p):
            ins = instrs[body_at + q]
            args = []
            for a, (v, how) in enumerate(zip(ins.args, run.reads[q], strict=True)):
                kind = how[0]
                if kind == _CARRIED:
                    inits.setdefault(how[1:], self._resolve(instrs[s + q].args[a]))
                    args.append(params[how[1:]])
                elif kind == _SAME:
                    args.append(self._resolve(v))
                elif kind == _STACKED:
                    args.append(self._stacked(run, q, a, index, reading, op))
                elif kind == _RECORD:
                    source: _Run = how[1]
                    at = source.index_at(run.first_reads[(q, a)]) - run.index_at(0)   # its index minus this loop's
                    maker = instrs[source.start + source.template * source.period + how[2]]  # (names the read)
                    read = Value(v.dtype, v.shape, tensor=maker.outs[how[3]].tensor)
                    at_op = maker.op
                    reading.append(Instr(STEP_READ, [source.records[how[2:4]], self._index(at, index, reading, at_op)],
                                         {}, [read], at_op))
                    args.append(read)
                else:
                    args.append(v)
            ins.args = args
            body.instrs.append(ins)
        body.instrs[:0] = reading
        body.results = [instrs[body_at + q].outs[o] for q, o in run.carried]
        body.kept = [instrs[body_at + q].outs[o] for q, o in run.recorded]
        outs = [Value(v.dtype, v.shape, tensor=v.tensor) for v in params.values()]
        for v in body.kept:
            dims = v.shape.sizes
            shape = TensorShape(None if dims is None else [m, *dims])
            outs.append(Value(v.dtype, shape, label=value_name(v) + "_steps"))
        attrs = {"_n_vars": len(params), "reverse": run.reverse, "rolled": m}
        args = [_constant(_dt.int32, m), *(inits[key] for key in run.carried)]
        self.out.append(Instr(FOR, args, attrs, outs, op, (body,)))
        run.finals = dict(zip(run.carried, outs, strict=False))
        run.records = dict(zip(run.recorded, outs[len(params):], strict=True))

    def _stacked(self, run: _Run, q: int, a: int, index: Value, reading: list[Instr], op: Any) -> Value:
        """A constant argument: itself when every iteration's is the same, else its row of the
        iterations' constants stacked in index order."""
        instrs, s, p = self.prog.instrs, run.start, run.period
        values = [instrs[s + run.index_at(k) * p + q].args[a] for k in range(run.trips)]  # in index order
        first = instrs[s + run.template * p + q].args[a]
        if all(v is first for v in values):
            return values[0]
        key = tuple(map(id, values))
        stack = self.stacks.get(key)
        if stack is None:
            rows = np.stack([np.asarray(v.const, dtype=v.dtype.np) for v in values])
            flat = rows.reshape(len(values), -1).view(np.uint8) if rows.size else rows.reshape(len(values), 0)
            if (flat == flat[:1]).all():
                return first
            dims = [len(values), *rows.shape[1:]]
            stack = self.stacks[key] = Value(first.dtype, TensorShape(dims), const=rows, kind=_CONST, source=first,
                                             label=value_name(first) + "_steps")
        read = Value(first.dtype, first.shape, tensor=first.tensor)
        reading.append(Instr(STEP_READ, [stack, index], {}, [read], op))
        return read

    @staticmethod
    def _index(at: int, index: Value, reading: list[Instr], op: Any) -> Value:
        """The loop index plus ``at``, for a read made for ``op`` (the same op: it is written in the read)."""
        if at == 0:
            return index
        shifted = Value(_dt.int32, TensorShape([]))
        reading.append(Instr(ADD_V2, [index, _constant(_dt.int32, at)], {}, [shifted], op))
        return shifted


def _constant(dtype: _dt.DType, value: int) -> Value:
    return Value(dtype, TensorShape([]), const=np.asarray(value, dtype=dtype.np)[()], kind=_CONST)
