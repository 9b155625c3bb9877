"""What every generated module must look like, checked on its AST.

A module is: a docstring, ``import numpy as np``, module-level constants, and one function
``run`` made of assignments, ``del`` and one ``return``. Every name it reads is a parameter,
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
SAFE_BUILTINS = frozenset({"slice", "complex", "tuple", "map"})
_EXPRESSIONS = (ast.BinOp, ast.UnaryOp, ast.Compare, ast.Call, ast.Attribute, ast.Subscript, ast.Slice, ast.Name,
                ast.Constant, ast.Tuple, ast.List, ast.keyword, ast.Starred, ast.expr_context, ast.operator,
                ast.unaryop, ast.cmpop, ast.BoolOp, ast.boolop)


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
    local = set()
    for a in args.args:
        found += _name_problems(a.arg, module_names | local)
        local.add(a.arg)
    returned = False
    for stmt in fn.body:
        if returned:
            found.append("statements after return")
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            found += _expression_problems(stmt.value, module_names | local, "statement")
            target = stmt.targets[0]
            names = target.elts if isinstance(target, ast.Tuple) else [target]
            for n in names:
                if not isinstance(n, ast.Name):
                    found.append(f"assignment to a non-name: {ast.unparse(stmt)[:80]}")
                elif n.id != "_":
                    found += _name_problems(n.id, module_names | local)
                    local.add(n.id)
        elif isinstance(stmt, ast.Delete):
            if not all(isinstance(t, ast.Name) and t.id in local for t in stmt.targets):
                found.append(f"del of something that is not a local: {ast.unparse(stmt)}")
        elif isinstance(stmt, ast.Return):
            found += _expression_problems(stmt.value, module_names | local, "return")
            returned = True
        elif isinstance(stmt, ast.Expr) and _is_runtime_call(stmt.value):  # an effect: a check or a print
            found += _expression_problems(stmt.value, module_names | local, "statement")
        else:
            found.append(f"unexpected statement in run: {ast.unparse(stmt)[:80]}")
    if not returned:
        found.append("run does not end with return")
    return found


def _is_runtime_call(node: ast.expr) -> bool:
    """``rt.<helper>(...)``: the only call generated code makes for its effect alone."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "rt")


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
