"""Source text -> callable: register the text (``source_files``), compile, exec in an explicit namespace.

The namespace holds only NumPy (``np``), the runtime helpers (``rt``) and the module's
large constants (``_constants``). The text registered is exactly the text compiled, so
tracebacks, ``inspect``, pdb and profilers show the generated lines.
"""
from __future__ import annotations

import re
import warnings
import weakref
from collections.abc import Callable
from typing import Any, Protocol, cast

import numpy as np

from ..tracebacks import GENERATED_PREFIX, show_generated_lines
from . import runtime
from .source_files import forget_source, register_source

__all__ = ["load_source", "GENERATED_PREFIX", "GENERATED_MODULE", "compile_listeners", "compile_hooks",
           "quiet_numpy_warnings", "show_numpy_warnings", "NUMPY_QUIET"]

GENERATED_MODULE = "s2sgrad.generated"



class GeneratedRun(Protocol):
    """A compiled module's ``run`` function, carrying its source text and linecache file name."""

    source: str
    filename: str

    def __call__(self, *args: Any) -> Any: ...


# Called as ``listener(label, source, constants)`` for every module compiled.
compile_listeners: list[Callable[[str, str, dict], None]] = []
# Called as ``hook(run, label, constants, origin)`` with every compiled ``run`` function (its
# ``.source`` already set; ``origin`` is the Executable being built, or None); each returns the
# function to use as ``run``, usually ``run`` itself (``s2sgrad dump -o`` wraps it to record a call).
compile_hooks: list[Callable[[GeneratedRun, str, dict[str, Any], Any], GeneratedRun]] = []

# NumPy floating-point warnings (overflow, invalid, divide) raised by generated code and the
# runtime helpers it calls are values, not news: a warnings filter silences them there, at no
# cost inside the run (``np.errstate`` would add ~1.4 us to every Session.run). The filter must
# come first to win over the user's (``simplefilter("always")`` or ``"error"``), and
# ``warnings.catch_warnings`` swaps the whole list, so ``quiet_numpy_warnings`` (called at the
# start of every run) puts it back in front whenever it is not.
NUMPY_QUIET = ("ignore", None, RuntimeWarning, re.compile(r"s2sgrad\.(generated|codegen\.runtime(_[a-z_]+)?)\Z"), 0)
_show = False


def quiet_numpy_warnings() -> None:
    """Make sure generated code's NumPy RuntimeWarnings are silenced (cheap when nothing changed)."""
    try:
        if warnings.filters[0] is NUMPY_QUIET:  # the common case, on every run
            return
    except IndexError:  # no filters at all (warnings.resetwarnings())
        pass
    if not _show:
        filters = cast("list[Any]", warnings.filters)  # a list at run time (typeshed says Sequence)
        while NUMPY_QUIET in filters:
            filters.remove(NUMPY_QUIET)
        filters.insert(0, NUMPY_QUIET)
        warnings._filters_mutated()  # type: ignore[attr-defined]  # CPython's own hook, absent from typeshed


def show_numpy_warnings(enabled: bool = True) -> None:
    """Let (or stop letting) NumPy's floating-point RuntimeWarnings from generated code through.

    >>> show_numpy_warnings(True)   # overflow, invalid value, divide by zero: shown as NumPy warns
    >>> show_numpy_warnings(False)  # the default: NaN and inf are values, not news
    """
    global _show
    _show = bool(enabled)
    while _show and NUMPY_QUIET in warnings.filters:
        cast("list[Any]", warnings.filters).remove(NUMPY_QUIET)
        warnings._filters_mutated()  # type: ignore[attr-defined]  # CPython's own hook, absent from typeshed
    quiet_numpy_warnings()


def load_source(source: str, constants: dict[str, Any], label: str = "run", origin: Any = None) -> GeneratedRun:
    """Compile ``source`` and return its ``run`` function (with ``.source`` and ``.filename``);
    ``origin`` (the Executable that owns the module, if any) is passed on to ``compile_hooks``."""
    filename = register_source(source, label)
    show_generated_lines()
    code = compile(source, filename, "exec")
    for listener in list(compile_listeners):
        listener(label, source, constants)
    namespace: dict[str, Any] = {"__name__": GENERATED_MODULE, "np": np, "rt": runtime,
                                 "_constants": dict(constants)}
    exec(code, namespace)  # our own generated code, built from ast nodes
    quiet_numpy_warnings()
    fn = namespace["run"]
    fn.source = source
    fn.filename = filename
    for hook in list(compile_hooks):
        fn = hook(fn, label, constants, origin)
    weakref.finalize(fn, forget_source, filename)
    return fn
