"""Random numbers stay random: draws from NumPy's streams become ``NumpyRandom`` ops.

While a function is traced, NumPy's legacy functions (``np.random.normal``...) and the stream
constructors (``np.random.default_rng``, ``np.random.RandomState``, ``np.random.seed``) are
replaced, for the tracing thread only, by functions that record ops; a ``Generator`` or
``RandomState`` the function gets as an argument, a global or a closure cell is handed to it as
a ``TracedStream`` whose methods record ops. The generated code then draws from the very same
stream on every call, in the function's order (``mask = rng.uniform(size=(3, 4))``), so a
seeded function repeats what plain NumPy gives and an unseeded one draws fresh numbers. Draws
are not differentiable: the gradient treats them as constants.
"""
from __future__ import annotations

import contextlib
import threading
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..ops.convert import record, record1
from ..primitives.numpy_random import NUMPY_GENERATOR, NUMPY_RANDOM, NUMPY_SEED
from ..ssa.graph import Tensor
from .convert import as_tensor, as_traced
from .registry import user_line
from .traced import Trace, Traced

__all__ = ["TracedStream", "STREAM_TYPES", "live_random", "streams_of", "LEGACY_FUNCTIONS", "GENERATOR_METHODS"]

STREAM_TYPES = (np.random.Generator, np.random.RandomState)

_DISTRIBUTIONS = ("beta", "binomial", "chisquare", "dirichlet", "exponential", "f", "gamma", "geometric", "gumbel",
                  "hypergeometric", "laplace", "logistic", "lognormal", "logseries", "multinomial",
                  "multivariate_normal", "negative_binomial", "noncentral_chisquare", "noncentral_f", "normal",
                  "pareto", "poisson", "power", "rayleigh", "standard_cauchy", "standard_exponential",
                  "standard_gamma", "standard_normal", "standard_t", "triangular", "uniform", "vonmises", "wald",
                  "weibull", "zipf")
LEGACY_FUNCTIONS = _DISTRIBUTIONS + ("rand", "randn", "randint", "random", "random_sample", "ranf", "sample",
                                     "random_integers", "choice", "permutation")
GENERATOR_METHODS = _DISTRIBUTIONS + ("integers", "random", "choice", "permutation", "permuted")
_IN_PLACE = ("shuffle",)
_SAMPLES = ("choice", "permutation")   # of an array: the array indexed by a draw of positions


class TracedStream:
    """A ``Generator`` or ``RandomState`` while a function is traced: its methods record draws.

    ``tensor`` is the stream's value in the graph (a module argument or a ``NumpyGenerator``
    output); None stands for NumPy's global stream (``np.random.*``)."""

    def __init__(self, tensor: Tensor | None, legacy: bool, name: str) -> None:
        self.tensor = tensor
        self.legacy = legacy          # RandomState's methods (randn, randint...) rather than Generator's
        self.name = name

    def __repr__(self) -> str:
        return f"<traced {'RandomState' if self.legacy else 'Generator'} {self.name}>"

    def __getattr__(self, method: str) -> Callable:
        methods = LEGACY_FUNCTIONS if self.legacy else GENERATOR_METHODS
        if method in _IN_PLACE:
            return _refuse_in_place(f"{self.name}.{method}")
        if method not in methods:
            raise NotImplementedError(f"s2sgrad cannot trace {self.name}.{method} (at {user_line()}): traced "
                                      f"streams draw with {', '.join(sorted(methods))}")
        return lambda *args, **kwargs: draw(self, method, args, kwargs)


_GLOBAL = TracedStream(None, legacy=True, name="np.random")
_STREAMS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def streams_of(trace: Trace) -> dict[int, TracedStream]:
    """The traced stream of each Generator (by ``id``) the trace was handed (nested traces share them)."""
    found = _STREAMS.get(trace)
    if found is None:
        found = _STREAMS[trace] = {}
    return found


def _refuse_in_place(what: str) -> Callable:
    def refuse(x: Any, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(f"s2sgrad cannot trace {what} (at {user_line()}): it shuffles its argument in "
                                  f"place; write x = {what.rsplit('.', 1)[0]}.permutation(x) instead")
    return refuse


def draw(stream: TracedStream, method: str, args: tuple, kwargs: dict) -> Any:
    """Record ``stream.method(*args, **kwargs)``; the result is traced like the array NumPy returns."""
    if method in _SAMPLES and args and not _is_int(args[0]):
        population = as_traced(args[0])
        if population.ndim == 0:
            raise ValueError(f"{stream.name}.{method} needs an int or an array with at least one axis "
                             f"(at {user_line()})")
        positions = draw(stream, method, (population.shape[0], *args[1:]), kwargs)
        return population[positions]
    inputs: list[Tensor] = [] if stream.tensor is None else [stream.tensor]
    call, example = [], []
    for keyword, value in [(None, v) for v in args] + list(kwargs.items()):
        if isinstance(value, Traced) or (isinstance(value, (np.ndarray, list)) and np.ndim(value) > 0):
            t = as_tensor(value)
            inputs.append(t)
            call.append((keyword, ("in", len(inputs) - 1)))
            example.append((keyword, value if not isinstance(value, Traced) else _example(value)))
        else:
            call.append((keyword, ("lit", _literal(value, stream, method))))
            example.append((keyword, value))
    dtype, shape = _result_spec(stream.legacy, method, example)
    attrs = {"method": method, "stream": stream.tensor is not None, "call": tuple(call), "dtype": dtype,
             "shape": shape}
    return Traced(record1(NUMPY_RANDOM, inputs, attrs, method))


def _example(x: Traced) -> np.ndarray:
    """A stand-in for a traced parameter when finding the draw's shape: valid as a location, scale,
    bound, count or probability vector."""
    if x.dtype.kind in "iub":
        return np.ones(x.shape, x.dtype)
    return np.full(x.shape, 1.0 / max(int(np.prod(x.shape)), 1), x.dtype)


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def _literal(value: Any, stream: TracedStream, method: str) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (np.generic, np.ndarray)):  # (a 0-d array)
        return value.item()
    if isinstance(value, tuple) and all(_is_int(v) for v in value):
        return tuple(int(v) for v in value)
    if isinstance(value, (np.dtype, type)):
        return _dt.as_dtype(np.dtype(value))
    raise TypeError(f"{stream.name}.{method} got {value!r} ({type(value).__name__}) at {user_line()}: traced "
                    f"draws take numbers, tuples of ints, dtypes and arrays")


def _result_spec(legacy: bool, method: str, example: list) -> tuple[_dt.DType, tuple]:
    """The dtype and shape of the draw, from the same call on a throwaway stream."""
    rng: Any = np.random.mtrand.RandomState(0) if legacy else np.random.Generator(np.random.PCG64(0))  # not ours
    args = [v for k, v in example if k is None]
    kwargs = {k: v for k, v in example if k is not None}
    try:
        out = getattr(rng, method)(*args, **kwargs)
    except (TypeError, ValueError) as e:
        raise type(e)(f"{method}: {e} (at {user_line()})") from None
    out = np.asarray(out)
    return _dt.as_dtype(out.dtype), tuple(out.shape)


# -- the stream constructors and NumPy's global stream, while tracing ------------------------------

def _make_stream(kind: str, legacy: bool, seed: Any) -> TracedStream:
    if isinstance(seed, TracedStream):
        return seed
    if seed is not None and not _is_int(seed) and not (isinstance(seed, (tuple, list)) and
                                                       all(_is_int(s) for s in seed)):
        raise TypeError(f"np.random.{kind}({seed!r}) at {user_line()}: traced functions seed streams with an "
                        f"int, a sequence of ints or None")
    literal: Any = int(seed) if _is_int(seed) else seed if seed is None else tuple(int(s) for s in seed)
    call = () if seed is None else ((None, ("lit", literal)),)
    t = record1(NUMPY_GENERATOR, [], {"kind": kind, "call": call}, "rng")
    return TracedStream(t, legacy, "rng")


def _default_rng(seed: Any = None) -> TracedStream:
    return _make_stream("default_rng", False, seed)


def _random_state(seed: Any = None) -> TracedStream:
    return _make_stream("RandomState", True, seed)


def _seed(seed: Any = None) -> None:
    call = () if seed is None else ((None, ("lit", _literal(seed, _GLOBAL, "seed"))),)
    record(NUMPY_SEED, [], {"call": call}, "seed")


_REPLACEMENTS: dict[str, Callable] = {name: getattr(_GLOBAL, name) for name in LEGACY_FUNCTIONS}
_REPLACEMENTS.update(default_rng=_default_rng, RandomState=_random_state, seed=_seed,
                     shuffle=_refuse_in_place("np.random.shuffle"))


class _State(threading.local):
    def __init__(self) -> None:
        self.depth = 0   # how many traces of this thread are recording draws


_state = _State()
_lock = threading.Lock()
_installed: dict[str, Any] = {}   # NumPy's own functions while ours are in place
_users = [0]                      # threads tracing now


def _routed(name: str, original: Callable) -> Callable:
    """``np.random.<name>`` while some thread traces: that thread records, the others draw."""
    def routed(*args: Any, **kwargs: Any) -> Any:
        if _state.depth:
            return _REPLACEMENTS[name](*args, **kwargs)
        return original(*args, **kwargs)
    routed.__name__ = routed.__qualname__ = name
    routed.__doc__ = original.__doc__
    routed.__wrapped__ = original  # type: ignore[attr-defined]
    return routed


@contextlib.contextmanager
def live_random() -> Iterator[None]:
    """While this runs, this thread's calls of ``np.random.*`` record draws instead of drawing."""
    with _lock:
        if not _users[0]:
            for name in _REPLACEMENTS:
                original = getattr(np.random, name)
                _installed[name] = original
                setattr(np.random, name, _routed(name, original))
        _users[0] += 1
    _state.depth += 1
    try:
        yield
    finally:
        _state.depth -= 1
        with _lock:
            _users[0] -= 1
            if not _users[0]:
                for name, original in _installed.items():
                    setattr(np.random, name, original)
                _installed.clear()
