"""Writing control-flow instructions as Python blocks: ``if``/``else``, ``while`` and ``for``.

A block's results are assigned to the instruction's outputs at its end, unless the value can be
computed under the output's name directly (then nothing is copied). A loop's variables have one
name each, shared by the condition's and the body's parameters and by the loop's outputs; a
result takes that name when the body no longer reads the old value by then. Values a gradient
reads back are recorded per iteration in lists (``h_steps.append(h)``).
"""
from __future__ import annotations

import ast
from typing import Any

from ..primitives.control import FOR, IF, UNDEFINED
from ..ssa.graph import Operation
from .lines import MAX_LINE, with_comment
from .printer import print_lines
from .program import Instr, Value
from .statement import REF, Statement, as_tree

__all__ = ["control_statement", "control_lines"]

_PAD = "    "
_LOAD, _STORE = ast.Load(), ast.Store()
Lines = list[tuple[list[str], "Operation | None"]]


def control_statement(em: Any, ins: Instr) -> Statement:
    """The statement of a control-flow instruction, its blocks' statements nested in it."""
    if ins.prim is IF:
        stmt = Statement(ins, em.render(ins.args[0], None))
        _name_exposed(em, ins)
        blocks, tails = [], []
        for block in ins.blocks:
            _share_names(em, block.instrs, block.results, ins.outs)
            blocks.append(em.statements(block.instrs))
            tails.append(_assignment(em, ins.outs, block.results))
        stmt.nest(blocks, tails)
        return stmt
    counted = ins.prim is FOR
    n_vars = ins.attrs["_n_vars"]
    body = ins.blocks[-1]
    params = body.params[1:] if counted else body.params
    for j, p in enumerate(params):
        name = em.name_of(p)
        em.names[id(ins.outs[j])] = name
        if not counted:
            em.names[id(ins.blocks[0].params[j])] = name
    stmt = Statement(ins, ast.Tuple([em.render(a, None) for a in ins.args], _LOAD))
    blocks = [em.statements(block.instrs) for block in ins.blocks]
    _share_loop_names(em, blocks[-1], params, body.results)
    stmt.nest(blocks, [_assignment(em, ins.outs[:n_vars], body.results)])
    return stmt


def _name_exposed(em: Any, ins: Instr) -> None:
    """An output only one branch defines (a value its gradient reads) is named after that value (the
    first output of a value several expose: one name per output)."""
    made = [{id(o) for i in block.instrs for o in i.outs} for block in ins.blocks]
    named: set[int] = set()
    for j, out in enumerate(ins.outs):
        results = [block.results[j] for block in ins.blocks]
        undefined = [r.producer is not None and r.producer.prim is UNDEFINED for r in results]
        for r, none, mine in zip(results, reversed(undefined), made, strict=True):
            if none and id(r) in mine and id(out) not in em.names and id(r) not in named:
                em.names[id(out)] = em.name_of(r)
                named.add(id(r))


def _share_names(em: Any, instrs: list[Instr], results: list[Value], outs: list[Value]) -> None:
    """An If block's result computed in the block takes its output's name."""
    produced = {id(o) for ins in instrs for o in ins.outs}
    for out, r in zip(outs, results, strict=True):
        if id(r) in produced and id(r) not in em.names:
            em.names[id(r)] = em.name_of(out)


def _share_loop_names(em: Any, stmts: list[Statement], params: list[Value], results: list[Value]) -> None:
    """A body result takes its loop variable's name when computed after the body's last read of
    the variable's current value."""
    index = {id(o): i for i, s in enumerate(stmts) if s.ins is not None for o in s.ins.outs}
    last_read: dict[str, int] = {}
    for i, s in enumerate(stmts):
        for ref in s.refs:
            last_read[ref[0].id] = i
    end = len(stmts)
    for r in results:  # a result that is a variable's current value is read at the end
        last_read[f"{REF}{id(r)}"] = end
    for p, r in zip(params, results, strict=True):
        at = index.get(id(r))
        if at is not None and id(r) not in em.names and at >= last_read.get(f"{REF}{id(p)}", -1):
            em.names[id(r)] = em.name_of(p)


def _assignment(em: Any, outs: list[Value], results: list[Value]) -> Statement | None:
    """``a, b = x, y`` for the results not already computed under their output's name."""
    pairs = [(o, r) for o, r in zip(outs, results, strict=True) if em.names.get(id(r)) != em.name_of(o)]
    if not pairs:
        return None
    stmt = Statement(None, ast.Tuple([em.render(r, None) for _, r in pairs], _LOAD))
    stmt.blocks = []
    stmt.tail = [o for o, _ in pairs]   # the assigned outputs
    return stmt


def control_lines(em: Any, stmt: Statement, depth: int) -> Lines:
    """The text of a control-flow statement (relative indentation), line by line with its op."""
    ins = stmt.ins
    assert ins is not None
    em._resolve(stmt)
    comment = em.op_comment(ins)
    head = stmt.expr
    if ins.prim is IF:
        lines: Lines = [(with_comment([f"if {ast.unparse(head)}:"], comment, _PAD * (depth + 1)), ins.op)]
        lines += _block_lines(em, stmt.blocks[0], stmt.tail[0], depth + 1)
        lines.append((["else:"], ins.op))
        return lines + _block_lines(em, stmt.blocks[1], stmt.tail[1], depth + 1)
    return _loop_lines(em, stmt, ins, comment, depth)


def _loop_lines(em: Any, stmt: Statement, ins: Instr, comment: str, depth: int) -> Lines:
    counted = ins.prim is FOR
    n_vars = ins.attrs["_n_vars"]
    body = ins.blocks[-1]
    params = body.params[1:] if counted else body.params
    inits = list(head_items(stmt.expr))[1:] if counted else list(head_items(stmt.expr))
    lines: Lines = []
    if params:
        init = _parallel_assignment([em.name_of(p) for p in params], inits, depth)
        lines.append((with_comment(init, comment, _PAD * (depth + 1)), ins.op))
    count = None if counted else ins.outs[n_vars]
    counting = count is not None and em.is_used(count)
    kept_outs = ins.outs[n_vars + (0 if counted else 1):]
    if counting:
        lines.append(([f"{em.name_of(count)} = 0"], ins.op))
    n_text = _count_text(ins, stmt) if counted else ""
    for out in kept_outs:
        lines.append(([f"{em.name_of(out)} = [None] * {n_text}" if counted else f"{em.name_of(out)} = []"], ins.op))
    records = _records(em, body, kept_outs, counted)
    body_lines: Lines = [(records[None], ins.op)] if records.get(None) else []
    for s in stmt.blocks[-1]:
        body_lines += em.statement_lines(s, depth + 1)
        made = [o for o in (s.ins.outs if s.ins is not None else []) if id(o) in records]
        for o in made:
            body_lines.append((records[id(o)], ins.op))
    if counting:
        body_lines.append(([f"{em.name_of(count)} += 1"], ins.op))
    body_lines += _tail_lines(em, stmt.tail[0], depth + 1)
    if counted:
        index = em.name_of(body.params[0])
        order = f"reversed(range({n_text}))" if ins.attrs.get("reverse") else f"range({n_text})"
        lines.append(([f"for {index} in {order}:"], ins.op))
    else:
        lines += _condition_lines(em, stmt.blocks[0], ins, depth, body_lines)
        return lines
    return lines + _indented(body_lines or [(["pass"], None)])


def _count_text(ins: Instr, stmt: Statement) -> str:
    """A ``For``'s trip count: a known one as a plain ``int`` (``range(3000)``)."""
    count = ins.args[0].const
    return str(int(count)) if count is not None else ast.unparse(head_items(stmt.expr)[0])


def _condition_lines(em: Any, cond: list[Statement], ins: Instr, depth: int, body_lines: Lines) -> Lines:
    """``while <test>:`` when the condition is one expression, else ``while True:`` with a ``break``."""
    result = ins.blocks[0].results[0]
    if not cond:
        return [([f"while {ast.unparse(em.render(result, None))}:"], ins.op)] + _indented(body_lines)
    only = cond[0]
    if len(cond) == 1 and only.ins is not None and only.ins.outs == [result] and only.ins.prim.fusable:
        test = as_tree(only, em.tree)
        em._resolve(test)
        return [([f"while {ast.unparse(test.expr)}:"], only.ins.op)] + _indented(body_lines)
    lines: Lines = [(["while True:"], ins.op)]
    for s in cond:
        lines += _indented(em.statement_lines(s, depth + 1))
    lines.append(([f"{_PAD}if not {em.name_of(result)}:", f"{_PAD}{_PAD}break"], ins.op))
    return lines + _indented(body_lines)


def _records(em: Any, body: Any, kept_outs: list[Value], counted: bool) -> dict:
    """Per kept value, the statement recording it (``None``: those recorded at the top of the body)."""
    made = {id(o) for ins in body.instrs for o in ins.outs}
    index = em.name_of(body.params[0]) if counted else ""
    records: dict[Any, list[str]] = {}
    for out, v in zip(kept_outs, body.kept, strict=True):
        value = em.name_of(v) if v.const is None else ast.unparse(em.render(v, None))
        text = f"{em.name_of(out)}[{index}] = {value}" if counted else f"{em.name_of(out)}.append({value})"
        records.setdefault(id(v) if id(v) in made else None, []).append(text)
    return records


def _tail_lines(em: Any, tail: Statement | None, depth: int) -> Lines:
    if tail is None:
        return []
    em._resolve(tail)
    return [(_parallel_assignment([em.name_of(o) for o in tail.tail], head_items(tail.expr), depth), None)]


def _parallel_assignment(names: list[str], values: list[ast.expr], depth: int) -> list[str]:
    """``a, b = x, y`` (``a = x`` for one), broken into lines when it is too long."""
    if len(names) == 1:
        node = ast.Assign([ast.Name(names[0], _STORE)], values[0], None, lineno=0)
    else:
        node = ast.Assign([ast.Tuple([ast.Name(n, _STORE) for n in names], _STORE)], ast.Tuple(values, _LOAD),
                          None, lineno=0)
    lines = print_lines(node, _width(depth))
    if len(names) > 1 and len(lines) == 1:
        flat = f"{', '.join(names)} = {', '.join(ast.unparse(v) for v in values)}"
        if len(flat) <= _width(depth):
            return [flat]
    return lines


def _block_lines(em: Any, stmts: list[Statement], tail: Statement | None, depth: int) -> Lines:
    lines: Lines = []
    for s in stmts:
        lines += em.statement_lines(s, depth)
    lines += _tail_lines(em, tail, depth)
    return _indented(lines or [(["pass"], None)])


def _indented(lines: Lines) -> Lines:
    return [([_PAD + text for text in texts], op) for texts, op in lines]


def _width(depth: int) -> int:
    return MAX_LINE - len(_PAD) * (depth + 1)


def head_items(expr: ast.expr) -> list[ast.expr]:
    return list(expr.elts) if isinstance(expr, ast.Tuple) else [expr]
