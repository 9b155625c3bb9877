"""Running a user's script for the ``s2sgrad`` command, and collecting what it compiles.

``run_script`` runs a script file, a module (``-m``) or standard input (``-``) as ``__main__``
exactly as ``python`` would, its standard output sent to standard error, and returns its exit
status; a ``Collector`` in ``compiler.compile_hooks`` meanwhile keeps every distinct module
compiled, in compile order.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import runpy
import sys
import threading
import traceback
from collections.abc import Sequence
from typing import Any

import numpy as np

from .codegen import compiler
from .export import CallRecorder
from .pipeline import Executable

__all__ = ["CompiledModule", "Collector", "run_script", "STDIN"]

STDIN = "-"   # the script name that means: read it from standard input


class CompiledModule:
    """One distinct compiled module and what dump knows about it."""

    def __init__(self, label: str, source: str, constants: dict, origin: Any) -> None:
        self.label = label
        self.source = source
        self.constants = constants
        self.exe = origin if isinstance(origin, Executable) else None
        self.recorder = CallRecorder()
        self.times = 1

    def header(self, index: int) -> str:
        digest = hashlib.sha1(self.source.encode("utf-8")).hexdigest()[:10]
        times = f", compiled {self.times} times" if self.times > 1 else ""
        return f"#### s2sgrad module {index}: {self.label} (sha1 {digest}{times})"


class Collector:
    """The compile hook: distinct modules (same source and constants) in first-compile order;
    with ``record``, each one's ``run`` is wrapped to record its first call (for ``-o``)."""

    def __init__(self, record: bool) -> None:
        self.modules: dict[str, CompiledModule] = {}
        self._record = record
        self._lock = threading.Lock()

    def __call__(self, run: compiler.GeneratedRun, label: str, constants: dict[str, Any],
                 origin: Any) -> compiler.GeneratedRun:
        key = _module_key(run.source, constants)
        with self._lock:
            seen = self.modules.get(key)
            if seen is not None:
                seen.times += 1
                return run
            new = self.modules[key] = CompiledModule(label, run.source, constants, origin)
        return new.recorder.wrap(run) if self._record else run


def _module_key(source: str, constants: dict) -> str:
    h = hashlib.sha1(source.encode("utf-8"))
    for name in sorted(constants):
        value = np.asarray(constants[name])
        h.update(f"{name}:{value.dtype.str}:{value.shape}".encode())
        h.update(repr(value.tolist()).encode() if value.dtype == object else np.ascontiguousarray(value).tobytes())
    return h.hexdigest()


def run_script(path: str | None, args: Sequence[str], module: str | None = None) -> int:
    """Run ``path`` as ``__main__`` like ``python path args...`` (``-``: the source read from
    standard input, like ``python -``; ``module``: like ``python -m module args...``); returns
    its exit status."""
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [path or "-m", *args]
    if module is not None:
        sys.path.insert(0, os.getcwd())
    else:
        sys.path.insert(0, "" if path == STDIN else os.path.dirname(os.path.abspath(path or "")))
    try:
        source = sys.stdin.read() if path == STDIN and module is None else None
        with contextlib.redirect_stdout(sys.stderr):
            if module is not None:
                runpy.run_module(module, run_name="__main__", alter_sys=True)
            elif source is not None:
                exec(compile(source, "<stdin>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
            else:
                runpy.run_path(str(path), run_name="__main__")
    except SystemExit as e:
        return _exit_status(e.code)
    except BaseException as e:  # the script's error is reported like Python reports it
        _print_script_traceback(e)
        return 130 if isinstance(e, KeyboardInterrupt) else 1
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
    return 0


def _exit_status(code: Any) -> int:
    """What ``sys.exit(code)`` makes the process exit with."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


_LAUNCHERS = (os.path.abspath(__file__), os.path.abspath(runpy.__file__), "<frozen runpy>")


def _print_script_traceback(e: BaseException) -> None:
    """The traceback from the script's first frame on (dump's own frames and runpy's are left
    out; a syntax error in the script has no such frame and is printed as Python prints it)."""
    tb = e.__traceback__
    while tb is not None and (tb.tb_frame.f_code.co_filename in _LAUNCHERS
                              or os.path.abspath(tb.tb_frame.f_code.co_filename) in _LAUNCHERS):
        tb = tb.tb_next
    traceback.print_exception(type(e), e, tb, file=sys.stderr)
