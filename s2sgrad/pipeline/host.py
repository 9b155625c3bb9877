"""Runs whose graph slice holds *host* ops (``Primitive.host``: tf.data's iterator ops), which a
Session computes in Python around the compiled module.

Before the module runs, each source op (``IteratorGetNext``) produces its values, which the module
receives as feeds: ``attrs["host"].produce(resources, session, input values) -> [value per output]`` (a
source's inputs, such as a feedable iterator's string handle, are computed first by their own run). The module also
fetches each sink op's inputs (``MakeIterator``: the tensors its dataset captured); after it returns
they go to ``attrs["host"].consume(resources, session, values)``. ``resources`` is the session's dict
of host state (iterator positions); the host may run other fetches in ``session``. A source that raises (OutOfRangeError
at the end of the data) stops the run before the module is called, so no variable changes.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..ssa.graph import Operation, Tensor

__all__ = ["HostRunner", "host_ops"]


def host_ops(ops: Sequence[Operation]) -> tuple[list[Operation], list[Operation]]:
    """The host ops among ``ops``: (sources, which have outputs; sinks, which have none)."""
    hosts = [op for op in ops if op.prim.host]
    return [op for op in hosts if op.outputs], [op for op in hosts if not op.outputs]


def host_feeds(sources: Sequence[Operation]) -> list[Tensor]:
    """The tensors the sources' values are fed to, in the order ``HostRunner`` appends them."""
    return [t for op in sources for t in op.outputs]


def sink_fetches(sinks: Sequence[Operation]) -> list[list[Tensor]]:
    """What the module fetches for the sinks: each one's inputs."""
    return [list(op.inputs) for op in sinks]


class HostRunner:
    """A plan's runner wrapped with its host ops. ``inner`` dispatches the plan that fetches
    ``(user fetches, sink inputs)`` with the sources' outputs appended to the user's feeds."""

    def __init__(self, sources: list[Operation], sinks: list[Operation], inner: Any,
                 resources: dict, session: Any, feed_keys: list) -> None:
        self.sources, self.sinks = sources, sinks
        self.inner = inner
        self.plan = inner.plan
        self._resources, self._session, self._feed_keys = resources, session, feed_keys

    def dispatch(self, values: Any) -> Any:
        fed = list(values)
        for op in self.sources:
            inputs = self._session.run(list(op.inputs), dict(zip(self._feed_keys, values, strict=True))) \
                if op.inputs else []
            fed.extend(op.attrs["host"].produce(self._resources, self._session, inputs))
        result, sink_values = self.inner.dispatch(fed)
        for op, inputs in zip(self.sinks, sink_values, strict=True):
            op.attrs["host"].consume(self._resources, self._session, inputs)
        return result
