"""``tf.data.Dataset`` (TF-1.x's, with ``make_one_shot_iterator`` and ``output_types``): a Python
object around a pipeline node (``nodes.py``); each transformation wraps a new node."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..ops.convert import convert_to_tensor
from ..ops.random_ops import get_seed
from .batching import Batch, PaddedBatch, Unbatch, check_count
from .functions import Function, captured_placeholders
from .iterators import Iterator, element_classes, element_shapes, element_types, spec_of
from .nodes import Concatenate, Generator, Node, Range, Tensors, TensorSlices, Zip
from .structure import flatten, map_structure
from .transforms import Cache, Enumerate, Filter, FlatMap, Interleave, Map, Prefetch, Repeat, Shard, Shuffle, Skip, Take

__all__ = ["Dataset", "AUTOTUNE"]

AUTOTUNE = -1


def _tensors(structure: Any) -> Any:
    """A structure of values (tuples and dicts nest; lists are values) as one of tensors."""
    return map_structure(convert_to_tensor, structure)


def _count(value: Any, what: str) -> int:
    """A take/skip/repeat count: an integer, -1 meaning all / forever."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < -1:
        raise ValueError(f"{what} must be an integer >= -1, got {value!r}")
    return int(value)


class Dataset:
    """A sequence of elements (nested structures of tensors) and its transformations."""

    def __init__(self, node: Node) -> None:
        self._node = node

    # -- sources -------------------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors: Any) -> Dataset:
        """Element i: row i of each component of ``tensors``."""
        return Dataset(TensorSlices(_tensors(tensors)))

    @staticmethod
    def from_tensors(tensors: Any) -> Dataset:
        """One element: ``tensors``."""
        return Dataset(Tensors(_tensors(tensors)))

    @staticmethod
    def range(*args: int, output_type: Any = _dt.int64) -> Dataset:
        """``range(stop)``, ``range(start, stop[, step])`` of int64 scalars."""
        return Dataset(Range(args, _dt.as_dtype(output_type)))

    @staticmethod
    def zip(datasets: Any) -> Dataset:
        """Tuples (or dicts) of the elements of a tuple (or dict) of datasets."""
        nodes = [_node_of(d, "zip") for d in flatten(datasets)]
        return Dataset(Zip(datasets, nodes))

    @staticmethod
    def from_generator(generator: Callable, output_types: Any, output_shapes: Any = None,
                       args: Any = None) -> Dataset:
        """The elements ``generator(*args)`` yields (called anew for each iteration)."""
        spec = spec_of(output_types, output_shapes)
        return Dataset(Generator(generator, spec, tuple(args or ())))

    # -- transformations -----------------------------------------------------------------------------
    def concatenate(self, dataset: Dataset) -> Dataset:
        return Dataset(Concatenate(self._node, _node_of(dataset, "concatenate")))

    def map(self, map_func: Callable, num_parallel_calls: int | None = None, deterministic: Any = None) -> Dataset:
        """``map_func`` applied to each element (num_parallel_calls is accepted; elements stay in order)."""
        return Dataset(Map(self._node, Function(map_func, self._node.spec, "map")))

    def filter(self, predicate: Callable) -> Dataset:
        return Dataset(Filter(self._node, Function(predicate, self._node.spec, "filter")))

    def flat_map(self, map_func: Callable) -> Dataset:
        return Dataset(FlatMap(self._node, Function(map_func, self._node.spec, "flat_map", keep_dataset=True)))

    def interleave(self, map_func: Callable, cycle_length: int = 1, block_length: int = 1,
                   num_parallel_calls: int | None = None, deterministic: Any = None) -> Dataset:
        fn = Function(map_func, self._node.spec, "interleave", keep_dataset=True)
        return Dataset(Interleave(self._node, fn, cycle_length, block_length))

    def batch(self, batch_size: int, drop_remainder: bool = False) -> Dataset:
        return Dataset(Batch(self._node, batch_size, drop_remainder))

    def padded_batch(self, batch_size: int, padded_shapes: Any = None, padding_values: Any = None,
                     drop_remainder: bool = False) -> Dataset:
        return Dataset(PaddedBatch(self._node, batch_size, padded_shapes, padding_values, drop_remainder))

    def unbatch(self) -> Dataset:
        return Dataset(Unbatch(self._node))

    def shuffle(self, buffer_size: int, seed: int | None = None, reshuffle_each_iteration: bool = True) -> Dataset:
        return Dataset(Shuffle(self._node, buffer_size, get_seed(seed), reshuffle_each_iteration))

    def repeat(self, count: int | None = None) -> Dataset:
        return Dataset(Repeat(self._node, None if count is None else _count(count, "repeat's count")))

    def take(self, count: int) -> Dataset:
        return Dataset(Take(self._node, _count(count, "take's count")))

    def skip(self, count: int) -> Dataset:
        return Dataset(Skip(self._node, _count(count, "skip's count")))

    def shard(self, num_shards: int, index: int) -> Dataset:
        return Dataset(Shard(self._node, check_count(num_shards, "shard's num_shards"),
                             check_count(index, "shard's index", 0)))

    def cache(self, filename: str = "") -> Dataset:
        return Dataset(Cache(self._node))

    def prefetch(self, buffer_size: int) -> Dataset:
        if buffer_size != AUTOTUNE:
            check_count(buffer_size, "prefetch's buffer_size", 0)
        return Dataset(Prefetch(self._node))

    def enumerate(self, start: int = 0) -> Dataset:
        return Dataset(Enumerate(self._node, start))

    def apply(self, transformation_func: Callable[[Dataset], Dataset]) -> Dataset:
        result = transformation_func(self)
        if not isinstance(result, Dataset):
            raise TypeError(f"apply's transformation_func must return a Dataset, got {result!r}")
        return result

    # -- TF-1.x's element spec and iterators ---------------------------------------------------------
    @property
    def output_types(self) -> Any:
        return element_types(self._node.spec)

    @property
    def output_shapes(self) -> Any:
        return element_shapes(self._node.spec)

    @property
    def output_classes(self) -> Any:
        return element_classes(self._node.spec)

    @property
    def element_spec(self) -> Any:
        return self._node.spec

    def make_one_shot_iterator(self) -> Iterator:
        """An iterator that starts on its first ``get_next`` in each session (so it cannot be fed)."""
        held = captured_placeholders(self._node.captured())
        if held:
            raise ValueError(f"Cannot capture a placeholder (name:{held[0].op.name}, type:Placeholder) by value: a "
                             "one-shot iterator is never fed; use make_initializable_iterator()")
        return Iterator(self._node.spec, self._node, one_shot=True, name="OneShotIterator")

    def make_initializable_iterator(self, shared_name: str | None = None) -> Iterator:
        """An iterator that runs ``sess.run(iterator.initializer, feed_dict)`` (re)starts."""
        return Iterator(self._node.spec, self._node)

    def __iter__(self) -> Any:
        raise RuntimeError("Iterating a Dataset needs eager execution; in graph mode use "
                           "make_one_shot_iterator() or make_initializable_iterator() and get_next()")

    def __repr__(self) -> str:
        return f"<Dataset shapes: {self.output_shapes}, types: {self.output_types}>"


def _node_of(dataset: Any, what: str) -> Node:
    if not isinstance(dataset, Dataset):
        raise TypeError(f"{what} expects Datasets, got {dataset!r}")
    return dataset._node
