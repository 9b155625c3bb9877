"""The hooks that need no files: ``StopAtStepHook``, ``StepCounterHook``, ``LoggingTensorHook``,
``NanTensorHook``, ``FinalOpsHook``, ``FeedFnHook``, and ``SecondOrStepTimer`` that paces them."""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ..codegen.runtime_summary import scalar_summary
from ..platform import tf_logging as logging
from ..summary.writer import FileWriterCache
from .optimizer import get_global_step
from .session_run_hook import SessionRunArgs, SessionRunContext, SessionRunHook, SessionRunValues

__all__ = ["SecondOrStepTimer", "StopAtStepHook", "StepCounterHook", "LoggingTensorHook", "NanTensorHook",
           "NanLossDuringTrainingError", "FinalOpsHook", "FeedFnHook", "required_global_step", "triggered_step"]


def required_global_step(hook: str) -> Any:
    """The graph's global step; RuntimeError naming ``hook`` when there is none."""
    step = get_global_step()
    if step is None:
        raise RuntimeError(f"Global step should be created to use {hook}.")
    return step


class SecondOrStepTimer:
    """Triggers every ``every_secs`` seconds or every ``every_steps`` steps (exactly one of them)."""

    def __init__(self, every_secs: float | None = None, every_steps: int | None = None) -> None:
        if (every_secs is None) == (every_steps is None):
            raise ValueError("exactly one of every_steps and every_secs should be provided.")
        if every_steps is not None and (isinstance(every_steps, bool) or not isinstance(every_steps, int)
                                        or every_steps <= 0):
            raise ValueError(f"every_steps must be a positive int, got {every_steps!r}")
        if every_secs is not None and (isinstance(every_secs, bool) or not isinstance(every_secs, (int, float))
                                       or not every_secs > 0):
            raise ValueError(f"every_secs must be a positive number, got {every_secs!r}")
        self._every_secs, self._every_steps = every_secs, every_steps
        self.reset()

    def reset(self) -> None:
        self._last_time: float | None = None
        self._last_step: int | None = None

    def should_trigger_for_step(self, step: int) -> bool:
        """True the first time, then when ``every_secs`` have passed or ``every_steps`` steps were made."""
        if self._last_step is None:
            return True
        if self._last_step == step:
            return False
        if self._every_secs is not None and self._last_time is not None:
            return time.time() >= self._last_time + self._every_secs
        return self._every_steps is not None and step >= self._last_step + self._every_steps

    def update_last_triggered_step(self, step: int) -> tuple[float | None, int | None]:
        """Record a trigger at ``step``; (seconds, steps) since the previous one, or (None, None)."""
        now = time.time()
        elapsed = (None, None) if self._last_time is None or self._last_step is None else \
            (now - self._last_time, step - self._last_step)
        self._last_time, self._last_step = now, step
        return elapsed

    def last_triggered_step(self) -> int | None:
        return self._last_step


def triggered_step(timer: SecondOrStepTimer, stale_step: Any, session: Any, global_step: Any) -> int | None:
    """The global step after a run when ``timer`` triggers for it, else None. ``stale_step`` is the step
    read by the run (before its update); the session is asked for the new one only when it may trigger."""
    if timer.should_trigger_for_step(int(stale_step) + 1):
        step = int(session.run(global_step))
        if timer.should_trigger_for_step(step):
            return step
    return None


class StopAtStepHook(SessionRunHook):
    """Requests a stop once the global step reaches ``last_step`` (or ``num_steps`` past its value when
    the session was created)."""

    def __init__(self, num_steps: int | None = None, last_step: int | None = None) -> None:
        if num_steps is None and last_step is None:
            raise ValueError("One of num_steps or last_step must be specified.")
        if num_steps is not None and last_step is not None:
            raise ValueError("Only one of num_steps or last_step can be specified.")
        for what, value in (("num_steps", num_steps), ("last_step", last_step)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise ValueError(f"{what} must be a non-negative int, got {value!r}")
        self._num_steps, self._last_step = num_steps, last_step

    def begin(self) -> None:
        self._global_step = required_global_step("StopAtStepHook")

    def after_create_session(self, session: Any, coord: Any) -> None:
        step = int(session.run(self._global_step))
        if self._last_step is None:
            self._last_step = step + (self._num_steps or 0)

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs:
        return SessionRunArgs(self._global_step)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        last = self._last_step if self._last_step is not None else 0   # set by after_create_session
        if int(run_values.results) + 1 >= last:  # the step read before the run: check the new one
            if int(run_context.session.run(self._global_step)) >= last:
                run_context.request_stop()


class StepCounterHook(SessionRunHook):
    """Logs (and with ``output_dir`` or ``summary_writer``, writes as ``global_step/sec``) the steps per second."""

    def __init__(self, every_n_steps: int | None = 100, every_n_secs: float | None = None,
                 output_dir: str | None = None, summary_writer: Any = None) -> None:
        if (every_n_steps is None) == (every_n_secs is None):
            raise ValueError("exactly one of every_n_steps and every_n_secs should be provided.")
        self._timer = SecondOrStepTimer(every_steps=every_n_steps, every_secs=every_n_secs)
        self._output_dir, self._writer = output_dir, summary_writer

    def begin(self) -> None:
        if self._writer is None and self._output_dir:
            self._writer = FileWriterCache.get(self._output_dir)
        self._global_step = required_global_step("StepCounterHook")
        self._tag = f"{self._global_step.op.name}/sec"

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs:
        return SessionRunArgs(self._global_step)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        step = triggered_step(self._timer, run_values.results, run_context.session, self._global_step)
        if step is not None:
            seconds, steps = self._timer.update_last_triggered_step(step)
            if seconds is not None and steps is not None and seconds > 0:
                rate = steps / seconds
                if self._writer is not None:
                    self._writer.add_summary(scalar_summary(self._tag, rate), step)
                logging.info("%s: %g", self._tag, rate)


class LoggingTensorHook(SessionRunHook):
    """Logs the values of ``tensors`` (a dict tag -> tensor or name, or a list) every ``every_n_iter``
    runs or ``every_n_secs`` seconds, and/or ``at_end``; ``formatter(values_by_tag)`` makes the line."""

    def __init__(self, tensors: Any, every_n_iter: int | None = None, every_n_secs: float | None = None,
                 at_end: bool = False, formatter: Callable[[dict], str] | None = None) -> None:
        if not at_end and (every_n_iter is None) == (every_n_secs is None):
            raise ValueError("either at_end and/or exactly one of every_n_iter and every_n_secs must be provided.")
        if every_n_iter is not None and (isinstance(every_n_iter, bool) or not isinstance(every_n_iter, int)
                                         or every_n_iter <= 0):
            raise ValueError(f"invalid every_n_iter={every_n_iter}.")
        if formatter is not None and not callable(formatter):
            raise TypeError(f"formatter must be a function of the values by tag, got {formatter!r}")
        if isinstance(tensors, dict):
            self._tag_order = sorted(tensors)
        else:
            tensors = list(tensors) if isinstance(tensors, (list, tuple)) else [tensors]
            for t in tensors:
                if not isinstance(t, str) and not isinstance(getattr(t, "name", None), str):
                    raise TypeError(f"LoggingTensorHook logs tensors (or their names), got {t!r}")
            self._tag_order = [t if isinstance(t, str) else t.name for t in tensors]
            tensors = dict(zip(self._tag_order, tensors, strict=True))
        self._tensors = tensors
        self._timer = SecondOrStepTimer(every_secs=every_n_secs, every_steps=every_n_iter) \
            if every_n_iter is not None or every_n_secs is not None else None
        self._at_end, self._formatter = at_end, formatter

    def begin(self) -> None:
        self._iter_count = 0
        if self._timer is not None:
            self._timer.reset()

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs | None:
        self._should_log = self._timer is not None and self._timer.should_trigger_for_step(self._iter_count)
        return SessionRunArgs(self._tensors) if self._should_log else None

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        if self._should_log:
            self._log(run_values.results)
        self._iter_count += 1

    def end(self, session: Any) -> None:
        if self._at_end:
            self._log(session.run(self._tensors))

    def _log(self, values: dict) -> None:
        seconds = self._timer.update_last_triggered_step(self._iter_count)[0] if self._timer is not None else None
        with np.printoptions(suppress=True):
            if self._formatter is not None:
                logging.info(self._formatter(values))
                return
            line = ", ".join(f"{tag} = {values[tag]}" for tag in self._tag_order)
        if seconds is not None:
            logging.info("%s (%.3f sec)", line, seconds)
        else:
            logging.info("%s", line)


class NanLossDuringTrainingError(RuntimeError):
    """Raised by NanTensorHook when the loss is NaN."""

    def __str__(self) -> str:
        return "NaN loss during training."


class NanTensorHook(SessionRunHook):
    """Raises NanLossDuringTrainingError (or, with ``fail_on_nan_loss=False``, requests a stop) when
    ``loss_tensor`` is NaN."""

    def __init__(self, loss_tensor: Any, fail_on_nan_loss: bool = True) -> None:
        self._loss, self._fail = loss_tensor, fail_on_nan_loss

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs:
        return SessionRunArgs(self._loss)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        if np.any(np.isnan(run_values.results)):
            message = "Model diverged with loss = NaN."
            if self._fail:
                logging.error(message)
                raise NanLossDuringTrainingError
            logging.warning(message)
            run_context.request_stop()


class FinalOpsHook(SessionRunHook):
    """Runs ``final_ops`` when the session ends; their values are ``final_ops_values``."""

    def __init__(self, final_ops: Any, final_ops_feed_dict: Any = None) -> None:
        self._final_ops, self._feed = final_ops, final_ops_feed_dict
        self._values: Any = None

    @property
    def final_ops_values(self) -> Any:
        return self._values

    def end(self, session: Any) -> None:
        if self._final_ops is not None:
            self._values = session.run(self._final_ops, feed_dict=self._feed)


class FeedFnHook(SessionRunHook):
    """Feeds every run with ``feed_fn()``'s dict."""

    def __init__(self, feed_fn: Callable[[], dict]) -> None:
        if not callable(feed_fn):
            raise TypeError(f"feed_fn must be a function returning a feed dict, got {feed_fn!r}")
        self.feed_fn = feed_fn

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs:
        return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())
