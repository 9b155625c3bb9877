"""The user's own variable names: ``logits = tf.matmul(h, w2)`` names the MatMul's value ``logits``.

An op records the user's ``file:line`` (``Operation.location``). That line's source (through
``linecache``, so files, ``exec``'d text registered there and notebooks all work) is parsed
once per file; the simple statement covering the line (also a multi-line one) gives a name
when it is ``name = ...`` or ``self.name = ...`` (``name``). The name goes to the *outermost*
op of the statement: the last forward op created for it, not counting variable writes
(``h = tf.tanh(h * w + 0.1)`` names the Tanh, not the Mul; ``w = tf.Variable(0.5)`` the
variable, not its initializer). In a loop only the last pass over the statement keeps its name; the
others, tuple targets and lines without source fall back to op names. Each graph is scanned
once, incrementally (its ops are append-only), into a table op id -> name: naming an op is one lookup.
"""
from __future__ import annotations

import ast
import linecache
import threading
import weakref

from ..ssa.graph import Graph, Operation

__all__ = ["assigned_name"]

_Statement = tuple  # (filename, first line, column): one statement of one file

_lock = threading.Lock()
_missing: set[str] = set()   # files without source
_files: dict[str, tuple[list, dict[int, tuple[_Statement, str | None]]]] = {}
# graph -> [ops scanned, {statement: (id of its last op, its name)}, {op id: name} or None until asked for];
# ids, not ops, so the graph can die
_scans: weakref.WeakKeyDictionary[Graph, list] = weakref.WeakKeyDictionary()
_recent: list = [None, None]  # [weak reference to the graph last asked about, its scan]: one op after another


def assigned_name(op: Operation) -> str | None:
    """The variable the user's statement assigns ``op``'s value to, when ``op`` is that statement's
    outermost op and the statement is a plain ``name = ...``; else None."""
    if op.grad_of is not None or len(op.outputs) != 1:
        return None
    with _lock:
        return _named_ops(op.graph).get(op.id)


def _named_ops(graph: Graph) -> dict[int, str]:
    """Op id -> the name its statement assigns, for the last forward op of each named statement,
    updated with the ops added since the last call."""
    ref, scan = _recent
    if ref is None or ref() is not graph:
        scan = _scans.get(graph)
        if scan is None:
            scan = _scans[graph] = [0, {}, None]
        _recent[:] = [weakref.ref(graph), scan]
    if scan[0] != len(graph._ops):
        _scan_new_ops(graph, scan)
    if scan[2] is None:
        scan[2] = {op_id: name for op_id, name in scan[1].values() if name is not None}
    return scan[2]


def _scan_new_ops(graph: Graph, scan: list) -> None:
    new = graph._ops[scan[0]:]   # append-only: the ops added since the last scan
    location = found = None      # consecutive ops often come from one line: looked up once
    last = scan[1]
    for op in new:
        if op.grad_of is None and not op.prim.ref_inputs:  # writes are named new_<variable>
            if op.location != location:
                location, found = op.location, _statement(op.location)
            if found is not None:
                last[found[0]] = (op.id, found[1])
    scan[0] += len(new)
    scan[2] = None


def _statement(location: tuple) -> tuple[_Statement, str | None] | None:
    filename, line = location
    if filename in _missing and filename not in linecache.cache:
        return None   # looked for once: linecache would search sys.path again on every call
    lines = linecache.getlines(filename)
    if not lines:
        _missing.add(filename)
        return None
    cached = _files.get(filename)
    if cached is None or cached[0] is not lines:
        cached = _files[filename] = (lines, _statements(filename, lines))
    return cached[1].get(line)


def _statements(filename: str, lines: list) -> dict[int, tuple[_Statement, str | None]]:
    """Each line of a file -> the innermost simple statement covering it, and the name it assigns."""
    try:
        tree = ast.parse("".join(lines))
    except (SyntaxError, ValueError):
        return {}
    covering: dict[int, tuple[_Statement, str | None]] = {}
    shared: set[int] = set()  # lines with several statements (``a = f(x); b = g(a)``): no names
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and not hasattr(node, "body"):  # simple statements
            entry = ((filename, node.lineno, node.col_offset), _target(node))
            for n in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                if n in covering:
                    shared.add(n)
                covering[n] = entry
    for n in shared:
        covering[n] = ((filename, n, -1), None)
    return covering


_ONE_VALUE = (ast.Call, ast.BinOp, ast.UnaryOp, ast.Subscript, ast.Attribute)  # not lists, tuples...


def _target(node: ast.stmt) -> str | None:
    """``name`` for ``name = <one tensor expression>`` or ``self.name = ...``, else None."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        target = node.target
    else:
        return None
    if not isinstance(node.value, _ONE_VALUE):
        return None
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
        return target.attr
    return None
