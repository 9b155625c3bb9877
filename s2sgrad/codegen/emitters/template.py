"""Emitters from NumPy expression text: an elementwise declaration's ``expr`` (``"np.tanh(x)"``)
and the few codegen-only templates, parsed once and instantiated per instruction."""
from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from typing import Any, cast

from ...primitives.core import EXPR_ARGS
from ..program import Instr
from .common import Emitter, literal

__all__ = ["template"]


def template(text: str, inputs: Sequence[str] = EXPR_ARGS) -> Emitter:
    """An emitter from a NumPy expression: ``inputs`` name the arguments, other names are attrs.

    >>> emit = template("np.sum(x, axis=axis)")
    """
    tree = ast.parse(text, mode="eval").body
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    attr_names = tuple(sorted(names - set(inputs) - {"np", "rt"}))
    used = [(name, i) for i, name in enumerate(inputs) if name in names]

    builders: list[Callable[[Sequence[ast.expr], dict], ast.expr]] = []   # made on first use (not at import)

    def emit(instr: Instr, args: Sequence[ast.expr]) -> ast.expr:
        if not builders:
            builders.append(_builder(tree, used, attr_names))
        return builders[0](args, instr.attrs)

    return emit


def _builder(tree: ast.expr, used: list[tuple[str, int]],
             attr_names: tuple[str, ...]) -> Callable[[Sequence[ast.expr], dict], ast.expr]:
    """A function of (arguments, attrs) making a copy of ``tree`` with the input names replaced by
    the arguments they name (read in input order) and the attribute names by their literals;
    subtrees without any of them are shared (generated trees only ever mutate the substituted
    nodes' parents). Written out once per template as one nested constructor call (fields passed
    by position: ``ast`` node constructors take keywords at twice the cost)."""
    substituted = frozenset(name for name, _ in used) | frozenset(attr_names)
    shared: list[Any] = []

    def code(node: Any) -> str:
        if isinstance(node, ast.Name) and node.id in substituted:
            return f"v_{node.id}"
        if isinstance(node, list):
            return "[" + ", ".join(code(n) for n in node) + "]"
        if isinstance(node, ast.AST) and not substituted.isdisjoint(
                n.id for n in ast.walk(node) if isinstance(n, ast.Name)):
            shared.append(type(node))
            k = len(shared) - 1
            return f"_k{k}(" + ", ".join(code(getattr(node, f)) for f in node._fields) + ")"  # positional: 2x faster
        shared.append(node)
        return f"_k{len(shared) - 1}"

    lines = ["def build(_args, _attrs):"]
    lines += [f"    v_{name} = _args[{i}]" for name, i in used]
    lines += [f"    v_{name} = _literal(_attrs[{name!r}])" for name in attr_names]
    lines.append(f"    return {code(tree)}")
    namespace: dict[str, Any] = {f"_k{i}": k for i, k in enumerate(shared)}
    namespace["_literal"] = literal
    exec("\n".join(lines), namespace)  # our own text: names from the template, indices
    return cast("Callable[[Sequence[ast.expr], dict], ast.expr]", namespace["build"])
