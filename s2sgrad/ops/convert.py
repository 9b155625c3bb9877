"""Turning Python/NumPy values into tensors, and recording ops into the right graph."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..primitives.core import Primitive
from ..primitives.state import CONST
from ..shapes import TensorShape, strip_dimensions
from ..ssa.graph import Graph, Operation, Tensor, get_default_graph

__all__ = ["constant", "convert_to_tensor", "convert_operands", "tensor_or_constant", "record", "record1", "graph_of",
           "is_tensor_like"]


# Python and NumPy numbers: never tensors, nor anything standing for one (skipping the attribute probes)
_PLAIN_NUMBERS = frozenset({float, int, np.float64, np.float32, np.float16, np.int64, np.int32})
_FLOATS = frozenset({float, np.float64, np.float32, np.float16})


def is_tensor_like(value: Any) -> bool:
    """A Tensor, or an object standing for one (a Variable: ``_as_graph_element``)."""
    return isinstance(value, Tensor) or hasattr(value, "_as_graph_element")


def graph_of(values: Sequence[Any]) -> Graph:
    """The graph of the tensors among ``values`` (ValueError if they disagree), else the default."""
    graph = None
    for v in values:
        t: Tensor | None = v if type(v) is Tensor else None if type(v) in _PLAIN_NUMBERS else _as_tensor_or_none(v)
        if t is None:
            continue
        if graph is None:
            graph = t.op.graph
        elif t.op.graph is not graph:
            raise ValueError(f"Tensor {t.name} must be from the same graph as the other inputs.")
    return graph if graph is not None else get_default_graph()


def _as_tensor_or_none(value: Any) -> Tensor | None:
    if isinstance(value, Tensor):
        return value
    element = getattr(value, "_as_graph_element", None)
    return element() if element is not None else None


def record(prim: Primitive, inputs: Sequence[Tensor], attrs: dict | None = None,
           name: str | None = None) -> Operation:
    """Append an op of ``prim`` to the graph of its inputs (or the default graph)."""
    return graph_of(inputs).create_op(prim, inputs, attrs, name)


def record1(prim: Primitive, inputs: Sequence[Tensor], attrs: dict | None = None,
            name: str | None = None) -> Tensor:
    """``record`` for single-output ops: the output tensor."""
    return graph_of(inputs).create_op(prim, inputs, attrs, name).outputs[0]  # one frame less to walk per op


def _as_array(value: Any, dtype: _dt.DType | None) -> np.ndarray:
    if dtype is not None and type(value) in _FLOATS and dtype._np.kind == "f":  # (a number per op: no properties)
        return np.array(value, dtype=dtype._np)
    if dtype is None:
        dtype = _dt.infer_dtype(value)
    if dtype is _dt.string:
        arr = np.array(value, dtype=object)
        flat = [v.encode("utf-8") if isinstance(v, str) else v for v in arr.reshape(-1)]
        return np.array(flat, dtype=object).reshape(arr.shape)
    if dtype.is_integer or dtype.is_bool:
        _check_integral(value, dtype)
    if isinstance(value, (str, bytes)):
        raise TypeError(f"Cannot convert {_short(value)} to a tensor of dtype {dtype.name}: it is text, not a number")
    try:
        arr = np.array(value, dtype=dtype.np)
    except (ValueError, TypeError, OverflowError) as e:
        _dt.infer_dtype(value)  # ValueError for a non-rectangular sequence
        raise TypeError(f"Cannot convert {_short(value)} to a tensor of dtype {dtype.name}: {e}") from None
    if arr.dtype == object:
        raise TypeError(f"Cannot convert {_short(value)} to a tensor: not a rectangular array of numbers")
    return arr


def _check_integral(value: Any, dtype: _dt.DType) -> None:
    """TF refuses to truncate Python floats into integer tensors: ``Expected int32, got 2.5``."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(v)
        elif isinstance(v, float) and (dtype.is_bool or not float(v).is_integer()):
            raise TypeError(f"Expected {dtype.name}, got {v!r} of type 'float' instead.")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def constant(value: Any, dtype: Any = None, shape: Any = None, name: str | None = "Const",
             verify_shape: bool = False) -> Tensor:
    """A Const op holding a copy of ``value`` (a scalar ``value`` fills ``shape``).

    >>> constant([1.0, 2.0]).dtype.name
    'float32'
    """
    dtype = None if dtype is None else _dt.as_dtype(dtype)
    value = strip_dimensions(value)
    if isinstance(value, Tensor):
        raise TypeError(f"tf.constant expects a Python or NumPy value, got the tensor {value.name}")
    arr = _as_array(value, dtype)
    if shape is not None:
        target = TensorShape(shape)
        if not target.is_fully_defined():
            raise ValueError(f"tf.constant needs a fully defined shape, got {target}")
        dims = target.known_sizes()
        if arr.shape != dims:
            if verify_shape:
                raise TypeError(f"Expected Tensor's shape: {dims}, got {arr.shape}.")
            if arr.size == 1:
                arr = np.full(dims, arr.reshape(()), dtype=arr.dtype)
            elif arr.size == int(np.prod(dims)):
                arr = arr.reshape(dims)
            else:
                raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tried to convert "
                                f"a value with {arr.size} elements to a tensor of shape {dims}")
    return _const(get_default_graph(), arr, dtype, name)


def _const(graph: Graph, arr: np.ndarray, dtype: _dt.DType | None, name: str | None) -> Tensor:
    """Record a Const op holding a private, read-only copy of ``arr``."""
    return _own_const(graph, np.array(arr, copy=True), dtype, name)


def _own_const(graph: Graph, arr: np.ndarray, dtype: _dt.DType | None, name: str | None) -> Tensor:
    """Record a Const op holding ``arr`` itself, made read-only: an array nothing else refers to."""
    arr.setflags(write=False)
    d = _dt.as_dtype(arr.dtype) if dtype is None else dtype
    return graph.create_op(CONST, (), {"value": arr, "dtype": d, "shape": arr.shape}, name or "Const").outputs[0]


def convert_to_tensor(value: Any, dtype: Any = None, name: str | None = None,
                      preferred_dtype: Any = None, dtype_hint: Any = None) -> Tensor:
    """A Tensor for ``value``: tensors pass through (dtype checked), Variables give their value,
    IndexedSlices are densified, anything else becomes a constant."""
    if type(value) is Tensor and dtype is None:
        return value
    dtype = None if dtype is None else _dt.as_dtype(dtype)
    t = _as_tensor_or_none(value)
    if t is None and hasattr(value, "_dense_tensor"):
        t = value._dense_tensor()
    if t is not None:
        if dtype is not None and t.dtype is not dtype:
            raise ValueError(f"Tensor conversion requested dtype {dtype.name} for Tensor with dtype "
                             f"{t.dtype.name}: {t!r}")
        return t
    if value is None:
        raise ValueError("None values not supported.")
    hint = preferred_dtype if preferred_dtype is not None else dtype_hint
    if dtype is None and hint is not None:
        try:
            return constant(value, _dt.as_dtype(hint), name=name or "Const")
        except (TypeError, ValueError):
            pass
    return constant(value, dtype, name=name or "Const")


def tensor_or_constant(value: Any, dtype: _dt.DType) -> Tensor:
    """``value`` itself when it is a tensor (whatever its dtype), else a constant of ``dtype``."""
    return convert_to_tensor(value) if is_tensor_like(value) else convert_to_tensor(value, dtype)


def convert_operands(values: Sequence[Any], dtype: Any = None) -> list[Tensor]:
    """Operands of one op: Python scalars and arrays adopt the dtype of the first tensor among them."""
    if dtype is None and len(values) == 2:  # most ops: two tensors, or a tensor and a number
        x, y = values
        if type(x) is Tensor:
            if type(y) is Tensor:
                return [x, y]
            if type(y) in _PLAIN_NUMBERS:
                return [x, _own_const(x.op.graph, _as_array(y, x.dtype), x.dtype, "Const")]
        elif type(y) is Tensor and type(x) in _PLAIN_NUMBERS:
            return [_own_const(y.op.graph, _as_array(x, y.dtype), y.dtype, "Const"), y]
    if dtype is None:
        for v in values:
            if type(v) is Tensor:
                dtype = v.dtype
                break
            if type(v) in _PLAIN_NUMBERS:
                continue
            t = _as_tensor_or_none(v)
            if t is None and hasattr(v, "_dense_tensor"):
                t = v._dense_tensor()
            if t is not None:
                dtype = t.dtype
                break
    for v in values:
        if type(v) is not Tensor:
            break
    else:
        return list(values)
    graph = graph_of(values)
    out = []
    for v in values:
        if type(v) is Tensor:
            t = v
        elif type(v) not in _PLAIN_NUMBERS and (is_tensor_like(v) or hasattr(v, "_dense_tensor")):
            t = convert_to_tensor(v)
        else:
            if isinstance(v, bool) and dtype is not None and not dtype.is_bool:
                raise TypeError(f"Cannot convert {v!r} to a tensor of dtype {dtype.name}")
            t = _own_const(graph, _as_array(v, dtype), dtype, "Const")  # _as_array's arrays are new
        dtype = dtype or t.dtype
        out.append(t)
    return out
