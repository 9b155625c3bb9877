"""``s2sgrad.export``: ship a compiled step as a standalone module that needs only NumPy.

Graph mode: ``export(fetches, path, feed_dict, session)`` writes the module that
``session.run(fetches, feed_dict)`` would execute, with the session's current variable
values and random-generator states, so ``Step()(**feeds)`` in the exported file returns
exactly what that ``run`` would. A decorated function (``s2sgrad.grad(f)``) exports the same
way from example arguments: ``export(gf, path, args=(x, w))``.
"""
from __future__ import annotations

import ast
import functools
import os
from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np

from .codegen.compiler import GeneratedRun
from .codegen.emit import Module
from .codegen.program import Kind
from .ops.indexed_slices import IndexedSlicesValue
from .pipeline import generate, graph_of_fetches, plan, static_variable_spec
from .pipeline.feeds import convert_feed
from .pipeline.variable_store import VariableStore
from .progress import status
from .session import Session, get_default_session
from .standalone import ExportSpec, Input, run_parameters, write_standalone

__all__ = ["export", "CallRecorder", "executable_spec"]


def export(fetches: Any, path: str | os.PathLike, feed_dict: dict | None = None, session: Session | None = None, *,
           args: Sequence[Any] = (), backend: str | None = None) -> list[str]:
    """Write ``path`` (plus ``<stem>.npz`` for arrays): a module computing ``fetches`` with NumPy only.

    ``fetches`` and ``feed_dict`` are as in ``session.run`` (the code is specialized to the fed
    shapes); variable values and random states are taken from ``session`` (default: the default
    session) without changing it. For a decorated function pass it as ``fetches`` and its example
    arguments as ``args``. ``backend`` (default: the session's) picks the array library the written
    module targets (docs/backends.md); it then needs that library, array-api-compat and s2sgrad's
    ``runtime_xp`` helpers, copied in like the NumPy ones. Returns the paths written.

    >>> # s2sgrad.export([train_op, loss], "train_step.py", {x: xs, y: ys}, session=sess)
    >>> # then, without s2sgrad: from train_step import Step; Step()(xs, ys)
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"export: path must be a file path (str or os.PathLike), got {type(path).__name__}")
    if feed_dict is not None and not isinstance(feed_dict, dict):
        raise TypeError(f"export: feed_dict must be a dict, got {type(feed_dict).__name__}")
    if session is not None and not isinstance(session, Session):
        raise TypeError(f"export: session must be a tf.Session, got {type(session).__name__}")
    with status(f"exporting {os.fspath(path)}"):   # said on a terminal when it takes over a second
        return _export(fetches, os.fspath(path), feed_dict, session, args, backend)


def _export(fetches: Any, path: str, feed_dict: dict | None, session: Session | None, args: Sequence[Any],
            backend: str | None) -> list[str]:
    if hasattr(fetches, "executable"):
        if feed_dict is not None or session is not None:
            raise TypeError("export of a decorated function takes its example arguments as args=, "
                            "not feed_dict or session")
        spec = _function_spec(fetches, args)
    else:
        if args:
            raise TypeError("args= is for decorated functions; for graph fetches pass feed_dict")
        spec = _session_spec(fetches, feed_dict or {}, session if session is not None else get_default_session(),
                             backend)
    return write_standalone(spec, path)


# -- graph mode ----------------------------------------------------------------------------------

def _session_spec(fetches: Any, feed_dict: dict, session: Session | None, backend: str | None) -> ExportSpec:
    graph = session.graph if session is not None else graph_of_fetches(fetches)
    if backend is None and session is not None:
        backend = session.backend
    graph_slice = plan(graph, fetches, list(feed_dict), backend)
    structure = graph_slice.structure
    slots = structure.rebuild([_Slot(i) for i in range(len(structure.tensors))])  # as run would return them
    result = _expression(slots, lambda v: v.index if isinstance(v, _Slot) else None, "the fetches")
    feeds = {t: convert_feed(v, t) for t, v in zip(graph_slice.fed, feed_dict.values(), strict=True)}
    store = session.variable_store if session is not None else None
    specs = graph_slice.feed_specs(list(feeds.values()))
    module = generate(graph_slice, specs, store.spec if store is not None else static_variable_spec)
    values = [_session_input(p, feeds, store) for p in module.params]
    fetched = ", ".join(t.name for t in structure.tensors) or "no tensors"
    return executable_spec(module, len(structure.tensors), values, origin=f"a Session run fetching {fetched}",
                           result=result)


def _session_input(param: Any, feeds: dict, store: VariableStore | None) -> Any:
    """The value ``session.run`` would pass for ``param`` (feeds, stored variables, generator states)."""
    if param.kind is Kind.FEED:
        return feeds[param.source]
    op = param.source
    if store is None:
        raise ValueError(f"export needs a session holding the value of {op.name}: pass session= or call "
                         f"export inside `with tf.Session() as sess:`")
    if param.kind is Kind.RNG:
        return store.generator(op).bit_generator.state
    return store.snapshot([op])[0]


# -- the result's structure ---------------------------------------------------------------------

class _Slot:
    """Stands for ``fetched[index]`` in a rebuilt fetch structure."""

    def __init__(self, index: int) -> None:
        self.index = index


def _expression(value: Any, index_of: Callable[[Any], int | None], what: str) -> ast.expr:
    """An expression over ``fetched`` (the module's fetched values) that rebuilds ``value``: tuples,
    lists, dicts and None around leaves that ``index_of`` finds in ``fetched``. IndexedSlices
    values become ``(values, indices[, dense_shape])``."""
    load = ast.Load()
    index = index_of(value)
    if index is not None:
        return ast.Subscript(ast.Name("fetched", load), ast.Constant(index), load)
    if value is None:
        return ast.Constant(None)
    if isinstance(value, IndexedSlicesValue):
        value = tuple(value) if value.dense_shape is not None else tuple(value[:2])
    if isinstance(value, (tuple, list)):
        items = [_expression(v, index_of, what) for v in value]
        return ast.List(items, load) if isinstance(value, list) else ast.Tuple(items, load)
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, (str, int, float, bool)) and key is not None:
                raise TypeError(f"cannot export a fetch dict with key {key!r}: keys must be str, int, float or bool")
        return ast.Dict([ast.Constant(k) for k in value], [_expression(v, index_of, what) for v in value.values()])
    raise TypeError(f"cannot export {what}: its result holds a {type(value).__name__} that its compiled code "
                    f"did not return")


# -- compiled executables (dump -o, decorated functions) -----------------------------------------

class CallRecorder:
    """Records the arguments of the first call of a compiled ``run``, copied so that later runs
    cannot change them (random generators are recorded as their states)."""

    def __init__(self) -> None:
        self.args: list | None = None

    def wrap(self, run: GeneratedRun) -> GeneratedRun:
        """``run``, recording the arguments of its first call in ``self.args``."""
        @functools.wraps(run)
        def recording_run(*args: Any) -> Any:
            if self.args is None:
                self.args = [_snapshot(a) for a in args]
            return run(*args)
        return cast(GeneratedRun, recording_run)  # functools.wraps copied .source and .filename


def _snapshot(value: Any) -> Any:
    if isinstance(value, np.random.Generator):
        return value.bit_generator.state
    return np.array(value) if isinstance(value, np.ndarray) else value


def executable_spec(module: Module, n_fetches: int, values: list | None, origin: str,
                    result: ast.expr | None = None) -> ExportSpec:
    """The export of ``module``: ``values`` are its run() arguments (generators as their states),
    or None for a module that never ran (the file then has no example inputs)."""
    names = run_parameters(module.source)
    values = values if values is not None else [None] * len(names)
    inputs = []
    for name, param, value in zip(names, module.params, values, strict=True):
        label = param.source.name if param.source is not None else name
        if param.kind is Kind.RNG:
            inputs.append(Input(name, "rng", label, value=value))
        else:
            inputs.append(Input(name, param.kind.value, label, param.dtype.np, tuple(param.shape.as_list()), value))
    variables = {i.label: (i.dtype, i.shape) for i in inputs if i.kind == "var"}
    for op in module.commit_ops:
        variables.setdefault(op.name, (op.outputs[0].dtype.np, None))
    return ExportSpec(module.source, module.constants, set(module.helpers), inputs, n_fetches,
                      scalar_outputs=[i for i, rank in enumerate(module.output_ranks) if rank == 0],
                      copy_outputs=list(module.copy_outputs), assigns=[op.name for op in module.commit_ops],
                      variables=variables, result=result, origin=origin)


def _function_spec(fn: Any, args: Sequence[Any]) -> ExportSpec:
    """A decorated function at ``args``: call it once, recording what its executable is given (the
    arguments of its ``run``) and returns, then describe its result's structure in terms of those
    returned values."""
    result, exe, inputs, outs = fn.call_observed(*args)
    inputs = [_snapshot(a) for a in inputs]
    name = getattr(fn, "__name__", "the function")
    return executable_spec(exe.module, exe.n_fetches, inputs, origin=f"{name}{_shapes(args)}",
                           result=_expression(result, lambda v: _position(v, outs), name))


def _position(value: Any, outs: list) -> int | None:
    """The position of ``value`` itself (not an equal array) among the returned values ``outs``."""
    return next((i for i, out in enumerate(outs) if out is value), None)


def _shapes(args: Sequence[Any]) -> str:
    return "(" + ", ".join(f"{np.asarray(a).dtype.name}{list(np.shape(a))}" for a in args) + ")"
