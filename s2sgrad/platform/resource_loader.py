"""``tf.resource_loader``: paths of data files that sit next to the calling script."""
from __future__ import annotations

import os
import sys

from ..tf1_api import missing_names as _missing_names

__all__ = ["get_data_files_path", "get_path_to_datafile", "get_root_dir_with_all_resources", "load_resource",
           "readahead_file_path"]

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # the s2sgrad package


def get_data_files_path() -> str:
    """The directory of the calling script (``''`` for code without a file, as in TF)."""
    return _caller_dir()


def get_path_to_datafile(path: str) -> str:
    """``path`` relative to the directory of the calling script."""
    return os.path.join(_caller_dir(), path)


def _caller_dir() -> str:
    filename = sys._getframe(2).f_code.co_filename
    return "" if filename.startswith("<") else os.path.dirname(filename)


def get_root_dir_with_all_resources() -> str:
    """The root that ``load_resource`` paths are relative to: here, the s2sgrad package."""
    return _ROOT


def load_resource(path: str) -> bytes:
    """The bytes of ``path`` under ``get_root_dir_with_all_resources()`` (FileNotFoundError as in TF)."""
    with open(os.path.join(_ROOT, path), "rb") as f:
        return f.read()


def readahead_file_path(path: str, readahead: str = "128M") -> str:
    """``path`` itself: local files need no read-ahead."""
    return path

__getattr__ = _missing_names("resource_loader", __name__)  # TF names s2sgrad lacks say so
