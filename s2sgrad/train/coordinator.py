"""``tf.train.Coordinator``: a stop flag that threads share, with the first exception reported."""
from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any

from .. import errors

__all__ = ["Coordinator"]


class Coordinator:
    """Threads check ``should_stop()``; any of them ``request_stop(ex)``; ``join()`` waits and re-raises
    the first exception reported."""

    def __init__(self, clean_stop_exception_types: Iterable[type] | None = None) -> None:
        self._clean_stop = tuple(clean_stop_exception_types or (errors.OutOfRangeError,))
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info: Any = None
        self._threads: set[threading.Thread] = set()
        self._joined = False

    def request_stop(self, ex: BaseException | tuple | None = None) -> None:
        """Ask every thread to stop; ``ex`` (an exception or ``sys.exc_info()``) is re-raised by ``join``
        unless it is a clean stop (OutOfRangeError by default) or another one came first."""
        with self._lock:
            if isinstance(ex, BaseException):
                ex = (type(ex), ex, ex.__traceback__)
            if ex and self._exc_info is None and not issubclass(ex[0], self._clean_stop):
                self._exc_info = ex
            self._stop_event.set()

    def clear_stop(self) -> None:
        """Forget the stop request and the exception, so the threads can run again."""
        with self._lock:
            self._joined = False
            self._exc_info = None
            self._stop_event.clear()

    def should_stop(self) -> bool:
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self) -> Iterator[None]:
        """``with coord.stop_on_exception():`` an exception inside requests a stop instead of escaping."""
        try:
            yield
        except BaseException:  # every exception is reported to the coordinator, as in TF
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout: float | None = None) -> bool:
        """Wait until a stop is requested (at most ``timeout`` seconds); whether it was."""
        return self._stop_event.wait(timeout)

    def register_thread(self, thread: threading.Thread) -> None:
        with self._lock:
            self._threads.add(thread)

    def join(self, threads: Iterable[threading.Thread] | None = None, stop_grace_period_secs: float = 120,
             ignore_live_threads: bool = False) -> None:
        """Wait for a stop request, then for the threads (at most ``stop_grace_period_secs``); re-raise the
        reported exception; RuntimeError naming threads still alive unless ``ignore_live_threads``."""
        with self._lock:
            all_threads = self._threads | set(threads or ())
        self._stop_event.wait()
        deadline = time.time() + stop_grace_period_secs
        for thread in all_threads:
            thread.join(max(0.0, deadline - time.time()))
        self._joined = True
        if self._exc_info is not None:
            raise self._exc_info[1].with_traceback(self._exc_info[2])
        alive = sorted(t.name for t in all_threads if t.is_alive())
        if alive and not ignore_live_threads:
            raise RuntimeError(f"Coordinator stopped with threads still running: {' '.join(alive)}")

    @property
    def joined(self) -> bool:
        return self._joined

    def raise_requested_exception(self) -> None:
        """Re-raise the exception a thread reported, if any."""
        with self._lock:
            if self._exc_info is not None:
                raise self._exc_info[1].with_traceback(self._exc_info[2])
