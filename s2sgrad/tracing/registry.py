"""Which NumPy functions and ufuncs tracing understands: two tables filled by ``implements``.

``FUNCTIONS`` maps a NumPy function (``np.sum``) to its implementation on traced values;
``UFUNCS`` maps a ufunc (``np.sin``) to a rule over graph tensors already cast to the
ufunc's loop dtypes. Anything missing raises ``unsupported``: a NotImplementedError that
names the function and the user's line.
"""
from __future__ import annotations

import linecache
import os
from collections.abc import Callable
from typing import Any

import numpy as np

from ..ssa.graph import user_location

__all__ = ["FUNCTIONS", "UFUNCS", "implements", "ufunc_rule", "unsupported", "user_line", "supported"]

FUNCTIONS: dict[Callable, Callable] = {}
UFUNCS: dict[np.ufunc, Callable] = {}


def implements(*numpy_functions: Callable) -> Callable:
    """Register the decorated function as the traced implementation of ``numpy_functions``."""
    def register(impl: Callable) -> Callable:
        for func in numpy_functions:
            if func in FUNCTIONS:
                raise ValueError(f"{_qualified(func)} is implemented twice")
            FUNCTIONS[func] = impl
        return impl
    return register


def ufunc_rule(*ufuncs: np.ufunc) -> Callable:
    """Register the decorated ``rule(*tensors) -> Tensor`` for ``ufuncs``."""
    def register(rule: Callable) -> Callable:
        for u in ufuncs:
            UFUNCS[u] = rule
        return rule
    return register


def user_line() -> str:
    """``file.py:12: <source text>`` of the innermost frame outside s2sgrad."""
    path, line = user_location()
    text = linecache.getline(path, line).strip()
    where = f"{os.path.basename(path)}:{line}"
    return f"{where}: `{text}`" if text else where


def _qualified(func: Any) -> str:
    module = getattr(func, "__module__", None) or "numpy"
    return f"{module}.{getattr(func, '__name__', repr(func))}"


def unsupported(what: Any, detail: str = "") -> NotImplementedError:
    """The error for a NumPy feature tracing does not cover, naming it and the user's line."""
    name = what if isinstance(what, str) else _qualified(what)
    extra = f" {detail}" if detail else ""
    if not isinstance(what, str):
        extra += " s2sgrad.tracing.supported() lists the NumPy functions it can differentiate."
    return NotImplementedError(f"s2sgrad cannot trace {name} (at {user_line()}).{extra}")


def supported() -> list[str]:
    """Sorted names of the NumPy functions and ufuncs that traced values support."""
    names = {_qualified(f) for f in FUNCTIONS} | {f"numpy.{u.__name__}" for u in UFUNCS}
    return sorted(names)
