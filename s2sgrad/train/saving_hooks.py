"""The hooks that write files: ``CheckpointSaverHook`` (with ``CheckpointSaverListener``s) and
``SummarySaverHook``. Both pace themselves on the global step with a ``SecondOrStepTimer``."""
from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from ..graph_keys import GraphKeys
from ..platform import tf_logging as logging
from ..ssa.graph import get_default_graph
from ..summary.events import SessionLog
from ..summary.writer import FileWriterCache, directory_argument
from .basic_hooks import SecondOrStepTimer, required_global_step, triggered_step
from .session_run_hook import SessionRunArgs, SessionRunContext, SessionRunHook, SessionRunValues

__all__ = ["CheckpointSaverListener", "CheckpointSaverHook", "SummarySaverHook"]


class CheckpointSaverListener:
    """Called around each save of a CheckpointSaverHook; ``after_save`` returning True stops training."""

    def begin(self) -> None:
        """Before the session is created."""

    def before_save(self, session: Any, global_step_value: int) -> None:
        """Just before a checkpoint is written."""

    def after_save(self, session: Any, global_step_value: int) -> bool | None:
        """Just after; True requests a stop."""
        return None

    def end(self, session: Any, global_step_value: int) -> None:
        """After the last save."""


class CheckpointSaverHook(SessionRunHook):
    """Saves ``<checkpoint_dir>/model.ckpt-<step>`` when the session starts, every ``save_secs`` seconds
    or ``save_steps`` steps, and at the end; writes a CHECKPOINT SessionLog to the directory's event file.

    The graph itself goes to the event file (``save_graph_def``); no ``graph.pbtxt`` or ``.meta`` is
    written (s2sgrad has no TensorFlow GraphDef/MetaGraphDef text to give)."""

    def __init__(self, checkpoint_dir: str, save_secs: float | None = None, save_steps: int | None = None,
                 saver: Any = None, checkpoint_basename: str = "model.ckpt", scaffold: Any = None,
                 listeners: Sequence[CheckpointSaverListener] | None = None, save_graph_def: bool = True) -> None:
        if saver is not None and scaffold is not None:
            raise ValueError("You cannot provide both saver and scaffold.")
        self._saver, self._scaffold = saver, scaffold
        self._checkpoint_dir = directory_argument(checkpoint_dir, "checkpoint_dir", required=True)
        self._save_path = os.path.join(self._checkpoint_dir, checkpoint_basename)
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._listeners = list(listeners or [])
        self._save_graph_def = save_graph_def

    def begin(self) -> None:
        self._writer = FileWriterCache.get(self._checkpoint_dir)
        self._global_step = required_global_step("CheckpointSaverHook")
        for listener in self._listeners:
            listener.begin()

    def after_create_session(self, session: Any, coord: Any) -> None:
        step = int(session.run(self._global_step))
        if self._save_graph_def:
            self._writer.add_graph(session.graph)
        self._save(session, step)
        self._timer.update_last_triggered_step(step)

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs:
        return SessionRunArgs(self._global_step)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        step = triggered_step(self._timer, run_values.results, run_context.session, self._global_step)
        if step is not None:
            self._timer.update_last_triggered_step(step)
            if self._save(run_context.session, step):
                run_context.request_stop()

    def end(self, session: Any) -> None:
        step = int(session.run(self._global_step))
        if step != self._timer.last_triggered_step():
            self._save(session, step)
        for listener in self._listeners:
            listener.end(session, step)

    def _get_saver(self) -> Any:
        """The saver given, the scaffold's, or the one in the graph's ``savers`` collection."""
        if self._saver is not None:
            return self._saver
        if self._scaffold is not None:
            return self._scaffold.saver
        savers = get_default_graph().get_collection(GraphKeys.SAVERS)
        if len(savers) != 1:
            raise RuntimeError(f"{'No' if not savers else 'More than one'} item in collection {GraphKeys.SAVERS}. "
                               "Please add a saver to the collection or provide a saver or scaffold.")
        self._saver = savers[0]
        return self._saver

    def _save(self, session: Any, step: int) -> bool:
        """Write the checkpoint of ``step``; whether a listener asked to stop."""
        logging.info("Saving checkpoints for %d into %s.", step, self._save_path)
        for listener in self._listeners:
            listener.before_save(session, step)
        saver = self._get_saver()
        path = saver.save(session, self._save_path, global_step=step, write_meta_graph=self._save_graph_def)
        self._writer.add_session_log(SessionLog(status=SessionLog.CHECKPOINT, checkpoint_path=path), step)
        self._writer.flush()
        stops = [bool(listener.after_save(session, step)) for listener in self._listeners]   # every one is told
        return any(stops)


class SummarySaverHook(SessionRunHook):
    """Runs the summary op (``summary_op``, or the scaffold's) every ``save_steps`` steps or ``save_secs``
    seconds and writes its value to ``output_dir``'s event file at the global step, after a START SessionLog."""

    def __init__(self, save_steps: int | None = None, save_secs: float | None = None, output_dir: str | None = None,
                 summary_writer: Any = None, scaffold: Any = None, summary_op: Any = None) -> None:
        if (scaffold is None) == (summary_op is None):
            raise ValueError("Exactly one of scaffold or summary_op must be provided.")
        if output_dir is None and summary_writer is None:
            raise ValueError("SummarySaverHook needs output_dir or summary_writer")
        self._summary_op, self._scaffold = summary_op, scaffold
        self._writer, self._output_dir = summary_writer, directory_argument(output_dir, "output_dir")
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

    def begin(self) -> None:
        if self._writer is None:
            self._writer = FileWriterCache.get(self._output_dir)
        self._next_step: int | None = None
        self._global_step = required_global_step("SummarySaverHook")

    def _summaries(self) -> list:
        op = self._summary_op if self._summary_op is not None else self._scaffold.summary_op
        if op is None:
            return []
        return list(op) if isinstance(op, (list, tuple)) else [op]

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs:
        self._request_summary = self._next_step is None or self._timer.should_trigger_for_step(self._next_step)
        requests: dict[str, Any] = {"global_step": self._global_step}
        if self._request_summary and self._summaries():
            requests["summary"] = self._summaries()
        return SessionRunArgs(requests)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        step = int(run_values.results["global_step"]) + 1
        if self._next_step is None or self._request_summary:
            step = int(run_context.session.run(self._global_step))
        if self._next_step is None:
            self._writer.add_session_log(SessionLog(status=SessionLog.START), step)
        if self._request_summary:
            self._timer.update_last_triggered_step(step)
            for summary in run_values.results.get("summary", []):
                self._writer.add_summary(summary, step)
        self._next_step = step + 1

    def end(self, session: Any = None) -> None:
        self._writer.flush()
