"""Element-wise and reordering transformations: map, filter, flat_map, interleave, shuffle, repeat,
take, skip, cache, prefetch, enumerate."""
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from .. import dtypes as _dt
from ..shapes import TensorShape
from .functions import Env, Function
from .nodes import Element, Node
from .structure import Spec

__all__ = ["Map", "Filter", "FlatMap", "Interleave", "Shuffle", "Repeat", "Take", "Skip", "Shard", "Cache", "Prefetch",
           "Enumerate", "ORDER_ONLY"]


class Map(Node):
    """``map(fn)``: ``fn`` applied to each element (traced once into the graph; see ``functions.py``)."""

    def __init__(self, node: Node, fn: Function) -> None:
        self.inputs, self.fn = (node,), fn
        self.spec = fn.output_spec

    def functions(self) -> list:
        return [self.fn]

    def elements(self, env: Env) -> Iterator[Element]:
        call, fn = env.call, self.fn
        for element in self.inputs[0].elements(env):
            yield call(fn, element)


class Filter(Node):
    """``filter(predicate)``: the elements for which ``predicate`` is true."""

    def __init__(self, node: Node, predicate: Function) -> None:
        outs = predicate.outputs
        if len(outs) != 1 or outs[0].dtype is not _dt.bool or outs[0].shape.sizes not in ((), None):
            raise ValueError(f"filter's predicate must return a scalar bool tensor, got {predicate.structure!r}")
        self.inputs, self.fn, self.spec = (node,), predicate, node.spec

    def functions(self) -> list:
        return [self.fn]

    def elements(self, env: Env) -> Iterator[Element]:
        for element in self.inputs[0].elements(env):
            if env.call(self.fn, element)[0]:
                yield element


class FlatMap(Node):
    """``flat_map(fn)``: the elements of the dataset ``fn`` returns for each element, one after another."""

    def __init__(self, node: Node, fn: Function) -> None:
        self.inputs, self.fn = (node,), fn
        self.inner: Node = fn.dataset
        self.spec = self.inner.spec

    def functions(self) -> list:
        return [self.fn]

    def elements(self, env: Env) -> Iterator[Element]:
        inner = self.inner
        for element in self.inputs[0].elements(env):
            yield from inner.elements(env.bind(self.fn.params, element))


class Interleave(Node):
    """``interleave(fn, cycle_length, block_length)``: ``cycle_length`` of ``fn``'s datasets open at
    once, ``block_length`` elements from each in turn; an exhausted one is replaced by the dataset of
    the next input element when the cycle comes back to its slot."""

    def __init__(self, node: Node, fn: Function, cycle_length: int, block_length: int) -> None:
        for name, value in (("cycle_length", cycle_length), ("block_length", block_length)):
            if not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"interleave's {name} must be a positive integer, got {value!r}")
        self.inputs, self.fn = (node,), fn
        self.cycle_length, self.block_length = int(cycle_length), int(block_length)
        self.inner: Node = fn.dataset
        self.spec = self.inner.spec

    def functions(self) -> list:
        return [self.fn]

    def elements(self, env: Env) -> Iterator[Element]:
        source = self.inputs[0].elements(env)
        inner = self.inner
        slots: list[Iterator | None] = [None] * self.cycle_length
        index = block = 0
        open_count, end_of_input = 0, False
        while not end_of_input or open_count:
            current = slots[index]
            if current is not None:
                element = next(current, None)
                if element is not None:
                    yield element
                    block += 1
                    if block < self.block_length:
                        continue
                else:
                    slots[index] = None
                    open_count -= 1
                index, block = (index + 1) % self.cycle_length, 0
            elif not end_of_input:
                outer = next(source, None)
                if outer is None:
                    end_of_input = True
                else:
                    slots[index] = inner.elements(env.bind(self.fn.params, outer))
                    open_count += 1
            else:
                index, block = (index + 1) % self.cycle_length, 0


class Shuffle(Node):
    """``shuffle(buffer_size, seed, reshuffle_each_iteration)``: a buffer of ``buffer_size`` elements;
    each output is a uniformly drawn buffer entry, replaced by the next input element. A seeded shuffle
    gives the same orders in every session; ``reshuffle_each_iteration=False`` the same order each epoch."""

    def __init__(self, node: Node, buffer_size: int, seeds: tuple, reshuffle: bool) -> None:
        if not isinstance(buffer_size, (int, np.integer)) or isinstance(buffer_size, bool) or buffer_size < 1:
            raise ValueError(f"shuffle's buffer_size must be a positive integer, got {buffer_size!r}")
        self.inputs, self.spec = (node,), node.spec
        self.buffer_size, self.seeds, self.reshuffle = int(buffer_size), seeds, bool(reshuffle)

    def _generator(self, env: Env) -> np.random.Generator:
        """This epoch's generator: one per iterator that every epoch continues (reshuffling), or a
        fresh one from the same seed for each epoch."""
        state = env.state.setdefault(self, {})
        if "seed" not in state:   # an unseeded shuffle picks its seed once per iterator
            graph_seed, op_seed = self.seeds
            state["seed"] = [graph_seed % 2 ** 64, op_seed % 2 ** 64] if graph_seed is not None \
                else list(np.random.SeedSequence().generate_state(2))
        if not self.reshuffle:
            return np.random.default_rng(state["seed"])
        if "rng" not in state:
            state["rng"] = np.random.default_rng(state["seed"])
        return state["rng"]

    def elements(self, env: Env) -> Iterator[Element]:
        draws = _uniforms(self._generator(env))
        source = self.inputs[0].elements(env)
        buffer: list[Element] = []
        for element in source:
            buffer.append(element)
            if len(buffer) == self.buffer_size:
                break
        size = len(buffer)
        for element in source:   # the buffer is full: draw one, refill its place
            i = int(next(draws) * size)
            yield buffer[i]
            buffer[i] = element
        while buffer:            # the input ended: drain the buffer in random order
            i = int(next(draws) * len(buffer))
            buffer[i], buffer[-1] = buffer[-1], buffer[i]
            yield buffer.pop()


def _uniforms(rng: np.random.Generator, chunk: int = 256) -> Iterator[float]:
    """Uniform draws in [0, 1), generated a chunk at a time (a buffer index is ``int(u * size)``)."""
    while True:
        yield from rng.random(chunk).tolist()


class Repeat(Node):
    """``repeat(count)``: the input ``count`` times (forever for None or -1; an empty input ends it)."""

    def __init__(self, node: Node, count: int | None) -> None:
        self.inputs, self.spec = (node,), node.spec
        self.count = -1 if count is None else int(count)

    def elements(self, env: Env) -> Iterator[Element]:
        epoch = 0
        while self.count < 0 or epoch < self.count:
            produced = False
            for element in self.inputs[0].elements(env):
                produced = True
                yield element
            if not produced:
                return
            epoch += 1


class Take(Node):
    """``take(count)``: the first ``count`` elements (all for -1)."""

    def __init__(self, node: Node, count: int) -> None:
        self.inputs, self.spec, self.count = (node,), node.spec, int(count)

    def elements(self, env: Env) -> Iterator[Element]:
        if self.count == 0:
            return
        for n, element in enumerate(self.inputs[0].elements(env), 1):
            yield element
            if n == self.count:
                return


class Skip(Node):
    """``skip(count)``: all but the first ``count`` elements (none for -1)."""

    def __init__(self, node: Node, count: int) -> None:
        self.inputs, self.spec, self.count = (node,), node.spec, int(count)

    def elements(self, env: Env) -> Iterator[Element]:
        if self.count < 0:
            return
        for n, element in enumerate(self.inputs[0].elements(env)):
            if n >= self.count:
                yield element


class Shard(Node):
    """``shard(num_shards, index)``: elements ``index``, ``index + num_shards``, ..."""

    def __init__(self, node: Node, num_shards: int, index: int) -> None:
        if not 0 <= index < num_shards:
            raise ValueError(f"shard's index must be in [0, num_shards), got index {index}, num_shards {num_shards}")
        self.inputs, self.spec, self.num_shards, self.index = (node,), node.spec, num_shards, index

    def elements(self, env: Env) -> Iterator[Element]:
        for n, element in enumerate(self.inputs[0].elements(env)):
            if n % self.num_shards == self.index:
                yield element


class Cache(Node):
    """``cache()``: the first complete pass's elements, replayed by later passes of the same iterator.
    A ``filename`` is accepted and the cache kept in memory (nothing is written)."""

    def __init__(self, node: Node) -> None:
        self.inputs, self.spec = (node,), node.spec

    def elements(self, env: Env) -> Iterator[Element]:
        done = env.state.get(self)
        if done is not None:
            yield from done
            return
        seen = []
        for element in self.inputs[0].elements(env):
            seen.append(element)
            yield element
        env.state[self] = seen


class Prefetch(Node):
    """``prefetch(n)``: the same elements (the pipeline runs when an element is asked for)."""

    def __init__(self, node: Node) -> None:
        self.inputs, self.spec = (node,), node.spec

    def elements(self, env: Env) -> Iterator[Element]:
        return self.inputs[0].elements(env)


class Enumerate(Node):
    """``enumerate(start)``: ``(index, element)`` pairs, the index an int64 scalar."""

    def __init__(self, node: Node, start: int) -> None:
        self.inputs, self.start = (node,), int(start)
        self.spec = (Spec(_dt.int64, TensorShape([])), node.spec)

    def elements(self, env: Env) -> Iterator[Element]:
        for i, element in enumerate(self.inputs[0].elements(env), self.start):
            yield [np.int64(i), *element]


ORDER_ONLY = (Shuffle, Repeat, Take, Skip, Shard, Prefetch)   # transformations that never read element values
