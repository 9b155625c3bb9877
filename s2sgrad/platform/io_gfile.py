"""``tf.io.gfile``: TF2's lowercase names (and parameter names) for the functions of ``tf.gfile``."""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

from ..tf1_api import missing_names as _missing_names
from . import gfile as _gfile
from .gfile import FileStatistics, GFile

__all__ = ["GFile", "copy", "exists", "glob", "isdir", "join", "listdir", "makedirs", "mkdir", "remove", "rename",
           "rmtree", "stat", "walk"]


def exists(path: Any) -> bool:
    return _gfile.Exists(path)


def isdir(path: Any) -> bool:
    return _gfile.IsDirectory(path)


def listdir(path: Any) -> list[str]:
    return _gfile.ListDirectory(path)


def glob(pattern: Any) -> list[str]:
    return _gfile.Glob(pattern)


def makedirs(path: Any) -> None:
    _gfile.MakeDirs(path)


def mkdir(path: Any) -> None:
    _gfile.MkDir(path)


def remove(path: Any) -> None:
    _gfile.Remove(path)


def rmtree(path: Any) -> None:
    _gfile.DeleteRecursively(path)


def stat(path: Any) -> FileStatistics:
    return _gfile.Stat(path)


def copy(src: Any, dst: Any, overwrite: bool = False) -> None:
    _gfile.Copy(src, dst, overwrite)


def rename(src: Any, dst: Any, overwrite: bool = False) -> None:
    _gfile.Rename(src, dst, overwrite)


def walk(top: Any, topdown: bool = True,
         onerror: Callable[[Exception], Any] | None = None) -> Iterator[tuple[str, list[str], list[str]]]:
    """As ``tf.gfile.Walk``; ``onerror(error)`` hears of a directory that cannot be listed."""
    return _gfile.walk_tree(top, topdown, onerror)


def join(path: Any, *paths: Any) -> str:
    return os.path.join(path, *paths)

__getattr__ = _missing_names("io.gfile", __name__)  # TF names s2sgrad lacks say so
