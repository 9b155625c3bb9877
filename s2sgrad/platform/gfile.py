"""``tf.gfile``: TF-1.x's file API on local files, raising ``tf.errors`` as TF does
(``NotFoundError``, ``AlreadyExistsError``, ``FailedPreconditionError``, ...). No remote file
systems: a path is a local path (str, bytes or ``os.PathLike``). ``tf.io.gfile`` (TF2's lowercase
names) is ``io_gfile.py``."""
from __future__ import annotations

import contextlib
import errno
import glob as _glob
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .. import errors
from ..tf1_api import missing_names as _missing_names

__all__ = [
    "Copy",
    "DeleteRecursively",
    "Exists",
    "FastGFile",
    "FileStatistics",
    "GFile",
    "Glob",
    "IsDirectory",
    "ListDirectory",
    "MakeDirs",
    "MkDir",
    "Open",
    "Remove",
    "Rename",
    "Stat",
    "Walk",
]

_MODES = ("r", "w", "a", "r+", "w+", "a+")
_ERRORS: dict[int | None, type[errors.OpError]] = {  # by OSError.errno (None for an OSError without one)
    errno.ENOENT: errors.NotFoundError, errno.EEXIST: errors.AlreadyExistsError,
    errno.EACCES: errors.PermissionDeniedError, errno.EPERM: errors.PermissionDeniedError,
    errno.EISDIR: errors.FailedPreconditionError, errno.ENOTDIR: errors.FailedPreconditionError,
    errno.ENOTEMPTY: errors.FailedPreconditionError}


def _path(path: Any) -> str:
    if isinstance(path, bytes):
        return path.decode()
    if isinstance(path, (str, os.PathLike)):
        return os.fspath(path)
    raise TypeError(f"Expected binary or unicode string, got {path!r}")


@contextlib.contextmanager
def _tf_errors(path: str) -> Iterator[None]:
    """OSErrors as the tf.errors class TF raises: ``'<path>; No such file or directory'``."""
    try:
        yield
    except OSError as e:
        error = _ERRORS.get(e.errno, errors.UnknownError)
        raise error(None, None, f"{e.filename or path}; {e.strerror or e}") from None


def Exists(filename: Any) -> bool:
    return os.path.exists(_path(filename))


def IsDirectory(dirname: Any) -> bool:
    return os.path.isdir(_path(dirname))


def MkDir(dirname: Any) -> None:
    """Make one directory (its parent must exist); an existing directory is fine."""
    dirname = _path(dirname)
    if dirname and not os.path.isdir(dirname):
        with _tf_errors(dirname):
            os.mkdir(dirname)


def MakeDirs(dirname: Any) -> None:
    """Make a directory and its missing parents; FailedPreconditionError when a part is a file."""
    dirname = _path(dirname)
    try:
        os.makedirs(dirname, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        part = dirname
        while part and not os.path.exists(part):
            part = os.path.dirname(part)
        raise errors.FailedPreconditionError(None, None, f"{part} is not a directory") from None
    except OSError:
        with _tf_errors(dirname):
            raise


def ListDirectory(dirname: Any) -> list[str]:
    """The names in directory ``dirname`` (sorted), without '.' and '..'."""
    dirname = _path(dirname)
    if not os.path.isdir(dirname):
        raise errors.NotFoundError(None, None, f"Could not find directory {dirname}")
    with _tf_errors(dirname):
        return sorted(os.listdir(dirname))


def Glob(filename: Any) -> list[str]:
    """The paths matching the pattern ``filename`` (or any of a list of patterns); as in TF a match
    of a pattern without a directory part is spelled ``./name``."""
    patterns = filename if isinstance(filename, (list, tuple)) else [filename]
    matches = []
    for p in map(_path, patterns):
        prefix = "" if os.path.dirname(p) else "." + os.sep
        matches += [prefix + m for m in sorted(_glob.glob(p))]
    return matches


def Remove(filename: Any) -> None:
    """Delete a file (FailedPreconditionError for a directory: use DeleteRecursively)."""
    filename = _path(filename)
    with _tf_errors(filename):
        if os.path.isdir(filename):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), filename)
        os.remove(filename)


def _transfer(action: Any, source: Any, destination: Any, overwrite: bool) -> None:
    """``action(source, destination)`` when ``source`` exists and ``destination`` may be written."""
    source, destination = _path(source), _path(destination)
    with _tf_errors(source):
        if not os.path.exists(source):
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), source)
        if not overwrite and os.path.exists(destination):
            raise errors.AlreadyExistsError(None, None, f"{destination}: file already exists (pass overwrite=True)")
        action(source, destination)


def Rename(oldname: Any, newname: Any, overwrite: bool = False) -> None:
    _transfer(os.replace, oldname, newname, overwrite)


def Copy(oldpath: Any, newpath: Any, overwrite: bool = False) -> None:
    _transfer(shutil.copyfile, oldpath, newpath, overwrite)


def DeleteRecursively(dirname: Any) -> None:
    """Delete a directory with everything in it (or a file)."""
    dirname = _path(dirname)
    if not os.path.lexists(dirname):
        raise errors.NotFoundError(None, None, f"{dirname} not found")
    with _tf_errors(dirname):
        if os.path.isdir(dirname) and not os.path.islink(dirname):
            shutil.rmtree(dirname)
        else:
            os.remove(dirname)


@dataclass(frozen=True)
class FileStatistics:
    length: int
    mtime_nsec: int
    is_directory: bool


def Stat(filename: Any) -> FileStatistics:
    filename = _path(filename)
    with _tf_errors(filename):
        st = os.stat(filename)
    return FileStatistics(st.st_size, st.st_mtime_ns, os.path.isdir(filename))


def Walk(top: Any, in_order: bool = True) -> Iterator[tuple[str, list[str], list[str]]]:
    """``(dirpath, subdirectory names, file names)`` for ``top`` and every directory under it,
    parents first (``in_order``) or last; nothing when ``top`` is not a directory."""
    return walk_tree(top, in_order, None)


def walk_tree(top: Any, parents_first: bool, onerror: Any) -> Iterator[tuple[str, list[str], list[str]]]:
    """``Walk``; a directory that cannot be listed is skipped after ``onerror(error)`` (if given)."""
    top = _path(top)
    try:
        names = ListDirectory(top)
    except errors.OpError as e:
        if onerror is not None:
            onerror(e)
        return
    subdirs = [n for n in names if os.path.isdir(os.path.join(top, n))]
    here = (top, subdirs, [n for n in names if n not in subdirs])
    if parents_first:
        yield here
    for sub in subdirs:
        yield from walk_tree(os.path.join(top, sub), parents_first, onerror)
    if not parents_first:
        yield here


class GFile:
    """A local file opened lazily (errors appear at the first read or write, as in TF); text mode
    reads ``str`` (UTF-8, no newline translation) and writes ``str`` or ``bytes``."""

    def __init__(self, name: Any, mode: str = "r") -> None:
        if not isinstance(mode, str) or mode.replace("b", "") not in _MODES:
            raise errors.InvalidArgumentError(
                None, None, f"GFile mode {mode!r} is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+' "
                "(with an optional b)")
        self.name = _path(name)
        self.mode = mode
        self._binary = "b" in mode
        self._file: Any = None

    def _open(self, want: str) -> Any:
        plain = self.mode.replace("b", "")
        if want == "reading" and plain[0] != "r" and "+" not in plain or want == "writing" and plain == "r":
            raise errors.PermissionDeniedError(None, None, f"File {self.name} isn't open for {want}")
        if self._file is None:
            with _tf_errors(self.name):
                self._file = open(self.name, plain + "b")
        return self._file

    def _text(self, data: bytes) -> Any:
        return data if self._binary else data.decode("utf-8")

    def read(self, n: int = -1) -> Any:
        """``n`` bytes (all when n < 0) from the current position."""
        with _tf_errors(self.name):
            return self._text(self._open("reading").read(n))

    def readline(self) -> Any:
        with _tf_errors(self.name):
            return self._text(self._open("reading").readline())

    def readlines(self) -> list:
        return list(self)

    def __iter__(self) -> Iterator:
        return self

    def __next__(self) -> Any:
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def write(self, file_content: Any) -> None:
        data = file_content.encode("utf-8") if isinstance(file_content, str) else bytes(file_content)
        with _tf_errors(self.name):
            self._open("writing").write(data)

    def tell(self) -> int:
        return self._open("reading" if self.mode[0] == "r" else "writing").tell()

    def seek(self, offset: int, whence: int = 0) -> None:
        self._open("reading" if self.mode[0] == "r" else "writing").seek(offset, whence)

    def seekable(self) -> bool:
        return True

    def size(self) -> int:
        return Stat(self.name).length

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    def close(self) -> None:
        """Close the file (a later read opens it again from the start)."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> GFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<tf.gfile.GFile {self.name!r} mode={self.mode!r}>"


Open = GFile
FastGFile = GFile

__getattr__ = _missing_names("gfile", __name__)  # TF names s2sgrad lacks say so
