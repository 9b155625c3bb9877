"""``tf.Session``: runs graph slices as compiled NumPy modules over its ``VariableStore``.

For each (fetches, fed tensors) a ``pipeline.Plan`` holds the slice; for each shape signature
of the fed values it holds an Executable (the compiled module), which the session runs through
a fast-path step. A run reads a snapshot of the variables, calls the module, and commits its
assignments only if nothing raised.
"""
from __future__ import annotations

import contextlib
import functools
import operator
import sys
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from .codegen.backends import get_backend
from .codegen.compiler import NUMPY_QUIET, quiet_numpy_warnings
from .drawing import render, slice_dot
from .heap import prepare_heap
from .pipeline import Executable, FeedSpecs, Plan, generate, plan, static_variable_spec, translate_error
from .pipeline.fastpath import make_dispatcher, make_step
from .pipeline.feeds import convert_feed, feed_target
from .pipeline.fetches import fetch_key
from .pipeline.host import HostRunner, host_feeds, host_ops, sink_fetches
from .pipeline.variable_store import VariableStore
from .platform.session_config import DeviceAttributes, SessionSettings, check_run_arguments
from .ssa.default_session import SessionBase, get_default_session
from .ssa.graph import Graph, get_default_graph
from .threads import tuned_step
from .tracebacks import drop_internal_frames

__all__ = ["Session", "InteractiveSession", "get_default_session"]


_NO_FEEDS: dict = {}
_NO_LAST_CALL = (None, None, -1, None, None)   # (fetches' type, fetches, feed count, feed getter, runner)


class _Runner:
    """A plan bound to one session: its dispatcher and one fast-path step per feed-shape signature.

    ``dispatch`` is what ``Session.run`` calls: the plan's dispatcher (feed checks, then the step
    for the values' shapes), or, once a bare step (one not timing its BLAS threads) is installed,
    that step's ``checked`` twin, which is both in one function (other shapes go to the dispatcher)."""

    def __init__(self, plan: Plan, new_step: Callable[[_Runner, list], Callable]) -> None:
        self.plan = plan
        self.steps: dict[tuple, Callable] = {}   # per feed-shape signature, as plan.executables
        # (dtype, scalar type, tensor) per feed: values already of that type pass unconverted
        # (text always goes through convert_feed, which makes it bytes)
        self.feed_types = [(None if t.dtype.name == "string" else t.dtype.np, t.dtype.np.type, t) for t in plan.fed]
        # feed values -> result: checks the feeds, then runs the step for their shapes (made by
        # ``new_step`` on first use)
        self.dispatcher = make_dispatcher(self.feed_types, self.steps, lambda values: new_step(self, values),
                                          convert_feed)
        self.dispatch = self.dispatcher
        self._checked: tuple | None = None   # the signature ``dispatch`` checks for, if not the dispatcher

    def install(self, signature: tuple, step: Callable) -> None:
        """Run ``step`` for feeds of this shape signature from now on."""
        self.steps[signature] = step
        checked = getattr(step, "checked", None)
        if checked is not None:
            self.dispatch, self._checked = checked, signature
        elif self._checked == signature:
            self.dispatch, self._checked = self.dispatcher, None

    def forget(self, signature: tuple) -> None:
        """Drop the step of this shape signature (its executable left the plan's cache)."""
        self.steps.pop(signature, None)
        if self._checked == signature:
            self.dispatch, self._checked = self.dispatcher, None


class Session(SessionBase):
    """Runs fetches of a graph: ``with tf.Session() as sess: sess.run(loss, {x: data})``."""

    def __init__(self, target: str = "", graph: Graph | None = None, config: Any = None,
                 backend: str | None = None) -> None:
        """``backend``: the array library the generated modules target (``'numpy'``, ``'torch'``,
        ``'jax'``, ``'cupy'``; None: ``S2SGRAD_BACKEND`` or NumPy), see docs/backends.md."""
        if graph is not None and not isinstance(graph, Graph):
            raise TypeError(f"graph must be a tf.Graph, but got {type(graph)}")
        self._backend = get_backend(backend)
        self._settings = SessionSettings(target, config)   # validated; see platform/session_config.py
        self._graph = graph if graph is not None else get_default_graph()
        self._store = VariableStore()
        self._runners: dict[Any, _Runner | HostRunner] = {}
        self._resources: dict = {}   # host ops' state in this session (tf.data iterators; pipeline/host.py)
        self._lock = threading.RLock()
        self._closed = False
        self._context_stack: list = []
        self._last_call: tuple = _NO_LAST_CALL   # see _remember
        self._last_found: _Runner | HostRunner | None = None   # the runner the last lookup found

    @property
    def graph(self) -> Graph:
        return self._graph

    @property
    def backend(self) -> str:
        """The name of the array library this session's modules run on."""
        return self._backend.name

    @property
    def sess_str(self) -> str:
        return ""

    @property
    def variable_store(self) -> VariableStore:
        """The values of this session's variables (and its random generators' states)."""
        return self._store

    def list_devices(self) -> list[DeviceAttributes]:
        """The devices ops run on: this process's CPU (``.name``, ``.device_type``, ``.memory_limit_bytes``)."""
        return self._settings.list_devices()

    # -- running -----------------------------------------------------------------------------------
    def run(self, fetches: Any, feed_dict: Any = None, options: Any = None, run_metadata: Any = None) -> Any:
        """Compute ``fetches`` (any nesting of tensors, ops, names) with ``feed_dict`` substituted.

        This is the hot path of every training loop: a plan lookup, feed checks, one call of the
        compiled module, an atomic commit of the assignments."""
        __tracebackhide__ = True  # as tracebacks.hide_internal_frames does, inline: this is every step
        try:
            if self._closed:
                raise RuntimeError("Attempted to use a closed Session.")
            filters = warnings.filters
            if not filters or filters[0] is not NUMPY_QUIET:   # quiet_numpy_warnings()'s own test, inline
                quiet_numpy_warnings()
            if options is not None or run_metadata is not None:
                check_run_arguments(options, run_metadata)
            if feed_dict is None:
                feed_dict = _NO_FEEDS
            elif type(feed_dict) is not dict and not isinstance(feed_dict, dict):
                raise TypeError(f"feed_dict must be a dict, got {type(feed_dict).__name__}")
            kind = type(fetches)
            last_kind, last_fetches, count, getter, last_runner = self._last_call
            if kind is last_kind and len(feed_dict) == count and type(feed_dict) is dict:
                try:   # the last call's fetches and feed keys again: its runner, no key built or hashed
                    values = getter(feed_dict) if fetches == last_fetches else None
                except Exception:   # another key, or a fetch that does not compare: the usual path below
                    values = None
                if values is not None:
                    return last_runner.dispatch(values)
            try:  # _plan_key's key for a tensor or a flat list, built inline
                key = (kind, tuple(fetches) if kind is list or kind is tuple else fetches, tuple(feed_dict))
                runner = self._runners[key]
            except (KeyError, TypeError):
                runner = None
            if runner is None:  # outside the except: an error in the fetches or feeds is not chained to the KeyError
                runner = self._runner_for(fetches, feed_dict)
            elif type(feed_dict) is dict:   # remembered when found twice in a row (not when runs alternate)
                if runner is self._last_found:
                    self._remember(kind, key, runner)
                self._last_found = runner
            return runner.dispatch(feed_dict.values())
        except Exception as e:   # raised with the user's and the generated code's frames, none of ours
            if drop_internal_frames(e) and sys.version_info < (3, 11):
                raise e.with_traceback(e.__traceback__)  # noqa: B904  # the same exception, this frame shown
            raise  # a bare raise adds no entry for this frame

    def _remember(self, kind: type, key: tuple, runner: _Runner | HostRunner) -> None:
        """Make ``runner`` the one the next ``run`` tries first: for fetches equal to these (a list's
        items compared, as it may change in place) and a plain dict with the same feed keys, whose
        values its getter reads in this runner's feed order. Equal keys are what ``_runners``
        matches, so this finds the runner the lookup would (or one for the same keys in another order)."""
        feed_keys = key[2]
        getter: Callable[[dict], tuple]
        if len(feed_keys) > 1:
            getter = operator.itemgetter(*feed_keys)
        elif feed_keys:
            getter = functools.partial(_one_value, feed_keys[0])
        else:
            getter = _no_values
        self._last_call = (kind, list(key[1]) if kind is list else key[1], len(feed_keys), getter, runner)

    def _runner_for(self, fetches: Any, feed_dict: dict) -> _Runner | HostRunner:
        """The runner for these fetches and feed keys (made on first use; nested fetches land here)."""
        key = _plan_key(fetches, tuple(feed_dict))
        with self._lock:
            runner = self._runners.get(key)
            if runner is None:
                runner = _Runner(plan(self._graph, fetches, list(feed_dict), self._backend), self._new_step)
                sources, sinks = host_ops(runner.plan.ops)
                if sources or sinks:  # tf.data iterator ops: computed here, around the module
                    inner = _Runner(plan(self._graph, (fetches, sink_fetches(sinks)),
                                         list(feed_dict) + host_feeds(sources), self._backend), self._new_step)
                    runner = HostRunner(sources, sinks, inner, self._resources, self, list(feed_dict))
                if key is not None:
                    self._runners[key] = runner
        return runner

    def _new_step(self, runner: _Runner, values: list) -> Callable:
        """Compile (or reuse) the executable for these feed shapes and make its run step."""
        with self._lock:
            exe = self._executable(runner, values)
            signature = tuple([v.shape for v in values])
            step = runner.steps.get(signature)
            if step is None:
                structure = runner.plan.structure
                step = make_step(
                    exe, self._store, lambda: self._store.uninitialized(exe.var_ops),
                    lambda e: translate_error(e, exe), structure.rebuild, structure.flat,
                    (runner.feed_types, convert_feed, runner.dispatcher, signature))
                prepare_heap()   # freed arrays stay for the next run: see heap.py
                if not self._settings.fixed_threads:   # BLAS threads per step: see threads.py
                    step = tuned_step(step, functools.partial(runner.install, signature))
                runner.install(signature, step)
            return step

    def _executable(self, runner: _Runner, values: list) -> Executable:
        """The plan's executable for these feed values' shapes (compiled on first use); when the
        plan's cache drops an older one, its step goes too."""
        with self._lock:
            return runner.plan.executable(values, self._store.spec, forget=runner.forget)

    # -- inspection --------------------------------------------------------------------------------
    def source(self, fetches: Any, feed_dict: Any = None) -> str:
        """The exact module text that ``run(fetches, feed_dict)`` executes."""
        feeds = feed_dict or {}
        runner = self._runner_for(fetches, feeds)
        if isinstance(runner, HostRunner):
            return generate(runner.plan, self._slice_specs(runner, feeds), self._store.spec).source
        values = [convert_feed(v, t) for v, t in zip(feeds.values(), runner.plan.fed, strict=True)]
        return self._executable(runner, values).source

    def dot(self, fetches: Any, feed_dict: Any = None, optimized: bool = True, format: str = "dot") -> str:
        """Graphviz DOT of what ``run(fetches, feed_dict)`` computes: the optimized program its
        generated module executes, or with ``optimized=False`` the graph slice op by op; forward
        and gradient ops filled differently. ``format='svg'`` renders it with Graphviz."""
        feeds = feed_dict or {}
        runner = self._runner_for(fetches, feeds)
        return render(slice_dot(runner.plan, self._slice_specs(runner, feeds), self._store.spec, optimized), format)

    def _slice_specs(self, runner: _Runner | HostRunner, feeds: dict) -> FeedSpecs:
        """The feed specs ``run`` compiles the runner's slice for (with a tf.data pipeline: its
        elements' static shapes)."""
        values = [convert_feed(v, t) for v, t in zip(feeds.values(), runner.plan.fed, strict=False)]  # + host feeds
        if not isinstance(runner, HostRunner):
            return runner.plan.feed_specs(values)
        specs = runner.plan.feed_specs()
        specs.update((t, (t.dtype, getattr(v, "shape", ()))) for t, v in zip(runner.plan.fed, values, strict=False))
        return specs

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
            self._runners.clear()
            self._last_call, self._last_found = _NO_LAST_CALL, None
            self._resources.clear()

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
    key: tuple = (kind, tuple(fetches) if kind is list or kind is tuple else fetches, feed_keys)
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


def _one_value(key: Any, feed_dict: dict) -> tuple:
    return (feed_dict[key],)


def _no_values(feed_dict: dict) -> tuple:
    return ()


class _Callable:
    """What ``Session.make_callable`` returns."""

    def __init__(self, session: Session, fetches: Any, feed_list: list) -> None:
        self._session, self._fetches = session, fetches
        self._feed_list = feed_list
        self._runner = session._runner_for(fetches, dict.fromkeys(feed_list))
        self._last: tuple | None = None

    def __call__(self, *values: Any) -> Any:
        if len(values) != len(self._feed_list):
            raise TypeError(f"This callable takes {len(self._feed_list)} feed values, got {len(values)}")
        if self._session._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        self._last = values
        return self._runner.dispatch(values)

    @property
    def source(self) -> str:
        """The module the last call ran (before any call: the one for the static feed shapes)."""
        if self._last is not None:
            return self._session.source(self._fetches, dict(zip(self._feed_list, self._last, strict=True)))
        static = self._runner.plan
        return generate(static, static.feed_specs(), static_variable_spec).source


class InteractiveSession(Session):
    """A Session that installs itself as the default session (and graph) until closed."""

    def __init__(self, target: str = "", graph: Graph | None = None, config: Any = None,
                 backend: str | None = None) -> None:
        super().__init__(target, graph, config, backend)
        self._interactive = [self.as_default(), self._graph.as_default()]
        for c in self._interactive:
            c.__enter__()

    def close(self) -> None:
        super().close()
        for c in reversed(getattr(self, "_interactive", [])):
            with contextlib.suppress(IndexError):
                c.__exit__(None, None, None)
        self._interactive = []
