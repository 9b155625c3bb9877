"""``tensorflow.Event`` messages in the protobuf wire format (TensorFlow's ``event.proto``):
wall_time (1), step (2), file_version (3), graph_def (4), summary (5), session_log (7),
tagged_run_metadata (8). A Summary arrives already serialized (the summary ops' output)."""
from __future__ import annotations

from typing import Any

from ..codegen.runtime_summary import delimited, double_field, int_field

__all__ = ["FILE_VERSION", "SessionLog", "event", "serialized", "session_log"]

FILE_VERSION = "brain.Event:2"


class SessionLog:
    """``tf.SessionLog``: a status (START, STOP, CHECKPOINT), a checkpoint path and a message."""

    STATUS_UNSPECIFIED, START, STOP, CHECKPOINT = 0, 1, 2, 3

    def __init__(self, status: int = 0, checkpoint_path: str = "", msg: str = "") -> None:
        if status not in (0, 1, 2, 3):
            raise ValueError(f"SessionLog status must be START, STOP or CHECKPOINT (1, 2, 3), got {status!r}")
        self.status, self.checkpoint_path, self.msg = status, checkpoint_path, msg

    def SerializeToString(self) -> bytes:
        return session_log(self.status, self.checkpoint_path, self.msg)


def session_log(status: int, checkpoint_path: str = "", msg: str = "") -> bytes:
    """A serialized SessionLog: status (1), checkpoint_path (2), msg (3)."""
    out = int_field(1, status) if status else b""
    if checkpoint_path:
        out += delimited(2, checkpoint_path.encode("utf-8"))
    if msg:
        out += delimited(3, msg.encode("utf-8"))
    return out


def serialized(message: Any, what: str) -> bytes:
    """``message`` as bytes: bytes as they are, a NumPy bytes scalar, or anything with ``SerializeToString``."""
    if hasattr(message, "SerializeToString"):
        return bytes(message.SerializeToString())
    if hasattr(message, "item") and getattr(message, "ndim", 1) == 0:
        message = message.item()
    if isinstance(message, (bytes, bytearray)):
        return bytes(message)
    raise TypeError(f"{what} must be serialized bytes (what a summary op returns) or a protocol-buffer message, "
                    f"got {type(message).__name__}")


def event(wall_time: float, step: int | None = None, *, file_version: str | None = None, graph_def: bytes | None = None,
          summary: bytes | None = None, session_log: bytes | None = None, run_metadata: tuple[str, bytes] | None = None
          ) -> bytes:
    """A serialized Event with one of its payloads."""
    out = double_field(1, wall_time)
    if step:
        out += int_field(2, int(step))
    if file_version is not None:
        out += delimited(3, file_version.encode("utf-8"))
    if graph_def is not None:
        out += delimited(4, graph_def)
    if summary is not None:
        out += delimited(5, summary)
    if session_log is not None:
        out += delimited(7, session_log)
    if run_metadata is not None:
        tag, metadata = run_metadata
        out += delimited(8, delimited(1, tag.encode("utf-8")) + delimited(2, metadata))
    return out
