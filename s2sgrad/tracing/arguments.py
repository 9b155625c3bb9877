"""A call's arguments as leaves: arrays and Python floats are traced, the rest is static.

Each argument is flattened through tuples, lists and dicts into leaves:

- ``array``: a NumPy array or scalar, traced as a placeholder of its dtype and shape;
- ``weak``: a Python float or complex, traced as a weak float64/complex128 scalar;
- ``traced``: a value already traced by an enclosing trace (nested ``grad``);
- ``stream``: a ``numpy.random.Generator`` or ``RandomState`` (or one being traced), handed to
  the compiled code on every call (``random_streams``);
- ``static``: anything else (Python ints, bools, None, strings...), a constant of the trace.

The signature key (structure, dtypes, shapes, static values) selects the compiled code.
"""
from __future__ import annotations

import dataclasses
import functools
import inspect
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .random_streams import STREAM_TYPES, TracedStream
from .traced import Traced

__all__ = ["Leaf", "Argument", "Binder", "signature_key", "flatten", "rebuild", "call_with"]


@dataclasses.dataclass
class Leaf:
    """One array, Python number, traced value or static value inside an argument."""

    name: str            # the placeholder name: the argument's name, plus the path inside containers
    kind: str            # 'array' | 'weak' | 'traced' | 'stream' | 'static'
    value: Any
    dtype: np.dtype | None = None
    shape: tuple = ()

    def key(self) -> tuple:
        """This leaf's part of the signature key: dtype and shape, or the static value itself."""
        if self.kind == "static":
            try:
                hash(self.value)
            except TypeError:
                raise TypeError(f"argument {self.name!r} is a {type(self.value).__name__}, which is neither an "
                                f"array nor hashable: s2sgrad keys compiled code on non-array arguments") from None
            return ("static", type(self.value), self.value)
        if self.kind == "stream":
            return ("stream", type(self.value))
        return (self.kind, None if self.dtype is None else self.dtype.str, self.shape)


@dataclasses.dataclass
class Argument:
    """One argument of the call (an element of ``*args`` or ``**kwargs`` counts as one)."""

    name: str
    position: int | None   # index among positional arguments, None for keyword-only ones
    kind: str              # 'positional' | 'keyword'
    tree: Any
    leaves: list[Leaf]


_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


@functools.lru_cache(maxsize=1024)
def _leaf_name(path: str) -> str:
    return _NAME.sub("_", path).lstrip("_.-") or "arg"


def _flatten(value: Any, path: str, leaves: list[Leaf]) -> Any:
    """Append the leaves of ``value`` and return its structure (``None`` for a leaf)."""
    if isinstance(value, (tuple, list)) and not isinstance(value, Traced):
        children = [_flatten(v, f"{path}_{i}", leaves) for i, v in enumerate(value)]
        return (type(value), tuple(children))
    if isinstance(value, dict):
        children = [_flatten(v, f"{path}_{k}", leaves) for k, v in value.items()]
        return (dict, tuple(value), tuple(children))
    leaves.append(_leaf(value, _leaf_name(path)))
    return None


def _leaf(value: Any, name: str) -> Leaf:
    if isinstance(value, Traced):
        return Leaf(name, "traced", value, value.dtype, value.shape)
    if isinstance(value, (np.ndarray, np.generic)):
        return Leaf(name, "array", value, value.dtype, np.shape(value))
    if isinstance(value, (float, complex)):
        return Leaf(name, "weak", value, np.asarray(value).dtype, ())
    if isinstance(value, (STREAM_TYPES, TracedStream)):
        return Leaf(name, "stream", value)
    return Leaf(name, "static", value)


def flatten(value: Any, name: str) -> tuple[Any, list[Leaf]]:
    """``value``'s structure (through tuples, lists and dicts) and its leaves."""
    leaves: list[Leaf] = []
    return _flatten(value, name, leaves), leaves


def rebuild(tree: Any, leaves: Any) -> Any:
    """The inverse of flattening: ``leaves`` is an iterator over the new leaf values."""
    if tree is None:
        return next(leaves)
    if tree[0] is dict:
        return {k: rebuild(child, leaves) for k, child in zip(tree[1], tree[2], strict=True)}
    kind, children = tree
    items = [rebuild(child, leaves) for child in children]
    if kind in (tuple, list):
        return kind(items)
    return kind(*items) if hasattr(kind, "_fields") else kind(items)


class Binder:
    """Binds a call's arguments to ``f``'s signature: in signature order, defaults applied.
    A call that passes exactly the positional parameters skips ``inspect``'s general binding;
    the others read the signature again when ``f.__defaults__`` or ``__kwdefaults__`` was replaced."""

    def __init__(self, f: Callable) -> None:
        self.f = inspect.unwrap(f)
        self._read_signature(f)

    def _read_signature(self, f: Callable) -> None:
        self.signature = signature = inspect.signature(f)
        self.defaults = getattr(self.f, "__defaults__", None), getattr(self.f, "__kwdefaults__", None)
        params = list(signature.parameters.values())
        simple = all(p.kind is p.POSITIONAL_OR_KEYWORD or p.kind is p.POSITIONAL_ONLY for p in params)
        self.names = [p.name for p in params] if simple else None
        self.target = f

    def __call__(self, args: Sequence[Any], kwargs: dict) -> list[Argument]:
        if self.names is not None and not kwargs and len(args) == len(self.names):
            return [_argument(name, value, i) for i, (name, value) in enumerate(zip(self.names, args, strict=True))]
        defaults = self.defaults
        if getattr(self.f, "__defaults__", None) is not defaults[0] or \
                getattr(self.f, "__kwdefaults__", None) is not defaults[1]:
            self._read_signature(self.target)
        bound = self.signature.bind(*args, **kwargs)
        passed = set(bound.arguments)
        bound.apply_defaults()
        out: list[Argument] = []
        for p in self.signature.parameters.values():
            if p.kind is p.KEYWORD_ONLY and p.name not in passed:
                continue  # the function applies its own default (some, like a ufunc's dtype=, can't be passed)
            value = bound.arguments[p.name]
            if p.kind is p.VAR_POSITIONAL:
                for i, v in enumerate(value):
                    out.append(_argument(f"{p.name}_{i}", v, len(out)))
            elif p.kind is p.VAR_KEYWORD:
                out += [_argument(k, v, None) for k, v in value.items()]
            else:
                out.append(_argument(p.name, value, None if p.kind is p.KEYWORD_ONLY else len(out)))
        return out


def _argument(name: str, value: Any, position: int | None) -> Argument:
    leaves: list[Leaf] = []
    tree = _flatten(value, name, leaves)
    return Argument(name, position, "keyword" if position is None else "positional", tree, leaves)


def signature_key(arguments: Sequence[Argument]) -> tuple:
    """The key that selects compiled code: each argument's name, structure and leaf keys."""
    return tuple((arg.name, arg.tree, tuple(leaf.key() for leaf in arg.leaves)) for arg in arguments)


def call_with(f: Callable, arguments: Sequence[Argument], values: Sequence[Any]) -> Any:
    """Call ``f`` with each argument replaced by the matching entry of ``values``."""
    positional = [v for arg, v in zip(arguments, values, strict=True) if arg.kind == "positional"]
    keywords = {arg.name: v for arg, v in zip(arguments, values, strict=True) if arg.kind == "keyword"}
    return f(*positional, **keywords)
