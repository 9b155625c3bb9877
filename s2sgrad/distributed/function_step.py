"""``data_parallel``: a decorated gradient (``s2sgrad.grad``/``value_and_grad``) over shards on Dask workers."""
from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..primitives.numpy_random import NUMPY_GENERATOR, NUMPY_RANDOM, NUMPY_SEED
from . import worker
from .cluster import Cluster
from .payload import REDUCTIONS, payload, split_batch, weighted_sum

__all__ = ["data_parallel", "ShardedFunction"]

_DRAWS = (NUMPY_RANDOM, NUMPY_GENERATOR, NUMPY_SEED)  # NumPy random streams read in the function


class ShardedFunction:
    """A decorated gradient whose calls split their data arguments into shards computed on Dask
    workers; what the shards return (value and gradients) is summed, weighted by shard size
    for a ``reduction="mean"`` loss. See ``data_parallel``."""

    def __init__(self, fn: Any, client: Any, data_args: Sequence[int] | int, reduction: str,
                 n_shards: int | None) -> None:
        if not hasattr(fn, "compiled_call"):
            raise TypeError(f"data_parallel expects a decorated gradient (s2sgrad.grad(f), value_and_grad(f), ...), "
                            f"got {fn!r}")
        if reduction not in REDUCTIONS:
            raise ValueError(f"data_parallel: reduction must be one of {REDUCTIONS}, got {reduction!r}")
        if isinstance(data_args, int) and not isinstance(data_args, bool):
            data_args = (data_args,)
        if (not isinstance(data_args, (tuple, list)) or not data_args
                or not all(isinstance(i, int) and not isinstance(i, bool) for i in data_args)):
            raise TypeError(f"data_parallel: data_args must be the positions of the data arguments (ints), "
                            f"got {data_args!r}")
        if n_shards is not None and (isinstance(n_shards, bool) or not isinstance(n_shards, int) or n_shards < 1):
            raise ValueError(f"data_parallel: n_shards must be a positive int or None, got {n_shards!r}")
        names = list(inspect.signature(fn.f).parameters)
        wrt = {w if isinstance(w, int) else names.index(w) for w in fn.wrt if isinstance(w, int) or w in names}
        if wrt & set(data_args):
            raise ValueError(f"data_parallel: {fn.label} differentiates with respect to data argument(s) "
                             f"{sorted(wrt & set(data_args))}; shards' gradients for data cannot be summed")
        self.fn = fn
        self.cluster = Cluster(client)
        self.data_args = tuple(data_args)
        self.reduction = reduction
        self.n_shards = n_shards
        self._payloads: dict[int, dict] = {}  # id(executable) -> its payload

    def __call__(self, *args: Any) -> Any:
        out_of_range = [i for i in self.data_args if not -len(args) <= i < len(args)]
        if out_of_range:
            raise IndexError(f"{self.fn.label}: data argument position(s) {out_of_range} out of range for "
                             f"{len(args)} arguments")
        positions = [i % len(args) for i in self.data_args]
        pieces = split_batch([np.asarray(args[i]) for i in positions], self.n_shards or self.cluster.n_workers())
        futures, sizes, finish = [], [], None
        for piece in pieces:
            shard_args = list(args)
            for i, part in zip(positions, piece, strict=True):
                shard_args[i] = part
            exe, inputs, shard_finish = self.fn.compiled_call(*shard_args)
            finish = finish or shard_finish
            futures.append(self.cluster.submit(worker.run_step, self._payload(exe), inputs, []))
            sizes.append(len(piece[0]))
        assert finish is not None  # split_batch never returns no shards
        return finish(weighted_sum(self.cluster.gather(futures), sizes, self.reduction))

    def close(self) -> None:
        """Close the Dask client if this object connected it from a scheduler address."""
        self.cluster.close()

    def _payload(self, exe: Any) -> dict:
        found = self._payloads.get(id(exe))
        if found is None:
            draws = [op for op in exe.ops if op.prim in _DRAWS]
            if draws:
                raise ValueError(f"data_parallel: {self.fn.label} draws random numbers (at {draws[0].where}); "
                                 f"a shard's draws cannot match the whole batch's")
            params = [("feed", i) for i in range(len(exe.module.params))]
            found = self._payloads[id(exe)] = payload(exe.module, params, exe.n_fetches)
        return found


def data_parallel(fn: Any, client: Any, data_args: Sequence[int] | int = (1,), *, reduction: str = "mean",
                  n_shards: int | None = None) -> ShardedFunction:
    """``fn`` (a decorated gradient) computed over shards on Dask workers: each call splits the
    arguments at positions ``data_args`` along axis 0 (``n_shards`` pieces, default one per
    worker), runs ``fn``'s generated module on each piece on a worker and adds the results up
    (weighted by piece size when ``reduction="mean"``: the function is a mean over examples).
    Differentiate only with respect to the other arguments.

    >>> # step = s2sgrad.distributed.data_parallel(s2sgrad.value_and_grad(loss), client, data_args=(1, 2))
    >>> # value, g = step(w, xs, ys)   # as value_and_grad(loss)(w, xs, ys), computed on the workers
    """
    return ShardedFunction(fn, client, data_args, reduction, n_shards)
