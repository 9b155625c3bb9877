"""``tf.compat``: text/bytes conversions; ``tf.compat.v1`` is s2sgrad itself (``import s2sgrad.compat.v1 as tf``).

``s2sgrad/__init__.py`` binds ``v1`` (TF-1.x's API is s2sgrad's top level); TF-2's ``tf.compat.v2``
is not provided.
"""
from __future__ import annotations

import os
import types
from typing import Any

from ..dimension import dimension_value
from ..shapes import dimension_at_index
from ..tf1_api import missing_names as _missing_names

__all__ = ["as_bytes", "as_str", "as_str_any", "as_text", "path_to_str", "dimension_value", "dimension_at_index"]


def as_bytes(bytes_or_text: bytes | bytearray | str, encoding: str = "utf-8") -> bytes:
    """``bytes_or_text`` as bytes (text is encoded with ``encoding``)."""
    if isinstance(bytes_or_text, (bytes, bytearray)):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    raise TypeError(f"as_bytes expects bytes or str, got {type(bytes_or_text).__name__}: {bytes_or_text!r}")


def as_text(bytes_or_text: bytes | bytearray | str, encoding: str = "utf-8") -> str:
    """``bytes_or_text`` as str (bytes are decoded with ``encoding``)."""
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, (bytes, bytearray)):
        return bytes(bytes_or_text).decode(encoding)
    raise TypeError(f"as_text expects bytes or str, got {type(bytes_or_text).__name__}: {bytes_or_text!r}")


as_str = as_text


def as_str_any(value: Any, encoding: str = "utf-8") -> str:
    """Bytes decoded with ``encoding``; anything else through ``str``."""
    return as_text(value, encoding) if isinstance(value, (bytes, bytearray)) else str(value)


def path_to_str(path: Any) -> Any:
    """A path-like object as its str (bytes paths decoded); anything else unchanged."""
    return as_str_any(os.fspath(path)) if isinstance(path, os.PathLike) else path


v1: types.ModuleType  # s2sgrad itself, set by s2sgrad/__init__.py (tf.compat.v1 is tf)

__getattr__ = _missing_names("compat", __name__)
