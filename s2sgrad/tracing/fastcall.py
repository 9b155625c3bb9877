"""The decorator's fast path: one generated function per compiled signature.

A call that passes exactly the positional parameters, each one array, NumPy scalar, Python
float, stream or static value (no containers), is checked against the last compiled
signature by straight-line code (``type(a0) is ndarray and a0.dtype is D0 and a0.shape ==
S0``...), then the captured values (a global still holding the same object: one dict lookup),
and the compiled ``run`` is called inline (its errors translated, its 0-d results made NumPy
scalars, as ``Executable.call`` does); a flat result (the value and one gradient per
argument) is built inline too. Any mismatch returns ``MISS`` and the general path (binding,
flattening, the signature key) runs. The generated text contains only internal identifiers;
every object it uses is bound in its namespace.

Both paths call the module through their global ``fn``, which ``choose_threads`` points at the
step ``threads.tuned_step`` makes of it: BLAS threads are chosen as for ``Session.run``'s steps,
and a short step gets the bare module back (the fast path then costs what it did untuned).
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from ..pipeline import Executable, translate_error
from ..pipeline.fastpath import call_lines, define
from ..threads import tuned_step
from .arguments import Argument
from .captures import Capture

__all__ = ["MISS", "Layout", "choose_threads", "make_fast_call"]

MISS: Any = object()

# Where a call's result comes from in the compiled run's results: an index, or a tuple of layouts.
Layout = int | tuple


_STATIC_TYPES = (int, bool, str, bytes, type(None))


def make_fast_call(arguments: list[Argument], fed: list[bool], feed_dtypes: list, exe: Executable,
                   captures: list[Capture], stream_reads: list[Callable], finish: Layout | Callable) -> Callable | None:
    """``fast(args) -> result or MISS`` for calls like ``arguments``, or None when they do not qualify.
    ``fed[i]``: argument i has a placeholder; ``finish`` is where the user's result comes from in
    the results of ``exe``'s run (a ``Layout``), or a function of the list of them."""
    if any(arg.kind != "positional" or arg.tree is not None for arg in arguments):
        return None
    if any(arg.leaves[0].kind != "static" and not has for arg, has in zip(arguments, fed, strict=True)):
        return None
    ns: dict[str, Any] = {"MISS": MISS}
    names = [f"a{i}" for i in range(len(arguments))]
    body = [f"if len(args) != {len(names)}:", "    return MISS", f"{', '.join(names)}, = args"]
    feeds: list[str] = []
    dtypes = iter(feed_dtypes)
    for i, arg in enumerate(arguments):
        leaf, a = arg.leaves[0], names[i]
        ns[f"T{i}"] = type(leaf.value)
        if leaf.kind == "static":
            if type(leaf.value) not in _STATIC_TYPES:
                return None
            ns[f"V{i}"] = leaf.value
            body.append(f"if type({a}) is not T{i} or {a} != V{i}: return MISS")
            continue
        if leaf.kind not in ("array", "weak", "stream"):
            return None
        checks = [f"type({a}) is not T{i}"]
        dtype = next(dtypes)
        if isinstance(leaf.value, np.ndarray):
            ns[f"D{i}"], ns[f"S{i}"] = leaf.value.dtype, leaf.value.shape
            checks += [f"{a}.dtype is not D{i}", f"{a}.shape != S{i}"]
        body.append(f"if {' or '.join(checks)}: return MISS")
        if leaf.kind == "weak":  # a Python float travels as the placeholder's NumPy scalar
            ns[f"C{i}"] = np.dtype(dtype).type
            feeds.append(f"C{i}({a})")
        elif isinstance(leaf.value, np.ndarray) and leaf.value.ndim == 0:
            feeds.append(f"{a}[()]")
        else:
            feeds.append(a)
    for j, read in enumerate(stream_reads):
        ns[f"R{j}"] = read
        feeds.append(f"R{j}()")
    for k, c in enumerate(captures):  # a global or cell holding the same object: one dict lookup, one read
        if c.by_identity and c.namespace is not None:
            ns[f"G{k}"], ns[f"N{k}"], ns[f"O{k}"] = c.namespace, c.name, c.value
            body.append(f"if G{k}.get(N{k}, MISS) is not O{k}: return MISS")
        elif c.by_identity and c.cell is not None:
            ns[f"K{k}"], ns[f"O{k}"] = c.cell, c.value
            body += ["try:", f"    if K{k}.cell_contents is not O{k}: return MISS",
                     "except ValueError:", "    return MISS"]   # emptied (del of the variable)
        else:
            ns[f"U{k}"] = c.unchanged
            body.append(f"if not U{k}(): return MISS")
    outs = [f"o{i}" for i in range(exe.n_fetches + len(exe.commit_ops))]
    body += call_lines(exe, ", ".join(feeds[p] for p in exe.feed_positions), outs,
                       functools.partial(translate_error, exe=exe), ns)
    if callable(finish):
        ns["finish"] = finish
        body.append(f"return finish([{', '.join(outs)}])")
    else:
        body.append(f"return {_result(finish, outs)}")
    return define("fast", ["args"], body, ns)


def _result(layout: Layout, outs: list[str]) -> str:
    """The expression building the result laid out as ``layout`` from the names ``outs``."""
    if isinstance(layout, int):
        return outs[layout]
    return "(" + "".join(f"{_result(item, outs)}, " for item in layout) + ")"


def choose_threads(calls: list[Callable], fn: Callable) -> None:
    """Have the generated ``calls`` (functions made with ``call_lines``, calling the compiled module's
    ``fn`` through their global ``fn``) run it with the BLAS threads the setting chooses
    (``threads.tuned_step``, one measurement shared by all of them)."""
    namespaces = [call.__globals__ for call in calls]

    def install(step: Callable) -> None:
        for ns in namespaces:
            ns["fn"] = step
    install(tuned_step(fn, install))
