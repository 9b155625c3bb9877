"""Write a Program as Python source: one NumPy statement per line, built with ``ast``.

Each statement is an ``ast`` node printed by ``ast.unparse``; the trailing comment (op
type and the user's ``file:line``) is sanitized text. User strings reach the source only
as sanitized identifiers (``names``), ``repr``'d literals or escaped comments.
"""
from __future__ import annotations

import ast
import dataclasses
import os
from typing import Any, Sequence

import numpy as np

from ..primitives.core import broadcast_shape, literal, np_attr, shortest_float
from .names import INTERNAL_NAMES, Namer, identifier, op_identifier
from .program import Instr, Program, Value

__all__ = ["Module", "emit_module", "DEL_MIN_ELEMENTS", "INLINE_CONST_ELEMENTS"]

DEL_MIN_ELEMENTS = 1024      # ``del`` temporaries at least this large after their last use
INLINE_CONST_ELEMENTS = 16   # constants up to this size are written into the text
_LOAD, _STORE = ast.Load(), ast.Store()
_COMMENT_COLUMN = 44


@dataclasses.dataclass
class Module:
    """Generated source plus what the loader needs to run it."""

    source: str
    params: list[Value]
    constants: dict[str, np.ndarray]
    line_ops: dict[int, Any]          # line number in ``source`` -> graph Operation
    copy_outputs: list[int]           # returned values that alias memory the caller must not share
    helpers: set[str]                 # ``rt.*`` helpers used
    output_ranks: list                # static rank of each returned value
    commit_ops: list                  # the variable each returned new value is written to


def emit_module(prog: Program, title: str) -> Module:
    return _Emitter(prog).module(title)


def comment_text(text: str) -> str:
    """``text`` made safe for a ``#`` comment: no line breaks or other non-printables."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def location_text(op: Any) -> str:
    path, line = op.location
    return f"{os.path.basename(path)}:{line}"


class _Emitter:
    def __init__(self, prog: Program) -> None:
        self.prog = prog
        self.namer = Namer(INTERNAL_NAMES)
        self.names: dict[int, str] = {}
        self.const_lines: list[str] = []
        self.constants: dict[str, np.ndarray] = {}
        self.helpers: set[str] = set()
        self.last_use: dict[int, int] = {}
        self.keep = {id(v) for v in prog.outputs} | {id(v) for _, v in prog.commits}
        for i, ins in enumerate(prog.instrs):
            for a in ins.args:
                self.last_use[id(a)] = i
        self.used = set(self.last_use) | self.keep

    # -- names ---------------------------------------------------------------------------------
    def name_of(self, v: Value) -> str:
        name = self.names.get(id(v))
        if name is None:
            name = self.names[id(v)] = self.namer.fresh(_base_name(v))
        return name

    # -- arguments -----------------------------------------------------------------------------
    def render(self, v: Value, ins: Instr | None) -> ast.expr:
        if v.kind == "shape":
            raise AssertionError(f"{ins.prim.name}: emitter read a shape-only argument")
        if v.const is None:
            return ast.Name(self.name_of(v), _LOAD)
        if ins is not None and _can_be_scalar(v, ins):
            return literal(_python_scalar(v.scalar()))
        if not isinstance(v.const, np.ndarray) or v.const.ndim == 0:
            return literal(np.asarray(v.const, dtype=v.dtype.np)[()])
        return ast.Name(self.constant_name(v), _LOAD)

    def constant_name(self, v: Value) -> str:
        name = self.names.get(id(v))
        if name is not None:
            return name
        name = self.name_of(v)
        spec = _spec_text(v)
        if v.dtype.name != "string" and (v.const.size <= INLINE_CONST_ELEMENTS or v.is_uniform()):
            value = literal(np.asarray(v.const)) if v.const.size <= INLINE_CONST_ELEMENTS and not (
                v.is_uniform() and v.const.size > 1) else _full(v)
            line = _unparse(ast.Assign([ast.Name(name, _STORE)], value, None, lineno=0))
        else:
            self.constants[name] = v.const
            line = f"{name} = _constants[{name!r}]"
        self.const_lines.append(_with_comment(line, f"{spec}  {_origin(v)}"))
        return name

    # -- module --------------------------------------------------------------------------------
    def module(self, title: str) -> Module:
        prog = self.prog
        params = [self.name_of(p) for p in prog.params]
        body: list[tuple[str, Any]] = []
        for i, ins in enumerate(prog.instrs):
            body.append((self.statement(ins), ins.op))
            dead = [self.names[id(a)] for a in dict.fromkeys(ins.args)
                    if self.last_use.get(id(a)) == i and a.kind == "temp" and id(a) not in self.keep
                    and a.const is None and (a.size is None or a.size >= DEL_MIN_ELEMENTS)]
            if dead:
                body.append(("del " + ", ".join(dead), None))
        returned = [v for v in prog.outputs] + [v for _, v in prog.commits]
        ret = ast.Return(ast.Tuple([self.render(v, None) for v in returned], _LOAD))
        body.append((_unparse(ret), None))

        lines = _unparse(ast.Module([ast.Expr(ast.Constant(title))], [])).split("\n") + ["import numpy as np", ""]
        if self.const_lines:
            lines += self.const_lines + [""]
        lines.append(f"def run({', '.join(params)}):")
        line_ops = {}
        for text, op in body:
            if op is not None:
                line_ops[len(lines) + 1] = op
            lines.append("    " + text)
        source = "\n".join(lines) + "\n"
        return Module(source, list(prog.params), self.constants, line_ops, self._copy_outputs(returned),
                      self.helpers, [v.shape.rank for v in returned], [var for var, _ in prog.commits])

    def statement(self, ins: Instr) -> str:
        args = _LazyArgs(self, ins)
        expr = ins.prim.emit(ins, args)
        self.helpers.update(n.attr for n in ast.walk(expr)
                            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "rt")
        if len(ins.outs) == 1:
            target: ast.expr = ast.Name(self.name_of(ins.outs[0]), _STORE)
        else:
            target = ast.Tuple([ast.Name(self.name_of(o) if id(o) in self.used else "_", _STORE)
                                for o in ins.outs], _STORE)
        code = _unparse(ast.Assign([target], expr, None, lineno=0))
        return _with_comment(code, _op_comment(ins))

    def _copy_outputs(self, returned: Sequence[Value]) -> list[int]:
        """Indices of returned values that may share memory with a variable, constant or feed."""
        external = {id(p) for p in self.prog.params}
        for ins in self.prog.instrs:
            view = ins.prim.view
            if view == "readonly" or (view == "input" and ins.args and (
                    id(ins.args[0]) in external or ins.args[0].const is not None)):
                external.update(id(o) for o in ins.outs)
        return [i for i, v in enumerate(returned)
                if (id(v) in external or isinstance(v.const, np.ndarray)) and v.shape.rank != 0]


class _LazyArgs(Sequence):
    """An instruction's arguments as expressions, rendered only when the emitter reads them."""

    def __init__(self, emitter: _Emitter, ins: Instr) -> None:
        self._emitter, self._ins = emitter, ins

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return self._emitter.render(self._ins.args[i], self._ins)

    def __len__(self) -> int:
        return len(self._ins.args)


def _can_be_scalar(v: Value, ins: Instr) -> bool:
    """A uniform constant can be a Python scalar in a ufunc call when NumPy's weak-scalar rule
    gives the same dtype (another non-constant argument has v's dtype) and the same shape."""
    if not ins.prim.ufunc or not v.is_uniform() or v.dtype.name == "string":
        return False
    others = [a for a in ins.args if a is not v]
    if not any(a.const is None and a.dtype is v.dtype for a in others):
        return False
    try:
        return broadcast_shape(*(a.shape for a in others)) == ins.outs[0].shape
    except ValueError:
        return False


def _full(v: Value) -> ast.expr:
    """``np.full(shape, value, dtype=...)`` for a uniform constant."""
    return ast.Call(np_attr("full"), [literal(tuple(v.const.shape)), literal(_python_scalar(v.scalar()))],
                    [ast.keyword("dtype", literal(v.dtype))])


def _python_scalar(x: np.generic) -> Any:
    if isinstance(x, np.floating):
        return shortest_float(x)
    return x.item()


def _base_name(v: Value) -> str:
    """``g_<x>`` for the gradient of x, ``new_<var>`` for an assigned value, else from the op name."""
    if v.kind == "rng":
        return "rng_" + op_identifier(v.source.name)
    t = v.tensor
    if t is None:
        return "c"
    primal = t._adjoint_of
    if primal is not None:
        return "g_" + _tensor_identifier(primal)
    if v.producer is not None and v.producer.prim.assigns:
        return "new_" + op_identifier(v.producer.op.inputs[0].op.name)
    return _tensor_identifier(t)


def _tensor_identifier(t: Any) -> str:
    op = t.op
    base = op_identifier(op.name) if op.grad_of is None else identifier(op.name.rsplit("/", 1)[-1])
    return base if len(t.op.outputs) == 1 else f"{base}_{t.value_index}"


def _spec_text(v: Value) -> str:
    dims = v.shape.dims
    return f"{v.dtype.name}[{', '.join('?' if d is None else str(d) for d in dims) if dims is not None else '*'}]"


def _origin(v: Value) -> str:
    if v.tensor is None:
        return ""
    return f"{comment_text(v.tensor.op.type)}  {comment_text(location_text(v.tensor.op))}"


def _op_comment(ins: Instr) -> str:
    op = ins.op
    forward = op.grad_of
    if forward is None:
        return f"{comment_text(op.type)}  {comment_text(location_text(op))}"
    return f"grad of {comment_text(forward.type)}  {comment_text(location_text(forward))}"


def _with_comment(code: str, comment: str) -> str:
    return f"{code.ljust(_COMMENT_COLUMN - 4)}  # {comment}" if comment else code


def _unparse(node: ast.AST) -> str:
    """Print one statement (``Assign`` nodes carry ``lineno=0``, all that unparse reads)."""
    return ast.unparse(node)
