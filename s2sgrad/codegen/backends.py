"""Array backends a generated module can target: NumPy (the default) and the array API libraries.

A backend names the array namespace the translated module binds as ``xp`` (through
``array-api-compat`` for torch and cupy, ``jax.numpy`` and ``array_api_strict`` as they are),
how values move onto its device and back to NumPy, and whether the module runs under a JIT
(``jax.jit``). The libraries are optional extras: nothing here imports them until a backend is
used, and a missing one raises ``ImportError`` naming ``pip install s2sgrad[<extra>]``.
The default backend comes from ``S2SGRAD_BACKEND`` (``numpy`` when unset).
"""
from __future__ import annotations

import dataclasses
import importlib
import os
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["Backend", "BACKENDS", "get_backend", "default_backend", "ENV_VARIABLE"]

ENV_VARIABLE = "S2SGRAD_BACKEND"
_LOADED: dict[str, Any] = {}   # backend name -> its namespace, once imported


@dataclasses.dataclass(frozen=True)
class Backend:
    """One array library: ``namespace_module`` is imported as ``xp`` by the generated module."""

    name: str
    namespace_module: str       # the module the generated text imports as ``xp``
    requires: tuple[str, ...]   # the packages it needs (imported to check they are there)
    extra: str                  # the s2sgrad extra that installs them
    jit: bool = False           # run the module under jax.jit
    device: str | None = None   # the device arrays are made on (None: the library's default)

    @property
    def is_numpy(self) -> bool:
        return self.name == "numpy"

    def xp(self) -> Any:
        """The array namespace (ImportError naming the extra when the library is missing)."""
        xp = _LOADED.get(self.name)
        if xp is None:
            xp = _LOADED[self.name] = self._load()
        return xp

    def _load(self) -> Any:
        try:
            for name in self.requires:
                importlib.import_module(name)   # optional: the backend's extra
            xp = importlib.import_module(self.namespace_module)
        except ImportError as e:
            raise ImportError(f"the {self.name!r} backend needs {', '.join(self.requires)}: "
                              f"pip install s2sgrad[{self.extra}]") from e
        if self.name == "jax":  # TF's float64 and int64 stay 64-bit (JAX narrows them by default)
            importlib.import_module("jax").config.update("jax_enable_x64", True)
        return xp

    def to_device(self, value: Any) -> Any:
        """``value`` (a NumPy array or scalar) as an array of this backend, on its default device;
        values already of the backend pass through."""
        xp = self.xp()
        if isinstance(value, (np.ndarray, np.generic)) and value.dtype.kind in "biufc":
            if value.ndim and not value.flags.c_contiguous:  # torch takes no negative strides
                value = np.ascontiguousarray(value)
            return xp.asarray(value) if self.device is None else xp.asarray(value, device=self.device)
        return value

    def to_numpy(self, value: Any) -> Any:
        """A backend array as a NumPy array (host copy); anything else unchanged."""
        if isinstance(value, (np.ndarray, np.generic)) or value is None or isinstance(value, (bool, int, float)):
            return value
        convert = _TO_NUMPY.get(self.name)
        if convert is not None:
            return convert(value)
        try:
            return np.asarray(value)
        except (TypeError, ValueError, RuntimeError):
            return value   # not an array (a Python list of a TensorArray...)


def _torch_to_numpy(value: Any) -> Any:
    return value.detach().cpu().numpy() if hasattr(value, "detach") else value


def _cupy_to_numpy(value: Any) -> Any:
    return value.get() if hasattr(value, "get") else value


def _strict_to_numpy(value: Any) -> Any:
    if not hasattr(value, "__dlpack__"):
        return value
    return np.from_dlpack(value)


_TO_NUMPY: dict[str, Callable[[Any], Any]] = {"torch": _torch_to_numpy, "torch_cuda": _torch_to_numpy,
                                               "cupy": _cupy_to_numpy,
                                               "array_api_strict": _strict_to_numpy}

BACKENDS: dict[str, Backend] = {b.name: b for b in (
    Backend("numpy", "numpy", (), "numpy"),
    Backend("array_api_strict", "array_api_strict", ("array_api_strict", "array_api_compat"), "array-api"),
    Backend("torch", "array_api_compat.torch", ("array_api_compat", "torch"), "torch"),
    Backend("jax", "jax.numpy", ("jax", "array_api_compat"), "jax", jit=True),
    Backend("torch_cuda", "array_api_compat.torch", ("array_api_compat", "torch"), "torch", device="cuda"),
    Backend("cupy", "array_api_compat.cupy", ("array_api_compat", "cupy"), "cupy"),
)}


def get_backend(backend: str | Backend | None) -> Backend:
    """The backend named ``backend`` (None: the default); ValueError listing the known names."""
    if isinstance(backend, Backend):
        return backend
    if backend is None:
        return default_backend()
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(map(repr, BACKENDS))}, got {backend!r}")
    return BACKENDS[backend]


def default_backend() -> Backend:
    """The backend named by ``S2SGRAD_BACKEND``, else NumPy."""
    name = os.environ.get(ENV_VARIABLE, "").strip() or "numpy"
    if name not in BACKENDS:
        raise ValueError(f"{ENV_VARIABLE} must be one of {', '.join(map(repr, BACKENDS))}, got {name!r}")
    return BACKENDS[name]
