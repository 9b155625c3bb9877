"""A statement being written: an instruction's expression with its placeholder references.

Emitters build expressions whose arguments are placeholder names (``REF`` + the value's id);
the emitter folds single-use expressions into their consumers by replacing those names, then
gives the remaining ones their identifiers. A template's statement (most of them) is held as
text with holes (``TextStatement``) and becomes a tree only where the text will not do.
"""
from __future__ import annotations

import ast
from ast import Attribute, BinOp, Call, Constant, Name  # (read as globals in the hot loop)
from collections.abc import Callable
from typing import Any

from .program import Instr

__all__ = ["REF", "Ref", "Scanned", "Statement", "TextStatement", "AnyStatement", "Hole", "as_tree", "scan"]

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

    def absorb(self, token: str, other: Statement) -> None:
        """Put ``other``'s expression where the one placeholder ``token`` stands."""
        ref = next(ref for ref in self.refs if ref[0].id == token)
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


class Hole:
    """A placeholder in a statement's text: its token until the value is named (``id``, as a
    ``Name``'s), and the precedence its place needs (an expression put there binding less tightly
    is parenthesized)."""

    __slots__ = ("id", "context")

    def __init__(self, token: str, context: int) -> None:
        self.id, self.context = token, context


class TextStatement:
    """A template's statement as text: ``parts`` are strings and ``Hole``s, ``refs`` its holes as
    references (``(hole,)``, in the order a ``Statement`` of the same expression lists its own),
    ``precedence`` that of its outermost operation. ``materialize`` gives the ``Statement`` (a tree)
    of the same expression, for what only a tree can do (breaking a long line, ``+=``...)."""

    __slots__ = ("ins", "parts", "refs", "size", "helpers", "precedence", "absorbed")

    def __init__(self, ins: Instr, parts: list[Any], refs: list[tuple[Hole]], size: int,
                 helpers: frozenset[str] | set[str], precedence: int) -> None:
        self.ins, self.parts, self.refs = ins, parts, refs
        self.size, self.helpers, self.precedence = size, helpers, precedence
        self.absorbed: list[tuple[str, TextStatement]] | None = None   # in order, by the token they replaced

    def absorb(self, token: str, other: TextStatement) -> None:
        """Put ``other``'s text where the one hole ``token`` stands (parenthesized if it needs)."""
        refs = self.refs
        ref = next(ref for ref in refs if ref[0].id == token)
        refs.remove(ref)
        refs.extend(other.refs)
        hole = ref[0]
        parts = self.parts
        at = parts.index(hole)
        parts[at:at + 1] = ["(", *other.parts, ")"] if hole.context > other.precedence else other.parts
        self.size += other.size
        if other.helpers:
            self.helpers = self.helpers | other.helpers
        if self.absorbed is None:
            self.absorbed = []
        self.absorbed.append((token, other))

    def text(self) -> str:
        """The expression's text (its holes named by then)."""
        return "".join([part if type(part) is str else part.id for part in self.parts])

    def materialize(self, tree: Callable[[Instr], Statement]) -> Statement:
        """The ``Statement`` of this expression: its tree, with what was absorbed into it absorbed again;
        ``tree`` makes an instruction's own (before anything is absorbed)."""
        stmt = tree(self.ins)
        for token, other in self.absorbed or ():
            stmt.absorb(token, other.materialize(tree))
        return stmt


AnyStatement = Statement | TextStatement


def as_tree(stmt: AnyStatement, tree: Callable[[Instr], Statement]) -> Statement:
    """The statement as a tree (a text one materialized by ``tree``)."""
    return stmt.materialize(tree) if type(stmt) is TextStatement else stmt  # type: ignore[return-value]


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
