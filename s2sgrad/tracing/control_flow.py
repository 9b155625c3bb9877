"""Calling the user's function while tracing: as written first; when an ``if``/``while``/``for``
of its own needs a traced value, again in its converted form (``flow_source``), whose
statements record ``tf.cond``/``tf.while_loop`` on traced conditions."""
from __future__ import annotations

import types
from collections.abc import Callable, Sequence
from typing import Any

from . import flow_runtime
from .arguments import Argument, call_with
from .flow_source import Converted, convert
from .traced import TracedValueError

__all__ = ["call_traced"]


def call_traced(f: Callable, arguments: Sequence[Argument], values: Sequence[Any]) -> Any:
    """``f`` called with ``values``, its control flow on traced values converted when it has some."""
    try:
        return call_with(f, arguments, values)
    except TracedValueError as first:
        converted = convert(f, flow_runtime)
        if converted.fn is None:
            raise _explained(first, converted, f) from None
    try:
        return call_with(converted.fn, arguments, values)
    except TracedValueError as e:
        raise _explained(e, converted, f) from None


def _explained(e: TracedValueError, converted: Converted, f: Callable) -> TracedValueError:
    """``e`` saying which construct kept the statement at its line from being converted."""
    line = _user_line(e.__traceback__, getattr(f, "__code__", None))
    reason = converted.unconverted.get(line) if line is not None else None
    if reason is None:
        return e
    return TracedValueError(f"{e} (s2sgrad converts a function's own `if`/`while`/`for` on traced values into "
                            f"graph control flow, but not this one: it has {reason}.)")


def _user_line(tb: types.TracebackType | None, code: types.CodeType | None) -> int | None:
    line = None
    while tb is not None and code is not None:
        if tb.tb_frame.f_code.co_filename == code.co_filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line
