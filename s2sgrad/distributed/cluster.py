"""The Dask client the data-parallel steps submit their work to."""
from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

try:  # Dask is an optional extra: s2sgrad imports without it, and Cluster() says what to install
    import distributed
except ImportError:  # pragma: no cover - exercised where Dask is absent
    distributed = None  # type: ignore[assignment]

__all__ = ["Cluster"]


class Cluster:
    """A ``dask.distributed.Client`` (or a scheduler address to connect one to) running the
    functions of ``s2sgrad.distributed.worker``; workers need s2sgrad importable, as Dask needs
    every library a task calls."""

    def __init__(self, client: Any) -> None:
        if distributed is None:
            raise ImportError("s2sgrad.distributed needs Dask: pip install s2sgrad[distributed]")
        self.owned = isinstance(client, str)   # a client we connected, so ours to close
        if isinstance(client, str):
            client = distributed.Client(client)
        elif not isinstance(client, distributed.Client):
            raise TypeError(f"expected a dask.distributed.Client or a scheduler address, got {client!r}")
        self.client = client

    def submit(self, fn: Callable, *args: Any) -> Any:
        """``fn(*args)`` as a Dask task (a future); Dask re-runs it elsewhere if its worker is lost.
        The arguments travel inside the task, on purpose: a shard sent with its task can be sent
        again when a worker dies, which scattered data cannot (so Dask's "large graph" advice is
        silenced here; data too large to send each step belongs in ``DataParallel.load``)."""
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Sending large graph", category=UserWarning)
            return self.client.submit(fn, *args, pure=False)

    def gather(self, futures: list) -> list:
        """The results of ``futures``, in order (a task's exception is raised here)."""
        return self.client.gather(futures)

    def n_workers(self) -> int:
        """How many workers the scheduler has now (at least 1)."""
        return max(1, len(self.client.scheduler_info()["workers"]))

    def close(self) -> None:
        """Close the client if it was connected here from an address (a given client stays open)."""
        if self.owned:
            self.client.close()
