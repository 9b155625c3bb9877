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

    substituted = frozenset(name for name, _ in used) | frozenset(attr_names)
    builders: list[Callable[[dict], ast.expr]] = []   # made on first use (not at import)

    def emit(instr: Instr, args: Sequence[ast.expr]) -> ast.expr:
        subst = {name: args[i] for name, i in used}
        for name in attr_names:
            subst[name] = literal(instr.attrs[name])
        if not builders:
            builders.append(_builder(tree, substituted))
        return builders[0](subst)

    return emit


def _builder(tree: ast.expr, substituted: frozenset) -> Callable[[dict], ast.expr]:
    """A function making a copy of ``tree`` with the ``substituted`` names replaced (from its dict
    argument); subtrees without any of them are shared (generated trees only ever mutate the
    substituted nodes' parents). Written out once per template as one nested constructor call."""
    shared: list[Any] = []

    def code(node: Any) -> str:
        if isinstance(node, ast.Name) and node.id in substituted:
            return f"s[{node.id!r}]"
        if isinstance(node, list):
            return "[" + ", ".join(code(n) for n in node) + "]"
        if isinstance(node, ast.AST) and not substituted.isdisjoint(
                n.id for n in ast.walk(node) if isinstance(n, ast.Name)):
            shared.append(type(node))
            k = len(shared) - 1
            return f"k{k}(" + ", ".join(f"{f}={code(getattr(node, f))}" for f in node._fields) + ")"
        shared.append(node)
        return f"k{len(shared) - 1}"

    text = f"lambda s: {code(tree)}"
    return cast("Callable[[dict], ast.expr]", eval(text, {f"k{i}": k for i, k in enumerate(shared)}))
