"""A compiled module run on an array backend: arguments moved onto its device once per call,
fetched values back as NumPy, committed variable values left on the device (so variables live
there between runs). Under ``jax.jit`` when the backend asks for it and the module traces."""
from __future__ import annotations

import contextlib
import functools
import importlib
from collections.abc import Callable
from typing import Any

from ..codegen.backends import Backend

__all__ = ["on_backend", "device_values"]


def device_values(backend: Backend, values: Any) -> list:
    """``values`` moved onto ``backend``'s device (what is already there stays)."""
    return [backend.to_device(v) for v in values]


def on_backend(fn: Any, backend: Backend, n_fetches: int) -> Any:
    """``fn`` (a loaded module's ``run``) taking and returning ``backend`` arrays, as described above;
    the wrapper keeps ``fn``'s ``source`` and ``filename``."""
    backend.xp()  # ImportError naming the extra, before any run
    body: list[Callable] = [_jitted(fn) if backend.jit else fn]

    on_device = _device_scope(backend)

    @functools.wraps(fn)
    def run(*args: Any) -> tuple:
        moved = device_values(backend, args)
        with on_device():
            try:
                outs = body[0](*moved)
            except Exception:
                if body[0] is fn:
                    raise
                body[0] = fn   # not traceable by the JIT (values decide shapes, host effects): run eagerly
                outs = fn(*moved)
        return tuple(backend.to_numpy(o) if i < n_fetches else o for i, o in enumerate(outs))

    run.source, run.filename = fn.source, fn.filename  # type: ignore[attr-defined]
    return run


def _device_scope(backend: Backend) -> Callable[[], Any]:
    """A context in which the arrays the module makes (zeros, constants) land on the backend's device:
    ``torch.device('cuda')`` for torch on a GPU, nothing otherwise."""
    if backend.device is None:
        return contextlib.nullcontext
    torch = importlib.import_module("torch")   # optional: the [torch] extra
    return lambda: torch.device(backend.device)


def _jitted(fn: Any) -> Callable:
    return importlib.import_module("jax").jit(fn)   # optional: the [jax] extra
