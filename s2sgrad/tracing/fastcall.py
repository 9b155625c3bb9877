"""The decorator's fast path: one generated guard per compiled signature.

A call that passes exactly the positional parameters, each one array, NumPy scalar, Python
float, stream or static value (no containers), is checked against the last compiled
signature by straight-line code (``type(a0) is ndarray and a0.dtype is D0 and a0.shape ==
S0``...), then the captured values (a global still holding the same object: one dict lookup),
and the compiled ``run`` is called. Any
mismatch returns ``MISS`` and the general path (binding, flattening, the signature key) runs.
The generated text contains only internal identifiers; every object it uses is bound in its
namespace.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .arguments import Argument
from .captures import Capture

__all__ = ["MISS", "make_fast_call"]

MISS: Any = object()


_STATIC_TYPES = (int, bool, str, bytes, type(None))


def make_fast_call(arguments: list[Argument], fed: list[bool], feed_dtypes: list, feed_positions: list[int],
                   call: Callable, captures: list[Capture], stream_reads: list[Callable],
                   finish: Callable) -> Callable | None:
    """``fast(args) -> result or MISS`` for calls like ``arguments``, or None when they do not qualify.
    ``fed[i]``: argument i has a placeholder; ``finish(outs)`` turns the compiled run's results into
    the user's result."""
    if any(arg.kind != "positional" or arg.tree is not None for arg in arguments):
        return None
    if any(arg.leaves[0].kind != "static" and not has for arg, has in zip(arguments, fed, strict=True)):
        return None
    ns: dict[str, Any] = {"MISS": MISS, "call": call, "finish": finish}
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
    for k, c in enumerate(captures):  # a global holding the same object: one dict lookup
        if c.by_identity and c.namespace is not None:
            ns[f"G{k}"], ns[f"N{k}"], ns[f"O{k}"] = c.namespace, c.name, c.value
            body.append(f"if G{k}.get(N{k}, MISS) is not O{k}: return MISS")
        else:
            ns[f"U{k}"] = c.unchanged
            body.append(f"if not U{k}(): return MISS")
    body.append(f"return finish(call([{', '.join(feeds[p] for p in feed_positions)}]))")
    text = "def fast(args):\n" + "".join(f"    {line}\n" for line in body)
    exec(compile(text, "<s2sgrad-fast-call>", "exec"), ns)  # internal identifiers only
    return ns["fast"]
