"""Emitters from NumPy expression text: an elementwise declaration's ``expr`` (``"np.tanh(x)"``)
and the few codegen-only templates, parsed once and instantiated per instruction, as a tree or
(``texted``) directly as text."""
from __future__ import annotations

import ast
import functools
import re
from ast import Constant, Name
from collections.abc import Callable, Sequence
from typing import Any, cast

from ...primitives.core import EXPR_ARGS
from ..printer import ATOM, Unsupported, expression_text, precedence
from ..program import Instr
from ..statement import REF, Hole, Ref, Scanned, TextStatement, scan
from .common import LOAD, literal

__all__ = ["Template", "template"]

_Slot = tuple[Any, "ast.AST | None", "str | None", "int | None"]  # a substituted node and where it sits
Render = Callable[[Any, Instr], ast.expr]  # an argument (a codegen Value) -> its expression in ``instr``
Token = Callable[[Any, Instr], "str | ast.expr"]   # an argument -> its placeholder's token, or a constant's expression
_Build = Callable[[Sequence[Any], Render, Instr, dict], tuple[ast.expr, tuple[_Slot, ...]]]
LiteralText = Callable[[ast.expr, int, bool], tuple[str, int]]  # (expression, context, an attribute's value?)
_TextBuild = Callable[[Sequence[Any], Token, Instr, dict, LiteralText], tuple[list[Any], list[tuple[Hole]], int]]


class Template:
    """An emitter from a NumPy expression: ``inputs`` name the arguments, other names are attrs.

    Besides the expression (calling it, as any emitter), it gives what ``statement.scan`` would
    find in it (``scanned``) without walking the tree: the template knows where its arguments go."""

    __slots__ = ("_tree", "_used", "_attr_names", "_build", "_size", "_helpers", "_text", "_precedence")

    def __init__(self, tree: ast.expr, used: list[tuple[str, int]], attr_names: tuple[str, ...]) -> None:
        self._tree, self._used, self._attr_names = tree, used, attr_names
        self._build: _Build | None = None   # made on first use (not at import)
        self._size = 0
        self._helpers: frozenset[str] = frozenset()
        self._text: _TextBuild | None | bool = False  # made on first use; None: no text form
        self._precedence = 0   # of the tree's outermost operation: set with the text builder

    def __call__(self, instr: Instr, args: Sequence[ast.expr]) -> ast.expr:
        return self._builder()(args, _given, instr, instr.attrs)[0]

    def scanned(self, instr: Instr, render: Render) -> tuple[ast.expr, Scanned]:
        """The expression, its arguments ``render(instr.args[i], instr)`` (read in input order), and
        ``scan``'s (references, size, helpers) of it: the template's own operations and helpers, then
        per substituted node in scan's order its placeholder, or what a scan of it finds when it is an
        expression of its own (a literal call...)."""
        expr, slots = self._builder()(instr.args, render, instr, instr.attrs)
        refs: list[Ref] = []
        size = self._size
        helpers = set(self._helpers)
        for slot in slots:
            node = slot[0]
            if type(node) is Name:
                if node.id[:1] == REF:
                    refs.append(slot)
            elif type(node) is not Constant:
                more, extra, used = scan(node)
                refs += more
                size += extra
                helpers |= used
        return expr, (refs, size, helpers)

    def texted(self, instr: Instr, token: Token, literal_text: LiteralText) -> TextStatement | None:
        """``instr``'s statement as text: what ``Statement(instr, *scanned(instr, render))`` would print,
        with the same references in the same order and the same size (None: only a tree will do).
        ``token`` renders an argument as its placeholder's token (a value) or its expression (a
        constant); ``literal_text`` gives an expression's text and size in a context."""
        build = self._text_builder()
        if build is None:
            return None
        try:
            parts, refs, size = build(instr.args, token, instr, instr.attrs, literal_text)
        except Unsupported:
            return None
        return TextStatement(instr, parts, refs, self._size + size, self._helpers, self._precedence)

    def _text_builder(self) -> _TextBuild | None:
        """The text builder (made once; None: the template has no text form)."""
        if self._text is False:
            self._builder()   # (the template's own size and helpers, which a text statement reports too)
            self._precedence = precedence(self._tree)
            self._text = _text_builder(self._tree, self._used, self._attr_names)
        return cast("_TextBuild | None", self._text)

    def _builder(self) -> _Build:
        """The builder (made once), its slots in ``scan``'s order: found by scanning one instance whose
        arguments and attributes are placeholders, matched to the slots by where they sit."""
        if self._build is not None:
            return self._build
        lines, slots = _builder_lines(self._tree, self._used, self._attr_names)
        probe = _exec(lines, slots, ast.Name)
        probe_args = [ast.Name(f"{REF}{i}", LOAD) for i in range(1 + max((i for _, i in self._used), default=-1))]
        expr, probe_slots = probe(probe_args, _given, cast(Instr, None),
                                  {name: f"{REF}{name}" for name in self._attr_names})
        where = {(id(parent), field, index): k for k, (_, parent, field, index) in enumerate(probe_slots)}
        refs, self._size, helpers = scan(expr)
        self._helpers = frozenset(helpers)
        order = [where[(id(parent), field, index)] for _, parent, field, index in refs]
        if sorted(order) != list(range(len(slots))):
            raise AssertionError(f"template {ast.unparse(self._tree)}: slots not found by scan")
        self._build = _exec(lines, [slots[k] for k in order], literal)
        return self._build


def template(text: str, inputs: Sequence[str] = EXPR_ARGS) -> Template:
    """An emitter from a NumPy expression: ``inputs`` name the arguments, other names are attrs.

    >>> emit = template("np.sum(x, axis=axis)")
    """
    tree = ast.parse(text, mode="eval").body
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    attr_names = tuple(sorted(names - set(inputs) - {"np", "rt"}))
    used = [(name, i) for i, name in enumerate(inputs) if name in names]
    return Template(tree, used, attr_names)


def _given(arg: ast.expr, instr: Instr) -> ast.expr:
    """An argument already rendered (a template called as any emitter)."""
    return arg


def _builder_lines(tree: ast.expr, used: list[tuple[str, int]],
                   attr_names: tuple[str, ...]) -> tuple[tuple[list[str], str, list[Any]], list[str]]:
    """The body of a function of (arguments, how to render one, the instruction, attrs) making a copy
    of ``tree`` with the input names replaced by the arguments they name (rendered in input order)
    and the attribute names by their literals, with the text of each substituted node's slot
    ``(node, parent, field, index)``.
    Subtrees without any of them are shared (generated trees only ever mutate the substituted
    nodes' parents); the others are built bottom-up, each bound to a name its slots refer to
    (fields passed by position: ``ast`` node constructors take keywords at twice the cost)."""
    substituted = frozenset(name for name, _ in used) | frozenset(attr_names)
    shared: list[Any] = []
    body: list[str] = []
    slots: list[str] = []

    def code(node: Any, where: str) -> str:
        if isinstance(node, ast.Name) and node.id in substituted:
            slots.append(f"(v_{node.id}, {where})")
            return f"v_{node.id}"
        if isinstance(node, ast.AST) and not substituted.isdisjoint(
                n.id for n in ast.walk(node) if isinstance(n, ast.Name)):
            shared.append(type(node))
            k = len(shared) - 1
            fields = []
            for f in node._fields:
                value = getattr(node, f)
                if isinstance(value, list):
                    fields.append("[" + ", ".join(code(n, f"_n{k}, {f!r}, {i}") for i, n in enumerate(value)) + "]")
                else:
                    fields.append(code(value, f"_n{k}, {f!r}, None"))
            body.append(f"    _n{k} = _k{k}({', '.join(fields)})")  # positional: 2x faster
            return f"_n{k}"
        shared.append(node)
        return f"_k{len(shared) - 1}"

    lines = [f"    v_{name} = _get(_args[{i}], _ins)" for name, i in used]
    lines += [f"    v_{name} = _literal(_attrs[{name!r}])" for name in attr_names]
    root = code(tree, "None, None, None")
    return (lines + body, root, shared), slots


def _exec(text: tuple[list[str], str, list[Any]], slots: list[str], make_literal: Callable[[Any], ast.expr]) -> _Build:
    """The builder function from ``_builder_lines``' text, returning the tree and ``slots`` in this order."""
    lines, root, shared = text
    returned = f"    return {root}, ({''.join(slot + ', ' for slot in slots)})"
    source = "\n".join(["def build(_args, _get, _ins, _attrs):", *lines, returned])
    namespace: dict[str, Any] = {f"_k{i}": k for i, k in enumerate(shared)}
    namespace["_literal"] = make_literal
    exec(source, namespace)  # our own text: names from the template, indices
    return cast("_Build", namespace["build"])


_HOLE = re.compile(REF + r"(\d+)" + REF)


def _text_builder(tree: ast.expr, used: list[tuple[str, int]], attr_names: tuple[str, ...]) -> _TextBuild | None:
    """A function of (arguments, ``token``, the instruction, attrs, ``literal_text``) giving the
    template's text parts (strings and holes), its holes as references in the order ``scan`` finds
    them and the size of the expressions substituted; None when the printer cannot print the
    template or its outermost node is substituted.

    The text is found by printing the template with a marker in each hole; each hole's context by
    printing operations of rising precedence there: the lowest the printer does not parenthesize."""
    if type(tree) is Name or type(tree) is Constant:
        return None
    substituted = {name for name, _ in used} | set(attr_names)
    marked, names, dotted = _marked(tree, substituted)
    try:
        text = expression_text(marked, 0)
    except Unsupported:
        return None
    split = _HOLE.split(text)
    order = [int(k) for k in split[1::2]]   # hole numbers in text order
    if sorted(order) != list(range(len(names))):
        raise AssertionError(f"template {ast.unparse(tree)}: holes not found in its text")
    scan_order = [int(ref[0].id.strip(REF)) for ref in scan(marked)[0]]
    inputs = {name for name, _ in used}
    lines = [f"    v_{name} = _token(_args[{i}], _ins)" for name, i in used]
    lines += [f"    v_{name} = _literal(_attrs[{name!r}])" for name in attr_names]
    lines.append("    size = 0")
    for k, (name, after_dot) in enumerate(zip(names, dotted, strict=True)):
        context = _context(marked, k, text)
        literal_line = f"h{k}, extra = _text(v_{name}, {context}, {after_dot}); size += extra"
        if name in inputs:
            lines += [f"    if type(v_{name}) is str:", f"        h{k} = _Hole(v_{name}, {context})",
                      "    else:", f"        {literal_line}"]
        else:
            lines.append(f"    {literal_line}")
    parts = [repr(split[0])] if split[0] else []
    for k, piece in zip(order, split[2::2], strict=True):
        parts += [f"h{k}", repr(piece)] if piece else [f"h{k}"]
    holes = [f"h{k}" for k in scan_order if names[k] in inputs]  # (an attr's is always its literal's text)
    refs = (f"[({holes[0]},)] if type({holes[0]}) is _Hole else []" if len(holes) == 1 else
            f"[(h,) for h in ({''.join(h + ', ' for h in holes)}) if type(h) is _Hole]")
    lines.append(f"    return [{', '.join(parts)}], {refs}, size")
    source = "\n".join(["def build(_args, _token, _ins, _attrs, _text):", *lines])
    namespace: dict[str, Any] = {"_Hole": Hole, "_literal": literal}
    exec(source, namespace)  # our own text: names from the template, numbers, repr'd strings
    return cast("_TextBuild", namespace["build"])


def _marked(tree: ast.expr, substituted: set[str]) -> tuple[ast.expr, list[str], list[bool]]:
    """A copy of ``tree`` with each occurrence of a substituted name a distinct hole name, the
    names they stand for, and whether each is an attribute's value."""
    names: list[str] = []
    dotted: list[bool] = []

    def hole(node: Name, parent: Any) -> ast.expr | None:
        if node.id not in substituted:
            return None
        names.append(node.id)
        dotted.append(type(parent) is ast.Attribute)
        return Name(f"{REF}{len(names) - 1}{REF}", LOAD)

    return _copy(tree, None, hole), names, dotted


def _copy(node: Any, parent: Any, substitute: Callable[[Name, Any], ast.expr | None]) -> Any:
    """A copy of the tree ``node`` (under ``parent``) with each name ``substitute`` gives a node for
    replaced by that node."""
    if isinstance(node, list):
        return [_copy(item, parent, substitute) for item in node]
    if not isinstance(node, ast.AST):
        return node
    if type(node) is Name:
        replacement = substitute(node, parent)
        if replacement is not None:
            return replacement
    return type(node)(*[_copy(getattr(node, f), node, substitute) for f in node._fields])


def _probes() -> list[tuple[int, ast.expr]]:
    """An operation of each precedence the printer knows, lowest first."""
    a, b = Name("a", LOAD), Name("b", LOAD)
    nodes: list[ast.expr] = [ast.Tuple([a, b], LOAD), ast.UnaryOp(ast.Not(), a), ast.Compare(a, [ast.Lt()], [b])]
    nodes += [ast.BinOp(a, op(), b) for op in (ast.BitOr, ast.BitXor, ast.BitAnd, ast.LShift, ast.Add, ast.Mult)]
    nodes += [ast.UnaryOp(ast.USub(), a), ast.BinOp(a, ast.Pow(), b)]
    return [(precedence(node), node) for node in nodes]


_PROBES = _probes()


def _context(marked: ast.expr, k: int, text: str) -> int:
    """The precedence hole ``k`` of ``marked`` (printed as ``text``) needs."""
    hole = f"{REF}{k}{REF}"
    for level, probe in _PROBES:
        inner = expression_text(probe, 0)
        probed = _copy(marked, None, functools.partial(_probe_at, hole, probe))
        if expression_text(probed, 0) == text.replace(hole, inner):
            return level
    return ATOM


def _probe_at(hole: str, probe: ast.expr, name: Name, parent: Any) -> ast.expr | None:
    return probe if name.id == hole else None
