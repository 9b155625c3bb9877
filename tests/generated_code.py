"""What every generated module must look like, checked on its AST.

A module is: a docstring, ``import numpy as np``, module-level constants, and one function
``run`` made of assignments, ``del``, control-flow blocks and one ``return``. Every name it reads is a parameter,
a value it assigned before (each exactly once), a module constant, ``np``, ``rt``,
``_constants`` or one of a few harmless builtins; no attribute starts with ``_``; nothing is
imported but NumPy and (when it calls one) the runtime helpers as ``rt``. ``problems(source)``
lists what breaks these rules (empty when none).
"""
from __future__ import annotations

import ast
import builtins
import keyword

from s2sgrad.codegen.emit import RUNTIME_IMPORT
from s2sgrad.codegen.names import INTERNAL_NAMES

GLOBALS = frozenset({"np", "rt", "_constants"})
SAFE_BUILTINS = frozenset({"slice", "complex", "tuple", "map", "list"})
_EXPRESSIONS = (ast.BinOp, ast.UnaryOp, ast.Compare, ast.Call, ast.Attribute, ast.Subscript, ast.Slice, ast.Name,
                ast.Constant, ast.Tuple, ast.List, ast.keyword, ast.Starred, ast.expr_context, ast.operator,
                ast.unaryop, ast.cmpop, ast.BoolOp, ast.boolop, ast.ListComp, ast.comprehension)


def problems(source: str) -> list[str]:
    """Everything in ``source`` that a generated module must not contain."""
    tree = ast.parse(source)
    found: list[str] = []
    body = list(tree.body)
    if not (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)):
        found.append("the module does not start with a docstring")
    else:
        body.pop(0)
    imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    uses_rt = any(isinstance(n, ast.Name) and n.id == "rt" for n in ast.walk(tree))
    expected = ["import numpy as np"] + ([RUNTIME_IMPORT] if uses_rt else [])
    if [ast.unparse(i) for i in imports] != expected or imports != body[:len(imports)]:
        found.append(f"imports other than leading {expected}: {[ast.unparse(i) for i in imports]}")
    known = set(GLOBALS)
    functions = []
    for stmt in body[len(imports):]:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            found += _expression_problems(stmt.value, known, "module constant")
            found += _name_problems(stmt.targets[0].id, known)
            known.add(stmt.targets[0].id)
        elif isinstance(stmt, ast.FunctionDef):
            functions.append(stmt)
        else:
            found.append(f"unexpected module statement: {ast.unparse(stmt)[:80]}")
    if len(functions) != 1 or functions[0].name != "run":
        return found + [f"expected one function named run, got {[f.name for f in functions]}"]
    return found + _function_problems(functions[0], known)


def _function_problems(fn: ast.FunctionDef, module_names: set) -> list[str]:
    found = []
    args = fn.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.defaults or args.posonlyargs or fn.decorator_list:
        found.append("run has more than plain positional parameters or decorators")
    local: set[str] = set()
    for a in args.args:
        found += _name_problems(a.arg, module_names | local)
        local.add(a.arg)
    body = list(fn.body)
    if not body or not isinstance(body[-1], ast.Return):
        return found + ["run does not end with return"]
    found += _block_problems(body[:-1], module_names, local, frozenset(), in_loop=False)
    found += _expression_problems(body[-1].value, module_names | local, "return")
    return found


def _block_problems(stmts: list, module_names: set, local: set, rebindable: frozenset, in_loop: bool) -> list[str]:
    """Statements of ``run`` or of a block in it. Control flow: ``if``/``else`` (each branch binds
    the If's outputs once), ``while`` and ``for k in range(n)`` / ``reversed(range(n))`` (the body may
    rebind the names bound before the loop), ``break``, ``pass``, a counter's ``n += 1``, a record's
    ``steps.append(v)`` or ``steps[k] = v``. Every other name is bound once."""
    found: list[str] = []
    for stmt in stmts:
        known = module_names | local
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            found += _expression_problems(stmt.value, known, "statement")
            target = stmt.targets[0]
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and in_loop:
                if target.value.id not in local:
                    found.append(f"item assignment to an unknown list: {ast.unparse(stmt)[:80]}")
                found += _expression_problems(target.slice, known, "statement")
                continue
            names = target.elts if isinstance(target, ast.Tuple) else [target]
            for n in names:
                if not isinstance(n, ast.Name):
                    found.append(f"assignment to a non-name: {ast.unparse(stmt)[:80]}")
                elif n.id != "_" and n.id not in rebindable:
                    found += _name_problems(n.id, module_names | local)
            local.update(n.id for n in names if isinstance(n, ast.Name))
        elif isinstance(stmt, ast.Delete):
            if not all(isinstance(t, ast.Name) and t.id in local for t in stmt.targets):
                found.append(f"del of something that is not a local: {ast.unparse(stmt)}")
        elif isinstance(stmt, ast.If):
            found += _expression_problems(stmt.test, known, "if")
            branches = [set(local), set(local)]
            found += _block_problems(stmt.body, module_names, branches[0], rebindable, in_loop)
            found += _block_problems(stmt.orelse, module_names, branches[1], rebindable, in_loop)
            local.update(branches[0] | branches[1])
        elif isinstance(stmt, (ast.While, ast.For)):
            inner = set(local)
            if isinstance(stmt, ast.While):
                found += _expression_problems(stmt.test, known, "while")
            else:
                found += _for_problems(stmt, known)
                if isinstance(stmt.target, ast.Name):
                    found += _name_problems(stmt.target.id, known)
                    inner.add(stmt.target.id)
            found += _block_problems(stmt.body, module_names, inner, frozenset(local), in_loop=True)
            local.update(inner)
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id in local:
            found += _expression_problems(stmt.value, known, "statement")
        elif isinstance(stmt, ast.Expr) and _is_append(stmt.value, local):
            found += _expression_problems(stmt.value.args[0], known, "statement")
        elif isinstance(stmt, (ast.Break, ast.Pass)) and (in_loop or isinstance(stmt, ast.Pass)):
            continue
        elif isinstance(stmt, ast.Expr) and _is_runtime_call(stmt.value):  # an effect: a check or a print
            found += _expression_problems(stmt.value, known, "statement")
        else:
            found.append(f"unexpected statement in run: {ast.unparse(stmt)[:80]}")
    return found


def _is_runtime_call(node: ast.expr) -> bool:
    """``rt.<helper>(...)``: the only call generated code makes for its effect alone."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "rt")


def _for_problems(stmt: ast.For, known: set) -> list[str]:
    it = stmt.iter
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "reversed" and it.args:
        it = it.args[0]
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"):
        return [f"a for loop over something other than range(): {ast.unparse(stmt.iter)}"]
    return [p for a in it.args for p in _expression_problems(a, known, "for")]


def _is_append(expr: ast.expr, local: set) -> bool:
    return (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "append"
            and isinstance(expr.func.value, ast.Name) and expr.func.value.id in local and len(expr.args) == 1)


def _name_problems(name: str, taken: set) -> list[str]:
    """A new binding must be a fresh, plain ASCII identifier that shadows nothing."""
    found = []
    if name in taken:
        found.append(f"name {name!r} is bound twice")
    if not name.isascii() or not name.isidentifier() or keyword.iskeyword(name) or keyword.issoftkeyword(name):
        found.append(f"name {name!r} is not a plain identifier")
    if name in INTERNAL_NAMES or hasattr(builtins, name) or name.startswith("__"):
        found.append(f"name {name!r} shadows an internal or builtin name")
    return found


def _expression_problems(expr: ast.AST, known: set, where: str) -> list[str]:
    found = []
    known = known | {n.target.id for n in ast.walk(expr) if isinstance(n, ast.comprehension)
                     and isinstance(n.target, ast.Name)}  # a comprehension's own variable
    for node in ast.walk(expr):
        if not isinstance(node, _EXPRESSIONS):
            found.append(f"{where}: {type(node).__name__} is not allowed: {ast.unparse(expr)[:80]}")
        elif isinstance(node, ast.Name) and node.id not in known and node.id not in SAFE_BUILTINS:
            found.append(f"{where}: reads unknown name {node.id!r}")
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            found.append(f"{where}: private attribute .{node.attr}")
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "_constants" \
                and not (isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
            found.append(f"{where}: _constants indexed by a non-literal")
    return found
