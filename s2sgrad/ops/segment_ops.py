"""``tf.math.segment_*`` and ``tf.math.unsorted_segment_*``: reductions of the rows of ``data``
grouped by ``segment_ids``. The sorted forms infer the number of segments (``ids[-1] + 1``);
``unsorted_segment_mean`` and ``unsorted_segment_sqrt_n`` are compositions, as in TensorFlow."""
from __future__ import annotations

from typing import Any

from ..primitives import segment as P
from ..primitives.core import Primitive
from ..ssa.graph import Tensor
from . import array_ops as a
from . import math_ops as m
from .convert import convert_to_tensor, graph_of, record1

__all__ = ["segment_sum", "segment_mean", "segment_max", "segment_min", "segment_prod", "unsorted_segment_sum",
           "unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_prod", "unsorted_segment_mean",
           "unsorted_segment_sqrt_n"]

unsorted_segment_sum = a.unsorted_segment_sum


def _sorted(prim: Primitive, what: str) -> Any:
    def segment(data: Any, segment_ids: Any, name: str | None = None) -> Tensor:
        d = convert_to_tensor(data)
        with graph_of([d, segment_ids]).as_default():
            return record1(prim, [d, convert_to_tensor(segment_ids)], None, name or prim.name)
    segment.__name__ = "segment_" + what
    segment.__doc__ = (f"The {what} of the rows of ``data`` in each segment; ``segment_ids`` (one per row) must "
                       f"be sorted.\n\n    >>> # tf.math.segment_{what}(data, [0, 0, 1])\n")
    return segment


def _unsorted(prim: Primitive, what: str) -> Any:
    def unsorted_segment(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Tensor:
        d = convert_to_tensor(data)
        with graph_of([d, segment_ids, num_segments]).as_default():
            ids = convert_to_tensor(segment_ids)
            return record1(prim, [d, ids, _num(num_segments, ids)], None, name or prim.name)
    unsorted_segment.__name__ = "unsorted_segment_" + what
    unsorted_segment.__doc__ = (f"The {what} of the rows of ``data`` with each ``segment_ids`` value, in "
                                f"``num_segments`` rows (negative ids are dropped).\n\n"
                                f"    >>> # tf.math.unsorted_segment_{what}(data, [1, 0, 1], num_segments=2)\n")
    return unsorted_segment


def _num(num_segments: Any, ids: Tensor) -> Tensor:
    return num_segments if isinstance(num_segments, Tensor) else convert_to_tensor(num_segments, dtype=ids.dtype)


segment_sum = _sorted(P.SEGMENT_SUM, "sum")
segment_mean = _sorted(P.SEGMENT_MEAN, "mean")
segment_max = _sorted(P.SEGMENT_MAX, "max")
segment_min = _sorted(P.SEGMENT_MIN, "min")
segment_prod = _sorted(P.SEGMENT_PROD, "prod")
unsorted_segment_max = _unsorted(P.UNSORTED_SEGMENT_MAX, "max")
unsorted_segment_min = _unsorted(P.UNSORTED_SEGMENT_MIN, "min")
unsorted_segment_prod = _unsorted(P.UNSORTED_SEGMENT_PROD, "prod")


def _segment_counts(data: Tensor, ids: Tensor, num_segments: Any) -> Tensor:
    """Rows per segment, at least 1, shaped to broadcast against the segment sums."""
    n = _num(num_segments, ids)
    counts = a.unsorted_segment_sum(a.ones(a.shape(ids), dtype=data.dtype), ids, n, name="counts")
    tail = a.ones(a.reshape(a.rank(data) - a.rank(ids), [1]), dtype=n.dtype)
    rows = a.reshape(counts, a.concat([a.reshape(n, [1]), tail], 0), name="rows")
    return m.maximum(rows, 1, name="at_least_1")


def _scaled_sums(data: Any, segment_ids: Any, num_segments: Any, name: str, root: bool) -> Tensor:
    """Segment sums divided by the rows per segment (at least 1), or by its square root."""
    d = convert_to_tensor(data)
    graph = graph_of([d, segment_ids, num_segments])
    with graph.as_default(), graph.name_scope(name):
        ids = convert_to_tensor(segment_ids)
        total = a.unsorted_segment_sum(d, ids, _num(num_segments, ids), name="total")
        counts = _segment_counts(d, ids, num_segments)
        return m.truediv(total, m.sqrt(counts) if root else counts)


def unsorted_segment_mean(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Tensor:
    """The mean of the rows of ``data`` with each ``segment_ids`` value (0 for empty segments).

    >>> # tf.math.unsorted_segment_mean(data, [1, 0, 1], num_segments=2)
    """
    return _scaled_sums(data, segment_ids, num_segments, name or "UnsortedSegmentMean", root=False)


def unsorted_segment_sqrt_n(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Tensor:
    """The sum of the rows in each segment divided by the square root of their number.

    >>> # tf.math.unsorted_segment_sqrt_n(data, [1, 0, 1], num_segments=2)
    """
    return _scaled_sums(data, segment_ids, num_segments, name or "UnsortedSegmentSqrtN", root=True)
