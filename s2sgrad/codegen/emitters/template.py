"""Emitters from NumPy expression text: an elementwise declaration's ``expr`` (``"np.tanh(x)"``)
and the few codegen-only templates, parsed once and instantiated per instruction."""
from __future__ import annotations

import ast
from ast import Constant, Name
from collections.abc import Callable, Sequence
from typing import Any, cast

from ...primitives.core import EXPR_ARGS
from ..program import Instr
from ..statement import REF, Ref, Scanned, scan
from .common import LOAD, literal

__all__ = ["Template", "template"]

_Slot = tuple[Any, "ast.AST | None", "str | None", "int | None"]  # a substituted node and where it sits
Render = Callable[[Any, Instr], ast.expr]  # an argument (a codegen Value) -> its expression in ``instr``
_Build = Callable[[Sequence[Any], Render, Instr, dict], tuple[ast.expr, tuple[_Slot, ...]]]


class Template:
    """An emitter from a NumPy expression: ``inputs`` name the arguments, other names are attrs.

    Besides the expression (calling it, as any emitter), it gives what ``statement.scan`` would
    find in it (``scanned``) without walking the tree: the template knows where its arguments go."""

    __slots__ = ("_tree", "_used", "_attr_names", "_build", "_size", "_helpers")

    def __init__(self, tree: ast.expr, used: list[tuple[str, int]], attr_names: tuple[str, ...]) -> None:
        self._tree, self._used, self._attr_names = tree, used, attr_names
        self._build: _Build | None = None   # made on first use (not at import)
        self._size = 0
        self._helpers: frozenset[str] = frozenset()

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
