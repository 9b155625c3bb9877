"""Where a generated module's text lives, so tracebacks, debuggers and profilers show it.

By default a module's text is registered in ``linecache`` under a name like
``<s2sgrad:run-1f2e3d4c5b-0>`` (tracebacks, ``logging``, pdb, ``inspect``, pytest and IPython read
it there; ``tracebacks.show_generated_lines`` covers the interpreter's own printing) and nothing is
written to disk. Tools that read source files themselves (coverage, line profilers, editors
opening a traceback's file) need a file: with ``S2SGRAD_SOURCE_DIR`` set to a directory (or to
``1`` for the per-user cache directory, ``$XDG_CACHE_HOME/s2sgrad/generated``), each module is
written there, named by its label and a hash of its text (the same text, the same file, as
compilers' caches do), atomically (a temporary file renamed into place); its code then carries
that path. When the directory cannot be written, linecache alone serves. The directory is kept
to ``MAX_FILES`` modules: writing a new one deletes the least recently used beyond that (a file
is "used" when written or found again), so a long-lived cache does not grow without bound.
"""
from __future__ import annotations

import contextlib
import hashlib
import itertools
import linecache
import os
import re
import sys
import tempfile

from ..tracebacks import GENERATED_PREFIX

__all__ = ["SOURCE_DIR_ENV", "MAX_FILES", "source_dir", "register_source", "forget_source"]

SOURCE_DIR_ENV = "S2SGRAD_SOURCE_DIR"
MAX_FILES = 1000  # generated modules kept in the directory; the least recently used go first
_counter = itertools.count()
_UNSAFE = re.compile(r"[^A-Za-z0-9_.()-]+")


def _user_cache_dir() -> str:
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~\\AppData\\Local")
    elif sys.platform == "darwin":
        base = os.path.expanduser("~/Library/Caches")
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "s2sgrad", "generated")


def source_dir() -> str | None:
    """The directory generated modules are written to (None: linecache only), from ``S2SGRAD_SOURCE_DIR``."""
    value = os.environ.get(SOURCE_DIR_ENV, "").strip()
    if value.lower() in ("", "0", "off", "no", "false"):
        return None
    if value.lower() in ("1", "on", "yes", "true"):
        return _user_cache_dir()
    return os.path.abspath(os.path.expanduser(value))


def register_source(source: str, label: str) -> str:
    """Make ``source`` readable by tracebacks and tools; returns the file name to compile it under."""
    digest = hashlib.sha1(source.encode("utf-8")).hexdigest()
    directory = source_dir()
    if directory is not None:
        path = _written(directory, f"{_UNSAFE.sub('_', label)[:60]}-{digest[:16]}.py", source)
        if path is not None:
            return path
    printable = "".join(c if c.isprintable() else "?" for c in label)  # compile() refuses NUL in file names
    filename = f"{GENERATED_PREFIX}{printable}-{digest[:10]}-{next(_counter)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    return filename


def forget_source(filename: str) -> None:
    """Drop a module's linecache entry (its file, if written, stays: another module may share it)."""
    if filename.startswith(GENERATED_PREFIX):
        linecache.cache.pop(filename, None)


def _written(directory: str, name: str, source: str) -> str | None:
    """The path of ``name`` in ``directory`` holding exactly ``source`` (written if it does not), or
    None when that cannot be done."""
    path = os.path.join(directory, name)
    try:
        with open(path, encoding="utf-8", newline="") as f:
            if f.read() == source:
                os.utime(path)  # used again: the last to be pruned
                return path
    except (OSError, UnicodeDecodeError):
        pass
    temporary = None
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=directory)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(source)
        os.replace(temporary, path)
    except OSError:
        if temporary is not None and os.path.exists(temporary):
            os.unlink(temporary)
        return None
    linecache.checkcache(path)  # an older text under this name may be cached
    _prune(directory, MAX_FILES)
    return path


def _prune(directory: str, keep: int) -> None:
    """Delete the least recently used modules of ``directory`` beyond the ``keep`` newest (other
    files, and files another process removes first, are left alone)."""
    try:
        with os.scandir(directory) as entries:
            modules = [(entry.stat().st_mtime, entry.path) for entry in entries
                       if entry.name.endswith(".py") and entry.is_file()]
    except OSError:
        return
    if len(modules) <= keep:
        return
    modules.sort()
    for _, path in modules[:len(modules) - keep]:
        with contextlib.suppress(OSError):
            os.unlink(path)
