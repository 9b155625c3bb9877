"""Tracebacks through generated code: their source lines shown, s2sgrad's own frames left out.

Generated modules are registered in ``linecache`` (see ``codegen.source_files``), which the
``traceback`` module, ``logging``, pdb, ``inspect``, pytest and IPython read. Python before 3.13
prints an uncaught error's traceback from the files on disk instead, so ``show_generated_lines``
installs a ``sys.excepthook`` (and ``threading.excepthook``) that prints tracebacks passing
through generated code with the ``traceback`` module; any other error goes to the hook that was
there. Hooks someone else installed are left alone.

``filtered(tb)`` is ``tb`` without s2sgrad's own frames (the package's files and the per-run glue
``<s2sgrad-step>``...), as JAX and NumPy trim theirs; ``S2SGRAD_TRACEBACK_FILTERING=off`` keeps them.
"""
from __future__ import annotations

import functools
import os
import sys
import threading
import traceback
import types
from bdb import BdbQuit
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["GENERATED_PREFIX", "GLUE_PREFIX", "filtering", "filtered", "chain", "is_internal", "show_generated_lines",
           "hide_internal_frames", "drop_internal_frames"]

GENERATED_PREFIX = "<s2sgrad:"   # linecache names of generated modules: "<s2sgrad:run-1f2e3d4c5b-0>"
GLUE_PREFIX = "<s2sgrad-"        # the per-plan glue (fast path, folding): internal, never user code
FILTERING_ENV = "S2SGRAD_TRACEBACK_FILTERING"
_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep
F = TypeVar("F", bound=Callable[..., Any])


def filtering() -> bool:
    """Whether internal frames are left out (``S2SGRAD_TRACEBACK_FILTERING=off`` keeps them)."""
    return os.environ.get(FILTERING_ENV, "").strip().lower() not in ("off", "0", "no", "false")


def is_internal(filename: str) -> bool:
    """Whether a frame of code from ``filename`` is s2sgrad's own (generated modules are not)."""
    return filename.startswith(_PACKAGE) or filename.startswith(GLUE_PREFIX)


def filtered(tb: types.TracebackType | None) -> types.TracebackType | None:
    """A new traceback holding the entries of ``tb`` that are not internal (``tb`` is not changed)."""
    kept = []
    while tb is not None:
        if not is_internal(tb.tb_frame.f_code.co_filename):
            kept.append(tb)
        tb = tb.tb_next
    return chain(kept)


def chain(entries: list[types.TracebackType]) -> types.TracebackType | None:
    """A new traceback of just these entries' frames and lines, in this order."""
    result = None
    for entry in reversed(entries):
        result = types.TracebackType(result, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return result


def hide_internal_frames(function: F) -> F:
    """``function`` raising its errors with ``filtered`` tracebacks: the user's frames and the
    generated code's, none of s2sgrad's (pdb's quit and errors that are not ``Exception`` pass
    untouched). Its own frame is marked ``__tracebackhide__`` for pytest and, from Python 3.11 on,
    left out too."""
    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True  # read by pytest from the frame's locals
        try:
            return function(*args, **kwargs)
        except Exception as e:
            if drop_internal_frames(e) and sys.version_info < (3, 11):
                # its bare raise re-raises the original traceback; this frame shows
                # (B904 wants `from`: this is the same exception again, not a new one)
                raise e.with_traceback(e.__traceback__)  # noqa: B904
            raise  # a bare raise adds no entry for this frame
    return call  # type: ignore[return-value]


def drop_internal_frames(e: Exception) -> bool:
    """Give ``e`` its ``filtered`` traceback, for the outermost s2sgrad frame's handler to re-raise
    (``hide_internal_frames``); False, ``e`` untouched, for pdb's quit or with filtering off."""
    if isinstance(e, BdbQuit) or not filtering():
        return False
    e.__traceback__ = filtered(e.__traceback__)
    return True


def _passes_generated_code(e: BaseException | None) -> bool:
    seen: set[int] = set()
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        tb = e.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename.startswith(GENERATED_PREFIX):
                return True
            tb = tb.tb_next
        e = e.__cause__ if e.__cause__ is not None else (None if e.__suppress_context__ else e.__context__)
    return False


def _excepthook(kind: type[BaseException], value: BaseException, tb: types.TracebackType | None) -> None:
    if _passes_generated_code(value):
        traceback.print_exception(kind, value, tb)
    else:
        _previous[0](kind, value, tb)


def _thread_excepthook(args: Any) -> None:
    if args.exc_type is not SystemExit and _passes_generated_code(args.exc_value):
        name = args.thread.name if args.thread is not None else threading.get_ident()
        print(f"Exception in thread {name}:", file=sys.stderr, flush=True)
        traceback.print_exception(args.exc_type, args.exc_value, args.exc_traceback)
    else:
        _previous[1](args)


_previous: list[Any] = [sys.__excepthook__, threading.__excepthook__]


def show_generated_lines() -> None:
    """Make the interpreter's own traceback printing show generated lines (Python < 3.13 reads
    source from disk only): install the hooks, unless someone else's hooks are in place."""
    if sys.version_info >= (3, 13):
        return
    if sys.excepthook is sys.__excepthook__:
        sys.excepthook = _excepthook
    if threading.excepthook is threading.__excepthook__:
        threading.excepthook = _thread_excepthook
