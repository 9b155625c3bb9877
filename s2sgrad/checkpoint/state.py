"""The ``checkpoint`` state file: which checkpoints of a directory exist and which is the latest.

It is a CheckpointState message in protobuf's text format, as TensorFlow writes it::

    model_checkpoint_path: "model.ckpt-2"
    all_model_checkpoint_paths: "model.ckpt-1"
    all_model_checkpoint_paths: "model.ckpt-2"

(``all_model_checkpoint_timestamps`` and ``last_preserved_timestamp`` only when given). Relative
paths are relative to the directory of the state file. The file is replaced atomically.
"""
from __future__ import annotations

import dataclasses
import glob
import os
import re
import uuid
from collections.abc import Sequence
from typing import Any

from .. import errors
from .bundle import index_path

__all__ = ["path_argument", "CheckpointState", "generate_checkpoint_state_proto", "update_checkpoint_state",
           "update_checkpoint_state_internal", "get_checkpoint_state", "latest_checkpoint", "checkpoint_exists",
           "get_checkpoint_mtimes", "remove_checkpoint", "atomic_write"]

_ESCAPES = {"\n": r"\n", "\r": r"\r", "\t": r"\t", '"': r"\"", "'": r"\'", "\\": r"\\"}
_UNESCAPES = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "'": "'", "\\": "\\", "a": "\a", "b": "\b", "f": "\f",
              "v": "\v", "?": "?"}
_LINE = re.compile(r'\s*([A-Za-z_]\w*)\s*:\s*("(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|[-+.\w]+)\s*(?:#.*)?$')
_FIELDS = ("model_checkpoint_path", "all_model_checkpoint_paths", "all_model_checkpoint_timestamps",
           "last_preserved_timestamp")


def path_argument(value: Any, name: str) -> str:
    """``value`` as a path string (str, bytes or os.PathLike); TypeError naming the argument otherwise."""
    if not isinstance(value, (str, bytes, os.PathLike)):
        raise TypeError(f"{name} must be a path (str or os.PathLike), got {value!r}")
    path = os.fspath(value)
    return os.fsdecode(path) if isinstance(path, bytes) else path


def _paths_argument(value: Any, name: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise TypeError(f"{name} must be a list of paths, got {value!r}")
    return [path_argument(p, name) for p in value]


@dataclasses.dataclass
class CheckpointState:
    """TF's CheckpointState proto: the latest checkpoint and all the ones kept."""

    model_checkpoint_path: str = ""
    all_model_checkpoint_paths: list[str] = dataclasses.field(default_factory=list)
    all_model_checkpoint_timestamps: list[float] = dataclasses.field(default_factory=list)
    last_preserved_timestamp: float = 0.0

    def __str__(self) -> str:
        """The text format (what the state file holds)."""
        lines = [f'model_checkpoint_path: "{_escape(self.model_checkpoint_path)}"']
        lines += [f'all_model_checkpoint_paths: "{_escape(p)}"' for p in self.all_model_checkpoint_paths]
        lines += [f"all_model_checkpoint_timestamps: {t!r}" for t in self.all_model_checkpoint_timestamps]
        if self.last_preserved_timestamp:
            lines.append(f"last_preserved_timestamp: {self.last_preserved_timestamp!r}")
        return "".join(line + "\n" for line in lines)

    @classmethod
    def parse(cls, text: str) -> CheckpointState:
        """The state in ``text`` (ValueError naming the first line that is not a CheckpointState field)."""
        state = cls()
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.strip().startswith("#"):
                continue
            match = _LINE.match(line)
            if match is None or match.group(1) not in _FIELDS:
                raise ValueError(f"line {number}: not a CheckpointState field: {line!r}")
            name, raw = match.groups()
            value = _unescape(raw[1:-1]) if raw[0] in "\"'" else float(raw)
            _set(state, name, value, number)
        return state


def _set(state: CheckpointState, name: str, value: str | float, number: int) -> None:
    is_path = name in ("model_checkpoint_path", "all_model_checkpoint_paths")
    if is_path != isinstance(value, str):
        raise ValueError(f"line {number}: {name} must be a {'string' if is_path else 'number'}")
    if name in ("all_model_checkpoint_paths", "all_model_checkpoint_timestamps"):
        getattr(state, name).append(value)
    else:
        setattr(state, name, value)


def _escape(text: str) -> str:
    """A text-format string body: quotes, backslashes and control characters escaped; UTF-8 as is."""
    return "".join(_ESCAPES.get(ch) or (f"\\{ord(ch):03o}" if ord(ch) < 0x20 or ord(ch) == 0x7F else ch)
                   for ch in text)


def _unescape(text: str) -> str:
    out = bytearray()
    i = 0
    while i < len(text):
        ch = text[i]
        if ch != "\\":
            out += ch.encode("utf-8")
            i += 1
            continue
        nxt = text[i + 1]
        octal = re.match(r"[0-7]{1,3}", text[i + 1:])
        if octal:
            out.append(int(octal.group(), 8) & 0xFF)
            i += 1 + len(octal.group())
        elif nxt == "x" and re.match(r"[0-9a-fA-F]{1,2}", text[i + 2:]):
            digits = re.match(r"[0-9a-fA-F]{1,2}", text[i + 2:]).group()  # type: ignore[union-attr]
            out.append(int(digits, 16))
            i += 2 + len(digits)
        elif nxt in _UNESCAPES:
            out += _UNESCAPES[nxt].encode()
            i += 2
        else:
            raise ValueError(f"invalid escape \\{nxt} in {text!r}")
    return out.decode("utf-8", errors="surrogateescape")


def atomic_write(path: str, contents: bytes) -> None:
    """Replace ``path`` by ``contents`` at once: a crash leaves the old file or the new one."""
    temp = f"{path}.tmp{uuid.uuid4().hex}"
    try:
        with open(temp, "wb") as f:
            f.write(contents)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"{os.path.dirname(path) or '.'}: no such directory (writing "
                                   f"{path})") from None
    except OSError as e:
        raise errors.PermissionDeniedError(None, None, f"{path}: cannot write ({e.strerror})") from None
    finally:
        if os.path.exists(temp):
            os.remove(temp)


def _state_path(save_dir: str, latest_filename: str | None) -> str:
    return os.path.join(save_dir, latest_filename or "checkpoint")


def generate_checkpoint_state_proto(save_dir: str, model_checkpoint_path: str,
                                    all_model_checkpoint_paths: Sequence[str] | None = None,
                                    all_model_checkpoint_timestamps: Sequence[float] | None = None,
                                    last_preserved_timestamp: float | None = None) -> CheckpointState:
    """The state naming ``model_checkpoint_path`` as latest (appended to the list when not last);
    with a relative ``save_dir``, relative paths are made relative to it, as TF does."""
    save_dir = path_argument(save_dir, "save_dir")
    model_checkpoint_path = path_argument(model_checkpoint_path, "model_checkpoint_path")
    paths = _paths_argument(all_model_checkpoint_paths, "all_model_checkpoint_paths")
    if not paths or paths[-1] != model_checkpoint_path:
        paths.append(model_checkpoint_path)
    stamps = list(all_model_checkpoint_timestamps or [])
    if not all(isinstance(t, (int, float)) for t in stamps) or \
            not isinstance(last_preserved_timestamp, (int, float, type(None))):
        raise TypeError("checkpoint timestamps must be numbers (seconds since the epoch)")
    if stamps and len(stamps) != len(paths):
        raise ValueError(f"Checkpoint timestamps, if provided, must match checkpoint paths (got paths {paths} "
                         f"and timestamps {stamps})")
    if not os.path.isabs(save_dir):
        model_checkpoint_path = _relative(model_checkpoint_path, save_dir)
        paths = [_relative(p, save_dir) for p in paths]
    return CheckpointState(model_checkpoint_path, paths, [float(t) for t in stamps],
                           float(last_preserved_timestamp or 0.0))


def _relative(path: str, start: str) -> str:
    return path if os.path.isabs(path) else os.path.relpath(path, start or os.curdir)


def update_checkpoint_state(save_dir: str, model_checkpoint_path: str,
                            all_model_checkpoint_paths: Sequence[str] | None = None,
                            latest_filename: str | None = None,
                            all_model_checkpoint_timestamps: Sequence[float] | None = None,
                            last_preserved_timestamp: float | None = None) -> None:
    """Write the state file of ``save_dir`` (``tf.train.update_checkpoint_state``)."""
    update_checkpoint_state_internal(save_dir, model_checkpoint_path, all_model_checkpoint_paths, latest_filename,
                                     False, all_model_checkpoint_timestamps, last_preserved_timestamp)


def update_checkpoint_state_internal(save_dir: str, model_checkpoint_path: str,
                                     all_model_checkpoint_paths: Sequence[str] | None = None,
                                     latest_filename: str | None = None, save_relative_paths: bool = False,
                                     all_model_checkpoint_timestamps: Sequence[float] | None = None,
                                     last_preserved_timestamp: float | None = None) -> None:
    """``update_checkpoint_state``; with ``save_relative_paths``, absolute paths are written relative
    to ``save_dir`` (so the directory can be moved)."""
    save_dir = path_argument(save_dir, "save_dir")
    if latest_filename is not None:
        latest_filename = path_argument(latest_filename, "latest_filename")
    if save_relative_paths:
        model_checkpoint_path = _relative_to_dir(path_argument(model_checkpoint_path, "model_checkpoint_path"),
                                                 save_dir)
        all_model_checkpoint_paths = [_relative_to_dir(p, save_dir) for p in
                                      _paths_argument(all_model_checkpoint_paths, "all_model_checkpoint_paths")]
    state = generate_checkpoint_state_proto(save_dir, model_checkpoint_path, all_model_checkpoint_paths,
                                            all_model_checkpoint_timestamps, last_preserved_timestamp)
    path = _state_path(save_dir, latest_filename)
    if path == state.model_checkpoint_path:
        raise RuntimeError(f"Save path '{model_checkpoint_path}' conflicts with path used for checkpoint state.  "
                           "Please use a different save path.")
    atomic_write(path, str(state).encode("utf-8"))


def _relative_to_dir(path: str, save_dir: str) -> str:
    return os.path.relpath(path, save_dir or os.curdir) if os.path.isabs(path) else path


def get_checkpoint_state(checkpoint_dir: str, latest_filename: str | None = None) -> CheckpointState | None:
    """The state file of ``checkpoint_dir`` with relative paths joined to it, or None when there is
    none or it cannot be parsed; ValueError when it names no checkpoint."""
    checkpoint_dir = path_argument(checkpoint_dir, "checkpoint_dir")
    if latest_filename is not None:
        latest_filename = path_argument(latest_filename, "latest_filename")
    path = _state_path(checkpoint_dir, latest_filename)
    try:
        with open(path, encoding="utf-8") as f:
            state = CheckpointState.parse(f.read())
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError, UnicodeDecodeError, ValueError):
        return None
    if not state.model_checkpoint_path:
        raise ValueError(f"Invalid checkpoint state loaded from {checkpoint_dir}")
    state.model_checkpoint_path = os.path.join(checkpoint_dir, state.model_checkpoint_path)
    state.all_model_checkpoint_paths = [os.path.join(checkpoint_dir, p) for p in state.all_model_checkpoint_paths]
    return state


def latest_checkpoint(checkpoint_dir: str, latest_filename: str | None = None) -> str | None:
    """The prefix of the newest checkpoint in ``checkpoint_dir`` (None when there is none or its
    files are gone)."""
    state = get_checkpoint_state(checkpoint_dir, latest_filename)
    if state is not None and checkpoint_exists(state.model_checkpoint_path):
        return state.model_checkpoint_path
    return None


def checkpoint_exists(checkpoint_prefix: str) -> bool:
    """Whether the checkpoint ``checkpoint_prefix`` exists (its ``.index`` file, or a V1 file)."""
    prefix = path_argument(checkpoint_prefix, "checkpoint_prefix")
    return bool(glob.glob(glob.escape(index_path(prefix)))) or os.path.isfile(prefix)


def get_checkpoint_mtimes(checkpoint_prefixes: Sequence[str]) -> list[float]:
    """The modification time of each existing checkpoint's index file."""
    prefixes = _paths_argument(checkpoint_prefixes, "checkpoint_prefixes")
    return [os.path.getmtime(index_path(p)) for p in prefixes if os.path.isfile(index_path(p))]


def remove_checkpoint(checkpoint_prefix: str, checkpoint_format_version: int = 2,
                      meta_graph_suffix: str = "meta") -> None:
    """Delete the files of the checkpoint ``checkpoint_prefix`` (index, data shards, meta graph)."""
    checkpoint_prefix = path_argument(checkpoint_prefix, "checkpoint_prefix")
    if not isinstance(meta_graph_suffix, str):
        raise TypeError(f"meta_graph_suffix must be a string, got {meta_graph_suffix!r}")
    escaped = glob.escape(checkpoint_prefix)
    for path in [index_path(checkpoint_prefix), f"{checkpoint_prefix}.{meta_graph_suffix}",
                 *glob.glob(escaped + ".data-?????-of-?????")]:
        if os.path.exists(path):
            os.remove(path)
