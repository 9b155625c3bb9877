"""Source text -> callable: register in ``linecache``, compile, exec in an explicit namespace.

The namespace holds only NumPy (``np``), the runtime helpers (``rt``) and the module's
large constants (``_constants``). The text registered in ``linecache`` is exactly the
text compiled, so tracebacks, ``inspect`` and ``pdb`` show the generated lines.
"""
from __future__ import annotations

import hashlib
import itertools
import linecache
import re
import warnings
import weakref
from typing import Any, Callable

import numpy as np

from .codegen import runtime

__all__ = ["load_source", "GENERATED_PREFIX", "GENERATED_MODULE", "compile_listeners", "compile_hooks"]

GENERATED_PREFIX = "<s2sgrad:"
GENERATED_MODULE = "s2sgrad.generated"
_counter = itertools.count()

# Called as ``listener(label, source, constants)`` for every module compiled.
compile_listeners: list[Callable[[str, str, dict], None]] = []
# Called as ``hook(run, label, constants, origin)`` with every compiled ``run`` function (its
# ``.source`` already set; ``origin`` is the Executable being built, or None); each returns the
# function to use as ``run``, usually ``run`` itself (``s2sgrad dump -o`` wraps it to record a call).
compile_hooks: list[Callable[[Callable, str, dict, Any], Callable]] = []

# NumPy floating-point warnings (overflow, invalid, divide) raised by generated code are
# values, not news: silence them there, at no cost per run. ``show_numpy_warnings`` undoes it.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=re.escape(GENERATED_MODULE))


def show_numpy_warnings(enabled: bool = True) -> None:
    """Let (or stop letting) NumPy's floating-point RuntimeWarnings from generated code through."""
    action = "default" if enabled else "ignore"
    warnings.filterwarnings(action, category=RuntimeWarning, module=re.escape(GENERATED_MODULE))


def load_source(source: str, constants: dict[str, Any], label: str = "run", origin: Any = None) -> Callable:
    """Compile ``source`` and return its ``run`` function (with ``.source`` and ``.filename``);
    ``origin`` (the Executable that owns the module, if any) is passed on to ``compile_hooks``."""
    digest = hashlib.sha1(source.encode("utf-8")).hexdigest()[:10]
    filename = f"{GENERATED_PREFIX}{label}-{digest}-{next(_counter)}>"
    lines = source.splitlines(keepends=True)
    linecache.cache[filename] = (len(source), None, lines, filename)
    code = compile(source, filename, "exec")
    for listener in list(compile_listeners):
        listener(label, source, constants)
    namespace: dict[str, Any] = {"__name__": GENERATED_MODULE, "np": np, "rt": runtime,
                                 "_constants": dict(constants)}
    exec(code, namespace)  # noqa: S102 - our own generated code, built from ast nodes
    fn = namespace["run"]
    fn.source = source
    fn.filename = filename
    for hook in list(compile_hooks):
        fn = hook(fn, label, constants, origin)
    weakref.finalize(fn, linecache.cache.pop, filename, None)
    return fn
