"""One trace of a decorated function (``Recording``) and its compiled code (``Program``).

A ``Recording`` calls the function with traced values: arrays and Python floats become
placeholders, ``Generator``/``RandomState`` arguments and globals become stream placeholders
(``random_streams``), and what the function reads from its globals and closure cells is listed
(``captures``) so that a later change re-traces. A ``Program`` compiles the recording's value,
derivatives and auxiliary results, and every random draw, so each call draws what NumPy would.
"""
from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import pipeline
from ..codegen.compiler import quiet_numpy_warnings
from ..ops import array_ops as a
from ..ops.creation import placeholder
from ..pipeline.fastpath import make_call
from ..primitives.numpy_random import NUMPY_GENERATOR, NUMPY_RANDOM, NUMPY_SEED, STREAM_DTYPE
from ..ssa.graph import Operation, Tensor, user_location
from .arguments import Argument, Leaf, flatten, rebuild
from .captures import Captures, rebound, scan
from .control_flow import call_traced
from .convert import as_tensor, graph_dtype
from .numpy_hooks import user_names
from .random_streams import TracedStream, live_random, streams_of
from .traced import Trace, Traced, current_trace

if TYPE_CHECKING:
    from .api import GradientFunction

__all__ = ["Recording", "Program", "map_results", "inline_aux"]

_DRAWS = (NUMPY_RANDOM, NUMPY_GENERATOR, NUMPY_SEED)


class Recording:
    """One trace of the function: its inputs, its result, auxiliary results and derivative tensors."""

    def __init__(self, fn: GradientFunction, arguments: list[Argument], inline: bool) -> None:
        self.arguments = arguments
        self.wrt = fn._resolve(arguments, fn.wrt, "wrt")
        stopped = fn._resolve(arguments, fn.stop_gradients, "stop_gradients")
        self.inputs: list[Tensor | None] = []
        self.stop_ops: dict = {}
        self.captures = scan(fn.f)
        self.stream_inputs: list[Tensor] = []   # the global and closure streams the compiled code is handed
        self.stream_reads: list[Callable] = []  # how to read each of them on a call
        definition = _definition(fn.f)  # arguments are "created" where the function is defined
        streams = streams_of(current_trace())
        values = []
        for i, arg in enumerate(arguments):
            leaves = []
            for leaf in arg.leaves:
                if leaf.kind == "static":
                    self.inputs.append(None)
                    leaves.append(leaf.value)
                    continue
                if leaf.kind == "stream":
                    stream, new = self._stream(leaf.value, leaf.name, streams, inline, fn.label)
                    self.inputs.append(new)
                    leaves.append(stream)
                    continue
                if not inline:
                    t = placeholder(graph_dtype(leaf.dtype), leaf.shape, name=leaf.name)
                else:
                    t = a.identity(as_tensor(leaf.value), name=leaf.name)
                t.op.location = definition
                self.inputs.append(t)
                if i in stopped:
                    t = a.stop_gradient(t, name=leaf.name + "_stopped")
                    self.stop_ops[t.op] = f"argument {arg.name!r} is listed in stop_gradients="
                leaves.append(Traced(t, weak=leaf.kind == "weak" or (leaf.kind == "traced" and leaf.value.weak)))
            values.append(rebuild(arg.tree, iter(leaves)))
        f = self._with_streams(fn, streams, inline)
        read = [(c.namespace, c.name) for c in self.captures.entries if c.namespace is not None]
        with live_random(), user_names(read):
            out = call_traced(f, arguments, values)
        self.captures.refresh()
        self.aux_tree: Any = None
        self.aux_leaves: list[Leaf] = []
        if fn.has_aux:
            out = self._split_aux(out, fn.label)
        self.y = fn._result_tensor(out)
        self.results = fn._derivatives(self)
        self.draws = [op for op in current_trace().graph.get_operations() if op.prim in _DRAWS and op.region is None]

    @staticmethod
    def _stream(value: Any, name: str, streams: dict, inline: bool, label: str) -> tuple[TracedStream, Tensor | None]:
        """The traced stream for a Generator or RandomState, and its new placeholder (None when the
        trace already has it)."""
        if isinstance(value, TracedStream):
            return value, None
        known = streams.get(id(value))
        if known is not None:
            return known, None
        if inline:
            raise NotImplementedError(f"{label}: the random stream {name!r} is new to the enclosing trace: pass it "
                                      f"to the outermost decorated function as an argument")
        t = placeholder(STREAM_DTYPE, [], name=name)
        stream = streams[id(value)] = TracedStream(t, isinstance(value, np.random.mtrand.RandomState), name)
        return stream, t

    def _with_streams(self, fn: GradientFunction, streams: dict, inline: bool) -> Callable:
        """``fn.f`` reading traced streams instead of the Generators in its globals and closure cells."""
        found = self.captures.streams
        if not found:
            return fn.f
        for c in found:
            if not c.direct:
                raise NotImplementedError(f"{fn.label}: a function it calls reads the random stream {c.name!r} "
                                          f"from its {c.where} scope; pass the Generator as an argument instead")
        proxies = {}
        self.stream_reads = []
        for c in found:
            proxies[c.name], new = self._stream(c.value, c.name, streams, inline, fn.label)
            if new is not None:  # fed from the global or cell on every call
                self.stream_inputs.append(new)
                self.stream_reads.append(c.read)
        f = rebound(fn.f, proxies)
        if f is None:
            raise NotImplementedError(f"{fn.label}: cannot hand the traced random stream(s) "
                                      f"{', '.join(proxies)} to {fn.f!r}; pass the Generator as an argument")
        return f

    def _split_aux(self, out: Any, label: str) -> Any:
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError(f"{label}: with has_aux=True the function must return a pair (output, aux), got "
                            f"{type(out).__name__}")
        self.aux_tree, self.aux_leaves = flatten(out[1], "aux")
        return out[0]

    def aux_tensors(self) -> list[Tensor]:
        return [leaf.value.tensor for leaf in self.aux_leaves if leaf.kind == "traced"]

    def aux(self, values: Sequence[Any]) -> Any:
        """The auxiliary result, its traced leaves replaced by ``values``."""
        it = iter(values)
        return rebuild(self.aux_tree, iter([next(it) if leaf.kind == "traced" else leaf.value
                                            for leaf in self.aux_leaves]))

    def leaf_inputs(self, index: int) -> list[Tensor]:
        """The placeholders of a differentiated argument's leaves (such an argument has no static leaf)."""
        start = sum(len(arg.leaves) for arg in self.arguments[:index])
        inputs = self.inputs[start:start + len(self.arguments[index].leaves)]
        tensors = [t for t in inputs if t is not None]
        if len(tensors) != len(inputs):
            raise AssertionError(f"argument {self.arguments[index].name!r} has a static leaf")
        return tensors


def _definition(f: Callable) -> tuple[str, int]:
    code = getattr(inspect.unwrap(f), "__code__", None)
    if code is None:
        return user_location()
    return code.co_filename, code.co_firstlineno


class Program:
    """The compiled code for one argument signature."""

    def __init__(self, fn: GradientFunction, arguments: list[Argument]) -> None:
        self.trace = Trace()
        with self.trace.active():
            self.recording = Recording(fn, arguments, inline=False)
        recording = self.recording
        self.captures: Captures = recording.captures
        self.has_value = fn._wants_value()
        self.has_aux = fn.has_aux
        fetches: list[Any] = [recording.y] if self.has_value else []

        def fetch_position(t: Tensor) -> int:
            fetches.append(t)
            return len(fetches) - 1

        positions = map_results(recording.results, fetch_position)
        aux_positions = [fetch_position(t) for t in recording.aux_tensors()]
        placeholders = [t for t in recording.inputs if t is not None] + recording.stream_inputs
        graph_slice = pipeline.plan(self.trace.graph, fetches + recording.draws, placeholders, fn.backend)
        flat = graph_slice.structure.flat  # a flat list of fetches: (kind, index among the computed values)
        if flat is None:
            raise AssertionError("a flat list of fetches has a flat structure")
        _, index = flat
        self.value_index = index[0] if self.has_value else None
        self.slots = map_results(positions, lambda i: index[i])
        self.aux_slots = [index[i] for i in aux_positions]
        self.ops = graph_slice.ops
        specs = {t: (t.dtype, t.shape.known_sizes()) for t in placeholders}
        self.executable = exe = pipeline.compile(graph_slice, specs, _no_variables, label=fn.label)
        # the general path's call of the module (its own, not ``exe.call``: see fastcall.choose_threads)
        self.call = make_call(exe, functools.partial(pipeline.translate_error, exe=exe))
        self.dtypes = [None if t.dtype is STREAM_DTYPE else t.dtype.np for t in placeholders]
        self.fed = [i for i, t in enumerate(recording.inputs) if t is not None]  # leaves with a placeholder
        self.stream_reads = recording.stream_reads
        self.fast: Callable | None = None   # set by the GradientFunction (``fastcall``)

    def run(self, arguments: list[Argument]) -> tuple[Any, Any, Any]:
        return self.unpack(self.call(self.module_inputs(arguments)))

    def module_inputs(self, arguments: list[Argument]) -> list:
        """The arguments of the compiled ``run`` for these call arguments."""
        quiet_numpy_warnings()
        leaves = [leaf.value for arg in arguments for leaf in arg.leaves]
        values = [leaves[i] for i in self.fed] + [read() for read in self.stream_reads]
        feeds = []
        for v, dtype in zip(values, self.dtypes, strict=True):
            if dtype is None:  # a Generator or RandomState
                feeds.append(v)
                continue
            arr = np.asarray(v, dtype=dtype)
            feeds.append(arr[()] if arr.ndim == 0 else arr)
        return [feeds[i] for i in self.executable.feed_positions]

    def unpack(self, outs: Sequence[Any]) -> tuple[Any, Any, Any]:
        """The function's value (or None), its derivatives and its auxiliary result, from what the
        compiled ``run`` returned."""
        value = None if self.value_index is None else outs[self.value_index]
        aux = self.recording.aux([outs[i] for i in self.aux_slots]) if self.has_aux else None
        return value, map_results(self.slots, lambda i: outs[i]), aux


def _no_variables(op: Operation) -> tuple:
    raise AssertionError(f"a traced function cannot read the variable {op.name}")


def map_results(results: Any, fn: Callable) -> Any:
    """Apply ``fn`` to every tensor in a nested list of results (None stays None)."""
    if isinstance(results, list):
        return [map_results(r, fn) for r in results]
    return None if results is None else fn(results)


def inline_aux(recording: Recording) -> Any:
    """The auxiliary result of an inline recording: traced values of the enclosing trace."""
    if recording.aux_tree is None and not recording.aux_leaves:
        return None
    return recording.aux([Traced(t) for t in recording.aux_tensors()])

