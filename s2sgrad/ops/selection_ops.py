"""``tf.nn.top_k`` (TF's ``TopKV2``: values and indices, gradient to the chosen positions) and
``tf.nn.in_top_k`` (``InTopKV2``)."""
from __future__ import annotations

from typing import Any, NamedTuple

from .. import dtypes as _dt
from ..primitives.nn import IN_TOP_K, TOP_K
from ..ssa.graph import Tensor
from .convert import convert_to_tensor, graph_of, record, record1

__all__ = ["TopKV2", "top_k", "in_top_k"]


class TopKV2(NamedTuple):
    """What ``top_k`` returns (``values, indices = tf.nn.top_k(x, 2)`` or ``.values``)."""

    values: Tensor
    indices: Tensor


def top_k(input: Any, k: Any = 1, sorted: bool = True, index_type: Any = _dt.int32,  # TF's names
          name: str | None = None) -> TopKV2:
    """The ``k`` largest entries along the last axis, largest first (of equal values, the lower
    index first), and their indices.

    >>> # values, indices = tf.nn.top_k(logits, k=5)
    """
    x = convert_to_tensor(input)
    index_type = _dt.as_index_dtype(index_type, "index_type")
    with graph_of([x, k]).as_default():
        k = convert_to_tensor(k, dtype=_dt.int32) if not isinstance(k, Tensor) else k
        op = record(TOP_K, [x, k], {"sorted": bool(sorted), "index_type": index_type}, name or "TopKV2")
        return TopKV2(*op.outputs)


def in_top_k(predictions: Any, targets: Any, k: Any, name: str | None = None) -> Tensor:
    """For each row of ``predictions`` (float32, ``[batch, classes]``), whether its ``targets``
    class is among the ``k`` largest; classes tied with the k-th all count as in.

    >>> # correct = tf.nn.in_top_k(logits, labels, 1)
    """
    p = convert_to_tensor(predictions)
    graph = graph_of([p, targets, k])
    with graph.as_default(), graph.name_scope(name or "in_top_k"):
        t = convert_to_tensor(targets)
        k = convert_to_tensor(k, dtype=t.dtype) if not isinstance(k, Tensor) else k
        return record1(IN_TOP_K, [p, t, k], None, "InTopKV2")
