"""The decorator front door: ``grad``, ``value_and_grad``, ``jacobian`` and ``hessian``.

A ``GradientFunction`` traces the user's NumPy function once per argument signature into a
private graph, adds the derivative program with ``tf.gradients`` and compiles the slice it
needs through the same pipeline as ``Session.run`` (``pipeline.compile``). Called with
values that are themselves being traced (``grad(grad(f))``), it records into the enclosing
trace instead of compiling.
"""
from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import pipeline
from ..autodiff import derivatives
from ..autodiff.backprop import UnconnectedGradients, as_unconnected_gradients
from ..codegen.compiler import quiet_numpy_warnings
from ..explain import analyze
from ..ops import array_ops as a
from ..ops.creation import placeholder
from ..ssa.graph import Tensor, user_location
from ..ssa.printer import format_ops
from .arguments import Argument, Binder, rebuild, signature_key
from .control_flow import call_traced
from .convert import as_tensor, graph_dtype
from .traced import Trace, Traced, current_trace

__all__ = ["GradientFunction", "grad", "value_and_grad", "jacobian", "hessian", "MAX_PROGRAMS"]

MAX_PROGRAMS = 64   # compiled signatures kept per decorated function; older ones are traced again


class _Recording:
    """One trace of the function: its inputs, its result and the derivative tensors."""

    def __init__(self, fn: GradientFunction, arguments: list[Argument], inline: bool) -> None:
        self.arguments = arguments
        self.wrt = fn._resolve(arguments, fn.wrt, "wrt")
        stopped = fn._resolve(arguments, fn.stop_gradients, "stop_gradients")
        self.inputs: list[Tensor | None] = []
        self.stop_ops: dict = {}
        definition = _definition(fn.f)  # arguments are "created" where the function is defined
        values = []
        for i, arg in enumerate(arguments):
            leaves = []
            for leaf in arg.leaves:
                if leaf.kind == "static":
                    self.inputs.append(None)
                    leaves.append(leaf.value)
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
        self.y = fn._result_tensor(call_traced(fn.f, arguments, values))
        self.results = fn._derivatives(self)

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


class _Program:
    """The compiled code for one argument signature."""

    def __init__(self, fn: GradientFunction, arguments: list[Argument]) -> None:
        self.trace = Trace()
        with self.trace.active():
            self.recording = _Recording(fn, arguments, inline=False)
        self.has_value = fn._wants_value()
        fetches: list[Tensor] = [self.recording.y] if self.has_value else []

        def fetch_position(t: Tensor) -> int:
            fetches.append(t)
            return len(fetches) - 1

        positions = _map_results(self.recording.results, fetch_position)
        placeholders = [t for t in self.recording.inputs if t is not None]
        graph_slice = pipeline.plan(self.trace.graph, fetches, placeholders)
        flat = graph_slice.structure.flat  # a flat list of fetches: (kind, index among the computed values)
        if flat is None:
            raise AssertionError("a flat list of fetches has a flat structure")
        _, index = flat
        self.value_index = index[0] if self.has_value else None
        self.slots = _map_results(positions, lambda i: index[i])
        self.ops = graph_slice.ops
        specs = {t: (t.dtype, t.shape.known_sizes()) for t in placeholders}
        self.executable = pipeline.compile(graph_slice, specs, _no_variables, label=fn.label)
        self.dtypes = [t.dtype.np for t in placeholders]

    def run(self, arguments: list[Argument]) -> tuple[Any, Any]:
        return self.unpack(self.executable.call(self.module_inputs(arguments)))

    def module_inputs(self, arguments: list[Argument]) -> list:
        """The arguments of the compiled ``run`` for these call arguments."""
        quiet_numpy_warnings()
        values = [leaf.value for arg in arguments for leaf in arg.leaves if leaf.kind != "static"]
        feeds = []
        for v, dtype in zip(values, self.dtypes, strict=True):
            arr = np.asarray(v, dtype=dtype)
            feeds.append(arr[()] if arr.ndim == 0 else arr)
        return [feeds[i] for i in self.executable.feed_positions]

    def unpack(self, outs: Sequence[Any]) -> tuple[Any, Any]:
        """The function's value (or None) and its derivatives, from what the compiled ``run`` returned."""
        value = None if self.value_index is None else outs[self.value_index]
        return value, _map_results(self.slots, lambda i: outs[i])


def _no_variables(op: Any) -> tuple:
    raise AssertionError(f"a traced function cannot read the variable {op.name}")


def _map_results(results: Any, fn: Callable) -> Any:
    """Apply ``fn`` to every tensor in a nested list of results (None stays None)."""
    if isinstance(results, list):
        return [_map_results(r, fn) for r in results]
    return None if results is None else fn(results)


class GradientFunction:
    """``f``'s derivative as a callable; see ``grad``. Inspect it with ``source``, ``ir``,
    ``executable`` and ``explain`` (each takes example arguments)."""

    def __init__(self, f: Callable, mode: str, wrt: Any = 0, stop_gradients: Any = (),
                 unconnected_gradients: Any = "none", preserve_result: bool = False) -> None:
        if not callable(f):
            raise TypeError(f"s2sgrad.{mode} expects a function (or to be used as a decorator), got {f!r}")
        self.f = f
        self.mode = mode
        self.wrt = _check_selection(wrt, "wrt", allow_empty=False)
        self._single = not isinstance(wrt, tuple)
        self.stop_gradients = _check_selection(stop_gradients, "stop_gradients", allow_empty=True)
        self.unconnected_gradients = as_unconnected_gradients(unconnected_gradients)
        self.preserve_result = bool(preserve_result)
        self.label = f"{mode}({getattr(f, '__qualname__', type(f).__name__)})"
        self._bind = Binder(inspect.signature(f))
        self._programs: dict[tuple, _Program] = {}
        self._lock = threading.Lock()
        functools.update_wrapper(self, f, updated=())  # not __dict__: f may be a GradientFunction

    def __repr__(self) -> str:
        return f"<s2sgrad {self.label} wrt={self.wrt!r}>"

    # -- calling --------------------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        arguments = self._bind(args, kwargs)
        if any(leaf.kind == "traced" for arg in arguments for leaf in arg.leaves):
            with current_trace().active():
                recording = _Recording(self, arguments, inline=True)
            return self._package(Traced(recording.y), _map_results(recording.results, Traced), recording)
        program = self._program(arguments)
        value, results = program.run(arguments)
        return self._package(value, results, program.recording)

    def _program(self, arguments: list[Argument]) -> _Program:
        key = signature_key(arguments)
        program = self._programs.get(key)
        if program is None:
            with self._lock:
                program = self._programs.get(key)
                if program is None:
                    program = _Program(self, arguments)
                    if len(self._programs) >= MAX_PROGRAMS:  # forget the oldest signature
                        del self._programs[next(iter(self._programs))]
                    self._programs[key] = program
        return program

    def _inspect(self, args: tuple, kwargs: dict) -> _Program:
        arguments = self._bind(args, kwargs)
        if any(leaf.kind == "traced" for arg in arguments for leaf in arg.leaves):
            raise TypeError(f"{self.label}: inspect with concrete example arguments, not traced values")
        return self._program(arguments)

    def compiled_call(self, *args: Any, **kwargs: Any) -> tuple[pipeline.Executable, list, Callable[[Sequence], Any]]:
        """For these arguments: the compiled executable, the arguments its ``run`` takes, and the
        function turning what ``run`` returns into this call's result (``export`` and
        ``s2sgrad.distributed`` run the module elsewhere, then finish the call here)."""
        arguments = self._bind(args, kwargs)
        program = self._inspect(args, kwargs)

        def finish(outs: Sequence) -> Any:
            value, results = program.unpack(outs)
            return self._package(value, results, program.recording)
        return program.executable, program.module_inputs(arguments), finish

    def call_observed(self, *args: Any, **kwargs: Any) -> tuple[Any, pipeline.Executable, list, list]:
        """``self(*args, **kwargs)``, also returning the executable that ran, the arguments its ``run``
        was given and the values it returned (what ``export`` writes down)."""
        exe, inputs, finish = self.compiled_call(*args, **kwargs)
        outs = list(exe.call(inputs))
        return finish(outs), exe, inputs, outs

    # -- inspection -----------------------------------------------------------------------------
    def executable(self, *args: Any, **kwargs: Any) -> pipeline.Executable:
        """The compiled ``Executable`` for these example arguments' signature."""
        return self._inspect(args, kwargs).executable

    def source(self, *args: Any, **kwargs: Any) -> str:
        """The exact Python module text that runs for arguments like these."""
        return self._inspect(args, kwargs).executable.source

    def ir(self, *args: Any, **kwargs: Any) -> str:
        """The IR of the traced function and its derivative, one SSA equation per line."""
        return format_ops(self._inspect(args, kwargs).ops)

    def explain(self, *args: Any, **kwargs: Any) -> Any:
        """Why each differentiated argument's gradient is None or zero (or that it flows)."""
        program = self._inspect(args, kwargs)
        recording = program.recording
        xs, labels = [], []
        for i in recording.wrt:
            arg = recording.arguments[i]
            for leaf, t in zip(arg.leaves, recording.leaf_inputs(i), strict=True):
                xs.append(t)
                labels.append(f"argument {arg.name!r}" if arg.tree is None else f"argument {arg.name!r} ({leaf.name})")
        name = getattr(self.f, "__name__", "f")
        return analyze([recording.y], xs, stop_ops=recording.stop_ops, x_labels=labels,
                       y_label=f"the result of {name}()", unconnected=self.unconnected_gradients)

    # -- what the mode asks for -------------------------------------------------------------------
    def _wants_value(self) -> bool:
        return self.mode == "value_and_grad" or self.preserve_result

    def _resolve(self, arguments: list[Argument], selection: tuple, what: str) -> list[int]:
        out = []
        for item in selection:
            field = "position" if isinstance(item, int) else "name"
            match = [i for i, arg in enumerate(arguments) if getattr(arg, field) == item]
            if not match:
                names = ", ".join(repr(arg.name) for arg in arguments)
                raise ValueError(f"{self.label}: {what}={item!r} names no argument of this call (arguments: {names})")
            if match[0] in out:
                raise ValueError(f"{self.label}: {what} names argument {arguments[match[0]].name!r} twice")
            out.append(match[0])
        if what == "wrt":
            for i in out:
                _check_differentiable(arguments[i], self.label)
        return out

    def _result_tensor(self, out: Any) -> Tensor:
        if isinstance(out, (tuple, list, dict)) or out is None:
            raise TypeError(f"{self.label}: the function must return one array or number, got "
                            f"{type(out).__name__}")
        y = as_tensor(out)
        if not y.dtype.is_floating:
            raise TypeError(f"{self.label}: the function returned {y.dtype.name} values; derivatives need a "
                            f"floating-point result")
        if self.mode != "jacobian" and y.shape.rank != 0:
            raise TypeError(f"{self.label}: the function must return a scalar, got an array of shape "
                            f"{tuple(y.shape.as_list())} (use s2sgrad.jacobian for array results, or reduce it, e.g. "
                            f"with .sum())")
        return y

    def _derivatives(self, recording: _Recording) -> list:
        xs_per_arg = [recording.leaf_inputs(i) for i in recording.wrt]
        flat = [x for xs in xs_per_arg for x in xs]
        y = recording.y
        if self.mode == "hessian":
            if any(len(xs) != 1 for xs in xs_per_arg):
                raise TypeError(f"{self.label}: hessian needs each differentiated argument to be one array")
            blocks = derivatives.hessian(y, flat)
            return [[self._filled(h, [xi, xj]) for h, xj in zip(row, flat, strict=True)]
                    for row, xi in zip(blocks, flat, strict=True)]
        found = (derivatives.jacobian if self.mode == "jacobian" else derivatives.gradient)(y, flat)
        lead = [y] if self.mode == "jacobian" else []
        results, start = [], 0
        for xs in xs_per_arg:
            results.append([self._filled(g, lead + [x]) for g, x in zip(found[start:start + len(xs)], xs, strict=True)])
            start += len(xs)
        return results

    def _filled(self, g: Tensor | None, parts: Sequence[Tensor]) -> Tensor | None:
        """``unconnected_gradients='zero'`` turns a None result into zeros of its shape."""
        if g is not None or self.unconnected_gradients is UnconnectedGradients.NONE:
            return g
        dims = [d for t in parts for d in t.shape.as_list()]
        return a.zeros(dims, parts[-1].dtype, name="unconnected_zeros")

    def _package(self, value: Any, results: list, recording: _Recording) -> Any:
        """The user-facing result: one derivative or a tuple, plus the value when asked for."""
        if self.mode == "hessian":
            per_arg: list = [tuple(row) for row in results]
            if self._single:
                per_arg = [per_arg[0][0]]
        else:
            per_arg = [rebuild(recording.arguments[i].tree, iter(r))
                       for i, r in zip(recording.wrt, results, strict=True)]
        derivative = per_arg[0] if self._single else tuple(per_arg)
        if self.mode == "value_and_grad":
            return value, derivative
        return (derivative, value) if self.preserve_result else derivative


def _check_selection(selection: Any, what: str, allow_empty: bool) -> tuple:
    if selection is None and allow_empty:  # stop_gradients=None: nothing stopped
        return ()
    several = (tuple, list) if allow_empty else tuple  # wrt: only a tuple asks for several gradients
    items = tuple(selection) if isinstance(selection, several) else (selection,)
    for item in items:
        if isinstance(item, bool) or not isinstance(item, (int, str)) or (isinstance(item, int) and item < 0):
            raise TypeError(f"{what} takes argument positions (ints >= 0) and names, got {item!r}")
    if not items and not allow_empty:
        raise ValueError(f"{what} must name at least one argument")
    if len(set(items)) != len(items):
        raise ValueError(f"{what} lists an argument twice: {selection!r}")
    return items


def _check_differentiable(arg: Argument, label: str) -> None:
    for leaf in arg.leaves:
        if leaf.kind == "static":
            raise TypeError(f"{label}: cannot differentiate with respect to argument {arg.name!r} = "
                            f"{leaf.value!r} ({type(leaf.value).__name__}): pass a float or a floating-point array")
        if leaf.dtype is None or leaf.dtype.kind not in "fc":  # (only static leaves have no dtype)
            raise TypeError(f"{label}: cannot differentiate with respect to argument {arg.name!r} of dtype "
                            f"{leaf.dtype}: gradients need floating-point arrays or complex ones (use "
                            f".astype(np.float64))")


def _front(mode: str, f: Callable | None, wrt: Any, options: dict) -> Any:
    """``grad(f, ...)`` makes the GradientFunction, ``grad(wrt=...)`` a decorator that will."""
    if f is None:
        return lambda g: GradientFunction(g, mode, wrt, **options)
    return GradientFunction(f, mode, wrt, **options)


def grad(f: Callable | None = None, wrt: Any = 0, *, stop_gradients: Any = (),
         unconnected_gradients: Any = "none", preserve_result: bool = False) -> Any:
    """The gradient of a plain NumPy function that returns a scalar.

    ``wrt`` selects arguments by position or name: an int/str gives one gradient (shaped like
    that argument), a tuple gives a tuple. ``stop_gradients`` lists arguments held constant;
    ``unconnected_gradients='zero'`` gives zeros instead of None for arguments the result does
    not depend on; ``preserve_result=True`` returns ``(gradient, value)``. Works as
    ``grad(f)``, ``@grad`` and ``@grad(wrt=('w', 'b'))``.

    ``f`` runs once per argument signature (shapes and dtypes of the arrays and Python
    floats, values of the other arguments) to record it; later calls run the compiled code.
    Arrays that ``f`` reads from globals or closures, and random numbers it draws, are
    captured as constants at that first call.

    >>> import numpy as np, s2sgrad
    >>> s2sgrad.grad(lambda x: np.sum(x ** 2))(np.array([1.0, 2.0]))
    array([2., 4.])
    """
    return _front("grad", f, wrt, {"stop_gradients": stop_gradients, "unconnected_gradients": unconnected_gradients,
                                   "preserve_result": preserve_result})


def value_and_grad(f: Callable | None = None, wrt: Any = 0, *, stop_gradients: Any = (),
                   unconnected_gradients: Any = "none", preserve_result: bool = False) -> Any:
    """Like ``grad``, but returns ``(value, gradient)`` from one compiled run.

    >>> import numpy as np, s2sgrad
    >>> s2sgrad.value_and_grad(lambda x: np.sum(x ** 2))(np.array([1.0, 2.0]))
    (np.float64(5.0), array([2., 4.]))
    """
    return _front("value_and_grad", f, wrt, {"stop_gradients": stop_gradients,
                                             "unconnected_gradients": unconnected_gradients,
                                             "preserve_result": preserve_result})


def jacobian(f: Callable | None = None, wrt: Any = 0, *, stop_gradients: Any = (),
             unconnected_gradients: Any = "none", preserve_result: bool = False) -> Any:
    """The Jacobian of a function returning an array: shape ``result.shape + argument.shape``.

    >>> import numpy as np, s2sgrad
    >>> s2sgrad.jacobian(lambda x: x ** 2)(np.array([1.0, 2.0]))
    array([[2., 0.],
           [0., 4.]])
    """
    return _front("jacobian", f, wrt, {"stop_gradients": stop_gradients,
                                       "unconnected_gradients": unconnected_gradients,
                                       "preserve_result": preserve_result})


def hessian(f: Callable | None = None, wrt: Any = 0, *, stop_gradients: Any = (),
            unconnected_gradients: Any = "none", preserve_result: bool = False) -> Any:
    """The matrix of second derivatives of a scalar function: shape ``argument.shape * 2``
    (for a tuple ``wrt``, a tuple of tuples of blocks).

    >>> import numpy as np, s2sgrad
    >>> s2sgrad.hessian(lambda x: np.sum(x ** 3))(np.array([1.0, 2.0]))
    array([[ 6.,  0.],
           [ 0., 12.]])
    """
    return _front("hessian", f, wrt, {"stop_gradients": stop_gradients,
                                      "unconnected_gradients": unconnected_gradients,
                                      "preserve_result": preserve_result})
