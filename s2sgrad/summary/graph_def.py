"""A graph as a serialized ``tensorflow.GraphDef``, for TensorBoard's graph tab (``FileWriter(graph=)``).

Each node has its name, op type, inputs (``op``, ``op:1``, ``^op`` for control inputs), device,
and attrs: ``dtype`` (output 0's), ``_output_shapes`` (every output's static shape, as TF's
``as_graph_def(add_shapes=True)``) and the op's own int, float, bool, string and dtype attrs.
Field numbers are those of TF's ``graph.proto``, ``node_def.proto`` and ``attr_value.proto``.
"""
from __future__ import annotations

from typing import Any

from .. import dtypes as _dt
from ..codegen.runtime_summary import delimited, float_field, int_field
from ..shapes import TensorShape
from ..ssa.graph import Graph

__all__ = ["graph_def"]


def _shape(shape: TensorShape) -> bytes:
    """TensorShapeProto: dim (2) {size (1)}, -1 for an unknown size; unknown_rank (3)."""
    sizes = shape.sizes
    if sizes is None:
        return int_field(3, 1)
    return b"".join(delimited(2, int_field(1, -1 if n is None else n)) for n in sizes)


def _attr_value(value: Any) -> bytes | None:
    """AttrValue: s (2), i (3), f (4), b (5), type (6); None for values a GraphDef attr cannot hold."""
    if isinstance(value, _dt.DType):
        return int_field(6, value.as_datatype_enum)
    if isinstance(value, bool):
        return int_field(5, value)
    if isinstance(value, int):
        return int_field(3, value)
    if isinstance(value, float):
        return float_field(4, value)
    if isinstance(value, str):
        return delimited(2, value.encode("utf-8"))
    return None


def _node(op: Any) -> bytes:
    out = delimited(1, op.name.encode("utf-8")) + delimited(2, op.type.encode("utf-8"))
    for t in op.inputs:
        name = t.op.name if t.value_index == 0 else f"{t.op.name}:{t.value_index}"
        out += delimited(3, name.encode("utf-8"))
    for control in op.control_inputs:
        out += delimited(3, f"^{control.name}".encode())
    if op.device:
        out += delimited(4, op.device.encode("utf-8"))
    attrs: dict[str, bytes] = {}
    for key, value in sorted(op.attrs.items()):
        encoded = _attr_value(value)
        if encoded is not None and not key.startswith("_"):
            attrs[key] = encoded
    if op.outputs:
        attrs.setdefault("dtype", int_field(6, op.outputs[0].dtype.as_datatype_enum))
        shapes = b"".join(delimited(7, _shape(t.shape)) for t in op.outputs)
        attrs["_output_shapes"] = delimited(1, shapes)   # AttrValue.list (1) of shapes (7)
    for key, encoded in attrs.items():   # map<string, AttrValue> attr (5): entries {key (1), value (2)}
        out += delimited(5, delimited(1, key.encode("utf-8")) + delimited(2, encoded))
    return out


def graph_def(graph: Graph) -> bytes:
    """The serialized GraphDef of every op of ``graph``, in creation order."""
    if not isinstance(graph, Graph):
        raise TypeError(f"graph must be a tf.Graph, got {type(graph).__name__}")
    return b"".join(delimited(1, _node(op)) for op in graph.get_operations())
