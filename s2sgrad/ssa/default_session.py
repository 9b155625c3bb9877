"""The default session of each thread, and what graph objects may ask of a session.

``Tensor.eval``, ``Operation.run`` and ``Variable.eval``/``load`` live below the Session in
the layers. They reach a session only through ``SessionBase`` (which ``tf.Session``
implements) and the per-thread stack that ``Session.as_default`` pushes onto; nothing
here is filled in by importing another module.
"""
from __future__ import annotations

import abc
import contextlib
import threading
from collections.abc import Iterator
from typing import Any

__all__ = ["SessionBase", "get_default_session", "session_for"]


class SessionBase(abc.ABC):
    """The part of ``tf.Session`` that tensors, ops and variables use."""

    @property
    @abc.abstractmethod
    def graph(self) -> Any:
        """The graph whose elements this session runs."""

    @abc.abstractmethod
    def run(self, fetches: Any, feed_dict: Any = None, options: Any = None, run_metadata: Any = None) -> Any:
        """Compute ``fetches`` with ``feed_dict`` substituted."""

    @property
    @abc.abstractmethod
    def variable_store(self) -> Any:
        """The store of this session's variable values (``load(var_op, value)`` writes one)."""

    @contextlib.contextmanager
    def as_default(self) -> Iterator[Any]:
        """Make this the thread's default session inside the ``with`` block."""
        _local.stack.append(self)
        try:
            yield self
        finally:
            _local.stack.pop()


class _DefaultSessions(threading.local):
    def __init__(self) -> None:
        self.stack: list[SessionBase] = []


_local = _DefaultSessions()


def get_default_session() -> Any:
    """The innermost ``with sess:`` / ``sess.as_default()`` session of this thread, or None."""
    return _local.stack[-1] if _local.stack else None


def session_for(session: Any, element: Any) -> SessionBase:
    """``session`` or the default session, checked to hold ``element``'s graph."""
    if session is None:
        session = get_default_session()
        if session is None:
            raise ValueError("Cannot evaluate tensor using `eval()`: No default session is registered. Use "
                             "`with sess.as_default()` or pass an explicit session to `eval(session=sess)`")
    if not isinstance(session, SessionBase):
        raise TypeError(f"session must be a tf.Session, got {session!r}")
    if element.graph is not session.graph:
        raise ValueError("Cannot use the given session to evaluate tensor: the tensor's graph is different "
                         "from the session's graph.")
    return session
