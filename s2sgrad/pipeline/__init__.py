"""The one pipeline every front door uses: ``plan`` -> ``compile`` -> ``Executable``.

``plan(graph, fetches, feeds)`` resolves what to fetch and what is fed and finds the graph
slice between them; it knows no shapes. ``compile(plan, feed_specs, variable_spec)`` lowers,
optimizes and emits that slice for given feed and variable shapes (``generate``) and loads
the module (``Executable``). ``Plan.executable`` caches one Executable per feed-shape
signature (the newest ``MAX_SHAPES_PER_PLAN``). ``Session.run``, ``tf.source`` and
``sess.source``, ``export``, the decorator and ``s2sgrad dump`` all go through here.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..codegen.backends import Backend, get_backend
from ..codegen.build import build_module
from ..codegen.compiler import load_source
from ..codegen.emit import Module
from ..codegen.lower import needed_ops
from ..codegen.program import Kind
from ..codegen.xp import translate_module
from ..dtypes import DType
from ..gcpause import gc_paused
from ..ops.convert import graph_of, is_tensor_like
from ..progress import status
from ..ssa.graph import Graph, Operation, Tensor, get_default_graph
from .backend_run import on_backend
from .fastpath import make_call
from .feeds import check_feed_shape, feed_target
from .fetches import FetchStructure
from .run_errors import translate_error

__all__ = ["Plan", "plan", "compile", "generate", "graph_of_fetches", "Executable", "static_variable_spec",
           "translate_error", "MAX_SHAPES_PER_PLAN"]

MAX_SHAPES_PER_PLAN = 64   # compiled modules kept per plan; older feed shapes compile again

FeedSpecs = dict[Tensor, tuple[DType, Any]]            # fed tensor -> (dtype, shape) of its values
VariableSpec = Callable[[Operation], tuple[DType, Any]]  # variable op -> (dtype, shape) of its value


class Plan:
    """Everything about one (fetches, fed tensors) pair that does not depend on shapes."""

    def __init__(self, graph: Graph, fetches: Any, feeds: Sequence[Any], backend: Backend | str | None = None) -> None:
        self.graph = graph
        self.backend = get_backend(backend)   # the array library its modules target
        self.structure = FetchStructure(graph, fetches)
        self.fed: list[Tensor] = [feed_target(graph, k) for k in feeds]
        self.ops = needed_ops(self.structure.tensors, self.structure.ops, set(self.fed))
        self.executables: dict[tuple, Executable] = {}   # per feed-shape signature, oldest first

    def feed_specs(self, values: Sequence[Any] | None = None) -> FeedSpecs:
        """The specs of the fed tensors: from ``values`` (converted feed values, shapes checked
        against the tensors') or, without values, from the tensors' static shapes."""
        if values is None:
            return {t: (t.dtype, t.shape.sizes) for t in self.fed}
        specs = {}
        for t, v in zip(self.fed, values, strict=True):
            shape = np.shape(v)
            check_feed_shape(t, shape)
            specs[t] = (t.dtype, shape)
        return specs

    def executable(self, values: Sequence[Any], variable_spec: VariableSpec,
                   forget: Callable[[tuple], Any] = lambda signature: None) -> Executable:
        """The (cached) Executable for feed values shaped like ``values``; ``forget(signature)`` is
        called for the feed shapes whose Executable the cache drops to make room."""
        signature = tuple([np.shape(v) for v in values])
        exe = self.executables.get(signature)
        if exe is None:
            exe = compile(self, self.feed_specs(values), variable_spec)
            if len(self.executables) >= MAX_SHAPES_PER_PLAN:
                oldest = next(iter(self.executables))
                del self.executables[oldest]
                forget(oldest)
            self.executables[signature] = exe
        return exe


def plan(graph: Graph, fetches: Any, feeds: Sequence[Any] = (), backend: Backend | str | None = None) -> Plan:
    """The plan computing ``fetches`` (any nesting of tensors, ops and names) of ``graph`` with the
    tensors ``feeds`` (tensors, variables or names) substituted, for the array library ``backend``
    (None: the default, ``S2SGRAD_BACKEND`` or NumPy)."""
    return Plan(graph, fetches, feeds, backend)


def graph_of_fetches(fetches: Any, graph: Graph | None = None) -> Graph:
    """``graph`` (checked) or, when None, the graph of the tensors and ops in ``fetches``
    (the default graph when they name none)."""
    if graph is not None:
        if not isinstance(graph, Graph):
            raise TypeError(f"graph must be a tf.Graph or None, got {graph!r}")
        return graph
    flat: list = []
    stack = [fetches]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif not isinstance(item, str):
            flat.append(item)
    if any(is_tensor_like(f) for f in flat):
        return graph_of(flat)  # ValueError when the tensors' graphs differ
    graphs = [f.graph for f in flat if isinstance(getattr(f, "graph", None), Graph)]  # ops, IndexedSlices
    return graphs[0] if graphs else get_default_graph()


def generate(plan: Plan, feed_specs: FeedSpecs, variable_spec: VariableSpec, label: str = "run") -> Module:
    """The generated module (not loaded) of ``plan`` for these feed and variable specs."""
    module, _, _ = build_module(plan.ops, plan.structure.tensors, feed_specs, variable_spec, label)
    return translate_module(module, plan.backend)


def compile(plan: Plan, feed_specs: FeedSpecs, variable_spec: VariableSpec,  # the pipeline's verb (shadows the builtin)
            label: str = "run") -> Executable:
    """``plan`` compiled for these specs; ``label`` names the module (its filename and the
    ``s2sgrad dump`` header)."""
    # the collector stays paused through loading too: compile() allocates enough to start a collection
    with status(f"compiling {label} ({len(plan.ops)} ops)"), gc_paused():  # status: said when over a second
        module, var_ops, rng_ops = build_module(plan.ops, plan.structure.tensors, feed_specs, variable_spec, label)
        module = translate_module(module, plan.backend)
        return Executable(module, plan.ops, list(feed_specs), var_ops, rng_ops, len(plan.structure.tensors), label,
                          plan.backend)


def static_variable_spec(var_op: Operation) -> tuple[DType, Any]:
    """A variable's spec from its static shape alone (for code shown or exported without a session)."""
    t = var_op.outputs[0]
    return t.dtype, t.shape.sizes


class Executable:
    """A loaded module plus how to call it: which feeds, variables and generators it reads,
    which variables its extra results are committed to."""

    def __init__(self, module: Module, ops: Sequence[Operation], fed: Sequence[Tensor], var_ops: list,
                 rng_ops: list, n_fetches: int, label: str = "run", backend: Backend | None = None) -> None:
        self.module = module
        self.source = module.source
        self.label = label
        self.ops = ops  # the graph slice it computes
        positions: dict[object, int] = {t: i for i, t in enumerate(fed)}  # looked up by each feed's source
        params = module.params
        self.feed_positions = [positions[p.source] for p in params if p.kind is Kind.FEED]
        live = {id(p.source) for p in params}
        self.var_ops = [v for v in var_ops if id(v) in live]
        self.rng_ops = [r for r in rng_ops if id(r) in live]
        self.n_fetches = n_fetches
        self.commit_ops = module.commit_ops
        self.copy_outputs = module.copy_outputs
        self.scalar_outputs = [i for i, rank in enumerate(module.output_ranks) if rank == 0]
        self.backend = get_backend(backend or "numpy")
        constants = module.constants if self.backend.is_numpy else {
            name: self.backend.to_device(value) for name, value in module.constants.items()}  # moved once
        self.fn = load_source(module.source, constants, label, origin=self)  # hooks see all of the above
        if not self.backend.is_numpy:  # arguments onto the device, fetched values back as NumPy
            self.fn = on_backend(self.fn, self.backend, n_fetches)
            self.copy_outputs = [i for i in self.copy_outputs if i < n_fetches]
        self._call: Callable[[list], list] | None = None  # made on first use (a Session runs its own steps)

    def call(self, args: list) -> list:
        """Run the module on its arguments: the fetched values, then the committed values."""
        if self._call is None:
            self._call = make_call(self, functools.partial(translate_error, exe=self))
        return self._call(args)
