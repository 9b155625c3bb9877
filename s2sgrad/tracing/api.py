"""The decorator front door: ``grad``, ``value_and_grad``, ``jacobian`` and ``hessian``.

A ``GradientFunction`` traces the user's NumPy function once per argument signature into a
private graph, adds the derivative program with ``tf.gradients`` and compiles the slice it
needs through the same pipeline as ``Session.run`` (``pipeline.compile``). Called with
values that are themselves being traced (``grad(grad(f))``), it records into the enclosing
trace instead of compiling.
"""
from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

from .. import pipeline
from ..autodiff import derivatives
from ..autodiff.backprop import as_unconnected_gradients
from ..autodiff.walk import UnconnectedGradients
from ..codegen.backends import get_backend
from ..explain import analyze
from ..heap import prepare_heap
from ..ops import array_ops as a
from ..ssa.graph import Tensor
from ..ssa.printer import format_ops
from ..tracebacks import drop_internal_frames, hide_internal_frames
from .arguments import Argument, Binder, rebuild, signature_key
from .convert import as_tensor
from .fastcall import MISS, Layout, choose_threads, make_fast_call
from .random_streams import TracedStream
from .recording import Program, Recording, inline_aux, map_results
from .traced import Traced, current_trace

__all__ = ["GradientFunction", "grad", "value_and_grad", "jacobian", "jacfwd", "jacrev", "hessian", "MAX_PROGRAMS"]

MAX_PROGRAMS = 64   # compiled signatures kept per decorated function; older ones are traced again


class GradientFunction:
    """``f``'s derivative as a callable; see ``grad``. Inspect it with ``source``, ``ir``,
    ``executable`` and ``explain`` (each takes example arguments)."""

    def __init__(self, f: Callable, mode: str, wrt: Any = 0, stop_gradients: Any = (),
                 unconnected_gradients: Any = "zero", preserve_result: bool = False, has_aux: bool = False,
                 backend: Any = None) -> None:
        if not callable(f):
            raise TypeError(f"s2sgrad.{mode} expects a function (or to be used as a decorator), got {f!r}")
        self.f = f
        self.mode = mode
        self.wrt = _check_selection(wrt, "wrt", allow_empty=False)
        self._single = not isinstance(wrt, tuple)
        self.stop_gradients = _check_selection(stop_gradients, "stop_gradients", allow_empty=True)
        self.unconnected_gradients = as_unconnected_gradients(unconnected_gradients)
        self.preserve_result = bool(preserve_result)
        self.has_aux = bool(has_aux)
        self.backend = get_backend(backend)   # the array library the compiled code runs on
        if self.has_aux and mode == "hessian":
            raise TypeError("s2sgrad.hessian does not take has_aux=")
        self.label = f"{mode}({getattr(f, '__qualname__', type(f).__name__)})"
        self._bind = Binder(f)
        self._programs: dict[tuple, Program] = {}
        self._lock = threading.Lock()
        self._fast: Callable | None = None  # the last signature's fast path (``fastcall``)
        functools.update_wrapper(self, f, updated=())  # not __dict__: f may be a GradientFunction

    def __repr__(self) -> str:
        return f"<s2sgrad {self.label} wrt={self.wrt!r}>"

    # -- calling --------------------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True  # as hide_internal_frames does, inline: this is every call
        try:
            fast = self._fast
            if fast is not None and not kwargs:
                out = fast(args)
                if out is not MISS:
                    return out
            return self._call(args, kwargs)
        except Exception as e:
            if drop_internal_frames(e) and sys.version_info < (3, 11):
                raise e.with_traceback(e.__traceback__)  # noqa: B904  # the same exception, this frame shown
            raise  # a bare raise adds no entry for this frame

    def _call(self, args: tuple, kwargs: dict) -> Any:
        arguments = self._bind(args, kwargs)
        if _is_traced(arguments):
            with current_trace().active():
                recording = Recording(self, arguments, inline=True)
            results = map_results(recording.results, Traced)
            return self._package(Traced(recording.y), results, inline_aux(recording), recording)
        program = self._program(arguments)
        self._fast = program.fast
        value, results, aux = program.run(arguments)
        return self._package(value, results, aux, program.recording)

    def _program(self, arguments: list[Argument]) -> Program:
        key = signature_key(arguments)
        program = self._programs.get(key)
        if program is None or not program.captures.unchanged():
            with self._lock:
                program = self._programs.get(key)
                if program is None or not program.captures.unchanged():  # new, or a captured value changed
                    self._programs.pop(key, None)
                    program = Program(self, arguments)
                    program.fast = self._fast_call(program, arguments)
                    choose_threads([program.call] + ([program.fast] if program.fast else []), program.executable.fn)
                    prepare_heap()   # freed arrays stay for the next call: see heap.py
                    if len(self._programs) >= MAX_PROGRAMS:  # forget the oldest signature
                        del self._programs[next(iter(self._programs))]
                    self._programs[key] = program
        return program

    def _fast_call(self, program: Program, arguments: list[Argument]) -> Callable | None:
        recording = program.recording
        return make_fast_call(arguments, [t is not None for t in recording.inputs], program.dtypes,
                              program.executable, program.captures.entries, program.stream_reads,
                              self._finisher(program))

    def _finisher(self, program: Program) -> Layout | Callable:
        """Where the user's result comes from in the compiled run's results: for the common shapes
        a ``Layout`` (indexing only), else a function of the list of them."""
        slots, value_index = program.slots, program.value_index
        flat = self.mode in ("grad", "value_and_grad") and not self.has_aux and not self.preserve_result and \
            all(len(r) == 1 and program.recording.arguments[i].tree is None
                for i, r in zip(program.recording.wrt, slots, strict=True))
        if not flat or any(r[0] is None for r in slots):
            return lambda outs: self._package(*program.unpack(outs), program.recording)
        gradients: Layout = slots[0][0] if self._single else tuple(r[0] for r in slots)
        return gradients if value_index is None else (value_index, gradients)

    def _inspect(self, args: tuple, kwargs: dict) -> Program:
        arguments = self._bind(args, kwargs)
        if _is_traced(arguments):
            raise TypeError(f"{self.label}: inspect with concrete example arguments, not traced values")
        return self._program(arguments)

    @hide_internal_frames
    def compiled_call(self, *args: Any, **kwargs: Any) -> tuple[pipeline.Executable, list, Callable[[Sequence], Any]]:
        """For these arguments: the compiled executable, the arguments its ``run`` takes, and the
        function turning what ``run`` returns into this call's result (``export`` and
        ``s2sgrad.distributed`` run the module elsewhere, then finish the call here)."""
        arguments = self._bind(args, kwargs)
        program = self._inspect(args, kwargs)

        def finish(outs: Sequence) -> Any:
            return self._package(*program.unpack(outs), program.recording)
        return program.executable, program.module_inputs(arguments), finish

    @hide_internal_frames
    def call_observed(self, *args: Any, **kwargs: Any) -> tuple[Any, pipeline.Executable, list, list]:
        """``self(*args, **kwargs)``, also returning the executable that ran, the arguments its ``run``
        was given and the values it returned (what ``export`` writes down)."""
        exe, inputs, finish = self.compiled_call(*args, **kwargs)
        outs = list(exe.call(inputs))
        return finish(outs), exe, inputs, outs

    # -- inspection -----------------------------------------------------------------------------
    @hide_internal_frames
    def executable(self, *args: Any, **kwargs: Any) -> pipeline.Executable:
        """The compiled ``Executable`` for these example arguments' signature."""
        return self._inspect(args, kwargs).executable

    @hide_internal_frames
    def source(self, *args: Any, **kwargs: Any) -> str:
        """The exact Python module text that runs for arguments like these."""
        return self._inspect(args, kwargs).executable.source

    @hide_internal_frames
    def ir(self, *args: Any, **kwargs: Any) -> str:
        """The IR of the traced function and its derivative, one SSA equation per line."""
        return format_ops(self._inspect(args, kwargs).ops)

    @hide_internal_frames
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
            shape = "of unknown rank" if y.shape.rank is None else f"of shape {tuple(y.shape.as_list())}"
            raise TypeError(f"{self.label}: the function must return a scalar, got an array {shape} (use "
                            f"s2sgrad.jacobian for array results, or reduce it, e.g. with .sum())")
        return y

    def _derivatives(self, recording: Recording) -> list:
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

    def _package(self, value: Any, results: list, aux: Any, recording: Recording) -> Any:
        """The user-facing result: one derivative or a tuple, plus the value (and aux) when asked for."""
        if self.mode == "hessian":
            per_arg: list = [tuple(row) for row in results]
            if self._single:
                per_arg = [per_arg[0][0]]
        else:
            per_arg = [rebuild(recording.arguments[i].tree, iter(r))
                       for i, r in zip(recording.wrt, results, strict=True)]
        derivative = per_arg[0] if self._single else tuple(per_arg)
        if self.mode == "value_and_grad":
            return ((value, aux) if self.has_aux else value), derivative
        if self.has_aux:
            derivative = (derivative, aux)
        return (derivative, value) if self.preserve_result else derivative


def _is_traced(arguments: list[Argument]) -> bool:
    """Called from inside another trace (``grad(grad(f))``): record into it instead of compiling."""
    return any(leaf.kind == "traced" or (leaf.kind == "stream" and isinstance(leaf.value, TracedStream))
               for arg in arguments for leaf in arg.leaves)


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


_UNSET: Any = object()   # ``argnums`` not given


def _front(mode: str, f: Callable | None, wrt: Any, argnums: Any, options: dict) -> Any:
    """``grad(f, ...)`` makes the GradientFunction, ``grad(wrt=...)`` a decorator that will.
    ``argnums`` is JAX's name for ``wrt`` (positions only; a list or tuple gives a tuple)."""
    if argnums is not _UNSET:
        if wrt != 0:
            raise TypeError(f"s2sgrad.{mode}: pass wrt= or argnums=, not both")
        if isinstance(argnums, list):
            argnums = tuple(argnums)
        for item in argnums if isinstance(argnums, tuple) else (argnums,):
            if not isinstance(item, int) or isinstance(item, bool):
                raise TypeError(f"s2sgrad.{mode}: argnums takes argument positions (ints), got {item!r}")
        wrt = argnums
    if f is None:
        return lambda g: GradientFunction(g, mode, wrt, **options)
    return GradientFunction(f, mode, wrt, **options)


def grad(f: Callable | None = None, wrt: Any = 0, *, argnums: Any = _UNSET, has_aux: bool = False,
         stop_gradients: Any = (), unconnected_gradients: Any = "zero", preserve_result: bool = False,
         backend: str | None = None) -> Any:
    """The gradient of a plain NumPy function that returns a scalar.

    ``wrt`` (or JAX's ``argnums``) selects arguments by position or name: an int/str gives one
    gradient (shaped like that argument), a tuple gives a tuple. An argument may be a tuple,
    list or dict of arrays (nested too): its gradient has the same structure.
    ``has_aux=True``: ``f`` returns ``(output, aux)`` and the result is ``(gradient, aux)``.
    ``stop_gradients`` lists arguments held constant; an argument the result does not depend on
    gets zeros (``unconnected_gradients='none'``: None, as ``tf.gradients`` gives);
    ``preserve_result=True`` returns ``(gradient, value)``; ``backend`` picks the array library
    the compiled code runs on (docs/backends.md; results come back as NumPy). Works as
    ``grad(f)``, ``@grad`` and ``@grad(wrt=('w', 'b'))``.

    ``f`` runs once per argument signature (shapes and dtypes of the arrays and Python
    floats, values of the other arguments) to record it; later calls run the compiled code.
    Random draws (``np.random.*``, a ``Generator``'s methods) are drawn anew on every call; the
    globals and closure cells ``f`` reads are checked on every call, and a change traces ``f``
    again (docs/decorator.md, "What is live").

    >>> import numpy as np, s2sgrad
    >>> s2sgrad.grad(lambda x: np.sum(x ** 2))(np.array([1.0, 2.0]))
    array([2., 4.])
    """
    return _front("grad", f, wrt, argnums, {"stop_gradients": stop_gradients, "has_aux": has_aux,
                                            "unconnected_gradients": unconnected_gradients,
                                            "preserve_result": preserve_result, "backend": backend})


def value_and_grad(f: Callable | None = None, wrt: Any = 0, *, argnums: Any = _UNSET, has_aux: bool = False,
                   stop_gradients: Any = (), unconnected_gradients: Any = "zero",
                   preserve_result: bool = False, backend: str | None = None) -> Any:
    """Like ``grad``, but returns ``(value, gradient)`` from one compiled run
    (``((value, aux), gradient)`` with ``has_aux=True``, as JAX does).

    >>> import numpy as np, s2sgrad
    >>> s2sgrad.value_and_grad(lambda x: np.sum(x ** 2))(np.array([1.0, 2.0]))
    (np.float64(5.0), array([2., 4.]))
    """
    return _front("value_and_grad", f, wrt, argnums, {"stop_gradients": stop_gradients, "has_aux": has_aux,
                                                      "unconnected_gradients": unconnected_gradients,
                                                      "preserve_result": preserve_result, "backend": backend})


def jacobian(f: Callable | None = None, wrt: Any = 0, *, argnums: Any = _UNSET, has_aux: bool = False,
             stop_gradients: Any = (), unconnected_gradients: Any = "zero", preserve_result: bool = False) -> Any:
    """The Jacobian of a function returning an array: shape ``result.shape + argument.shape``.
    ``jacfwd`` and ``jacrev`` are the same function under JAX's names (s2sgrad computes both in
    reverse mode, one gradient per result element, vectorized).

    >>> import numpy as np, s2sgrad
    >>> s2sgrad.jacobian(lambda x: x ** 2)(np.array([1.0, 2.0]))
    array([[2., 0.],
           [0., 4.]])
    """
    return _front("jacobian", f, wrt, argnums, {"stop_gradients": stop_gradients, "has_aux": has_aux,
                                                "unconnected_gradients": unconnected_gradients,
                                                "preserve_result": preserve_result})


jacfwd = jacrev = jacobian


def hessian(f: Callable | None = None, wrt: Any = 0, *, argnums: Any = _UNSET, stop_gradients: Any = (),
            unconnected_gradients: Any = "zero", preserve_result: bool = False) -> Any:
    """The matrix of second derivatives of a scalar function: shape ``argument.shape * 2``
    (for a tuple ``wrt``, a tuple of tuples of blocks).

    >>> import numpy as np, s2sgrad
    >>> s2sgrad.hessian(lambda x: np.sum(x ** 3))(np.array([1.0, 2.0]))
    array([[ 6.,  0.],
           [ 0., 12.]])
    """
    return _front("hessian", f, wrt, argnums, {"stop_gradients": stop_gradients,
                                               "unconnected_gradients": unconnected_gradients,
                                               "preserve_result": preserve_result})
