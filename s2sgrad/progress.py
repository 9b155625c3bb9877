"""A one-line status on standard error for work that takes more than about a second.

``with status("compiling run (3004 ops)"):`` prints ``s2sgrad: compiling run (3004 ops)...`` once
the work has taken ``S2SGRAD_PROGRESS_DELAY`` seconds (default 1), and `` done in 2.3 s`` when it
ends; only when standard error is a terminal, and never with ``S2SGRAD_PROGRESS=off``. Work nested
inside a status is part of it and says nothing of its own. Nothing runs when the line cannot be
shown: no thread is started unless standard error is a terminal.
"""
from __future__ import annotations

import contextlib
import functools
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

__all__ = ["status", "reported", "enabled", "PROGRESS_ENV", "DELAY_ENV"]

PROGRESS_ENV = "S2SGRAD_PROGRESS"
DELAY_ENV = "S2SGRAD_PROGRESS_DELAY"
_local = threading.local()
_lock = threading.Lock()
F = TypeVar("F", bound=Callable[..., Any])


def enabled() -> bool:
    """Whether a status line may be shown now: standard error is a terminal and not turned off."""
    if os.environ.get(PROGRESS_ENV, "").strip().lower() in ("off", "0", "no", "false"):
        return False
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced by an object without isatty, or closed
        return False


def _delay() -> float:
    try:
        return max(0.0, float(os.environ.get(DELAY_ENV, "1")))
    except ValueError:
        return 1.0


@contextlib.contextmanager
def status(text: str) -> Iterator[None]:
    """Say ``text`` on standard error if the work inside takes more than the delay."""
    if getattr(_local, "active", False) or not enabled():
        yield
        return
    _local.active = True
    start = time.perf_counter()
    finished = threading.Event()
    shown: list[bool] = []
    stream = sys.stderr

    def show() -> None:
        if not finished.wait(_delay()):
            with _lock:
                if not finished.is_set():
                    stream.write(f"s2sgrad: {text}...")
                    stream.flush()
                    shown.append(True)

    reporter = threading.Thread(target=show, name="s2sgrad-progress", daemon=True)
    reporter.start()
    try:
        yield
    finally:
        with _lock:
            finished.set()
            if shown:
                stream.write(f" done in {time.perf_counter() - start:.1f} s\n")
                stream.flush()
        _local.active = False


def reported(text: str) -> Callable[[F], F]:
    """A decorator: each call of the function runs inside ``status(text)``."""
    def decorate(function: F) -> F:
        @functools.wraps(function)
        def call(*args: Any, **kwargs: Any) -> Any:
            with status(text):
                return function(*args, **kwargs)
        return call  # type: ignore[return-value]
    return decorate
