"""See what s2sgrad made of a graph: ``source(fetches)`` (the generated module), ``ir(fetches)`` and
``dot(fetches)`` (a picture of the optimized program, or of the graph slice)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .codegen.lower import needed_ops
from .drawing import render, slice_dot
from .pipeline import FeedSpecs, Plan, generate, graph_of_fetches, plan, static_variable_spec
from .pipeline.feeds import convert_feed
from .pipeline.fetches import FetchStructure
from .ssa.graph import Graph, Tensor
from .ssa.printer import format_ops

__all__ = ["source", "ir", "dot"]


def source(fetches: Any, feed_list: Sequence[Any] | None = None, feed_dict: dict | None = None,
           graph: Graph | None = None) -> str:
    """The Python module a Session compiles to compute ``fetches``.

    Fed tensors are ``feed_list`` (shapes from their static shapes) or the keys of ``feed_dict``
    (shapes from its values, exactly as ``Session.run`` specializes them).

    >>> # print(tf.source(loss, feed_dict={x: np.zeros(3, np.float32)}))
    """
    graph_slice, specs = slice_plan(fetches, feed_list, feed_dict, graph)
    return generate(graph_slice, specs, static_variable_spec).source


def dot(fetches: Any, feed_list: Sequence[Any] | None = None, feed_dict: dict | None = None,
        graph: Graph | None = None, optimized: bool = True, format: str = "dot") -> str:
    """Graphviz DOT of what computes ``fetches`` (fed tensors as in ``source``): the optimized
    program the generated module executes, or with ``optimized=False`` the graph slice op by op.
    Forward ops are filled blue, gradient ops orange. ``format='svg'`` renders it with Graphviz
    (RuntimeError naming what to install when Graphviz is missing).

    >>> # open("loss.svg", "w").write(tf.dot(loss, feed_list=[x], format="svg"))
    """
    graph_slice, specs = slice_plan(fetches, feed_list, feed_dict, graph)
    return render(slice_dot(graph_slice, specs, static_variable_spec, optimized), format)


def slice_plan(fetches: Any, feed_list: Sequence[Any] | None, feed_dict: dict | None,
          graph: Graph | None) -> tuple[Plan, FeedSpecs]:
    """The plan of ``fetches`` and its feed specs, from the values of ``feed_dict`` or the static
    shapes of ``feed_list``."""
    graph = graph_of_fetches(fetches, graph)
    if feed_dict is not None and not isinstance(feed_dict, dict):
        raise TypeError(f"feed_dict must be a dict, got {type(feed_dict).__name__}")
    fed = _fed(graph, feed_dict if feed_dict is not None else feed_list)
    values = None if feed_dict is None else [convert_feed(v, t) for t, v in zip(fed, feed_dict.values(), strict=True)]
    graph_slice = plan(graph, fetches, fed)
    return graph_slice, graph_slice.feed_specs(values)


def _fed(graph: Graph, keys: Any) -> list[Tensor]:
    """The fed tensors named by ``keys`` (a list of tensors or names, or a feed dict)."""
    if keys is None:
        return []
    if not isinstance(keys, (list, tuple, dict)):
        raise TypeError(f"feed_list must be a list of tensors (or their names), got {keys!r}")
    fed = [graph.as_graph_element(k) for k in keys]
    tensors = [t for t in fed if isinstance(t, Tensor)]
    if len(tensors) != len(fed):
        raise TypeError("feeds must be tensors (or their names)")
    return tensors


def ir(fetches: Any, feed_list: Sequence[Any] | None = None, graph: Graph | None = None) -> str:
    """The IR of the ops that ``fetches`` need (one equation per line), given the fed tensors."""
    graph = graph_of_fetches(fetches, graph)
    structure = FetchStructure(graph, fetches)
    fed = set(_fed(graph, feed_list))
    return format_ops(needed_ops(structure.tensors, structure.ops, fed, check_feeds=False))
