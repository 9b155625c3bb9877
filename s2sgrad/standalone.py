"""Write a generated module as a standalone file: NumPy and the standard library only.

The file holds the generated module text unchanged (minus its docstring, which moves into
the file's own docstring), the source of the runtime helpers it calls (copied from
``codegen/runtime.py``), and a small fixed ``Step`` wrapper driven by literal tables. Arrays
(large constants, variable values, example feeds) go to an ``.npz`` file beside it.

Names added around the generated text never collide with it: generated identifiers are
lowercase and never start with ``_``, so ours are UPPERCASE, CamelCase or ``_private``.
"""
from __future__ import annotations

import ast
import dataclasses
import inspect
import os
from typing import Any

import numpy as np

from .codegen import (
    runtime,
    runtime_conv,
    runtime_example,
    runtime_resize,
    runtime_summary,
    runtime_tensor_array,
    runtime_text,
    runtime_xp,
)
from .codegen.emitters.common import literal

__all__ = ["Input", "ExportSpec", "write_standalone", "run_parameters"]
# where the helpers generated code calls as rt.<name> are defined
RUNTIME_MODULES = (runtime, runtime_conv, runtime_resize, runtime_summary, runtime_text, runtime_tensor_array,
                   runtime_example)


@dataclasses.dataclass
class Input:
    """One parameter of the generated ``run``: a feed, a variable or a random generator."""

    name: str          # the parameter's identifier in ``run``
    kind: str          # 'feed' | 'var' | 'rng'
    label: str         # the fed tensor's, variable's or random op's graph name
    dtype: Any = None  # feeds and variables: the NumPy dtype ``run`` was specialized to
    shape: Any = None  # feeds and variables: the shape ``run`` was specialized to
    value: Any = None  # example feed / variable value / generator state (a dict), None if unknown


@dataclasses.dataclass
class ExportSpec:
    """Everything a standalone file needs besides the generated text itself."""

    source: str
    constants: dict
    helpers: set
    inputs: list[Input]
    n_fetches: int
    scalar_outputs: list[int]          # returned values that are rank 0 (NumPy scalars, as Session.run)
    copy_outputs: list[int]            # returned values that may alias state: copied
    assigns: list[str]                 # variable names of the new values returned after the fetches
    variables: dict                    # every variable read or assigned: name -> (dtype, shape or None)
    result: ast.expr | None = None     # rebuilds the fetch structure from ``fetched``; None: a list
    origin: str = "s2sgrad"            # one line saying what this was exported from


def run_parameters(source: str) -> list[str]:
    """The parameter names of the generated module's ``run`` function."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name == "run":
            return [a.arg for a in node.args.args]
    raise ValueError("generated source has no run() function")


def write_standalone(spec: ExportSpec, path: str) -> list[str]:
    """Write ``path`` (and ``<stem>.npz`` when there are arrays to carry); returns the paths written."""
    stem = os.path.splitext(path)[0]
    arrays = _arrays(spec)
    data_file = os.path.basename(stem) + ".npz" if arrays else None
    text = module_text(spec, data_file, os.path.basename(stem))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    if data_file is None:
        return [path]
    np.savez(stem + ".npz", **arrays)  # type: ignore[arg-type]  # mypy checks **arrays against allow_pickle: bool
    return [path, stem + ".npz"]


def module_text(spec: ExportSpec, data_file: str | None, module_name: str) -> str:
    """The text of standalone module ``module_name``; its arrays are read from ``data_file`` beside it."""
    tree = ast.parse(spec.source)
    title = ast.get_docstring(tree, clean=False) or ""
    moved = {n.lineno for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))}  # ours come first
    start = tree.body[1].lineno if title else 1                          # after the docstring
    body = [line for number, line in enumerate(spec.source.splitlines(), start=1)
            if number >= start and number not in moved]
    docstring = _unparse(ast.Module([ast.Expr(ast.Constant(_docstring(spec, title, module_name)))], []))
    imports = "import os as _os\n\nimport numpy as np" if data_file else "import numpy as np"
    backend = [ast.unparse(n) for n in tree.body if isinstance(n, ast.Import) and n.names[0].asname == "xp"]
    parts = [f"{docstring}\n{imports}" + "".join("\n" + line for line in backend), _data_loader(data_file)]
    if spec.helpers:
        parts.append(runtime_source(sorted(spec.helpers)))
    if backend:  # a module translated for an array backend: its xrt helpers, its device moves
        used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
                and isinstance(n.value, ast.Name) and n.value.id == "xrt"}
        parts.append(runtime_source(sorted(used | {"to_numpy"}), (runtime_conv, runtime_xp), "xrt"))  # xp's win
    parts += ["\n".join(body).strip("\n"), _tables(spec)] + ([_ON_BACKEND] if backend else [])
    parts += [_WRAPPER, _demo(spec)]
    return "\n\n\n".join(p.strip("\n") for p in parts) + "\n"


def _docstring(spec: ExportSpec, title: str, module_name: str) -> str:
    names = ", ".join(i.name for i in spec.inputs if i.kind == "feed")
    returns = "in the structure of the fetches" if spec.result is not None else "as a list"
    needs = "NumPy only" if "import xp" not in spec.source and " as xp\n" not in spec.source else \
        "NumPy, array-api-compat and xp"
    lines = [f"Exported by s2sgrad from {spec.origin}. Needs {needs}.", "",
             f"    from {module_name} import Step",
             "    step = Step()          # variables and random generators as saved with this file",
             f"    result = step({names})", "",
             "``step(...)`` takes the feeds by position or keyword, converts them to their dtype and",
             "checks their shapes (the code is specialized to them). It returns the fetched values",
             f"{returns}, and keeps the new values of assigned variables in",
             "``step.variables``.",
             "``run(...)`` below is the generated function itself: it takes the parameters listed",
             "here positionally and returns the fetched values, then the new variable values.",
             "``python <this file>`` replays the run it was exported from and prints the result.", "",
             "run() parameters:"]
    lines += [f"    {i.name}: {_describe(i)}" for i in spec.inputs]
    return "\n".join(lines + ["", title.strip(), ""])


def _describe(i: Input) -> str:
    if i.kind == "rng":
        return f"random generator of {i.label}"
    return f"{'feed' if i.kind == 'feed' else 'variable'} {i.label} {np.dtype(i.dtype).name}{list(i.shape)}"


def _arrays(spec: ExportSpec) -> dict[str, np.ndarray]:
    arrays = {f"constants/{k}": np.asarray(v) for k, v in spec.constants.items()}
    for i in spec.inputs:
        if i.kind != "rng" and i.value is not None:
            key = f"variables/{i.label}" if i.kind == "var" else f"feeds/{i.name}"
            arrays[key] = np.asarray(i.value)
    for key, value in arrays.items():
        if value.dtype == object:
            raise TypeError(f"cannot export {key}: object (string) arrays need pickle; export only numeric tensors")
    return arrays


def _data_loader(data_file: str | None) -> str:
    if data_file is None:
        return "_SAVED = {}\n_constants = {}"
    open_expr = _unparse(ast.Constant(data_file))
    return (f"with np.load(_os.path.join(_os.path.dirname(_os.path.abspath(__file__)), {open_expr})) as _data:\n"
            "    _SAVED = {key: _data[key] for key in _data.files}\n"
            "_constants = {key[len('constants/'):]: value for key, value in _SAVED.items()\n"
            "              if key.startswith('constants/')}")


def _tables(spec: ExportSpec) -> str:
    def assign(name: str, value: Any) -> str:
        return _unparse(ast.Assign([ast.Name(name, ast.Store())], value, lineno=0))

    feeds = [i for i in spec.inputs if i.kind == "feed"]
    params: list[tuple[str, int | str]] = []
    rngs: list[Input] = []
    for i in spec.inputs:
        if i.kind == "rng":
            params.append(("rng", len(rngs)))
            rngs.append(i)
        else:
            params.append((i.kind, i.label if i.kind == "var" else i.name))
    feed_table = tuple((i.name, i.label, np.dtype(i.dtype), tuple(i.shape)) for i in feeds)
    variables = tuple((name, np.dtype(dtype), shape) for name, (dtype, shape) in spec.variables.items())
    result = spec.result if spec.result is not None else ast.Name("fetched", ast.Load())
    lines = [
        "# What Step passes to run(): ('feed', name) | ('var', variable name) | ('rng', generator index).",
        assign("PARAMS", _literal(tuple(params))),
        "# The feeds: (name, tensor name, dtype, shape run() is specialized to).",
        assign("FEEDS", _literal(feed_table)),
        "# The variables: (name, dtype, shape run() is specialized to, or None when run() only assigns it).",
        assign("VARIABLES", _literal(variables)),
        "# run() returns N_FETCHES fetched values, then the new values of the variables in ASSIGNS.",
        assign("N_FETCHES", literal(spec.n_fetches)),
        assign("ASSIGNS", literal(tuple(spec.assigns))),
        "# Returned values of rank 0 (given as NumPy scalars, like Session.run) and that may alias state (copied).",
        assign("SCALAR_OUTPUTS", literal(tuple(spec.scalar_outputs))),
        assign("COPY_OUTPUTS", literal(tuple(spec.copy_outputs))),
        "# The random generators' states (NumPy bit_generator.state), one per ('rng', i) parameter.",
        assign("RANDOM_STATES", _literal(tuple(i.value for i in rngs))),
    ]
    lines += ["", "", "def _fetched(fetched):", '    """The fetched values in the structure of the fetches."""',
              f"    return {_unparse(result)}"]
    return "\n".join(lines)


def runtime_source(names: list[str], modules: tuple = RUNTIME_MODULES, alias: str = "rt") -> str:
    """A ``_runtime()`` factory (``_<alias>()`` for another alias) holding the source of the helpers
    ``names`` of ``modules`` (and what they use), bound to ``alias``."""
    defs: dict[str, ast.stmt] = {}
    imports: dict[str, ast.stmt] = {}
    texts: dict[ast.stmt, str] = {}   # each definition's module text
    for module in modules:
        text = inspect.getsource(module)
        for node in ast.parse(text).body:
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module != "__future__":
                imports.update({alias.asname or alias.name: node for alias in node.names})
            elif isinstance(node, ast.Import):
                imports.update({alias.asname or alias.name: node for alias in node.names})
            elif isinstance(node, ast.FunctionDef):
                defs[node.name] = node
            elif isinstance(node, ast.Assign):
                defs.update({t.id: node for t in node.targets if isinstance(t, ast.Name) and t.id != "__all__"})
            texts[node] = text
    needed: list[ast.stmt] = []
    todo = list(names)
    while todo:
        node = defs[todo.pop()]
        if node not in needed:
            needed.append(node)
            todo += [n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id in defs]
    order = {module_text: i for i, module_text in enumerate(dict.fromkeys(texts.values()))}
    needed.sort(key=lambda n: (order[texts[n]], n.lineno))
    used = {n.id for node in needed for n in ast.walk(node) if isinstance(n, ast.Name)}
    factory = "_runtime" if alias == "rt" else f"_{alias}"
    where = f"s2sgrad/codegen/{modules[-1].__name__.rsplit('.', 1)[-1]}.py"
    lines = [f"def {factory}():",
             f'    """s2sgrad\'s runtime helpers that this module calls (from {where})."""',
             "    import types"]
    lines += [f"    {ast.unparse(node)}" for name, node in imports.items() if name in used and name != "np"]
    for node in needed:
        segment = ast.get_source_segment(texts[node], node, padded=True)
        if segment is None:  # nodes parsed from ``text`` always have their positions
            raise AssertionError(f"no source text for {ast.dump(node)[:60]}")
        lines += [""] + ["    " + line if line else "" for line in segment.splitlines()]
    lines += ["", f"    return types.SimpleNamespace({', '.join(f'{n}={n}' for n in names)})", "", "",
              f"{alias} = {factory}()"]
    return "\n".join(lines)


def _literal(value: Any) -> ast.expr:
    """``literal`` that also writes dicts (random generator states)."""
    if isinstance(value, dict):
        return ast.Dict([_literal(k) for k in value], [_literal(v) for v in value.values()])
    if isinstance(value, tuple):
        return ast.Tuple([_literal(v) for v in value], ast.Load())
    return literal(value)


def _demo(spec: ExportSpec) -> str:
    """``python <file>`` replays the example run when its feeds and variables were saved."""
    replay = all(i.value is not None for i in spec.inputs)
    body = ("    _example = {name: _SAVED['feeds/' + name] for name, *_ in FEEDS}\n    print(Step()(**_example))"
            if replay else "    print('No example run was saved with this module: import it and call Step()(...).')")
    return "if __name__ == '__main__':\n" + body


def _unparse(node: ast.AST) -> str:
    return ast.unparse(ast.fix_missing_locations(node))


# The fixed part of every standalone module: it reads the tables above.
_ON_BACKEND = '''\
_module_run = run


def run(*args):
    """The module on its array backend: NumPy arguments moved onto the device, fetched values back
    as NumPy arrays, the variables' new values left on the device."""
    outs = _module_run(*[xp.asarray(a) if isinstance(a, (np.ndarray, np.generic)) else a for a in args])
    return [xrt.to_numpy(o) if i < N_FETCHES else o for i, o in enumerate(outs)]'''

_WRAPPER = '''\
class Step:
    """The exported computation with its state: ``Step()(feeds...)`` is one ``Session.run``.

    ``Step(variables)`` starts from your own values (a dict: variable name -> array) instead of
    the saved ones; ``step.variables`` holds the current values.
    """

    def __init__(self, variables=None):
        given = dict(variables or {})
        self.variables = {}
        for name, dtype, shape in VARIABLES:
            value = given.pop(name) if name in given else _SAVED.get('variables/' + name)
            if value is not None:
                self.variables[name] = _convert(f'variable {name!r}', value, dtype, shape)
        if given:
            raise KeyError(f'unknown variables {sorted(given)}; this module has {[v[0] for v in VARIABLES]}')
        self.generators = [_generator(state) for state in RANDOM_STATES]

    def __call__(self, /, *args, **kwargs):  # "/": a feed may be called self
        feeds = _bind(args, kwargs)
        inputs = []
        for kind, key in PARAMS:
            if kind == 'var' and key not in self.variables:
                raise RuntimeError(f'variable {key!r} has no value: pass it to Step(variables=...)')
            inputs.append(feeds[key] if kind == 'feed' else self.variables[key] if kind == 'var'
                          else self.generators[key])
        outs = list(run(*inputs))
        for i in COPY_OUTPUTS:
            outs[i] = np.array(outs[i])
        for i in SCALAR_OUTPUTS:
            outs[i] = _state(outs[i])
        self.variables.update(zip(ASSIGNS, outs[N_FETCHES:]))
        return _fetched(outs[:N_FETCHES])


def _bind(args, kwargs):
    """The feeds given by position or keyword, converted and checked against FEEDS."""
    names = [feed[0] for feed in FEEDS]
    if len(args) > len(names):
        raise TypeError(f'Step takes {len(names)} feeds {names}, got {len(args)}')
    given = dict(zip(names, args))
    for name, value in kwargs.items():
        if name not in names or name in given:
            problem = 'given twice' if name in given else f'unknown; the feeds are {names}'
            raise TypeError(f'feed {name!r}: {problem}')
        given[name] = value
    missing = [name for name in names if name not in given]
    if missing:
        raise TypeError(f'missing feeds: {missing}')
    return {name: _convert(f'feed {name!r} ({tensor})', given[name], dtype, shape)
            for name, tensor, dtype, shape in FEEDS}


def _convert(what, value, dtype, shape):
    """``value`` as an array of ``dtype``, checked against the ``shape`` the code is specialized to."""
    value = np.asarray(value, dtype=dtype)
    if shape is not None and value.shape != shape:
        raise ValueError(f'{what}: this code is specialized to shape {shape}, got {value.shape}; '
                         'export again for other shapes')
    return _state(value)


def _state(value):
    """Rank-0 arrays as NumPy scalars, as Session.run returns and stores them."""
    return value[()] if type(value) is np.ndarray and value.ndim == 0 else value


def _generator(state):
    generator = np.random.Generator(getattr(np.random, state['bit_generator'])())
    generator.bit_generator.state = state
    return generator

'''
