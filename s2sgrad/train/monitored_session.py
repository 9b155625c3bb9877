"""``tf.train.MonitoredSession``, ``SingularMonitoredSession`` and ``MonitoredTrainingSession``.

A monitored session calls its hooks' ``begin``, finalizes the scaffold (and the graph), creates
the session (restoring the latest checkpoint or running the init op), calls
``after_create_session``; each ``run`` adds the hooks' fetches and feeds (``before_run``) and hands
them their values (``after_run``). A hook's ``request_stop()`` makes ``should_stop()`` True.
Leaving the ``with`` block calls the hooks' ``end`` and closes the session; an ``OutOfRangeError``
(the end of the input data) or ``StopIteration`` raised inside ends the block cleanly, as in TF.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .. import errors
from ..session import Session
from ..ssa.graph import Graph
from ..summary.writer import directory_argument
from .basic_hooks import StepCounterHook
from .coordinator import Coordinator
from .saving_hooks import CheckpointSaverHook, SummarySaverHook
from .scaffold import ChiefSessionCreator, Scaffold, SessionCreator, WorkerSessionCreator
from .session_run_hook import SessionRunArgs, SessionRunContext, SessionRunHook, SessionRunValues, hook_list

__all__ = ["MonitoredSession", "SingularMonitoredSession", "MonitoredTrainingSession", "StepContext", "USE_DEFAULT"]

USE_DEFAULT = object()   # MonitoredTrainingSession's "not given" for the save_* settings
_CLEAN_ENDS = (errors.OutOfRangeError, StopIteration)


class StepContext:
    """What ``run_step_fn``'s function gets: the raw ``session``, ``run_with_hooks`` and ``request_stop``."""

    def __init__(self, session: Session, run_with_hooks: Callable[..., Any]) -> None:
        self._session, self._run_with_hooks = session, run_with_hooks
        self._stop_requested = False

    @property
    def session(self) -> Session:
        return self._session

    def run_with_hooks(self, *args: Any, **kwargs: Any) -> Any:
        return self._run_with_hooks(*args, **kwargs)

    def request_stop(self) -> None:
        self._stop_requested = True


class MonitoredSession:
    """A session that runs ``hooks`` around every run and initializes or restores itself on creation."""

    def __init__(self, session_creator: SessionCreator | None = None, hooks: Sequence[SessionRunHook] | None = None,
                 stop_grace_period_secs: float = 120) -> None:
        if session_creator is not None and not isinstance(session_creator, SessionCreator):
            raise TypeError(f"session_creator must be a tf.train.SessionCreator, got {session_creator!r}")
        hooks = hook_list(hooks)
        self._hooks = hooks   # stop_grace_period_secs: no thread to wait for (s2sgrad runs no queue runners)
        for hook in hooks:
            hook.begin()
        creator = session_creator or ChiefSessionCreator()
        self._sess = creator.create_session()
        self._coord = Coordinator()
        self._should_stop = False
        self._closed = False
        for hook in hooks:
            hook.after_create_session(self._sess, self._coord)

    @property
    def graph(self) -> Graph:
        return self._sess.graph

    def should_stop(self) -> bool:
        """Whether a hook requested a stop, the coordinator stopped, or the session is closed."""
        return self._closed or self._should_stop or self._coord.should_stop()

    def run(self, fetches: Any, feed_dict: Any = None, options: Any = None, run_metadata: Any = None) -> Any:
        """``Session.run`` of ``fetches`` plus every hook's ``before_run`` fetches and feeds."""
        if self._closed:
            raise RuntimeError("Session is already closed.")
        context = SessionRunContext(SessionRunArgs(fetches, feed_dict), self._sess)
        requests = [hook.before_run(context) for hook in self._hooks]
        feeds = dict(feed_dict or {})
        hook_fetches = []
        for hook, request in zip(self._hooks, requests, strict=True):
            if request is None:
                continue
            for key, value in (request.feed_dict or {}).items():
                if key in feeds:
                    who = "user" if feed_dict and key in feed_dict else "another SessionRunHook"
                    raise RuntimeError(f"Same tensor is fed by a SessionRunHook ({type(hook).__name__}) and {who}: "
                                       f"{getattr(key, 'name', key)}")
                feeds[key] = value
            hook_fetches.append([] if request.fetches is None else [request.fetches])
        outputs, hook_results = self._sess.run([fetches, hook_fetches], feed_dict=feeds or None, options=options,
                                               run_metadata=run_metadata)
        answered = iter(hook_results)
        for hook, request in zip(self._hooks, requests, strict=True):
            values = next(answered) if request is not None else []   # every hook's after_run is called, as in TF
            hook.after_run(context, SessionRunValues(values[0] if values else None, options, run_metadata))
        self._should_stop = self._should_stop or context.stop_requested
        return outputs

    def run_step_fn(self, step_fn: Callable[[StepContext], Any]) -> Any:
        """``step_fn(step_context)``: it may run the raw session or ``run_with_hooks``, and ``request_stop``."""
        context = StepContext(self._sess, self.run)
        value = step_fn(context)
        self._should_stop = self._should_stop or context._stop_requested
        return value

    def close(self) -> None:
        """Call the hooks' ``end`` and close the session."""
        self._close(clean=True)

    def _close(self, clean: bool) -> None:
        if self._closed:
            return
        try:
            if clean:
                for hook in self._hooks:
                    hook.end(self._sess)
        finally:
            self._closed = True
            self._coord.request_stop()
            self._sess.close()

    def __enter__(self) -> MonitoredSession:
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        clean = exc_type is None or issubclass(exc_type, _CLEAN_ENDS)
        self._close(clean)
        return exc_type is not None and clean


class SingularMonitoredSession(MonitoredSession):
    """A MonitoredSession for one process: the chief, with ``raw_session()``."""

    def __init__(self, hooks: Sequence[SessionRunHook] | None = None, scaffold: Scaffold | None = None,
                 master: str = "", config: Any = None, checkpoint_dir: str | None = None,
                 stop_grace_period_secs: float = 120, checkpoint_filename_with_path: str | None = None) -> None:
        creator = ChiefSessionCreator(scaffold=scaffold, master=master, config=config, checkpoint_dir=checkpoint_dir,
                                      checkpoint_filename_with_path=checkpoint_filename_with_path)
        super().__init__(creator, hooks, stop_grace_period_secs)

    def raw_session(self) -> Session:
        """The Session itself (its runs call no hook)."""
        return self._sess


def _pick(what: str, steps: Any, secs: Any, default_steps: int | None, default_secs: float | None) -> tuple[Any, Any]:
    """TF's rule for a (steps, secs) pair: neither given -> the defaults; one given -> the other None.
    0 and None turn saving off."""
    for name, value in ((f"save_{what}_steps", steps), (f"save_{what}_secs", secs)):
        if value is not USE_DEFAULT and value is not None and (isinstance(value, bool)
                                                               or not isinstance(value, (int, float))):
            raise TypeError(f"{name} must be a number or None, got {value!r}")
    if steps is USE_DEFAULT and secs is USE_DEFAULT:
        return default_steps, default_secs
    return (None if steps is USE_DEFAULT else steps), (None if secs is USE_DEFAULT else secs)


def MonitoredTrainingSession(master: str = "", is_chief: bool = True, checkpoint_dir: str | None = None,
                             scaffold: Scaffold | None = None, hooks: Sequence[SessionRunHook] | None = None,
                             chief_only_hooks: Sequence[SessionRunHook] | None = None,
                             save_checkpoint_secs: Any = USE_DEFAULT, save_summaries_steps: Any = USE_DEFAULT,
                             save_summaries_secs: Any = USE_DEFAULT, config: Any = None,
                             stop_grace_period_secs: float = 120, log_step_count_steps: int | None = 100,
                             max_wait_secs: float = 7200, save_checkpoint_steps: Any = USE_DEFAULT,
                             summary_dir: str | None = None, save_graph_def: bool = True) -> MonitoredSession:
    """A MonitoredSession for training: on the chief, restores from and saves checkpoints to
    ``checkpoint_dir`` (every 600 s unless ``save_checkpoint_steps``/``_secs``), writes summaries to
    ``summary_dir`` (default ``checkpoint_dir``) every 100 steps, logs steps per second every
    ``log_step_count_steps``; ``chief_only_hooks`` run on the chief only. ``max_wait_secs`` is accepted
    and unused: no chief to wait for (see ``WorkerSessionCreator``)."""
    summary_steps, summary_secs = _pick("summaries", save_summaries_steps, save_summaries_secs, 100, None)
    checkpoint_steps, checkpoint_secs = _pick("checkpoint", save_checkpoint_steps, save_checkpoint_secs, None, 600)
    if scaffold is not None and not isinstance(scaffold, Scaffold):
        raise TypeError(f"scaffold must be a tf.train.Scaffold, got {scaffold!r}")
    scaffold = scaffold or Scaffold()
    checkpoint_dir = directory_argument(checkpoint_dir, "checkpoint_dir")
    summary_dir = directory_argument(summary_dir, "summary_dir")
    if log_step_count_steps is not None and (isinstance(log_step_count_steps, bool)
                                             or not isinstance(log_step_count_steps, int)):
        raise TypeError(f"log_step_count_steps must be an int or None, got {log_step_count_steps!r}")
    all_hooks = hook_list(hooks)
    if not is_chief:
        creator: SessionCreator = WorkerSessionCreator(scaffold=scaffold, master=master, config=config,
                                                       checkpoint_dir=checkpoint_dir)
        return MonitoredSession(creator, all_hooks, stop_grace_period_secs)
    all_hooks = hook_list(chief_only_hooks, "chief_only_hooks") + all_hooks
    summary_dir = summary_dir or checkpoint_dir
    if log_step_count_steps and log_step_count_steps > 0:
        all_hooks.append(StepCounterHook(output_dir=summary_dir, every_n_steps=log_step_count_steps))
    if summary_dir and (summary_steps or summary_secs):
        all_hooks.append(SummarySaverHook(save_steps=summary_steps or None, save_secs=summary_secs or None,
                                          output_dir=summary_dir, scaffold=scaffold))
    if checkpoint_dir and (checkpoint_steps or checkpoint_secs):
        all_hooks.append(CheckpointSaverHook(checkpoint_dir, save_steps=checkpoint_steps or None,
                                             save_secs=checkpoint_secs or None, scaffold=scaffold,
                                             save_graph_def=save_graph_def))
    creator = ChiefSessionCreator(scaffold=scaffold, master=master, config=config, checkpoint_dir=checkpoint_dir)
    return MonitoredSession(creator, all_hooks, stop_grace_period_secs)
