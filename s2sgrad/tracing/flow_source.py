"""Source to source: a decorated function's own ``if``/``while``/``for`` statements, rewritten as
calls that record control-flow ops when their condition is traced (``flow_runtime``).

Each converted statement becomes small functions of the variables it assigns (its *state*)
and one call, e.g. ``if c: y = f(x)`` becomes::

    def __s2sgrad_then_1(y): y = f(x); return (y,)
    def __s2sgrad_else_1(y): return (y,)
    (y,) = __s2sgrad_flow.if_(c, __s2sgrad_then_1, __s2sgrad_else_1, (<y or UNDEFINED>,), ('y',), 7)

On Python values the calls run the statement as Python does. ``if`` may also end every branch
in ``return`` (the rest of the function is then the ``else``). A statement that cannot be
converted (``break``/``continue``, a ``return`` in the middle of a branch or in a loop, an
``else`` on a loop, a ``try``) stays as written; ``unconverted`` says why, by line, for the
error raised if its condition turns out to be traced.
"""
from __future__ import annotations

import ast
import inspect
import textwrap
import weakref
from collections.abc import Callable
from typing import Any

__all__ = ["Converted", "convert"]

FLOW = "__s2sgrad_flow"
_PREFIX = "__s2sgrad_"
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp, ast.SetComp,
           ast.DictComp, ast.GeneratorExp)


class Converted:
    """The converted function and, by line, the statements left as written (with the reason)."""

    def __init__(self, fn: Callable | None, unconverted: dict[int, str]) -> None:
        self.fn = fn
        self.unconverted = unconverted


_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def convert(f: Callable, runtime: Any) -> Converted:
    """``f`` with its control-flow statements converted (``fn`` is None when there is nothing to
    convert or its source is not available), cached per function."""
    hit = _cache.get(f)
    if hit is None:
        hit = _convert(f, runtime)
        _cache[f] = hit
    return hit


def _convert(f: Callable, runtime: Any) -> Converted:
    code = getattr(f, "__code__", None)
    try:
        source = textwrap.dedent(inspect.getsource(f))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError, IndentationError):
        return Converted(None, {})
    node = tree.body[0] if tree.body else None
    if code is None or not isinstance(node, ast.FunctionDef) or node.name != f.__name__:
        return Converted(None, {})
    ast.increment_lineno(tree, code.co_firstlineno - 1)  # the source starts at that line (its first decorator)
    rewriter = _Rewriter()
    node.body = rewriter.block(node.body)
    if not rewriter.changed:
        return Converted(None, rewriter.unconverted)
    node.decorator_list = []
    freevars = list(code.co_freevars)
    factory = ast.copy_location(ast.FunctionDef(
        name=_PREFIX + "factory", args=_arguments([FLOW, *freevars]),
        body=[node, ast.copy_location(ast.Return(ast.Name(node.name, ast.Load())), node)],
        decorator_list=[], returns=None), node)
    module = ast.fix_missing_locations(ast.Module([factory], []))
    namespace: dict = {}
    exec(compile(module, code.co_filename, "exec"), f.__globals__, namespace)
    cells = [c.cell_contents for c in (getattr(f, "__closure__", None) or ())]
    fn = namespace[_PREFIX + "factory"](runtime, *cells)
    fn.__defaults__, fn.__kwdefaults__ = f.__defaults__, f.__kwdefaults__
    fn.__wrapped_original__ = f
    return Converted(fn, rewriter.unconverted)


def _arguments(names: list[str]) -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[ast.arg(n) for n in names], kwonlyargs=[], kw_defaults=[],
                         defaults=[])


class _Rewriter:
    def __init__(self) -> None:
        self.count = 0
        self.changed = False
        self.unconverted: dict[int, str] = {}

    def block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, ast.If):
                returning = _if_returns(stmt, stmts[i + 1:])
                if returning is not None:
                    out += self._if_return(stmt, returning)
                    return out
                reason = _blocker(stmt.body + stmt.orelse, "an `if`")
                out += self._if(stmt) if reason is None else self._keep(stmt, reason)
            elif isinstance(stmt, (ast.While, ast.For)):
                kind = "a `while` loop" if isinstance(stmt, ast.While) else "a `for` loop"
                reason = _blocker(stmt.body, kind, loop=True)
                if stmt.orelse:
                    reason = f"{kind} with an `else:` block"
                if isinstance(stmt, ast.For) and not isinstance(stmt.target, ast.Name):
                    reason = "a `for` loop unpacking its items (`for a, b in ...`)"
                out += (self._while(stmt) if isinstance(stmt, ast.While) else self._for(stmt)) if reason is None \
                    else self._keep(stmt, reason)
            elif isinstance(stmt, ast.Try):
                self.unconverted[stmt.lineno] = "a `try` statement"
                out.append(stmt)
            else:
                out.append(stmt)
        return out

    def _keep(self, stmt: ast.stmt, reason: str) -> list[ast.stmt]:
        for line in range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1):
            self.unconverted.setdefault(line, reason)
        return [stmt]

    def _name(self, kind: str) -> str:
        return f"{_PREFIX}{kind}_{self.count}"

    def _if(self, stmt: ast.If) -> list[ast.stmt]:
        self.count += 1
        self.changed = True
        state = _assigned(stmt.body + stmt.orelse)
        then_fn = _function(self._name("then"), state, self.block(stmt.body) + [_return_state(state)], stmt)
        else_fn = _function(self._name("else"), state, self.block(stmt.orelse) + [_return_state(state)], stmt)
        call = _flow_call("if_", [_test(stmt.test), _ref(then_fn), _ref(else_fn), _loads(state), _names(state),
                                  ast.Constant(stmt.lineno)], stmt)
        return [then_fn, else_fn, _assign_state(state, call, stmt)]

    def _if_return(self, stmt: ast.If, orelse: list[ast.stmt]) -> list[ast.stmt]:
        self.count += 1
        self.changed = True
        state = _assigned(stmt.body + orelse)
        then_fn = _function(self._name("then"), state, self.block(stmt.body), stmt)
        else_fn = _function(self._name("else"), state, self.block(orelse), stmt)
        call = _flow_call("if_return", [_test(stmt.test), _ref(then_fn), _ref(else_fn), _loads(state),
                                        _names(state), ast.Constant(stmt.lineno)], stmt)
        return [then_fn, else_fn, _located(ast.Return(call), stmt)]

    def _while(self, stmt: ast.While) -> list[ast.stmt]:
        self.count += 1
        self.changed = True
        state = _assigned(stmt.body)
        cond_fn = _function(self._name("cond"), state, [ast.Return(_test(stmt.test))], stmt)
        body_fn = _function(self._name("body"), state, self.block(stmt.body) + [_return_state(state)], stmt)
        call = _flow_call("while_", [_ref(cond_fn), _ref(body_fn), _loads(state), _names(state),
                                     ast.Constant(stmt.lineno)], stmt)
        return [cond_fn, body_fn, _assign_state(state, call, stmt)]

    def _for(self, stmt: ast.For) -> list[ast.stmt]:
        self.count += 1
        self.changed = True
        assert isinstance(stmt.target, ast.Name)
        target = stmt.target.id
        state = [n for n in _assigned(stmt.body) if n != target]
        body_fn = _function(self._name("body"), [target, *state], self.block(stmt.body) + [_return_state(state)],
                            stmt)
        items = stmt.iter
        if isinstance(items, ast.Call) and isinstance(items.func, ast.Name) and items.func.id == "range":
            items = _flow_call("range_", list(items.args), items)
        call = _flow_call("for_", [items, _ref(body_fn), _loads(state), _names(state),
                                   ast.Constant(stmt.lineno)], stmt)
        return [body_fn, _assign_state(state, call, stmt)]


def _if_returns(stmt: ast.If, rest: list[ast.stmt]) -> list[ast.stmt] | None:
    """The ``else`` statements of an ``if`` whose every path returns (the rest of the block when it
    has no ``else``), or None when that is not its shape."""
    orelse = stmt.orelse or rest
    if not (_ends_in_return(stmt.body) and _ends_in_return(orelse)):
        return None
    if stmt.orelse and rest:
        return None
    body_ok = _blocker(stmt.body[:-1], "", loop=True) is None and _blocker(orelse[:-1], "", loop=True) is None
    return orelse if body_ok else None


def _ends_in_return(stmts: list[ast.stmt]) -> bool:
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, ast.Return):
        return True
    return isinstance(last, ast.If) and _ends_in_return(last.body) and _ends_in_return(last.orelse)


def _blocker(stmts: list[ast.stmt], kind: str, loop: bool = False) -> str | None:
    """Why ``stmts`` (a branch or a loop body) cannot become a function: None when they can."""
    for node in _walk(stmts):
        if isinstance(node, ast.Return):
            return f"a `return` inside {kind} (assign the result to a variable and return it after the statement)"
        if isinstance(node, (ast.Break, ast.Continue)) and (loop or not _in_own_loop(node, stmts)):
            word = "break" if isinstance(node, ast.Break) else "continue"
            return f"a `{word}` inside {kind} (put the stopping test into the loop condition instead)"
        if isinstance(node, (ast.Yield, ast.YieldFrom, ast.Await)):
            return f"a generator or coroutine step inside {kind}"
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            return f"a `global`/`nonlocal` statement inside {kind}"
        if isinstance(node, ast.Try):
            return f"a `try` statement inside {kind}"
    return None


def _in_own_loop(node: ast.AST, stmts: list[ast.stmt]) -> bool:
    """True when ``node`` (a break/continue) belongs to a loop nested inside ``stmts``."""
    for stmt in stmts:
        for loop in ast.walk(stmt):
            if isinstance(loop, (ast.While, ast.For)) and any(n is node for n in _walk(loop.body)):
                return True
    return False


def _walk(stmts: list[ast.stmt]) -> list[ast.AST]:
    """Every node of ``stmts`` outside nested functions, classes and comprehensions."""
    found: list[ast.AST] = []
    stack: list[ast.AST] = list(stmts)
    while stack:
        node = stack.pop()
        found.append(node)
        if isinstance(node, _SCOPES):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return found


def _assigned(stmts: list[ast.stmt]) -> list[str]:
    """The variables ``stmts`` assign (not inside nested scopes), in first-assignment order."""
    names: dict[str, None] = {}
    for node in sorted(_walk(stmts), key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0))):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and not node.id.startswith(_PREFIX):
            names.setdefault(node.id)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):  # out[i] = v: out changes
            base = node.value
            while isinstance(base, ast.Subscript):
                base = base.value
            if isinstance(base, ast.Name) and not base.id.startswith(_PREFIX):
                names.setdefault(base.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith(_PREFIX):
            names.setdefault(node.name)
    return list(names)


def _function(name: str, params: list[str], body: list[ast.stmt], at: ast.stmt) -> ast.FunctionDef:
    fn = ast.FunctionDef(name=name, args=_arguments(params), body=body or [ast.Pass()], decorator_list=[],
                         returns=None)
    return _located(fn, at)


def _ref(fn: ast.FunctionDef) -> ast.expr:
    return ast.Name(fn.name, ast.Load())


def _located(node: Any, at: Any) -> Any:
    """``node`` and the new nodes inside it placed at ``at``'s lines (moved statements keep theirs)."""
    for inner in ast.walk(node):
        if "lineno" in inner._attributes and getattr(inner, "lineno", None) is None:
            placed: Any = inner  # one line, the statement's first: where tracebacks point
            placed.lineno = placed.end_lineno = at.lineno
            placed.col_offset = placed.end_col_offset = getattr(at, "col_offset", 0)
    return node


def _return_state(state: list[str]) -> ast.stmt:
    return ast.Return(ast.Tuple([ast.Name(n, ast.Load()) for n in state], ast.Load()))  # placed by _function


def _loads(state: list[str]) -> ast.expr:
    """``(load(lambda: a), ...)``: each variable's value, or UNDEFINED when it has none yet."""
    return ast.Tuple([_flow_call("load", [ast.Lambda(_arguments([]), ast.Name(n, ast.Load()))], None) for n in state],
                     ast.Load())


def _names(state: list[str]) -> ast.expr:
    return ast.Tuple([ast.Constant(n) for n in state], ast.Load())


def _flow_call(function: str, args: list[ast.expr], at: ast.AST | None) -> ast.expr:
    call = ast.Call(ast.Attribute(ast.Name(FLOW, ast.Load()), function, ast.Load()), args, [])
    return _located(call, at) if at is not None else call


class _Tests(ast.NodeTransformer):
    """A condition's ``and``/``or``/``not`` as calls that also work on traced values."""

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        self.generic_visit(node)
        name = "and_" if isinstance(node.op, ast.And) else "or_"
        thunks = [ast.Lambda(_arguments([]), v) for v in node.values[1:]]
        return _located(_flow_call(name, [node.values[0], *thunks], None), node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return _located(_flow_call("not_", [node.operand], None), node)
        return node


def _test(expr: ast.expr) -> ast.expr:
    return _Tests().visit(expr)


def _assign_state(state: list[str], call: ast.expr, at: ast.stmt) -> ast.stmt:
    if not state:
        return _located(ast.Expr(call), at)
    target = ast.Tuple([ast.Name(n, ast.Store()) for n in state], ast.Store())
    return _located(ast.Assign([target], call), at)
