"""``tf.summary.FileWriter`` and ``tf.summary.FileWriterCache``: event files TensorBoard reads.

A writer opens ``<logdir>/events.out.tfevents.<seconds>.<host><suffix>``, writes the
``brain.Event:2`` file-version event first, then one TFRecord per event. Events are buffered in
the file object and flushed when ``max_queue`` are pending or ``flush_secs`` have passed (checked
as events arrive), on ``flush()`` and on ``close()``. ``add_run_metadata`` writes a
``tagged_run_metadata`` event only for a message that can serialize itself (s2sgrad's sessions
collect no run metadata, so with theirs it writes nothing).
"""
from __future__ import annotations

import os
import socket
import threading
import time
from typing import Any

from ..platform import gfile
from ..ssa.graph import Graph
from .events import FILE_VERSION, event, serialized
from .graph_def import graph_def as _graph_def
from .records import write_record

__all__ = ["FileWriter", "FileWriterCache", "directory_argument"]


def directory_argument(path: Any, what: str, required: bool = False) -> Any:
    """``path`` (str, bytes or os.PathLike; None unless ``required``) as a str; TypeError naming ``what``."""
    if path is None and not required:
        return None
    if isinstance(path, bytes):
        path = path.decode()
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise TypeError(f"{what} must be a directory path, got {path!r}")
    return os.fspath(path)


class FileWriter:
    """Writes Summary protocol buffers (the summary ops' values) and the graph to an event file in ``logdir``."""

    def __init__(self, logdir: Any, graph: Graph | None = None, max_queue: int = 10, flush_secs: float = 120,
                 graph_def: Any = None, filename_suffix: str | None = None, session: Any = None) -> None:
        if session is not None:
            raise NotImplementedError("FileWriter(session=) writes through a summary session in TF 2 only; "
                                      "pass logdir (and graph=) instead")
        if isinstance(max_queue, bool) or not isinstance(max_queue, int) or max_queue < 0:
            raise ValueError(f"max_queue must be a non-negative int, got {max_queue!r}")
        if isinstance(flush_secs, bool) or not isinstance(flush_secs, (int, float)) or flush_secs < 0:
            raise ValueError(f"flush_secs must be a non-negative number of seconds, got {flush_secs!r}")
        if filename_suffix is not None and not isinstance(filename_suffix, str):
            raise TypeError(f"filename_suffix must be a string, got {filename_suffix!r}")
        self._logdir = directory_argument(logdir, "logdir", required=True)
        self._max_queue, self._flush_secs, self._suffix = max_queue, float(flush_secs), filename_suffix or ""
        self._lock = threading.Lock()
        self._file: Any = None
        self._open()
        if graph is not None or graph_def is not None:
            self.add_graph(graph, graph_def=graph_def)

    def _open(self) -> None:
        gfile.MakeDirs(self._logdir)
        now = time.time()
        name = f"events.out.tfevents.{int(now):010d}.{socket.gethostname()}{self._suffix}"
        self._path = os.path.join(self._logdir, name)
        self._file = open(self._path, "ab")
        self._pending, self._last_flush = 0, now
        write_record(self._file, event(float(int(now)), file_version=FILE_VERSION))  # whole seconds, as TF
        self._file.flush()

    def get_logdir(self) -> str:
        """The directory the event file is in."""
        return self._logdir

    def add_event(self, event: Any) -> None:
        """Write a serialized ``Event`` (bytes, or a message with ``SerializeToString``) as it is."""
        self._write(serialized(event, "event"))

    def add_summary(self, summary: Any, global_step: Any = None) -> None:
        """Write a Summary (the bytes a summary op returns, or a Summary message) at ``global_step``."""
        self._write(event(time.time(), _step(global_step), summary=serialized(summary, "summary")))

    def add_graph(self, graph: Graph | None, global_step: Any = None, graph_def: Any = None) -> None:
        """Write ``graph`` (a tf.Graph, or ``graph_def``: a serialized GraphDef) for TensorBoard's graph tab."""
        if graph is not None and graph_def is not None:
            raise ValueError("Please pass only graph or graph_def (deprecated), but not both.")
        encoded = _graph_def(graph) if graph is not None else serialized(graph_def, "graph_def")
        self._write(event(time.time(), _step(global_step), graph_def=encoded))

    def add_session_log(self, session_log: Any, global_step: Any = None) -> None:
        """Write a ``SessionLog`` (START, STOP or CHECKPOINT) at ``global_step``."""
        self._write(event(time.time(), _step(global_step), session_log=serialized(session_log, "session_log")))

    def add_run_metadata(self, run_metadata: Any, tag: str, global_step: Any = None) -> None:
        """Write ``run_metadata`` under ``tag`` if it can serialize itself; otherwise nothing (see the module doc)."""
        if not isinstance(tag, str):
            raise TypeError(f"tag must be a string, got {tag!r}")
        if hasattr(run_metadata, "SerializeToString"):
            metadata = serialized(run_metadata, "run_metadata")
            self._write(event(time.time(), _step(global_step), run_metadata=(tag, metadata)))

    def _write(self, record: bytes) -> None:
        with self._lock:
            if self._file is None:
                raise RuntimeError(f"the FileWriter of {self._logdir} is closed: call reopen() first")
            write_record(self._file, record)
            self._pending += 1
            now = time.time()
            if self._pending >= self._max_queue or now - self._last_flush >= self._flush_secs:
                self._flush_locked(now)

    def _flush_locked(self, now: float) -> None:
        self._file.flush()
        self._pending, self._last_flush = 0, now

    def flush(self) -> None:
        """Write every pending event to disk."""
        with self._lock:
            if self._file is not None:
                self._flush_locked(time.time())

    def close(self) -> None:
        """Flush and close the file; ``reopen()`` starts a new one."""
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None

    def reopen(self) -> None:
        """After ``close()``: open a new event file in the same directory (nothing if still open)."""
        with self._lock:
            if self._file is None:
                self._open()

    def __enter__(self) -> FileWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _step(global_step: Any) -> int | None:
    if global_step is None:
        return None
    if hasattr(global_step, "item"):
        global_step = global_step.item()
    if isinstance(global_step, bool) or not isinstance(global_step, int):
        raise TypeError(f"global_step must be an int, got {global_step!r}")
    return global_step


class FileWriterCache:
    """One FileWriter per log directory, shared: ``FileWriterCache.get(logdir)``."""

    _writers: dict[str, FileWriter] = {}
    _lock = threading.Lock()

    @staticmethod
    def get(logdir: Any) -> FileWriter:
        """The cached FileWriter of ``logdir``, created on first use."""
        key = os.path.abspath(directory_argument(logdir, "logdir", required=True))
        with FileWriterCache._lock:
            writer = FileWriterCache._writers.get(key)
            if writer is None:
                writer = FileWriterCache._writers[key] = FileWriter(logdir)
            return writer

    @staticmethod
    def clear() -> None:
        """Close and forget every cached writer."""
        with FileWriterCache._lock:
            for writer in FileWriterCache._writers.values():
                writer.close()
            FileWriterCache._writers.clear()
