"""``tf.train.SessionRunHook`` and what a hook sees around each ``MonitoredSession.run``:
``SessionRunArgs`` (what it adds to the run), ``SessionRunContext`` (the call, the session, a
stop request) and ``SessionRunValues`` (what its fetches returned)."""
from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["SessionRunHook", "SessionRunArgs", "SessionRunContext", "SessionRunValues", "hook_list"]


class SessionRunHook:
    """Called around a MonitoredSession's life and each of its runs; every method is optional."""

    def begin(self) -> None:
        """Before the session is created; the graph may still be changed (it is finalized after)."""

    def after_create_session(self, session: Any, coord: Any) -> None:
        """After the session is created and its variables initialized or restored."""

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs | None:
        """Before each run: return SessionRunArgs to add fetches and feeds to it."""
        return None

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        """After each run that raised nothing: ``run_values.results`` holds the values of this hook's fetches
        (None when its ``before_run`` asked for none)."""

    def end(self, session: Any) -> None:
        """When the session closes without an error (OutOfRangeError counts as none)."""


class SessionRunArgs(NamedTuple):
    """Fetches (any structure ``Session.run`` takes), feeds and options a hook adds to a run."""

    fetches: Any
    feed_dict: Any = None
    options: Any = None


class SessionRunValues(NamedTuple):
    """What a hook's ``SessionRunArgs.fetches`` returned, with the run's options and metadata."""

    results: Any
    options: Any
    run_metadata: Any


class SessionRunContext:
    """The run being made (``original_args``: the caller's fetches and feeds) and the session; a hook
    may ``request_stop()``, after which ``MonitoredSession.should_stop()`` is True."""

    def __init__(self, original_args: SessionRunArgs, session: Any) -> None:
        self._original_args = original_args
        self._session = session
        self._stop_requested = False

    @property
    def original_args(self) -> SessionRunArgs:
        return self._original_args

    @property
    def session(self) -> Any:
        return self._session

    @property
    def stop_requested(self) -> bool:
        return self._stop_requested

    def request_stop(self) -> None:
        """End the loop after this run: ``should_stop()`` becomes True."""
        self._stop_requested = True


def hook_list(hooks: Any, what: str = "hooks") -> list[SessionRunHook]:
    """``hooks`` (None, a list or a tuple of SessionRunHooks) as a list; TypeError naming ``what`` otherwise."""
    if hooks is None:
        return []
    if not isinstance(hooks, (list, tuple)):
        raise TypeError(f"{what} must be a list of SessionRunHook instances, got {hooks!r}")
    for hook in hooks:
        if not isinstance(hook, SessionRunHook):
            raise TypeError(f"{what} must be SessionRunHook instances, got {hook!r}")
    return list(hooks)
