"""Write a Program as Python source: NumPy statements, as text (a template's) or built with ``ast``.

Each instruction becomes an expression (its primitive's emitter, ``emitters.EMITTERS``); a template
emitter's is text with holes (``statement.TextStatement``), a tree only where text will not do
(``as_tree``: a line to break, ``+=``...), the same text either way. A single-use temporary
computed for the same user line (or the same forward op's gradient) is folded into the
expression that uses it, so ``h = tf.tanh(h * w + 0.1)`` reads ``tanh = np.tanh(h * 0.5 +
0.1)``, and so is the gradient of a value folded that way, into the next gradient of its line (that
line's gradient reads ``g_h = g_tanh * (1 - tanh * tanh) * 0.5``); everything else gets its own
statement and a name. The trailing comment (op type
and the user's ``file:line``) is sanitized text; user strings reach the source only as
sanitized identifiers (``names``), ``repr``'d literals or escaped comments.
"""
from __future__ import annotations

import ast
import dataclasses
import operator
from collections import Counter
from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING, overload

import numpy as np

from ..primitives.control import STEP_READ
from ..primitives.math import ADD_N
from ..shapes import dims_text
from ..static import broadcast_shape
from ..text import comment_text, location_text, shortest_float
from .emit_control import control_lines, control_statement
from .emitters import EMITTERS
from .emitters.common import literal, np_attr
from .emitters.template import Template
from .lines import MAX_LINE, dels, signature, with_comment, wrapped_title
from .names import INTERNAL_NAMES, Namer, value_name
from .printer import TEST, assignment_lines, expression_text, print_lines
from .program import Instr, Kind, Program, Value
from .statement import REF, AnyStatement, Statement, TextStatement, as_tree, scan

if TYPE_CHECKING:  # the type only: code generation reads the graph it is given
    from ..ssa.graph import Operation

__all__ = ["Module", "emit_module", "comment_text", "location_text", "DEL_MIN_ELEMENTS", "INLINE_CONST_ELEMENTS",
           "MAX_FUSED_OPS", "MAX_LINE", "RUNTIME_IMPORT", "CONSTANTS_NOTE"]

DEL_MIN_ELEMENTS = 1024      # ``del`` temporaries at least this large after their last use
INLINE_CONST_ELEMENTS = 16   # constants up to this size are written into the text
MAX_FUSED_OPS = 5            # at most this many operations in one fused expression
RUNTIME_IMPORT = "from s2sgrad.codegen import runtime as rt"   # written when the module calls a helper
CONSTANTS_NOTE = "# _constants: the arrays too large to print, by name (s2sgrad supplies it with this text)"
_LOAD, _STORE = ast.Load(), ast.Store()
_ARGS = operator.attrgetter("args")
_SHAPE, _TEMP = Kind.SHAPE, Kind.TEMP  # as globals: an Enum member read off its class costs 5x more


@dataclasses.dataclass
class Module:
    """Generated source plus what the loader needs to run it."""

    source: str
    params: list[Value]
    constants: dict[str, np.ndarray]
    line_ops: dict[int, Operation]    # line number in ``source`` -> graph Operation
    copy_outputs: list[int]           # returned values that alias memory the caller must not share
    helpers: set[str]                 # ``rt.*`` helpers used
    output_ranks: list[int | None]    # static rank of each returned value
    commit_ops: list[Operation]       # the variable each returned new value is written to


def emit_module(prog: Program, title: str) -> Module:
    return _Emitter(prog).module(title)


class _Emitter:
    def __init__(self, prog: Program) -> None:
        self.prog = prog
        self.namer = Namer(INTERNAL_NAMES)
        self.names: dict[int, str] = {}
        self.refs: dict[str, Value] = {}
        self.const_lines: list[str] = []
        self.constants: dict[str, np.ndarray] = {}
        self.scalars: dict[int, ast.expr] = {}   # a uniform constant's Python scalar literal, by value
        self.texts: dict[tuple[ast.expr, int, bool], tuple[str, int]] = {}   # ``literal_text``'s, by node
        self.keep = {id(v) for v in prog.outputs} | {id(v) for _, v in prog.commits}
        self.uses: Counter[int] = Counter()
        self.folded: set[int] = set()   # ids of the tensors whose values were folded into an expression
        self.line_gradients: set[int] = set()   # gradients of folded values waiting for their line's next gradient
        self.in_blocks: set[int] = set()
        self.added_into = {id(v) for v in prog.accumulators.values()}  # partial sums whose name lives on
        self._count_uses(prog.instrs)

    def _count_uses(self, instrs: list[Instr], in_block: bool = False) -> None:
        """Uses of each value by instructions; a block's results and records are kept (named), and
        what a block defines is never deleted after it (a loop may not have run)."""
        self.uses.update(map(id, chain.from_iterable(map(_ARGS, instrs))))  # (one C loop: most of the work)
        for ins in instrs if in_block else [ins for ins in instrs if ins.blocks]:
            if in_block:
                self.in_blocks.update(id(o) for o in ins.outs)
            for block in ins.blocks:
                self._count_uses(block.instrs, True)
                self.keep.update(id(v) for v in block.results + block.kept)
                self.in_blocks.update(id(p) for p in block.params)

    def is_used(self, v: Value) -> bool:
        return id(v) in self.keep or self.uses.get(id(v), 0) > 0

    # -- rendering arguments -----------------------------------------------------------------------
    def render(self, v: Value, ins: Instr | None) -> ast.expr:
        """``v`` as an argument of ``ins``: a placeholder name, or a constant's expression."""
        rendered = self.token(v, ins)
        return ast.Name(rendered, _LOAD) if type(rendered) is str else rendered  # type: ignore[return-value]

    def token(self, v: Value, ins: Instr | None) -> str | ast.expr:
        """``v`` as an argument of ``ins``: its placeholder's token, or a constant's expression."""
        if v.const is None:  # the common case first (a shape-only value has no constant either)
            if v.kind is _SHAPE:
                raise AssertionError(f"{ins.prim.name if ins else 'return'}: emitter read a shape-only argument")
            token = f"{REF}{id(v)}"
            self.refs[token] = v
            return token
        if ins is not None and _can_be_scalar(v, ins):
            scalar = self.scalars.get(id(v))  # one node for all uses of a constant (nothing mutates it)
            if scalar is None:
                scalar = self.scalars[id(v)] = literal(_python_scalar(v.scalar()))
            return scalar
        if not isinstance(v.const, np.ndarray) or v.const.ndim == 0:
            return literal(np.asarray(v.const, dtype=v.dtype.np)[()])
        return ast.Name(self.constant_name(v), _LOAD)

    def literal_text(self, node: ast.expr, context: int, after_dot: bool) -> tuple[str, int]:
        """A constant's text in ``context`` (as an attribute's value: ``1 .real``) and its size in operations."""
        key = (node, context, after_dot)   # (the node itself: a scalar's is shared by all its uses)
        known = self.texts.get(key)
        if known is None:
            text = expression_text(node, context)
            if after_dot and type(node) is ast.Constant and isinstance(node.value, int):
                text += " "
            known = self.texts[key] = (text, 0 if type(node) is ast.Name or type(node) is ast.Constant else
                                       scan(node)[1])
        return known

    def name_of(self, v: Value) -> str:
        name = self.names.get(id(v))
        if name is None:
            name = self.names[id(v)] = self.namer.fresh(value_name(v))
        return name

    def constant_name(self, v: Value) -> str:
        name = self.names.get(id(v))
        if name is not None:
            return name
        name = self.name_of(v)
        if v.dtype.name != "string" and (v.const.size <= INLINE_CONST_ELEMENTS or v.is_uniform()):
            small = v.const.size <= INLINE_CONST_ELEMENTS and not (v.is_uniform() and v.const.size > 1)
            value = literal(np.asarray(v.const)) if small else _full(v)
            lines = print_lines(ast.Assign([ast.Name(name, _STORE)], value, None, lineno=0), MAX_LINE)
        else:
            self.constants[name] = v.const
            lines = [f"{name} = _constants[{name!r}]"]
        self.const_lines += with_comment(lines, f"{_spec_text(v)}  {_origin(v)}", "    ")  # the body's column
        return name

    # -- statements ------------------------------------------------------------------------------
    def statements(self, instrs: list[Instr]) -> list[AnyStatement]:
        """One expression per instruction, folding single-use same-line temporaries into their user
        (never into a block: a loop would compute them again at every iteration)."""
        pending: dict[str, AnyStatement] = {}   # fusable values awaiting their one consumer
        out: list[AnyStatement] = []
        fusable = self._fusable
        readers = {id(a): ins for ins in instrs for a in ins.args}  # (a single-use value: its one reader)
        for ins in instrs:
            if ins.blocks:
                out.extend(pending.values())
                pending.clear()
                out.append(control_statement(self, ins))
                continue
            emit = EMITTERS[ins.prim]
            stmt: AnyStatement | None
            if type(emit) is Template:   # (most instructions: text, no tree built)
                stmt = emit.texted(ins, self.token, self.literal_text)
                if stmt is None:
                    stmt = Statement(ins, *emit.scanned(ins, self.render))
            else:
                stmt = Statement(ins, emit(ins, _LazyArgs(self, ins)))
            if pending:
                stmt = self._absorb(stmt, pending, out)
            if fusable(ins, readers):
                pending[f"{REF}{id(ins.outs[0])}"] = stmt
            else:
                out.append(stmt)
        return out

    def tree(self, ins: Instr) -> Statement:
        """A template instruction's statement as a tree."""
        return Statement(ins, *EMITTERS[ins.prim].scanned(ins, self.render))  # type: ignore[attr-defined]

    def _absorb(self, stmt: AnyStatement, pending: dict[str, AnyStatement], out: list[AnyStatement]) -> AnyStatement:
        """Put pending single-use expressions into ``stmt`` (returned: a tree when one of them is);
        those it cannot take get statements."""
        mine = [ref[0].id for ref in stmt.refs if ref[0].id in pending]
        once = len(mine) == 1   # (most statements: one pending argument, read once)
        for token in mine:
            producer = pending.pop(token, None)
            if producer is None:
                continue
            ins = producer.ins
            if (once or mine.count(token) == 1) and ins and stmt.ins and \
                    (_same_site(ins, stmt.ins) or id(ins.outs[0]) in self.line_gradients) and \
                    stmt.size + producer.size <= MAX_FUSED_OPS:
                if type(stmt) is TextStatement and type(producer) is TextStatement:
                    stmt.absorb(token, producer)
                else:  # text into a tree, or a tree into text: both as trees
                    stmt = as_tree(stmt, self.tree)
                    stmt.absorb(token, as_tree(producer, self.tree))
                tensor = ins.outs[0].tensor
                if tensor is not None:
                    self.folded.add(id(tensor))
            else:
                out.append(producer)
        return stmt

    def _fusable(self, ins: Instr, readers: dict[int, Instr]) -> bool:
        """Whether ``ins``'s value may wait for its one reader in this block, to be folded into it.
        The gradient of a value waits only when that value was folded into an expression (it has no
        name, so neither does its gradient) and its reader is a gradient of the same line: the others
        keep their names and their place in the backward pass."""
        outs = ins.outs
        if len(outs) != 1:
            return False
        v = outs[0]
        key = id(v)
        if v.kind is not _TEMP or self.uses.get(key) != 1 or key in self.keep or key in self.added_into:
            return False
        prim = ins.prim
        if not prim.pure or prim.assigns or not prim.fusable or key in self.prog.accumulators:  # (in place: named)
            return False
        t = v.tensor
        primal = None if t is None else t.op.graph.primal_of(t)
        if primal is None:
            return True
        reader = readers.get(key)
        if id(primal) in self.folded and reader is not None and not reader.blocks and _same_line_gradients(ins, reader):
            self.line_gradients.add(key)
            return True
        return False

    # -- module --------------------------------------------------------------------------------
    def module(self, title: str) -> Module:
        prog = self.prog
        params = [self.name_of(p) for p in prog.params]
        stmts = self.statements(prog.instrs)
        returned = list(prog.outputs) + [v for _, v in prog.commits]
        value = ast.Tuple([self.render(v, None) for v in returned], _LOAD)
        ret = ast.Return(value)
        final = stmts + [Statement(None, value)]
        last_use: dict[str, int] = {}
        helpers: set[str] = set()
        for i, stmt in enumerate(final):
            if stmt.helpers:
                helpers |= stmt.helpers
            for ref in stmt.refs:
                last_use[ref[0].id] = i
        dying: dict[int, list[Value]] = {}
        for token, i in last_use.items():
            if self._deletable(self.refs[token]):
                dying.setdefault(i, []).append(self.refs[token])
        for i, stmt in enumerate(stmts):  # a loop variable nothing reads after its loop goes with it
            if stmt.ins is not None and stmt.ins.blocks:
                unread = [o for o in stmt.ins.outs if not self.is_used(o) and self._deletable(o)]
                if unread:
                    dying.setdefault(i, []).extend(unread)
        body: list[tuple[list[str], Operation | None]] = []
        for i, stmt in enumerate(stmts):
            if stmt.ins is not None and stmt.ins.blocks:
                body += control_lines(self, as_tree(stmt, self.tree), 0)
            else:
                body.append(self._text(stmt, 0))
            if i in dying:
                body.append((dels(sorted(self.name_of(v) for v in dying[i])), None))
        self._resolve(final[-1])
        body.append((print_lines(ret, MAX_LINE - 4), None))

        lines = ast.unparse(ast.Module([ast.Expr(ast.Constant(wrapped_title(title)))], [])).split("\n")
        lines += ["import numpy as np"] + ([RUNTIME_IMPORT] if helpers else []) + [""]
        if self.constants:
            lines.append(CONSTANTS_NOTE)
        if self.const_lines:
            lines += self.const_lines + [""]
        lines += signature(params)
        line_ops: dict[int, Operation] = {}
        for texts, op in body:
            if op is not None:
                for text in texts:
                    if text.lstrip()[:1] != "#":
                        line_ops[len(lines) + 1] = op   # every line: a traceback may point at any of them
                    lines.append("    " + text)
            else:
                lines += ["    " + text for text in texts]
        return Module("\n".join(lines) + "\n", list(prog.params), self.constants, line_ops,
                      self._copy_outputs(returned), helpers, [v.shape.rank for v in returned],
                      [var for var, _ in prog.commits])

    def statement_lines(self, stmt: AnyStatement, depth: int) -> list[tuple[list[str], Operation | None]]:
        """A statement's lines (control flow: its whole block structure), each with the op it runs;
        ``depth``: how many blocks enclose it."""
        if stmt.ins is not None and stmt.ins.blocks:
            return control_lines(self, as_tree(stmt, self.tree), depth)
        return [self._text(stmt, depth)]

    def op_comment(self, ins: Instr) -> str:
        return _op_comment(ins)

    def _text(self, stmt: AnyStatement, depth: int = 0) -> tuple[list[str], Operation]:
        """An instruction's statement lines and the op they run."""
        ins = stmt.ins
        if ins is None:
            raise AssertionError("the return statement is printed by module()")
        indent = "    " * (depth + 1)
        if type(stmt) is TextStatement:
            if len(ins.outs) == 1 and id(ins.outs[0]) not in self.prog.accumulators:  # (most: ``name = text``)
                self._resolve(stmt)
                text = stmt.text()
                line = f"{self.name_of(ins.outs[0])} = {text if stmt.precedence >= TEST else f'({text})'}"
                if len(line) <= MAX_LINE - len(indent):
                    return with_comment([line], _op_comment(ins), indent), ins.op
        return self._tree_text(as_tree(stmt, self.tree), ins, indent)  # a line to break, ``+=``, several outputs...

    def _tree_text(self, stmt: Statement, ins: Instr, indent: str) -> tuple[list[str], Operation]:
        """``_text`` of a statement printed from its tree."""
        self._resolve(stmt)
        if not ins.outs:  # an effect (a check, a print): a call statement
            code = print_lines(ast.Expr(stmt.expr), MAX_LINE - 4)
            return with_comment(code, _op_comment(ins), "    "), ins.op
        if len(ins.outs) == 1:
            out = ins.outs[0]
            into = self.prog.accumulators.get(id(out))
            if into is not None and id(out) not in self.names and isinstance(stmt.expr, ast.BinOp) \
                    and isinstance(stmt.expr.left, ast.Name) and stmt.expr.left.id == self.name_of(into):
                self.names[id(out)] = self.name_of(into)   # in place: ``total += term``, ``g *= lr``
                code = print_lines(ast.AugAssign(ast.Name(self.name_of(into), _STORE), stmt.expr.op, stmt.expr.right),
                                   MAX_LINE - len(indent))
            else:
                code = assignment_lines(self.name_of(out), stmt.expr, MAX_LINE - len(indent))
        else:
            target = ast.Tuple([ast.Name(self.name_of(o) if id(o) in self.uses or id(o) in self.keep else "_",
                                         _STORE) for o in ins.outs], _STORE)
            code = print_lines(ast.Assign([target], stmt.expr, None, lineno=0), MAX_LINE - len(indent))
        return with_comment(code, _op_comment(ins), indent), ins.op

    def _resolve(self, stmt: AnyStatement) -> None:
        """Give placeholder names their final identifiers (in statement order, so numbering reads well)."""
        names = self.names
        for ref in stmt.refs:
            node = ref[0]
            token = node.id
            if token[:1] == REF:  # not renamed yet (a name used twice has two references)
                v = self.refs[token]
                node.id = names.get(id(v)) or self.name_of(v)  # most were named by their own statement

    def _deletable(self, v: Value) -> bool:
        if v.kind is not _TEMP or v.const is not None:
            return False
        size = v.size
        if size is not None and size < DEL_MIN_ELEMENTS:   # (most values of most programs: no sets read)
            return False
        key = id(v)
        return key not in self.keep and key not in self.in_blocks and key not in self.added_into

    def _copy_outputs(self, returned: Sequence[Value]) -> list[int]:
        """Indices of returned values that may share memory with a variable, constant or feed."""
        external = {id(p) for p in self.prog.params}
        _find_external(self.prog.instrs, external)
        return [i for i, v in enumerate(returned)
                if (id(v) in external or isinstance(v.const, np.ndarray)) and v.shape.rank != 0]


class _LazyArgs(Sequence[ast.expr]):
    """An instruction's arguments as expressions, rendered only when the emitter reads them."""

    __slots__ = ("_emitter", "_ins")

    def __init__(self, emitter: _Emitter, ins: Instr) -> None:
        self._emitter, self._ins = emitter, ins

    @overload
    def __getitem__(self, i: int) -> ast.expr: ...
    @overload
    def __getitem__(self, i: slice) -> list[ast.expr]: ...

    def __getitem__(self, i: int | slice) -> ast.expr | list[ast.expr]:
        if type(i) is not slice:
            return self._emitter.render(self._ins.args[i], self._ins)
        return [self[j] for j in range(*i.indices(len(self)))]

    def __len__(self) -> int:
        return len(self._ins.args)


def _find_external(instrs: list[Instr], external: set[int]) -> None:
    """Add to ``external`` the ids of the values of ``instrs`` that may share memory with one in it."""
    for ins in instrs:
        view = ins.prim.view
        if ins.blocks:
            if "rolled" not in ins.attrs:  # a branch or a loop run zero times may return a parameter as it is
                external.update(id(o) for o in ins.outs)
                continue
            body = ins.blocks[0]   # a rolled loop runs at least once: its results are its body's
            external.update(id(p) for p, init in zip(body.params[1:], ins.args[1:], strict=True)
                            if id(init) in external or init.const is not None)
            _find_external(body.instrs, external)
            external.update(id(o) for o, v in zip(ins.outs, body.results + body.kept, strict=True) if id(v) in external)
        elif view == "readonly" or (view == "input" and ins.args and (
                id(ins.args[0]) in external or ins.args[0].const is not None)) or \
                (ins.prim is STEP_READ and id(ins.args[0]) in external):
            external.update(id(o) for o in ins.outs)


def _same_site(producer: Instr, consumer: Instr) -> bool:
    """Same forward op's gradient, or forward ops written on the same user line."""
    p, c = producer.op, consumer.op
    if p.grad_of is not None or c.grad_of is not None:
        return p.grad_of is c.grad_of
    return p.location == c.location


def _same_line_gradients(producer: Instr, consumer: Instr) -> bool:
    """Gradients of two forward ops written on the same user line."""
    p, c = producer.op.grad_of, consumer.op.grad_of
    return p is not None and c is not None and p.location == c.location


def _can_be_scalar(v: Value, ins: Instr) -> bool:
    """A uniform constant can be a Python scalar in a ufunc call when NumPy's weak-scalar rule
    gives the same dtype (another non-constant argument has v's dtype) and the same shape."""
    if not ins.prim.ufunc or v.dtype.name == "string" or not v.is_uniform():
        return False
    out = ins.outs[0].shape.sizes
    typed = covers = False
    others = []
    for a in ins.args:
        if a is v:
            continue
        others.append(a)
        if a.const is None and a.dtype is v.dtype:
            typed = True
        if a.shape.sizes == out:
            covers = True
    if not typed:
        return False
    if covers:
        return True
    try:
        return broadcast_shape(*(a.shape for a in others)) == ins.outs[0].shape
    except ValueError:
        return False


def _full(v: Value) -> ast.expr:
    """``np.full(shape, value, dtype=...)`` for a uniform constant."""
    return ast.Call(np_attr("full"), [literal(tuple(v.const.shape)), literal(_python_scalar(v.scalar()))],
                    [ast.keyword("dtype", literal(v.dtype))])


def _python_scalar(x: np.generic) -> bool | int | float | complex | str | bytes:
    if isinstance(x, np.floating):
        return shortest_float(x)
    return x.item()


def _spec_text(v: Value) -> str:
    return v.dtype.name + dims_text(v.shape.sizes, sep=", ")


def _origin(v: Value) -> str:
    t = v.source.tensor if v.tensor is None and isinstance(v.source, Value) else v.tensor  # (stacked: its first)
    if t is None:
        return ""
    return f"{comment_text(t.op.type)}  {location_text(t.op.location)}"


def _op_comment(ins: Instr) -> str:
    op = ins.op
    forward = op.grad_of
    rolled = ins.attrs.get("rolled") if ins.blocks else None
    if rolled is not None:   # a traced loop rolled up again (reroll.py)
        return f"{rolled} traced iterations  {location_text((forward or op).location)}"
    if forward is None:
        return f"{op.type}  {location_text(op.location)}"
    if op.prim is ADD_N:  # tf.gradients summing several contributions to one tensor
        return f"sum of gradients of {comment_text(forward.name)}  {location_text(forward.location)}"
    return f"grad of {forward.type}  {location_text(forward.location)}"
