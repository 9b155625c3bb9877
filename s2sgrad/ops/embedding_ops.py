"""``tf.nn.embedding_lookup``: rows of one table, or of a table split into partitions by
``partition_strategy`` ('mod': id ``i`` is row ``i // n`` of partition ``i % n``; 'div':
partitions hold consecutive ids), optionally clipped to ``max_norm``."""
from __future__ import annotations

from typing import Any

from ..ssa.graph import Tensor
from . import array_ops as a
from . import math_ops as m
from . import reduce_ops as r
from .convert import convert_to_tensor, graph_of

__all__ = ["embedding_lookup"]


def embedding_lookup(params: Any, ids: Any, partition_strategy: str = "mod", name: str | None = None,
                     validate_indices: bool = True, max_norm: Any = None) -> Tensor:
    """Rows of ``params`` (a tensor, or a list of partitions of one table) at ``ids``; with
    ``max_norm``, each row is scaled down to that L2 norm if it is longer. The gradient is
    IndexedSlices.

    >>> # vectors = tf.nn.embedding_lookup(embeddings, word_ids)
    """
    if partition_strategy not in ("mod", "div"):
        raise ValueError(f"Unrecognized partition strategy: {partition_strategy}")
    parts = list(params) if isinstance(params, (list, tuple)) else [params]
    if not parts:
        raise ValueError("Need at least one param")
    graph = graph_of([*parts, ids])
    with graph.as_default(), graph.name_scope(name or "embedding_lookup") as scope:
        tables = [convert_to_tensor(p) for p in parts]
        if len({t.dtype for t in tables}) > 1:
            raise TypeError(f"embedding_lookup partitions must have one dtype, got {[t.dtype.name for t in tables]}")
        i = convert_to_tensor(ids)
        if len(tables) == 1:
            table, rows = tables[0], i
        else:
            table = a.concat(tables, 0)
            rows = i if partition_strategy == "div" else _mod_rows(tables, i)
        looked_up = a.gather(table, rows, name=None if max_norm is not None else scope)
        return looked_up if max_norm is None else _clip(looked_up, i, max_norm, scope)


def _mod_rows(tables: list[Tensor], ids: Tensor) -> Tensor:
    """Rows of the concatenated partitions: id ``i`` is row ``i // n`` of partition ``i % n``."""
    n = len(tables)
    sizes = [t.shape.sizes[0] if t.shape.sizes else None for t in tables]
    if None in sizes:
        counts = a.stack([a.shape(t, out_type=ids.dtype)[0] for t in tables])
        starts = r.cumsum(counts, exclusive=True)
    else:
        starts = convert_to_tensor([sum(sizes[:k]) for k in range(n)], dtype=ids.dtype)
    return a.gather(starts, m.floormod(ids, n)) + m.floordiv(ids, n)


def _clip(rows: Tensor, ids: Tensor, max_norm: Any, scope: str) -> Tensor:
    """Each looked-up embedding scaled to L2 norm at most ``max_norm`` (as ``tf.clip_by_norm``)."""
    if ids.shape.rank is None or rows.shape.rank is None:
        raise ValueError("embedding_lookup with max_norm needs the ranks of ids and params")
    axes = list(range(ids.shape.rank, rows.shape.rank))
    squares = r.reduce_sum(rows * rows, axes, keepdims=True)
    positive = squares > 0
    norm = a.where(positive, m.sqrt(a.where(positive, squares, a.ones_like(squares))), squares)
    clip = m.cast(convert_to_tensor(max_norm), rows.dtype)
    return m.truediv(rows * clip, m.maximum(norm, clip), name=scope)
