"""Data-parallel training on Dask: the generated step travels to the workers as source.

``DataParallel`` runs a TF-1.x optimizer step and ``data_parallel`` a decorated gradient over
data split across the workers of a ``dask.distributed`` cluster (a ``LocalCluster`` or any
scheduler address). Each worker compiles the module the driver generated (the text ``dump``
shows) and computes the loss and gradients on its shard; the driver sums them and, for
``DataParallel``, applies the optimizer. Dask is an optional extra: ``pip install s2sgrad[distributed]``.
"""
from .function_step import ShardedFunction, data_parallel
from .graph_step import DataParallel, Shards

__all__ = ["DataParallel", "Shards", "data_parallel", "ShardedFunction"]
