"""Python operators on Tensors (``+ - * / // % ** @``, comparisons, ``[...]``, ``eval``).

TF-v1 semantics: ``==`` stays identity (tensors are dict keys in ``feed_dict``), Python
scalars adopt the tensor's dtype, and ``/`` is true division.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..index_spec import TensorIndex
from ..ssa.default_session import session_for
from ..ssa.graph import Tensor
from . import array_ops as a
from . import math_ops as m
from .convert import convert_to_tensor, graph_of, is_tensor_like

__all__ = ["install", "getitem"]


def _binary(func: Callable, name: str) -> tuple[Callable, Callable]:
    def forward(self: Any, other: Any) -> Any:
        return func(self, other, name=name)

    def reverse(self: Any, other: Any) -> Any:
        return func(other, self, name=name)

    return forward, reverse


_OPERATORS: dict[str, tuple[Callable[..., Tensor], str]] = {
    "add": (m.add, "add"), "sub": (m.subtract, "sub"), "mul": (m.multiply, "mul"),
    "truediv": (m.truediv, "truediv"), "floordiv": (m.floordiv, "floordiv"), "mod": (m.mod, "mod"),
    "pow": (m.pow, "pow"), "matmul": (m.matmul, "MatMul"),
    "and": (m.logical_and, "LogicalAnd"), "or": (m.logical_or, "LogicalOr"), "xor": (m.logical_xor, "LogicalXor"),
}


def getitem(tensor: Any, key: Any) -> Tensor:
    """Basic indexing: ints, slices (negative steps too), ``None``, ``...`` and scalar int tensors."""
    x = convert_to_tensor(tensor)
    items = key if isinstance(key, tuple) else (key,)
    index: list = []
    inputs: list[Tensor] = []

    def bound(v: Any) -> Any:
        if v is None:
            return None
        if isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)):
            return int(v)
        if is_tensor_like(v):
            t = convert_to_tensor(v)
            if t.dtype.is_integer and t.shape.rank in (None, 0):
                inputs.append(t)
                return TensorIndex(len(inputs))
        raise TypeError(
            "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar tf.int32/tf.int64 "
            f"tensors are valid indices, got {v!r}")

    for item in items:
        if item is None or item is Ellipsis:
            index.append(item)
        elif isinstance(item, slice):
            index.append(slice(bound(item.start), bound(item.stop), bound(item.step)))
        else:
            index.append(bound(item))
    if sum(1 for i in index if i is Ellipsis) > 1:
        raise ValueError("An index can only have a single ellipsis ('...')")
    with graph_of([x, *inputs]).as_default():
        return a.strided_slice(x, tuple(index), inputs)


def _eval(self: Any, feed_dict: Any = None, session: Any = None) -> Any:
    """The value of this tensor in ``session`` (default: the default session)."""
    return session_for(session, self).run(self, feed_dict)


def install(cls: type, as_tensor: Callable[[Any], Any] = lambda t: t) -> None:
    """Give ``cls`` the tensor operators; ``as_tensor`` maps an instance to its value tensor."""
    for name, (func, op_name) in _OPERATORS.items():
        forward, reverse = _binary(func, op_name)
        setattr(cls, f"__{name}__", forward)
        setattr(cls, f"__r{name}__", reverse)
    methods: dict[str, Callable] = {
        "__neg__": lambda self: m.negative(self, name="Neg"),
        "__pos__": lambda self: self,
        "__abs__": lambda self: m.abs(self, name="Abs"),
        "__invert__": lambda self: m.logical_not(self, name="LogicalNot"),
        "__lt__": lambda self, other: m.less(self, other, name="Less"),
        "__le__": lambda self, other: m.less_equal(self, other, name="LessEqual"),
        "__gt__": lambda self, other: m.greater(self, other, name="Greater"),
        "__ge__": lambda self, other: m.greater_equal(self, other, name="GreaterEqual"),
        "__getitem__": lambda self, key: getitem(as_tensor(self), key),
        "eval": _eval,
    }
    for name, method in methods.items():
        setattr(cls, name, method)


install(Tensor)
