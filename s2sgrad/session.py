"""``tf.Session``: runs graph slices as compiled NumPy modules over a private variable store.

For each (fetches, fed tensors) a Plan holds the slice; for each shape signature of the fed
values it holds an Executable (the compiled module). A run reads a snapshot of the
variables, calls the module, and commits its assignments only if nothing raised.
"""
from __future__ import annotations

import contextlib
import threading
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from . import errors
from .codegen.build import Executable, build_executable, needed_ops, translate_error
from .compiler import quiet_numpy_warnings
from .fastpath import make_dispatcher, make_step
from .feeds import check_feed_shape, convert_feed, feed_target
from .fetches import FetchStructure, fetch_key
from .graph import Graph, Operation, Tensor, get_default_graph
from .platform.session_config import DeviceAttributes, SessionSettings, check_run_arguments

__all__ = ["Session", "InteractiveSession", "get_default_session"]


_NO_FEEDS: dict = {}
MAX_SHAPES_PER_PLAN = 64   # compiled modules kept per (fetches, feeds); older shapes recompile


class _Plan:
    """Everything about one (fetches, feed keys) pair that does not depend on feed shapes."""

    def __init__(self, graph: Graph, fetches: Any, feed_keys: Sequence[Any],
                 new_step: Callable[[_Plan, list], Callable]) -> None:
        self.structure = FetchStructure(graph, fetches)
        self.fed: list[Tensor] = [feed_target(graph, k) for k in feed_keys]
        # (dtype, scalar type, tensor) per feed: values already of that type pass unconverted
        # (text always goes through convert_feed, which makes it bytes)
        self.feed_types = [(None if t.dtype.name == "string" else t.dtype.np, t.dtype.np.type, t) for t in self.fed]
        self.ops = needed_ops(self.structure.tensors, self.structure.ops, set(self.fed))
        self.executables: dict[tuple, Executable] = {}    # per feed-shape signature
        self.steps: dict[tuple, Callable] = {}             # the same, as fast-path functions
        # feed values -> result: checks the feeds, then runs the step for their shapes (made by
        # ``new_step`` on first use)
        self.dispatch = make_dispatcher(self.feed_types, self.steps, lambda values: new_step(self, values),
                                        convert_feed)


class Session:
    """Runs fetches of a graph: ``with tf.Session() as sess: sess.run(loss, {x: data})``."""

    def __init__(self, target: str = "", graph: Graph | None = None, config: Any = None) -> None:
        if graph is not None and not isinstance(graph, Graph):
            raise TypeError(f"graph must be a tf.Graph, but got {type(graph)}")
        self._settings = SessionSettings(target, config)   # validated; see platform/session_config.py
        self._graph = graph if graph is not None else get_default_graph()
        self._store: dict[Operation, Any] = {}
        self._rngs: dict[Operation, np.random.Generator] = {}
        self._plans: dict[Any, _Plan] = {}
        self._lock = threading.RLock()
        self._closed = False
        self._context_stack: list = []

    @property
    def graph(self) -> Graph:
        return self._graph

    @property
    def sess_str(self) -> str:
        return ""

    def list_devices(self) -> list[DeviceAttributes]:
        """The devices ops run on: this process's CPU (``.name``, ``.device_type``, ``.memory_limit_bytes``)."""
        return self._settings.list_devices()

    # -- running -----------------------------------------------------------------------------------
    def run(self, fetches: Any, feed_dict: Any = None, options: Any = None, run_metadata: Any = None) -> Any:
        """Compute ``fetches`` (any nesting of tensors, ops, names) with ``feed_dict`` substituted.

        This is the hot path of every training loop: a plan lookup, feed checks, one call of the
        compiled module, an atomic commit of the assignments."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        quiet_numpy_warnings()
        if options is not None or run_metadata is not None:
            check_run_arguments(options, run_metadata)
        if feed_dict is None:
            feed_dict = _NO_FEEDS
        elif type(feed_dict) is not dict and not isinstance(feed_dict, dict):
            raise TypeError(f"feed_dict must be a dict, got {type(feed_dict).__name__}")
        kind = type(fetches)
        try:  # _plan_key's key for a tensor or a flat list, built inline: this is every step
            plan = self._plans[(kind, tuple(fetches) if kind is list or kind is tuple else fetches,
                                tuple(feed_dict))]
        except (KeyError, TypeError):
            plan = self._plan_for(fetches, feed_dict)
        return plan.dispatch(feed_dict.values())

    def _plan_for(self, fetches: Any, feed_dict: dict) -> _Plan:
        """The plan for these fetches and feed keys (made on first use; nested fetches land here)."""
        key = _plan_key(fetches, tuple(feed_dict))
        with self._lock:
            plan = self._plans.get(key)
            if plan is None:
                plan = _Plan(self._graph, fetches, list(feed_dict), self._new_step)
                if key is not None:
                    self._plans[key] = plan
        return plan

    def _new_step(self, plan: _Plan, values: list) -> Callable:
        """Compile (or reuse) the executable for these feed shapes and make its run step."""
        exe = self._compile(plan, values)
        with self._lock:
            signature = tuple([v.shape for v in values])
            step = plan.steps.get(signature)
            if step is None:
                step = plan.steps[signature] = make_step(
                    exe, len(plan.fed), self._store, self._rng, lambda: self._uninitialized(exe),
                    lambda e: translate_error(e, exe), plan.structure.rebuild, plan.structure.flat)
            return step

    def _compile(self, plan: _Plan, values: list) -> Executable:
        signature = tuple([v.shape for v in values])
        with self._lock:
            exe = plan.executables.get(signature)
            if exe is None:
                for t, v in zip(plan.fed, values, strict=True):
                    check_feed_shape(t, v.shape)
                specs = {t: (t.dtype, v.shape) for t, v in zip(plan.fed, values, strict=True)}
                exe = build_executable(plan.ops, plan.structure.tensors, specs, self._variable_spec)
                if len(plan.executables) >= MAX_SHAPES_PER_PLAN:  # forget the oldest feed shapes
                    oldest = next(iter(plan.executables))
                    del plan.executables[oldest]
                    plan.steps.pop(oldest, None)
                plan.executables[signature] = exe
            return exe

    def _variable_spec(self, var_op: Operation) -> tuple:
        t = var_op.outputs[0]
        if t.shape.is_fully_defined():
            return t.dtype, tuple(t.shape.sizes)
        value = self._store.get(var_op)
        return t.dtype, (np.shape(value) if value is not None else t.shape.sizes)

    def _uninitialized(self, exe: Executable) -> errors.FailedPreconditionError:
        missing = next(v for v in exe.var_ops if v not in self._store)
        return errors.FailedPreconditionError(
            None, missing,
            f"Attempting to use uninitialized value {missing.name}  [variable created at {missing.where}]")

    def _rng(self, op: Operation) -> np.random.Generator:
        rng = self._rngs.get(op)
        if rng is None:
            seed, seed2 = op.attrs["seed"], op.attrs["seed2"]
            seeds = None if seed is None else [seed % 2 ** 64, seed2 % 2 ** 64]  # TF seeds may be negative
            rng = self._rngs.setdefault(op, np.random.default_rng(seeds))  # one generator, even under threads
        return rng

    def _load_variable(self, var_op: Operation, value: Any) -> None:
        t = var_op.outputs[0]
        v = convert_feed(value, t)
        if not t.shape.is_compatible_with(np.shape(v)):
            raise ValueError(f"Cannot load value of shape {np.shape(v)} into variable {var_op.name} of shape {t.shape}")
        with self._lock:
            self._store[var_op] = np.array(v) if isinstance(v, np.ndarray) else v

    # -- inspection --------------------------------------------------------------------------------
    def source(self, fetches: Any, feed_dict: Any = None) -> str:
        """The exact module text that ``run(fetches, feed_dict)`` executes."""
        feeds = feed_dict or {}
        plan = self._plan_for(fetches, feeds)
        values = [convert_feed(v, t) for v, t in zip(feeds.values(), plan.fed, strict=True)]
        return self._compile(plan, values).source

    def make_callable(self, fetches: Any, feed_list: Sequence[Any] | None = None,
                      accept_options: bool = False) -> Callable:
        """A function ``f(*feed_values)`` equivalent to ``run(fetches, dict(zip(feed_list, values)))``
        without rebuilding the feed dict; ``f.source`` is the module it last ran."""
        if feed_list is not None and not isinstance(feed_list, (list, tuple)):
            raise TypeError(f"feed_list must be a list of tensors (or their names), got {feed_list!r}")
        for key in feed_list or []:
            feed_target(self._graph, key)
        return _Callable(self, fetches, list(feed_list or []))

    # -- lifetime ----------------------------------------------------------------------------------
    def close(self) -> None:
        """Release the variable store and compiled modules; later runs raise RuntimeError."""
        with self._lock:
            self._closed = True
            self._settings.release()
            self._store.clear()
            self._plans.clear()
            self._rngs.clear()

    @contextlib.contextmanager
    def as_default(self) -> Iterator[Session]:
        _sessions().append(self)
        try:
            yield self
        finally:
            _sessions().pop()

    def __enter__(self) -> Session:
        ctx = [self.as_default(), self._graph.as_default()]
        for c in ctx:
            c.__enter__()
        self._context_stack.append(ctx)
        return self

    def __exit__(self, *exc: Any) -> None:
        for c in reversed(self._context_stack.pop()):
            c.__exit__(*exc)
        self.close()


def _plan_key(fetches: Any, feed_keys: tuple) -> tuple | None:
    """The key of the plan for ``fetches`` and ``feed_keys``: for a tensor or a flat list the one
    ``Session.run`` builds inline, else the frozen nesting; None when something in ``fetches``
    is unhashable (FetchStructure will say what is wrong)."""
    kind = type(fetches)
    key = (kind, tuple(fetches) if kind is list or kind is tuple else fetches, feed_keys)
    try:
        hash(key)
        return key
    except TypeError:
        key = (fetch_key(fetches), feed_keys)
    try:
        hash(key)
        return key
    except TypeError:
        return None


class _Callable:
    """What ``Session.make_callable`` returns."""

    def __init__(self, session: Session, fetches: Any, feed_list: list) -> None:
        self._session, self._fetches = session, fetches
        self._feed_list = feed_list
        self._plan = session._plan_for(fetches, dict.fromkeys(feed_list))
        self._last: tuple | None = None

    def __call__(self, *values: Any) -> Any:
        if len(values) != len(self._feed_list):
            raise TypeError(f"This callable takes {len(self._feed_list)} feed values, got {len(values)}")
        if self._session._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        self._last = values
        return self._plan.dispatch(values)

    @property
    def source(self) -> str:
        """The module the last call ran (before any call: the one for the static feed shapes)."""
        if self._last is not None:
            return self._session.source(self._fetches, dict(zip(self._feed_list, self._last, strict=True)))
        from .inspection import source
        return source(self._fetches, self._feed_list, graph=self._session.graph)


class InteractiveSession(Session):
    """A Session that installs itself as the default session (and graph) until closed."""

    def __init__(self, target: str = "", graph: Graph | None = None, config: Any = None) -> None:
        super().__init__(target, graph, config)
        self._interactive = [self.as_default(), self._graph.as_default()]
        for c in self._interactive:
            c.__enter__()

    def close(self) -> None:
        super().close()
        for c in reversed(getattr(self, "_interactive", [])):
            with contextlib.suppress(IndexError):
                c.__exit__(None, None, None)
        self._interactive = []


class _DefaultSessions(threading.local):
    def __init__(self) -> None:
        self.stack: list[Session] = []


_default_sessions = _DefaultSessions()


def _sessions() -> list[Session]:
    return _default_sessions.stack


def get_default_session() -> Session | None:
    """The innermost ``with sess:`` / ``sess.as_default()`` session of this thread, or None."""
    return _default_sessions.stack[-1] if _default_sessions.stack else None


def _session_for(session: Session | None, element: Any) -> Session:
    """``session`` or the default session, checked to hold ``element``'s graph."""
    if session is None:
        session = get_default_session()
        if session is None:
            raise ValueError("Cannot evaluate tensor using `eval()`: No default session is registered. Use "
                             "`with sess.as_default()` or pass an explicit session to `eval(session=sess)`")
    if not isinstance(session, Session):
        raise TypeError(f"session must be a tf.Session, got {session!r}")
    if element.graph is not session.graph:
        raise ValueError("Cannot use the given session to evaluate tensor: the tensor's graph is different "
                         "from the session's graph.")
    return session
