"""A statement being written: an instruction's expression with its placeholder references.

Emitters build expressions whose arguments are placeholder names (``REF`` + the value's id);
the emitter folds single-use expressions into their consumers by replacing those names, then
gives the remaining ones their identifiers.
"""
from __future__ import annotations

import ast
from ast import Attribute, BinOp, Call, Constant, Name  # (read as globals in the hot loop)
from typing import Any

from .program import Instr

__all__ = ["REF", "Ref", "Scanned", "Statement", "scan"]

REF = "\x00"                # placeholder names: never a valid identifier, replaced before printing
_OPERATIONS = frozenset({ast.BinOp, ast.UnaryOp, ast.Call, ast.Compare, ast.Subscript})
Ref = tuple[ast.Name, "ast.AST | None", "str | None", "int | None"]  # a placeholder: (node, parent, field, index)
Scanned = tuple[list[Ref], int, set[str]]  # what ``scan`` finds: references, operations, helpers


class Statement:
    """An expression for ``ins`` with its placeholder references (node, parent, field, index),
    its size in operations and the runtime helpers it calls."""

    __slots__ = ("ins", "expr", "refs", "size", "helpers", "blocks", "tail")

    def __init__(self, ins: Instr | None, expr: ast.expr, scanned: Scanned | None = None) -> None:
        """``scanned``: what ``scan(expr)`` gives, when the emitter knows it (a template)."""
        self.ins = ins
        self.expr = expr
        self.refs, self.size, self.helpers = scan(expr) if scanned is None else scanned
        self.blocks: list[list[Statement]] = []   # a control-flow statement's blocks
        self.tail: list[Any] = []  # control flow: per block, its closing assignment; an assignment: its targets

    def nest(self, blocks: list[list[Statement]], tail: list[Statement | None]) -> None:
        """Make this a control-flow statement with these blocks (their references become its own)."""
        self.blocks, self.tail = blocks, tail
        for stmt in [s for block in blocks for s in block] + [s for s in tail if s is not None]:
            self.refs.extend(stmt.refs)
            self.helpers |= stmt.helpers
            self.size += stmt.size

    def absorb(self, ref: Ref, other: Statement) -> None:
        """Put ``other``'s expression where placeholder ``ref`` stands."""
        node, parent, field, index = ref
        if parent is None or field is None:  # the whole expression
            self.expr = other.expr
        elif index is None:
            setattr(parent, field, other.expr)
        else:
            getattr(parent, field)[index] = other.expr
        self.refs.remove(ref)
        self.refs.extend(other.refs)
        self.size += other.size
        self.helpers |= other.helpers


def scan(expr: ast.AST) -> Scanned:
    """Placeholder references (with their parents), operation count and ``rt`` helpers of ``expr``.

    References come in the order of a depth-first walk visiting a node's fields last to first
    (naming follows it); calls and operators, most of any tree, are walked without looking up
    their fields, in that same order."""
    refs: list[Ref] = []
    size = 0
    helpers: set[str] = set()
    stack: list = [(expr, None, None, None)]
    push = stack.append
    while stack:
        node, parent, field, index = stack.pop()
        kind = type(node)
        if kind is Name:
            if node.id[:1] == REF:
                refs.append((node, parent, field, index))
            continue
        if kind is Call and type(node.args) is list and type(node.keywords) is list:
            size += 1
            push((node.func, node, "func", None))
            for i, item in enumerate(node.args):
                if type(item) is not Constant:
                    push((item, node, "args", i))
            for i, item in enumerate(node.keywords):
                push((item, node, "keywords", i))
            continue
        if kind is BinOp:
            size += 1
            if type(node.left) is not Constant:
                push((node.left, node, "left", None))
            if type(node.right) is not Constant:
                push((node.right, node, "right", None))
            continue
        if kind is Attribute:
            value = node.value
            if type(value) is Name:
                if value.id == "rt":
                    helpers.add(node.attr)
                elif value.id[:1] == REF:
                    refs.append((value, node, "value", None))
            elif type(value) is not Constant:
                push((value, node, "value", None))
            continue
        if kind in _OPERATIONS:
            size += 1
        fields = _CHILD_FIELDS.get(kind)
        if fields is None:
            fields = _CHILD_FIELDS[kind] = tuple(f for f in kind._fields if f not in _LEAF_FIELDS)
        for name in fields:
            child = getattr(node, name, None)
            if child is None or type(child) is Constant:  # nothing to find in it (most leaves)
                continue
            if isinstance(child, list):
                stack.extend((item, node, name, i) for i, item in enumerate(child)
                             if type(item) is not Constant and isinstance(item, ast.AST))
            elif isinstance(child, ast.AST):
                push((child, node, name, None))
    return refs, size, helpers


# Fields that never hold a name, an operation or an attribute (contexts, operators, constants'
# values, attribute and keyword names): ``scan`` does not descend into them.
_LEAF_FIELDS = frozenset({"ctx", "op", "ops", "kind", "attr", "arg", "type_comment"})
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {ast.Constant: ()}
