"""The driver's side of shipping a step: a generated module as a payload, shards, and their sum."""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..codegen.emit import Module
from ..standalone import runtime_source

__all__ = ["payload", "split_batch", "weighted_sum", "REDUCTIONS"]

# How shard results combine into the whole batch's: a mean over examples weighs each shard by
# its share of the examples; a sum adds them.
REDUCTIONS = ("mean", "sum")


def payload(module: Module, params: list[tuple[str, Any]], n_fetches: int) -> dict:
    """What a worker needs to run ``module``: its source, the runtime helpers' source, its
    constants, ``params`` (how to build each ``run`` argument from a shard and the variables:
    ``('feed', key)`` or ``('var', index)``) and how many returned values are fetches."""
    runtime = runtime_source(sorted(module.helpers)) if module.helpers else ""
    digest = hashlib.sha256(module.source.encode() + runtime.encode())
    for name in sorted(module.constants):
        value = np.ascontiguousarray(module.constants[name])
        digest.update(name.encode() + value.dtype.str.encode() + repr(value.shape).encode() + value.tobytes())
    return {"digest": digest.hexdigest()[:16], "source": module.source, "runtime": runtime,
            "constants": dict(module.constants), "params": params, "n_fetches": n_fetches}


def split_batch(arrays: Sequence[np.ndarray], n_shards: int) -> list[list[np.ndarray]]:
    """``arrays`` (one batch, examples along axis 0) as up to ``n_shards`` shards of nearly equal
    size, in order; never an empty shard."""
    sizes = {len(a) if np.ndim(a) else None for a in arrays}
    if len(sizes) != 1 or None in sizes:
        raise ValueError(f"every fed value of a data-parallel step must have the same number of examples along "
                         f"axis 0, got shapes {[np.shape(a) for a in arrays]}")
    n_examples = sizes.pop()
    if not n_examples:
        raise ValueError("a data-parallel step needs at least one example; the batch is empty")
    bounds = np.linspace(0, n_examples, min(n_shards, n_examples) + 1).round().astype(int)
    return [[a[lo:hi] for a in arrays] for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]


def weighted_sum(results: list[list[np.ndarray]], sizes: list[int], reduction: str) -> list[np.ndarray]:
    """The whole batch's values from each shard's (``sizes`` examples each), shard by shard in order."""
    total = sum(sizes)
    weights = [n / total if reduction == "mean" else 1.0 for n in sizes]
    combined = []
    for values in zip(*results, strict=True):
        acc = values[0] * weights[0]
        for value, weight in zip(values[1:], weights[1:], strict=True):
            acc = acc + value * weight
        combined.append(np.asarray(acc, dtype=values[0].dtype))
    return combined
