"""Print generated statements: the same text as ``ast.unparse``, several times faster.

Compiling a 9,000-statement module spends a third of its time in ``ast.unparse``, a
general visitor. The emitter builds a small subset of Python (names, constants, calls,
attributes, operators, comparisons, subscripts, slices, tuples, lists); this module prints
that subset with ``ast.unparse``'s precedence and spacing rules, so the output is
byte-for-byte what ``ast.unparse`` gives (tests compare the two on every statement of the
op corpus and on random trees). Any other node falls back to ``ast.unparse``.
"""
from __future__ import annotations

import ast
from ast import Attribute, BinOp, Call, Compare, Constant, List, Name, Slice, Subscript, Tuple, UnaryOp
from collections.abc import Sequence

__all__ = ["print_statement", "print_lines", "assignment_lines", "expression_text", "precedence", "Unsupported",
           "ATOM", "TEST"]

# ast._Precedence values (CPython's ast.py), from low to high
_TUPLE, _TEST, _NOT, _CMP, _BOR, _BXOR, _BAND, _SHIFT, _ARITH, _TERM, _FACTOR, _POWER, _ATOM = (
    2, 4, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18)
_BINOPS = {ast.Add: ("+", _ARITH), ast.Sub: ("-", _ARITH), ast.Mult: ("*", _TERM), ast.MatMult: ("@", _TERM),
           ast.Div: ("/", _TERM), ast.Mod: ("%", _TERM), ast.FloorDiv: ("//", _TERM), ast.Pow: ("**", _POWER),
           ast.LShift: ("<<", _SHIFT), ast.RShift: (">>", _SHIFT), ast.BitOr: ("|", _BOR),
           ast.BitXor: ("^", _BXOR), ast.BitAnd: ("&", _BAND)}
_UNARY = {ast.USub: ("-", _FACTOR), ast.UAdd: ("+", _FACTOR), ast.Invert: ("~", _FACTOR), ast.Not: ("not ", _NOT)}
_CMPOPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
           ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}
TEST, ATOM = _TEST, _ATOM  # the context of a statement's value; one that parenthesizes every operation
_Item = ast.expr | ast.keyword  # one item between a call's brackets
_INFSTR = "1e" + repr(__import__("sys").float_info.max_10_exp + 1)


class Unsupported(Exception):
    """A node outside the printed subset (the caller falls back to ``ast.unparse``)."""


def print_statement(node: ast.stmt) -> str:
    """``target = value`` or ``return value`` as ``ast.unparse`` prints it."""
    try:
        if type(node) is ast.Assign and len(node.targets) == 1:
            return f"{_expr(node.targets[0], _TUPLE)} = {_expr(node.value, _TEST)}"
        if type(node) is ast.Return and node.value is not None:
            return f"return {_expr(node.value, _TEST)}"
    except Unsupported:
        pass
    return ast.unparse(node)


def print_lines(node: ast.stmt, width: int) -> list[str]:
    """``print_statement``'s text in lines of at most ``width`` columns where brackets allow.

    A line too long breaks after the commas of its outermost call, tuple or list (a tuple
    target gets parentheses), continuation lines aligned just inside the bracket, items packed
    greedily; an item that still does not fit is broken the same way. Breaking only inside
    brackets keeps the text's AST that of the one-line text."""
    text = print_statement(node)
    if len(text) <= width:
        return [text]
    try:
        if type(node) is ast.Assign and len(node.targets) == 1:
            target = node.targets[0]
            value = _expr(node.value, _TEST)
            lines = [_expr(target, _TUPLE) + " = " + value]
            if type(target) is ast.Tuple and len(target.elts) > 1:
                lines = _fill("", target, " = " + value, width)
            if len(lines[-1]) <= width:
                return lines
            return lines[:-1] + _fill(lines[-1][:-len(value)], node.value, "", width, value)
        if type(node) is ast.Return and node.value is not None:
            return _fill("return ", node.value, "", width)
        if type(node) is ast.Expr:  # a call made for its effect (a check, a print)
            return _fill("", node.value, "", width)
    except Unsupported:
        pass
    return [text]


def assignment_lines(name: str, value: ast.expr, width: int) -> list[str]:
    """``print_lines`` of ``name = value`` (the common statement: no ``Assign`` node is built
    unless the line must be broken)."""
    try:
        text = f"{name} = {_expr(value, _TEST)}"
    except Unsupported:
        text = ""
    if text and len(text) <= width:
        return [text]
    return print_lines(ast.Assign([ast.Name(name, ast.Store())], value, None, lineno=0), width)


def expression_text(node: ast.expr, context: int) -> str:
    """``node``'s text where the enclosing node needs precedence ``context`` (parenthesized below it)."""
    return _expr(node, context)


def precedence(node: ast.expr) -> int:
    """The precedence of ``node``'s text: it is parenthesized in any context above this."""
    if isinstance(node, BinOp):
        return _BINOPS[type(node.op)][1]
    if isinstance(node, UnaryOp):
        return _UNARY[type(node.op)][1]
    if isinstance(node, Compare):
        return _CMP
    if isinstance(node, Tuple):
        return _TUPLE if node.elts else -1
    return _ATOM


def _fill(prefix: str, node: ast.expr, suffix: str, width: int, text: str | None = None,
          enclosed: bool = False) -> list[str]:
    """``prefix + node + suffix``, broken after commas inside ``node``'s brackets to fit ``width``;
    ``enclosed``: ``node`` is an item inside brackets already, so an operator chain broken across
    lines needs no parentheses of its own."""
    text = _expr(node, _TEST) if text is None else text
    if len(prefix) + len(text) + len(suffix) <= width:
        return [prefix + text + suffix]
    opening, closing = ("", "") if enclosed else ("(", ")")
    if type(node) is ast.BinOp and _BINOPS[type(node.op)][1] != _POWER:
        return _split_binop(prefix + opening, node, closing + suffix, width)
    if type(node) is ast.Compare and len(node.ops) == 1:  # (a\n <= b), the tree unchanged
        left = _fill(prefix + opening, node.left, "", width, _expr(node.left, _CMP + 1))
        indent = " " * len(prefix + opening)
        symbol = _CMPOPS[type(node.ops[0])] + " "
        right = _expr(node.comparators[0], _CMP + 1)
        return left + _fill(indent + symbol, node.comparators[0], closing + suffix, width, right)
    parts = _bracketed(node)
    if parts is None:
        return [prefix + text + suffix]
    head, items, close = parts
    lines: list[str] = []
    current = prefix + head
    indent = " " * len(current)   # continuation lines start just inside the bracket...
    if len(current) > width * 2 // 3:   # ...unless that leaves little room: then below it, indented
        lines.append(current)
        current = indent = " " * (len(prefix) - len(prefix.lstrip()) + 4)
    fresh = True  # nothing on ``current`` yet after the bracket or indent
    for k, item in enumerate(items):
        end = (close + suffix) if k == len(items) - 1 else ","
        piece = _item(item)
        if not fresh and len(current) + 1 + len(piece) + len(end) > width:
            lines.append(current)
            current, fresh = indent, True
        if len(current) + (0 if fresh else 1) + len(piece) + len(end) > width and _breakable(_inner(item)):
            sub = _fill(current + ("" if fresh else " ") + _keyword_prefix(item), _inner(item), end, width,
                        enclosed=True)
            lines += sub[:-1]
            current, fresh = sub[-1], False
            continue
        current += ("" if fresh else " ") + piece + end
        fresh = False
    return lines + [current]


def _split_binop(prefix: str, node: ast.BinOp, suffix: str, width: int) -> list[str]:
    """A chain ``a + b - c`` of one precedence after ``prefix`` (which ends inside brackets: the
    caller's added parenthesis or an enclosing call's; the tree stays the same), operands packed
    greedily, each continuation line starting with its operator aligned after ``prefix``; an
    operand too long for a line of its own is broken further."""
    own = _BINOPS[type(node.op)][1]
    terms: list[tuple[str, ast.expr]] = []
    left: ast.expr = node
    while type(left) is ast.BinOp and _BINOPS[type(left.op)][1] == own:
        terms.append((_BINOPS[type(left.op)][0] + " ", left.right))
        left = left.left
    terms.append(("", left))
    terms.reverse()
    indent = " " * len(prefix)
    lines: list[str] = []
    current = prefix
    for k, (symbol, operand) in enumerate(terms):
        end = suffix if k == len(terms) - 1 else ""
        piece = symbol + _expr(operand, own if k == 0 else own + 1)
        if k and len(current) + 1 + len(piece) + len(end) > width:
            lines.append(current)
            current = indent + piece[:len(symbol)]
        elif k:
            current += " " + piece[:len(symbol)]
        sub = _fill(current, operand, end, width, piece[len(symbol):])
        lines += sub[:-1]
        current = sub[-1]
    return lines + [current]


def _bracketed(node: ast.expr) -> tuple[str, Sequence[_Item], str] | None:
    """(text up to the opening bracket, items, closing bracket) of a call, tuple or list to break."""
    if type(node) is ast.Call and (node.args or node.keywords):
        return _expr(node.func, _ATOM) + "(", [*node.args, *node.keywords], ")"
    if type(node) is ast.Tuple and len(node.elts) > 1:
        return "(", node.elts, ")"
    if type(node) is ast.List and len(node.elts) > 1:
        return "[", node.elts, "]"
    if type(node) is ast.Subscript and type(node.value) is ast.Call:  # f(a, b)[i]: break inside f's brackets
        call = _bracketed(node.value)
        whole, value = _expr(node, _TEST), _expr(node.value, _ATOM)
        if call is not None and whole.startswith(value):
            return call[0], call[1], call[2] + whole[len(value):]
    return None


def _breakable(node: ast.expr) -> bool:
    """Whether ``_fill`` can break ``node``: a bracketed call, tuple or list, or an operator chain."""
    return (_bracketed(node) is not None or type(node) is ast.BinOp and _BINOPS[type(node.op)][1] != _POWER
            or type(node) is ast.Compare and len(node.ops) == 1)


def _item(item: _Item) -> str:
    if isinstance(item, ast.keyword):
        if item.arg is None:
            raise Unsupported("**kwargs")
        return f"{item.arg}={_expr(item.value, _TEST)}"
    return _expr(item, _TEST)


def _inner(item: _Item) -> ast.expr:
    return item.value if isinstance(item, ast.keyword) else item


def _keyword_prefix(item: _Item) -> str:
    return f"{item.arg}=" if isinstance(item, ast.keyword) else ""


def _items(elts: list[ast.expr]) -> str:
    if len(elts) == 1:
        return _expr(elts[0], _TEST) + ","
    return ", ".join(_expr(e, _TEST) for e in elts)


def _expr(node: ast.expr, context: int) -> str:
    if type(node) is Name:  # (names from ast: no attribute lookups)
        return node.id
    if type(node) is Constant:
        return _constant(node)
    if type(node) is Attribute:
        value = node.value
        if type(value) is Name:  # np.tanh (a name leaf inline: most subtrees end in one)
            return f"{value.id}.{node.attr}"
        text = _expr(value, _ATOM)
        if type(value) is ast.Constant and isinstance(value.value, int):
            text += " "
        return f"{text}.{node.attr}"
    if type(node) is Call:
        func = node.func
        head = f"{func.value.id}.{func.attr}" if type(func) is Attribute and type(func.value) is Name \
            else _expr(func, _ATOM)
        if not node.keywords and len(node.args) == 1:  # the common call: np.tanh(x)
            arg = node.args[0]
            return f"{head}({arg.id if type(arg) is Name else _expr(arg, _TEST)})"
        args = [_expr(a, _TEST) for a in node.args]
        for k in node.keywords:
            if k.arg is None:
                raise Unsupported("**kwargs")
            args.append(f"{k.arg}={_expr(k.value, _TEST)}")
        return f"{head}({', '.join(args)})"
    if type(node) is BinOp:
        symbol, own = _BINOPS[type(node.op)]
        left, right = node.left, node.right
        if own == _POWER:   # right-associative
            text = f"{_expr(left, own + 1)} {symbol} {_expr(right, own)}"
        else:
            text = (f"{left.id if type(left) is Name else _expr(left, own)} {symbol} "
                    f"{right.id if type(right) is Name else _expr(right, own + 1)}")
        return f"({text})" if context > own else text  # parentheses where the context binds tighter
    if type(node) is UnaryOp:
        symbol, own = _UNARY[type(node.op)]
        text = symbol + _expr(node.operand, own)
        return f"({text})" if context > own else text
    if type(node) is Compare:
        parts = [_expr(node.left, _CMP + 1)]
        for op, right in zip(node.ops, node.comparators, strict=True):
            parts.append(f"{_CMPOPS[type(op)]} {_expr(right, _CMP + 1)}")
        return f"({' '.join(parts)})" if context > _CMP else " ".join(parts)
    if type(node) is Subscript:
        index = node.slice
        inner = _items(index.elts) if type(index) is ast.Tuple and index.elts else _expr(index, _TEST)
        return f"{_expr(node.value, _ATOM)}[{inner}]"
    if type(node) is Slice:
        text = (_expr(node.lower, _TEST) if node.lower else "") + ":"
        text += _expr(node.upper, _TEST) if node.upper else ""
        return text + (":" + _expr(node.step, _TEST) if node.step else "")
    if type(node) is Tuple:
        text = _items(node.elts)
        return f"({text})" if not node.elts or context > _TUPLE else text
    if type(node) is List:
        return "[" + ", ".join(_expr(e, _TEST) for e in node.elts) + "]"
    raise Unsupported(type(node).__name__)


def _constant(node: ast.Constant) -> str:
    value = node.value
    if value is Ellipsis:
        return "..."
    if isinstance(value, (float, complex)):
        text = repr(value)
        if "n" not in text:  # neither inf nor nan
            return text
        return text.replace("inf", _INFSTR).replace("nan", f"({_INFSTR}-{_INFSTR})")
    if isinstance(value, tuple):
        raise Unsupported("tuple constant")
    return ("u" if getattr(node, "kind", None) == "u" else "") + repr(value)
