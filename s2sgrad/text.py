"""Text that generated code and IR printouts share: comment-safe strings, user locations and
the shortest faithful spelling of a float."""
from __future__ import annotations

import functools
import os

import numpy as np

__all__ = ["comment_text", "location_text", "shortest_float"]


def comment_text(text: object) -> str:
    """``text`` made safe for a ``#`` comment: no line breaks or other non-printables."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


@functools.lru_cache(maxsize=4096)
def _where(path: str, line: int) -> str:
    return comment_text(f"{os.path.basename(path)}:{line}")


def location_text(location: tuple[str, int]) -> str:
    """``file.py:line`` of a user location (an op's ``location``), safe for a comment."""
    return _where(*location)


def shortest_float(value: np.floating) -> float:
    """The Python float with the shortest repr that converts back to exactly ``value``."""
    if type(value) is np.float64:  # a Python float already: its repr is the shortest
        return float(value)
    candidate = float(str(value))
    return candidate if value.dtype.type(candidate) == value else float(value)
