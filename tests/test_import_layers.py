"""The package's imports point down the layers: no cycle, no upward import, no hidden import.

Every ``import`` statement of every module is read with ``ast`` (function-level ones too);
imports under ``if TYPE_CHECKING:`` are for type checkers only, never run, and are left out.
A module may import modules of its own layer or of layers below it, never above, and the
imports must not form a cycle. A function-level import of an s2sgrad module is refused unless
``FUNCTION_LEVEL`` lists it with its reason.
"""
from __future__ import annotations

import ast
import pathlib

import s2sgrad

PACKAGE = pathlib.Path(s2sgrad.__file__).parent

# Lowest layer first. An entry names a module or a whole subpackage ("ops" is s2sgrad.ops and
# everything in it); the longest matching entry places a module.
LAYERS: dict[str, list[str]] = {
    "types and shapes": ["tf1_api", "dimension", "dtypes", "shapes", "errors", "text", "index_spec",
                         "static", "einsum_equation", "gcpause", "heap", "execution_mode", "_version", "platform",
                         "wire", "crc32c", "tracebacks", "progress"],
    "IR": ["ssa"],
    "primitive declarations": ["primitives"],
    "user-facing ops": ["ops"],
    "gradients": ["autodiff"],
    "code generation": ["codegen"],
    "pipeline": ["pipeline"],
    "library": ["session", "train", "losses", "metrics", "nn", "math", "linalg", "random", "initializers", "manip",
                "debugging", "graph_keys", "legacy", "compat", "contrib", "io", "checkpoint", "data", "python_io",
                "image", "regularizers", "layers", "rnn", "summary", "drawing", "threads", "signal", "spectral"],
    "front doors": ["inspection", "export", "standalone", "explain", "cli", "tracing", "testing",
                    "distributed", "script_run", "cli_paths", "view_assets", "view_page"],
    "package": ["__init__", "__main__"],
}

# Function-level imports of s2sgrad modules, each with the reason it cannot be at the top.
FUNCTION_LEVEL: dict[tuple[str, str], str] = {}


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _statements(tree: ast.AST, in_function: bool = False):
    """(import statement, whether it is inside a function) for every import that can run."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            yield from _statements(ast.Module(body=node.orelse, type_ignores=[]), in_function)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, in_function
        else:
            yield from _statements(node, in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                        ast.Lambda)))


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The s2sgrad modules (names relative to the package) an import statement loads."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            base = module.split(".") if MODULES[module].name == "__init__.py" else module.split(".")[:-1]
            base = base[:len(base) - node.level + 1]
            if module == "__init__":
                base = []
            prefix = ["s2sgrad", *base] + ([node.module] if node.module else [])
        else:
            prefix = [node.module or ""]
        parent = ".".join(prefix)
        names = [f"{parent}.{a.name}" if f"{parent}.{a.name}".removeprefix("s2sgrad.") in MODULES else parent
                 for a in node.names]
    found = []
    for name in names:
        if name != "s2sgrad" and not name.startswith("s2sgrad."):
            continue
        rel = name.removeprefix("s2sgrad").removeprefix(".") or "__init__"
        while rel not in MODULES and "." in rel:
            rel = rel.rsplit(".", 1)[0]
        if rel in MODULES and rel != module:
            found.append(rel)
    return found


def _imports() -> dict[str, dict[str, bool]]:
    """module -> {imported module: whether only inside functions}."""
    graph: dict[str, dict[str, bool]] = {}
    for module, path in MODULES.items():
        edges: dict[str, bool] = {}
        for node, in_function in _statements(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _targets(module, node):
                edges[target] = edges.get(target, True) and in_function
        graph[module] = edges
    return graph


def _layer(module: str) -> int | None:
    best: tuple[int, int] | None = None
    for rank, entries in enumerate(LAYERS.values()):
        for entry in entries:
            if module == entry or module.startswith(entry + "."):
                if best is None or len(entry) > best[1]:
                    best = (rank, len(entry))
    return None if best is None else best[0]


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


IMPORTS = _imports()


def test_every_module_has_a_layer():
    missing = [m for m in MODULES if _layer(m) is None]
    assert not missing, f"add these modules to LAYERS in {__file__}: {missing}"


def test_imports_only_point_down_or_sideways():
    upward = [(m, t) for m, edges in IMPORTS.items() for t in edges if _layer(t) > _layer(m)]
    assert not upward, "upward imports (importer, imported): " + ", ".join(f"{m} -> {t}" for m, t in upward)


def test_no_import_cycle():
    assert _cycles({m: set(edges) for m, edges in IMPORTS.items()}) == []


def test_no_function_level_import_of_the_package_without_a_reason():
    hidden = [(m, t) for m, edges in IMPORTS.items() for t, only_inside in edges.items()
              if only_inside and (m, t) not in FUNCTION_LEVEL]
    assert not hidden, "function-level imports (importer, imported): " + \
        ", ".join(f"{m} -> {t}" for m, t in hidden)


def test_the_function_level_list_holds_only_what_is_still_there():
    inside = {(m, t) for m, edges in IMPORTS.items() for t, only_inside in edges.items() if only_inside}
    assert set(FUNCTION_LEVEL) <= inside, f"fixed, remove from FUNCTION_LEVEL: {set(FUNCTION_LEVEL) - inside}"
