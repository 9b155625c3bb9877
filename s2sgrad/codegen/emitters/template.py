"""Emitters from NumPy expression text: an elementwise declaration's ``expr`` (``"np.tanh(x)"``)
and the few codegen-only templates, parsed once and instantiated per instruction."""
from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

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

    def emit(instr: Instr, args: Sequence[ast.expr]) -> ast.expr:
        subst = {name: args[i] for name, i in used}
        for name in attr_names:
            subst[name] = literal(instr.attrs[name])
        return _instantiate(tree, subst)

    return emit


def _instantiate(node: Any, subst: dict) -> Any:
    """A copy of the template ``node`` with names replaced; subtrees without any substituted
    name are shared (generated trees only ever mutate the substituted nodes' parents)."""
    if isinstance(node, ast.Name):
        return subst.get(node.id, node)
    if isinstance(node, ast.AST):
        if not _has_names(node, subst):
            return node
        new = node.__class__()
        for field in node._fields:
            setattr(new, field, _instantiate(getattr(node, field), subst))
        return new
    if isinstance(node, list):
        return [_instantiate(n, subst) for n in node]
    return node


def _has_names(node: ast.AST, subst: dict) -> bool:
    names = _NAMES_BELOW.get(id(node))
    if names is None:
        names = _NAMES_BELOW[id(node)] = (frozenset(n.id for n in ast.walk(node) if isinstance(n, ast.Name)), node)
    return not names[0].isdisjoint(subst)


_NAMES_BELOW: dict[int, tuple] = {}  # template subtree -> the names in it (templates live forever)
