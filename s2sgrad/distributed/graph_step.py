"""``DataParallel``: a TF-1.x optimizer step whose gradients are computed on Dask workers."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..codegen.program import Kind
from ..ops.convert import convert_to_tensor
from ..ops.creation import placeholder
from ..pipeline import generate, plan
from ..pipeline.feeds import convert_feed, feed_target
from ..session import Session, get_default_session
from ..ssa.nodes import Tensor
from . import worker
from .cluster import Cluster
from .payload import REDUCTIONS, payload, split_batch, weighted_sum

__all__ = ["DataParallel", "Shards"]


class Shards:
    """A dataset held by the workers, shard by shard (made by ``DataParallel.load``)."""

    def __init__(self, futures: list, specs: list[dict[str, tuple[str, tuple]]]) -> None:
        self.futures = futures
        self.specs = specs        # per shard: feed name -> (dtype, shape)
        self.sizes = [next(iter(s.values()))[1][0] for s in specs]

    def __len__(self) -> int:
        return len(self.futures)

    def __repr__(self) -> str:
        return f"<Shards: {len(self)} shards of {self.sizes} examples, on the workers>"


class DataParallel:
    """``optimizer.minimize(loss)`` with the gradients computed on Dask workers, shard by shard.

    Each ``run`` sends the generated gradient module (its source text, compiled once per worker)
    and the variables' current values to the workers; each computes the loss and gradients on its
    shard; the driver adds them up, weighted by shard size for a ``reduction="mean"`` loss (a
    mean over the examples, as ``tf.reduce_mean`` and the ``tf.losses`` defaults are) or plainly
    for ``"sum"``, and applies ``optimizer`` in ``session``. So N workers give the numbers one
    process gives on the whole batch, to float rounding. Random ops in the loss are refused: a
    shard's draws could not match the whole batch's.

    >>> # dp = s2sgrad.distributed.DataParallel(client, loss, tf.train.AdamOptimizer(1e-3), feeds=[x, y])
    >>> # loss_value = dp.run({x: xs, y: ys})      # the batch is split across the workers
    """

    def __init__(self, client: Any, loss: Any, optimizer: Any, feeds: Sequence[Any], *,
                 var_list: Sequence[Any] | None = None, global_step: Any = None, reduction: str = "mean",
                 session: Session | None = None) -> None:
        if reduction not in REDUCTIONS:
            raise ValueError(f"DataParallel: reduction must be one of {REDUCTIONS}, got {reduction!r}")
        if not hasattr(optimizer, "compute_gradients") or not hasattr(optimizer, "apply_gradients"):
            raise TypeError(f"DataParallel: optimizer must be a tf.train optimizer, got {optimizer!r}")
        if session is not None and not isinstance(session, Session):
            raise TypeError(f"DataParallel: session must be a tf.Session, got {session!r}")
        self.cluster = Cluster(client)
        self.loss = convert_to_tensor(loss)
        if self.loss.shape.rank not in (0, None):
            raise ValueError(f"DataParallel: the loss must be a scalar, {self.loss.name} has shape {self.loss.shape}")
        graph = self.loss.graph
        if isinstance(feeds, (str, Tensor)) or not isinstance(feeds, Sequence) or not feeds:
            raise TypeError(f"DataParallel: feeds must be a non-empty list of the placeholders a batch feeds, "
                            f"got {feeds!r}")
        self.feeds = [feed_target(graph, f) for f in feeds]
        pairs = [(g, var) for g, var in optimizer.compute_gradients(self.loss, var_list=var_list) if g is not None]
        if not pairs:
            raise ValueError(f"DataParallel: no variable gets a gradient from {self.loss.name}")
        with graph.as_default():
            self.gradients = [convert_to_tensor(g) for g, _ in pairs]  # IndexedSlices are summed dense
            self.gradient_inputs = [placeholder(g.dtype, g.shape, name=f"summed_gradient_{i}")
                                    for i, g in enumerate(self.gradients)]
            self.train_op = optimizer.apply_gradients(list(zip(self.gradient_inputs, [v for _, v in pairs],
                                                               strict=True)), global_step=global_step)
        self.reduction = reduction
        self._session = session
        self._plan = plan(graph, [self.loss, *self.gradients], self.feeds)
        self._steps: dict[tuple, tuple[dict, list]] = {}  # shard signature -> (payload, variable ops)

    def load(self, loader: Callable[[int], dict], n_shards: int) -> Shards:
        """Have the workers make the dataset: shard ``i`` is ``loader(i)``, run on a worker, a dict
        mapping placeholder names (``"x"`` or ``"x:0"``) to arrays. The shards stay on the workers
        (Dask recomputes one whose worker is lost), and ``run(shards)`` steps over all of them."""
        if not callable(loader):
            raise TypeError(f"DataParallel.load: loader must be a function of the shard index, got {loader!r}")
        if isinstance(n_shards, bool) or not isinstance(n_shards, (int, np.integer)) or n_shards < 1:
            raise ValueError(f"DataParallel.load: n_shards must be a positive int, got {n_shards!r}")
        dtypes = {t.name: t.dtype.np.str for t in self.feeds}
        futures = [self.cluster.submit(worker.load_shard, loader, i, dtypes) for i in range(int(n_shards))]
        specs = self.cluster.gather([self.cluster.submit(worker.shard_specs, f) for f in futures])
        return Shards(futures, specs)

    def run(self, data: dict | Shards, n_shards: int | None = None) -> np.ndarray:
        """One training step on ``data`` (a feed dict holding one batch, split into ``n_shards``
        shards, default one per worker; or the ``Shards`` of ``load``). Returns the batch's loss
        before the update. A failure on a worker raises here and changes no variable."""
        session = self._session if self._session is not None else get_default_session()
        if session is None:
            raise ValueError("DataParallel.run needs a session: pass session= or run inside `with tf.Session():`")
        if isinstance(data, Shards):
            shards, sizes, specs = data.futures, data.sizes, data.specs
        else:
            shards, sizes, specs = self._split(data, n_shards)
        steps = [self._step(spec, session) for spec in specs]
        values = {id(op): value for _, ops in steps for op, value in zip(ops, session.variable_store.snapshot(ops),
                                                                          strict=True)}
        futures = [self.cluster.submit(worker.run_step, step_payload, shard, [values[id(op)] for op in ops])
                   for (step_payload, ops), shard in zip(steps, shards, strict=True)]
        loss, *gradients = weighted_sum(self.cluster.gather(futures), sizes, self.reduction)
        session.run(self.train_op, dict(zip(self.gradient_inputs, gradients, strict=True)))
        return loss

    def close(self) -> None:
        """Close the Dask client if this object connected it from a scheduler address."""
        self.cluster.close()

    def _split(self, feed_dict: Any, n_shards: int | None) -> tuple[list, list[int], list]:
        if not isinstance(feed_dict, dict):
            raise TypeError(f"DataParallel.run: data must be a feed dict or Shards, got {type(feed_dict).__name__}")
        fed = {feed_target(self.loss.graph, k): v for k, v in feed_dict.items()}
        missing = [t.name for t in self.feeds if t not in fed]
        extra = [t.name for t in fed if t not in self.feeds]
        if missing or extra:
            raise ValueError(f"DataParallel.run: the feed dict must feed exactly {[t.name for t in self.feeds]}; "
                             f"missing {missing}, not in feeds {extra}")
        arrays = [np.asarray(convert_feed(fed[t], t)) for t in self.feeds]
        count = n_shards if n_shards is not None else self.cluster.n_workers()
        if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 1:
            raise ValueError(f"DataParallel.run: n_shards must be a positive int, got {n_shards!r}")
        pieces = split_batch(arrays, int(count))
        shards = [{t.name: a for t, a in zip(self.feeds, piece, strict=True)} for piece in pieces]
        specs = [{name: (a.dtype.str, a.shape) for name, a in shard.items()} for shard in shards]
        return shards, [len(piece[0]) for piece in pieces], specs

    def _step(self, spec: dict[str, tuple[str, tuple]], session: Session) -> tuple[dict, list]:
        """The payload for shards shaped like ``spec``, and the variables its module reads (cached)."""
        signature = tuple(sorted((name, tuple(shape)) for name, (_, shape) in spec.items()))
        step = self._steps.get(signature)
        if step is None:
            stand_ins = [np.broadcast_to(np.zeros((), t.dtype.np), spec[t.name][1]) for t in self.feeds]
            module = generate(self._plan, self._plan.feed_specs(stand_ins), session.variable_store.spec,
                              label="data-parallel gradients")
            params: list[tuple[str, Any]] = []
            var_ops: list = []
            for p in module.params:
                if p.kind is Kind.FEED and isinstance(p.source, Tensor):
                    params.append(("feed", p.source.name))
                elif p.kind is Kind.VAR:
                    params.append(("var", len(var_ops)))
                    var_ops.append(p.source)
                else:
                    raise ValueError(f"DataParallel: the loss {self.loss.name} draws random numbers "
                                     f"({getattr(p.source, 'name', 'a random op')}); a shard's draws cannot match "
                                     f"the whole batch's")
            step = self._steps[signature] = (payload(module, params, 1 + len(self.gradients)), var_ops)
        return step
