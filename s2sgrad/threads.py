"""How many BLAS threads the compiled steps of sessions and decorated functions use.

One process-wide setting, ``S2SGRAD_BLAS_THREADS`` in the environment or ``set_blas_threads(...)``:

- ``"auto"`` (the default): each compiled step (one per fetches, feeds and feed shapes; for a
  decorated function, one per argument signature) times itself.
  A step shorter than ``SHORT_STEP`` leaves the BLAS alone (its products are too small for threads
  to matter); a longer one runs a few times with the BLAS's own thread count and a few times with one
  thread, alternately (once each when one is more than ``CLEAR`` times slower and the faster is not
  short: the first one-thread run after more threads also waits for them to park, 60-130 µs
  measured here, which alone must not make a short step look long), and then keeps the
  faster, re-measuring after ``RECHECK`` seconds (then at growing intervals while the choice stands)
  so that a machine becoming busy (or quiet) is followed. A step running on one thread skips the
  re-measurement of more (and backs off as if they had lost again) when the machine had less than
  ``SPARE`` of a core idle since the last choice (``/proc/stat``): more threads would only fight the
  other processes for the cores, and a run that finds this out can cost ten single-threaded ones.
  For the same reason a measurement picks one thread without timing more when, before its first two
  runs (and then most of its runs), other processes' runnable threads left no core for a second one
  (``/proc/loadavg`` less this process's running threads): on a crowded machine single timed runs are
  preempted at random and their medians pick the wrong count half the time. Its one-thread runs are
  still timed, as many as a measurement's, to tell a short step by the fastest of them.
  On a loaded machine, or for thin products such as a convolution's (50176x9)@(9x16), one thread
  wins; for large products on idle cores, all of them.
- an integer ``n`` >= 1: every step runs with ``n`` BLAS threads.
- ``"off"``: s2sgrad never changes the BLAS threads.

A session made with ``tf.ConfigProto(intra_op_parallelism_threads=n)``, n > 0, uses ``n`` threads
instead (held while it is open; see platform/session_config.py). ``inter_op_parallelism_threads`` is
accepted and recorded: the ops of a step run one after another, so there is no inter-op pool.
The thread count is restored after every step, so NumPy code outside ``Session.run`` and decorated
functions is unaffected.

Changing threads needs threadpoolctl (``pip install s2sgrad[threads]``); without it ``"auto"`` leaves
the BLAS as it is and an explicit count warns once.
"""
from __future__ import annotations

import functools
import importlib
import math
import os
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

__all__ = ["MAX_RECHECK", "RECHECK", "SHORT_STEP", "SPARE", "THREADS_EXTRA", "blas_threads_setting",
           "set_blas_threads", "tuned_step"]

THREADS_EXTRA = "pip install s2sgrad[threads]"
SHORT_STEP = 2e-4   # seconds: steps faster than this are left to the BLAS's own choice
RECHECK = 2.0       # seconds to the first re-measurement of a step's best thread count
MAX_RECHECK = 32.0  # seconds: the longest interval between re-measurements
PROBES = 3          # timed runs per candidate thread count in one measurement
CLEAR = 2.0         # a candidate this many times slower than another loses after one run
SPARE = 0.5         # cores idle on average, at least, for a one-thread step to try more threads again

_setting: list[str | int] = []   # the current setting (empty until first read)


def _parse(value: Any, source: str) -> str | int:
    if isinstance(value, str) and value.strip().lower() in ("auto", "off"):
        return value.strip().lower()
    try:
        threads = int(value)
    except (TypeError, ValueError):
        threads = 0
    if isinstance(value, bool) or threads < 1:
        raise ValueError(f"{source} must be 'auto', 'off' or a thread count >= 1, got {value!r}")
    return threads


def blas_threads_setting() -> str | int:
    """The current setting: ``"auto"``, ``"off"`` or a thread count."""
    if not _setting:
        _setting.append(_parse(os.environ.get("S2SGRAD_BLAS_THREADS", "auto"), "S2SGRAD_BLAS_THREADS"))
    return _setting[0]


def set_blas_threads(value: str | int) -> None:
    """Set how steps compiled from now on choose BLAS threads: ``"auto"``, ``"off"`` or a count."""
    _setting[:] = [_parse(value, "set_blas_threads(value)")]


@functools.cache
def _blas_controllers() -> tuple:
    """threadpoolctl's controllers of the loaded BLAS libraries (empty without threadpoolctl)."""
    try:
        threadpoolctl = importlib.import_module("threadpoolctl")   # optional: the [threads] extra
        return tuple(threadpoolctl.ThreadpoolController().select(user_api="blas").lib_controllers)
    except (ImportError, AttributeError):   # not installed, or one without ThreadpoolController (< 3)
        return ()


@functools.cache
def _warn_missing(threads: int) -> None:
    warnings.warn(f"S2SGRAD_BLAS_THREADS={threads} needs threadpoolctl to change NumPy's BLAS threads "
                  f"({THREADS_EXTRA}); running with the BLAS default", stacklevel=3)


def _set_threads(controllers: tuple, threads: int) -> None:
    for controller in controllers:
        controller.set_num_threads(threads)


def _with_threads(step: Callable, controllers: tuple, threads: int) -> Callable:
    """``step`` run with ``threads`` BLAS threads, the previous count restored after."""
    def run(*feeds: Any) -> Any:
        before = controllers[0].num_threads
        _set_threads(controllers, threads)
        try:
            return step(*feeds)
        finally:
            _set_threads(controllers, before)
    run.__wrapped__ = step   # type: ignore[attr-defined]  # inspect.unwrap(...) finds the step itself
    return run


def tuned_step(step: Callable, replace: Callable[[Callable], None]) -> Callable:
    """``step`` (``step(*feeds)``) run with BLAS threads chosen by the setting. ``replace(f)`` installs
    ``f`` as the step from the next call on: a short step under ``"auto"`` hands back the bare step."""
    setting = blas_threads_setting()
    controllers = _blas_controllers()
    if setting == "off":
        return step
    if not controllers:
        if isinstance(setting, int):
            _warn_missing(setting)
        return step
    if isinstance(setting, int):
        return _with_threads(step, controllers, setting)
    return _AutoThreads(step, controllers, replace)


class _AutoThreads:
    """The ``"auto"`` policy for one step: measure each candidate thread count, keep the fastest.

    A re-measurement times each candidate once; when the choice stands, the next one comes after
    twice the interval (up to ``MAX_RECHECK``), so a slow candidate costs little; when it falls, a full
    measurement follows."""

    def __init__(self, step: Callable, controllers: tuple, replace: Callable[[Callable], None]) -> None:
        self.step, self.controllers, self.replace = step, controllers, replace
        self.__wrapped__ = step   # inspect.unwrap(...) finds the step itself
        self.first = True
        self.recheck_at = 0.0
        self.interval = RECHECK
        self.probes = PROBES     # runs per candidate in the current measurement
        self.times: dict[int, list[float]] = {}
        self.choice = 0          # the thread count chosen (0: none yet)
        self.best: Callable = step
        self.ticks: tuple[int, int] | None = None   # the machine's CPU ticks when the choice was made
        self.crowding: list[bool] = []   # per run of this measurement: no core was free for a second thread

    def __call__(self, *feeds: Any) -> Any:
        if self.first:   # compiles, allocates and fills caches: not representative
            self.first = False
            return self.step(*feeds)
        if not self.times:
            if time.perf_counter() < self.recheck_at:
                return self.best(*feeds)
            default = self.controllers[0].num_threads
            if default <= 1:
                self.replace(self.step)
                return self.step(*feeds)
            if self.choice == 1 and not self._spare_core():
                self._stands()
                return self.best(*feeds)
            self.times = {1: [], default: []}
        return self._measure(feeds)

    def _spare_core(self) -> bool:
        """Whether the machine had ``SPARE`` of a core idle since the last choice (True when unknown)."""
        before, now = self.ticks, _cpu_ticks()
        self.ticks = now
        if before is None or now is None or now[1] <= before[1]:
            return True
        return (now[0] - before[0]) / (now[1] - before[1]) * (os.cpu_count() or 1) >= SPARE

    def _stands(self) -> None:
        """The choice stands: the next re-measurement after twice the interval (at most ``MAX_RECHECK``)."""
        self.interval = min(2 * self.interval, MAX_RECHECK)
        self.recheck_at = time.perf_counter() + self.interval

    def _measure(self, feeds: tuple) -> Any:
        times = self.times   # this measurement's (another thread's run may end it meanwhile)
        if not times:
            return self.best(*feeds)
        crowding = self.crowding
        crowding.append(_crowded())
        if len(crowding) >= 2 and 2 * sum(crowding) > len(crowding):   # one thread wins: only it is timed
            if len(times[1]) >= self.probes:
                one = min(times[1])   # the first run after more threads also waits for them to park
                if one < SHORT_STEP:   # too short for threads to matter, as a full measurement would find
                    self.replace(self.step)
                self._decide({n: one if n == 1 else math.inf for n in times})
                return self.best(*feeds)
            threads = 1
        else:
            threads = min(times, key=lambda n: len(times[n]))   # alternate the candidates, one thread first
        run = _with_threads(self.step, self.controllers, threads)
        start = time.perf_counter()
        result = run(*feeds)
        times[threads].append(time.perf_counter() - start)
        if times is not self.times:
            return result
        fastest = {n: min(t) for n, t in times.items() if t}
        quick = min(fastest.values())
        if len(fastest) == len(times) and max(fastest.values()) > CLEAR * quick and quick >= SHORT_STEP:
            self._decide(fastest)   # one count is far slower: more runs of it would only cost time
        elif all(len(t) >= self.probes for t in times.values()):
            self._decide({n: statistics.median(t) for n, t in times.items()})
        return result

    def _decide(self, medians: dict[int, float]) -> None:
        best = min(medians, key=medians.__getitem__)
        self.crowding = []
        if self.probes == 1 and best != self.choice:   # the choice fell: measure properly again
            self.times, self.probes, self.interval = {n: [] for n in medians}, PROBES, RECHECK
            return
        if max(medians.values()) < SHORT_STEP:
            self.replace(self.step)
        if self.probes == 1:
            self._stands()
        else:
            self.recheck_at = time.perf_counter() + self.interval
        self.choice, self.probes, self.times = best, 1, {}
        default = max(medians)   # the candidates: the BLAS's own count and 1
        self.best = self.step if best == default else _with_threads(self.step, self.controllers, best)
        self.ticks = _cpu_ticks()


def _crowded() -> bool:
    """Whether other processes' runnable threads, right now, leave no core idle for a second BLAS
    thread of ours (``/proc/loadavg``'s running count less this process's running threads); False
    when unknown."""
    spare = (os.cpu_count() or 1) - 1   # cores besides the one this thread runs on
    try:
        with open("/proc/loadavg", "rb") as f:
            running = int(f.read().split()[3].split(b"/")[0])
        if running - 1 < spare:   # this thread is one of them
            return False
        own = 0
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/stat", "rb") as f:
                own += f.read().rsplit(b")", 1)[1].split()[0] == b"R"
    except (OSError, ValueError, IndexError):
        return False
    return running - own >= spare


def _cpu_ticks() -> tuple[int, int] | None:
    """The machine's idle and total CPU time so far, in clock ticks (``/proc/stat``); None without it."""
    try:
        with open("/proc/stat", "rb") as f:
            ticks = [int(v) for v in f.readline().split()[1:9]]   # user nice system idle iowait irq softirq steal
    except (OSError, ValueError):
        return None
    return ticks[3] + ticks[4], sum(ticks)
