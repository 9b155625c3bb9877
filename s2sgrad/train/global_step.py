"""The global step: one int64 scalar variable named ``global_step``, in the ``global_step``
collection, that ``apply_gradients(global_step=...)`` increments and the schedules read."""
from __future__ import annotations

from typing import Any

from ..ops import array_ops as a
from ..ops import variables as v
from ..ssa.graph import Graph, Tensor, get_default_graph

__all__ = ["create_global_step", "get_or_create_global_step", "get_global_step", "assert_global_step",
           "global_step"]

GLOBAL_STEP = "global_step"


def create_global_step(graph: Any = None) -> v.Variable:
    """Create the graph's ``global_step`` (int64, 0, not trainable); ValueError if there is one."""
    graph = _graph(graph)
    if get_global_step(graph) is not None:
        raise ValueError('"global_step" already exists.')
    with graph.as_default(), graph.name_scope(None):
        return v.Variable(a.zeros([], "int64"), trainable=False, name=GLOBAL_STEP,
                          collections=[v.GLOBAL_VARIABLES, GLOBAL_STEP])


def get_or_create_global_step(graph: Any = None) -> v.Variable:
    """The graph's ``global_step`` variable, created on first use.

    >>> # step = tf.train.get_or_create_global_step()
    """
    graph = _graph(graph)
    step = get_global_step(graph)
    return create_global_step(graph) if step is None else step


def get_global_step(graph: Any = None) -> Any:
    """The graph's global step (the ``global_step`` collection's one entry, else a tensor named
    ``global_step:0``), or None when there is none."""
    graph = _graph(graph)
    found = graph.get_collection(GLOBAL_STEP)
    if len(found) > 1:
        raise TypeError("Multiple tensors in global_step collection.")
    if found:
        step = found[0]
    else:
        try:
            step = graph.get_tensor_by_name("global_step:0")
        except KeyError:
            return None
    assert_global_step(step)
    return step


def assert_global_step(global_step_tensor: Any) -> None:
    """TypeError unless ``global_step_tensor`` is an integer scalar Variable or Tensor."""
    if not isinstance(global_step_tensor, (v.Variable, Tensor)):
        raise TypeError(f"Existing \"global_step\" must be a Variable or Tensor: {global_step_tensor}.")
    if not global_step_tensor.dtype.is_integer:
        raise TypeError(f"Existing \"global_step\" does not have integer type: {global_step_tensor.dtype}")
    if global_step_tensor.shape.rank not in (None, 0):
        raise TypeError(f"Existing \"global_step\" is not scalar: {global_step_tensor.shape}")


def global_step(sess: Any, global_step_tensor: Any) -> int:
    """The value of ``global_step_tensor`` in ``sess``, as a Python int."""
    return int(sess.run(global_step_tensor))


def _graph(graph: Any) -> Graph:
    if graph is None:
        return get_default_graph()
    if not isinstance(graph, Graph):
        raise TypeError(f"graph must be a tf.Graph or None, got {graph!r}")
    return graph


