"""Printing the IR: one SSA equation per line, deterministic.

    Mul_1:0 f32[] = Mul(StopGradient:0, Variable_1:0)                # prog.py:12
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import DType
from ..index_spec import TensorIndex
from ..shapes import dims_text
from ..text import comment_text, location_text, shortest_float

if TYPE_CHECKING:  # the type only: graph.py prints itself with format_ops
    from .nodes import Operation

__all__ = ["format_ops", "format_op"]

_SHORT = {"float16": "f16", "float32": "f32", "float64": "f64", "int8": "i8", "int16": "i16", "int32": "i32",
          "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64", "bool": "bool",
          "string": "str",
          "complex64": "c64", "complex128": "c128"}
_HIDDEN_ATTRS = {"variable", "value", "dtype", "shape", "DstT", "SrcT", "out_type", "output_type"}
_COLUMN = 64


def format_ops(ops: Iterable[Operation]) -> str:
    """One line per op; a control-flow op's regions follow it, indented: each region's parameters,
    its ops and (``->``) its results."""
    return "".join(line + "\n" for op in ops for line in _op_lines(op, ""))


def format_op(op: Operation) -> str:
    return _op_lines(op, "")[0]


def _op_lines(op: Operation, indent: str) -> list[str]:
    outs = ", ".join(f"{t.name} {_type(t)}" for t in op.outputs) or f"^{op.name}"  # as control inputs name it
    args = [t.name for t in op.inputs] + [f"^{c.name}" for c in op.control_inputs]
    attrs = _attrs(op)
    line = f"{indent}{outs} = {op.type}{attrs}({', '.join(args)})"
    lines = [f"{line.ljust(_COLUMN)}  # {location_text(op.location)}"]
    for region in op.attrs.get("_regions", ()):
        params = ", ".join(f"{t.name} {_type(t)}" for t in region.params)
        lines.append(f"{indent}  {region.kind}({params}):")
        for inner in region.ops:
            if inner.type != "BlockParam":
                lines += _op_lines(inner, indent + "    ")
        lines.append(f"{indent}    -> {', '.join(t.name for t in region.results)}")
    return lines


def _type(t: Any) -> str:
    return _SHORT[t.dtype.name] + dims_text(t.shape.sizes)


def _attrs(op: Operation) -> str:
    shown = op.prim.printed_attrs
    items = [f"{key}={_value(op.attrs[key])}" for key in shown]
    for key in sorted(op.attrs):
        if key in _HIDDEN_ATTRS or key in shown or key.startswith("_"):
            continue
        items.append(f"{key}={_value(op.attrs[key])}")
    return "[" + ", ".join(items) + "]" if items else ""


def _value(v: Any) -> str:
    if isinstance(v, np.ndarray):
        if v.size <= 6 and v.dtype.kind == "f":  # float32 0.1 prints as 0.1, not 0.10000000149011612
            return repr(np.array([shortest_float(x) for x in v.reshape(-1)], dtype=object).reshape(v.shape).tolist())
        if v.size <= 6:
            return comment_text(repr(v.tolist()))
        return f"<{_SHORT.get(v.dtype.name, 'str')}{list(v.shape)}>"
    if isinstance(v, DType):
        return v.name
    if isinstance(v, tuple) and any(isinstance(i, (slice, type(None), type(Ellipsis), TensorIndex)) for i in v):
        return "[" + ", ".join(_index_item(i) for i in v) + "]"
    if isinstance(v, (tuple, list)):
        return "[" + ", ".join(_value(i) for i in v) + "]"
    return comment_text(repr(v))


def _index_item(i: Any) -> str:
    if i is None:
        return "None"
    if i is Ellipsis:
        return "..."
    if isinstance(i, slice):
        parts = ["" if p is None else str(p) for p in (i.start, i.stop, i.step)]
        return ":".join(parts[:2]) + (f":{parts[2]}" if parts[2] else "")
    return str(i)
