"""``Traced``'s methods that record ops through the implementations (ufuncs, indexing, casts).

``traced.py`` sits below the modules that implement NumPy on traced values (they build
``Traced`` results), so it cannot import them. ``install`` gives the class these methods from
above; the package's ``__init__`` calls it once, before any value is traced.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .convert import cast_traced
from .indexing import getitem, setitem
from .traced import Traced
from .ufunc_methods import apply

__all__ = ["install"]


def _array_ufunc(self: Traced, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
    return apply(ufunc, method, inputs, kwargs)


def _astype(self: Traced, dtype: Any, order: str = "K", casting: str = "unsafe", subok: bool = True,
            copy: bool = True) -> Traced:
    """Like ``ndarray.astype``."""
    return cast_traced(self, np.dtype(dtype))


def install() -> None:
    """Set NumPy's ufunc protocol, indexing and ``astype`` on ``Traced``."""
    methods = {"__array_ufunc__": _array_ufunc, "__getitem__": getitem, "__setitem__": setitem, "astype": _astype}
    for name, method in methods.items():
        setattr(Traced, name, method)
