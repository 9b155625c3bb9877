"""Whether memory freed by one compiled step stays with the process for the next (glibc's malloc).

glibc hands large freed blocks back to the operating system: a block over its mmap threshold is
unmapped when freed, and free memory over the trim threshold at the top of the heap is returned.
Its thresholds adapt to a program that frees a block once, but a training step allocates and frees
a few large arrays of different sizes every time, so each step may map its arrays afresh and pay a
page fault per 4 KiB page it writes (the CNN benchmark's step, in three fresh processes each: 10.7-19.4
ms with glibc's defaults, 11.2-12.0 ms with the memory kept). TensorFlow's allocator keeps what it
frees; so does s2sgrad, with one process-wide setting, ``S2SGRAD_HEAP`` in the environment or ``set_heap(...)``:

- ``"keep"`` (the default): when the first step is made, blocks up to ``MMAP_THRESHOLD`` come from the
  heap and free memory is returned only beyond ``TRIM_THRESHOLD``. The process keeps up to that much
  memory it no longer uses, as TensorFlow's does.
- ``"off"``: s2sgrad never changes malloc; set after ``"keep"`` took effect, glibc's default
  thresholds are restored (without their adaptation).

Elsewhere than on glibc (macOS, Windows, musl) both settings leave malloc as it is.
"""
from __future__ import annotations

import ctypes
import functools
import os
import platform
import sys
from typing import Any

__all__ = ["MMAP_THRESHOLD", "TRIM_THRESHOLD", "heap_setting", "prepare_heap", "set_heap"]

MMAP_THRESHOLD = 32 << 20    # bytes: larger blocks are still mapped apart (glibc's own upper limit)
TRIM_THRESHOLD = 256 << 20   # bytes of free memory at the top of the heap that the process keeps
_GLIBC_DEFAULT = 128 << 10   # glibc's default for both thresholds
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3   # mallopt's parameter numbers (malloc.h)

_setting: list[str] = []   # the current setting (empty until first read)
_applied: list[str] = []   # the setting malloc was last set for (empty: untouched)


def _parse(value: Any, source: str) -> str:
    if isinstance(value, str) and value.strip().lower() in ("keep", "off"):
        return value.strip().lower()
    raise ValueError(f"{source} must be 'keep' or 'off', got {value!r}")


def heap_setting() -> str:
    """The current setting: ``"keep"`` or ``"off"``."""
    if not _setting:
        _setting.append(_parse(os.environ.get("S2SGRAD_HEAP", "keep"), "S2SGRAD_HEAP"))
    return _setting[0]


def set_heap(value: str) -> None:
    """Set whether steps made from now on keep freed memory: ``"keep"`` or ``"off"``."""
    _setting[:] = [_parse(value, "set_heap(value)")]


@functools.cache
def _mallopt() -> Any:
    """glibc's ``mallopt``, or None on another C library."""
    if not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc":
        return None
    return ctypes.CDLL(None).mallopt


def prepare_heap() -> None:
    """Set malloc's thresholds for the current setting, once per change (called as each step is made)."""
    setting = heap_setting()
    if _applied == [setting] or (setting == "off" and not _applied):
        return
    mallopt = _mallopt()
    if mallopt is not None:
        keep = setting == "keep"
        mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD if keep else _GLIBC_DEFAULT)
        mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD if keep else _GLIBC_DEFAULT)
    _applied[:] = [setting]
