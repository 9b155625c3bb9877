"""Pause Python's cyclic garbage collector while s2sgrad builds large object graphs.

Differentiating and compiling a big program allocates hundreds of thousands of small
objects (ops, tensors, ``ast`` nodes) that all stay alive; each automatic collection
rescans them, which made compile time grow faster than the program (27% of the time to
the first gradient of a 3,000-layer chain). Nothing s2sgrad allocates there is garbage
until the phase ends, so the collector is paused for the phase and restored after. At the end
the young generation (everything the phase made, all alive) is moved to the oldest one
(``gc.freeze`` then ``gc.unfreeze``: a list splice) instead of being scanned by the next young
collection; it is not done when the program froze objects itself (``gc.freeze`` is its own then).
"""
from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

__all__ = ["gc_paused"]

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Disable automatic collection inside the block (nested and concurrent uses are counted)."""
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                if gc.get_freeze_count() == 0:  # the young objects to the oldest generation, unscanned
                    gc.freeze()
                    gc.unfreeze()
                gc.enable()
