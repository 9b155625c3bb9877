"""``tf.logging``: TF-1.x's logging functions on Python's ``logging``, under the logger named
``"tensorflow"`` as in TF (so ``logging.getLogger("tensorflow")`` configures it). The default
verbosity is WARN; messages print as ``INFO:tensorflow:...`` on stderr unless the root logger
has handlers of its own. ``fatal`` logs at FATAL and does not exit, as in TF."""
from __future__ import annotations

import logging
import sys
import threading
from typing import Any

from ..tf1_api import missing_names as _missing_names

__all__ = [
    "DEBUG",
    "ERROR",
    "FATAL",
    "INFO",
    "WARN",
    "debug",
    "error",
    "fatal",
    "flush",
    "get_logger",
    "get_verbosity",
    "info",
    "log",
    "log_every_n",
    "log_first_n",
    "log_if",
    "set_verbosity",
    "vlog",
    "warn",
    "warning",
]

DEBUG, INFO, WARN, ERROR, FATAL = logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR, logging.FATAL
LOGGER_NAME = "tensorflow"

_setup_lock = threading.Lock()
_counts: dict[tuple, int] = {}   # per call site of log_every_n / log_first_n


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is when a record is emitted (redirections apply)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


def get_logger() -> logging.Logger:
    """The ``"tensorflow"`` logger; on first use it gets a stderr handler if the root logger has none."""
    logger = logging.getLogger(LOGGER_NAME)
    with _setup_lock:
        if not logger.handlers and not logging.getLogger().handlers:
            handler = _StderrHandler()
            handler.setFormatter(logging.Formatter(logging.BASIC_FORMAT))
            logger.addHandler(handler)
    return logger


def set_verbosity(v: int | str) -> None:
    """Log messages at level ``v`` (e.g. ``tf.logging.INFO``) and above."""
    get_logger().setLevel(v)


def get_verbosity() -> int:
    return get_logger().getEffectiveLevel()


def log(level: int, msg: Any, *args: Any, **kwargs: Any) -> None:
    get_logger().log(level, msg, *args, stacklevel=2, **kwargs)


def debug(msg: Any, *args: Any, **kwargs: Any) -> None:
    get_logger().debug(msg, *args, stacklevel=2, **kwargs)


def info(msg: Any, *args: Any, **kwargs: Any) -> None:
    get_logger().info(msg, *args, stacklevel=2, **kwargs)


def warning(msg: Any, *args: Any, **kwargs: Any) -> None:
    get_logger().warning(msg, *args, stacklevel=2, **kwargs)


warn = warning


def error(msg: Any, *args: Any, **kwargs: Any) -> None:
    get_logger().error(msg, *args, stacklevel=2, **kwargs)


def fatal(msg: Any, *args: Any, **kwargs: Any) -> None:
    get_logger().log(FATAL, msg, *args, stacklevel=2, **kwargs)


vlog = log


def log_if(level: int, msg: Any, condition: Any, *args: Any) -> None:
    if condition:
        get_logger().log(level, msg, *args, stacklevel=2)


def _next_count() -> int:
    """How often the caller's caller (a log_every_n / log_first_n call site) was reached before."""
    frame = sys._getframe(2)
    site = (frame.f_code.co_filename, frame.f_lineno)
    with _setup_lock:
        count = _counts.get(site, 0)
        _counts[site] = count + 1
    return count


def log_every_n(level: int, msg: Any, n: int, *args: Any) -> None:
    """Log on the 1st, (n+1)th, (2n+1)th... call from this line."""
    if _next_count() % max(int(n), 1) == 0:
        get_logger().log(level, msg, *args, stacklevel=2)


def log_first_n(level: int, msg: Any, n: int, *args: Any) -> None:
    """Log on the first ``n`` calls from this line."""
    if _next_count() < n:
        get_logger().log(level, msg, *args, stacklevel=2)


def flush() -> None:
    for handler in get_logger().handlers:
        handler.flush()

__getattr__ = _missing_names("logging", __name__)  # TF names s2sgrad lacks say so
