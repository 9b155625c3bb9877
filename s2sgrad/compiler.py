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

__all__ = ["load_source", "GENERATED_PREFIX", "GENERATED_MODULE", "compile_listeners", "run_wrappers"]

GENERATED_PREFIX = "<s2sgrad:"
GENERATED_MODULE = "s2sgrad.generated"
_counter = itertools.count()

# Called as ``listener(label, source, constants, origin)`` for every module compiled (``s2sgrad dump``);
# ``origin`` is the caller's ``origin`` argument (the Executable being built, or None). The Executable
# is not fully initialized yet: listeners should keep it and read its attributes later.
compile_listeners: list[Callable[[str, str, dict, Any], None]] = []
# Called as ``wrap(run, origin)`` with every compiled ``run`` function; each returns the function to
# use in its place (``s2sgrad dump -o`` records the arguments of a module's first call this way).
run_wrappers: list[Callable[[Callable, Any], Callable]] = []

# NumPy floating-point warnings (overflow, invalid, divide) raised by generated code are
# values, not news: silence them there, at no cost per run. ``show_numpy_warnings`` undoes it.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=re.escape(GENERATED_MODULE))


def show_numpy_warnings(enabled: bool = True) -> None:
    """Let (or stop letting) NumPy's floating-point RuntimeWarnings from generated code through."""
    action = "default" if enabled else "ignore"
    warnings.filterwarnings(action, category=RuntimeWarning, module=re.escape(GENERATED_MODULE))


def load_source(source: str, constants: dict[str, Any], label: str = "run", origin: Any = None) -> Callable:
    """Compile ``source`` and return its ``run`` function (with ``.source`` and ``.filename``);
    ``origin`` (the Executable that owns the module, if any) is passed on to ``compile_listeners``
    and ``run_wrappers``."""
    digest = hashlib.sha1(source.encode("utf-8")).hexdigest()[:10]
    filename = f"{GENERATED_PREFIX}{label}-{digest}-{next(_counter)}>"
    lines = source.splitlines(keepends=True)
    linecache.cache[filename] = (len(source), None, lines, filename)
    code = compile(source, filename, "exec")
    for listener in list(compile_listeners):
        listener(label, source, constants, origin)
    namespace: dict[str, Any] = {"__name__": GENERATED_MODULE, "np": np, "rt": runtime,
                                 "_constants": dict(constants)}
    exec(code, namespace)  # noqa: S102 - our own generated code, built from ast nodes
    fn = namespace["run"]
    for wrap in list(run_wrappers):
        fn = wrap(fn, origin)
    fn.source = source
    fn.filename = filename
    weakref.finalize(fn, linecache.cache.pop, filename, None)
    return fn
