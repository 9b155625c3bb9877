"""See what s2sgrad made of a graph: ``source(fetches)`` (the generated module) and ``ir(fetches)``."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .codegen.build import build_module
from .codegen.lower import needed_ops
from .feeds import check_feed_shape, convert_feed
from .fetches import FetchStructure
from .graph import Graph, Tensor, get_default_graph
from .ir import format_ops
from .ops.convert import graph_of, is_tensor_like

__all__ = ["source", "ir"]


def _graph_for(fetches: Any, graph: Graph | None) -> Graph:
    if graph is not None:
        if not isinstance(graph, Graph):
            raise TypeError(f"graph must be a tf.Graph or None, got {graph!r}")
        return graph
    flat: list = []
    stack = [fetches]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif not isinstance(item, str):
            flat.append(item)
    if any(is_tensor_like(f) for f in flat):
        return graph_of(flat)  # ValueError when the tensors' graphs differ
    graphs = [f.graph for f in flat if isinstance(getattr(f, "graph", None), Graph)]  # ops, IndexedSlices
    return graphs[0] if graphs else get_default_graph()


def source(fetches: Any, feed_list: Sequence[Any] | None = None, feed_dict: dict | None = None,
           graph: Graph | None = None) -> str:
    """The Python module a Session compiles to compute ``fetches``.

    Fed tensors are ``feed_list`` (shapes from their static shapes) or the keys of ``feed_dict``
    (shapes from its values, exactly as ``Session.run`` specializes them).

    >>> # print(tf.source(loss, feed_dict={x: np.zeros(3, np.float32)}))
    """
    graph = _graph_for(fetches, graph)
    structure = FetchStructure(graph, fetches)
    if feed_dict is not None and not isinstance(feed_dict, dict):
        raise TypeError(f"feed_dict must be a dict, got {type(feed_dict).__name__}")
    fed = _fed(graph, feed_dict if feed_dict is not None else feed_list)
    if feed_dict is not None:
        specs = {}
        for t, v in zip(fed, feed_dict.values(), strict=True):
            shape = np.shape(convert_feed(v, t))
            check_feed_shape(t, shape)
            specs[t] = (t.dtype, shape)
    else:
        specs = {t: (t.dtype, t.shape.sizes) for t in fed}
    ops = needed_ops(structure.tensors, structure.ops, set(fed))
    module, _, _ = build_module(ops, structure.tensors, specs, _static_variable_spec)
    return module.source


def _fed(graph: Graph, keys: Any) -> list[Tensor]:
    """The fed tensors named by ``keys`` (a list of tensors or names, or a feed dict)."""
    if keys is None:
        return []
    if not isinstance(keys, (list, tuple, dict)):
        raise TypeError(f"feed_list must be a list of tensors (or their names), got {keys!r}")
    fed = [graph.as_graph_element(k) for k in keys]
    if not all(isinstance(t, Tensor) for t in fed):
        raise TypeError("feeds must be tensors (or their names)")
    return fed


def _static_variable_spec(var_op: Any) -> tuple:
    t = var_op.outputs[0]
    return t.dtype, t.shape.sizes


def ir(fetches: Any, feed_list: Sequence[Any] | None = None, graph: Graph | None = None) -> str:
    """The IR of the ops that ``fetches`` need (one equation per line), given the fed tensors."""
    graph = _graph_for(fetches, graph)
    structure = FetchStructure(graph, fetches)
    fed = set(_fed(graph, feed_list))
    return format_ops(needed_ops(structure.tensors, structure.ops, fed, check_feeds=False))
