"""A session's variables: their values and the states of its random generators.

A run reads a ``snapshot`` of the variables it needs, calls the compiled module, and
``commit``s all the new values at once, only if nothing raised: a failed run leaves every
variable unchanged. ``Session.run``'s fast path does the same two steps inline, on
``values`` (one ``itemgetter`` call and one ``dict.update``).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .. import errors
from ..dtypes import DType
from ..ssa.graph import Operation
from .feeds import convert_feed

__all__ = ["VariableStore"]


class VariableStore:
    """Variable op -> its current value, and random op -> its generator, for one session."""

    def __init__(self) -> None:
        self.values: dict[Operation, Any] = {}
        self._generators: dict[Operation, np.random.Generator] = {}

    def __contains__(self, var_op: Operation) -> bool:
        return var_op in self.values

    def spec(self, var_op: Operation) -> tuple[DType, Any]:
        """The dtype and shape a compiled module reads for ``var_op``: its static shape when fully
        defined, else the shape of its stored value (the static dims when it has none yet)."""
        t = var_op.outputs[0]
        if t.shape.is_fully_defined():
            return t.dtype, tuple(t.shape.as_list())
        value = self.values.get(var_op)
        return t.dtype, (np.shape(value) if value is not None else t.shape.sizes)

    def snapshot(self, var_ops: Sequence[Operation]) -> list:
        """The current values of ``var_ops`` (FailedPreconditionError naming the first unset one)."""
        try:
            return [self.values[op] for op in var_ops]
        except KeyError:
            raise self.uninitialized(var_ops) from None

    def commit(self, new_values: Iterable[tuple[Operation, Any]]) -> None:
        """Write all of ``new_values`` (variable op, value) at once."""
        self.values.update(new_values)

    def load(self, var_op: Operation, value: Any) -> None:
        """Set ``var_op`` to ``value`` converted to its dtype (``tf.Variable.load``)."""
        t = var_op.outputs[0]
        v = convert_feed(value, t)
        if not t.shape.is_compatible_with(np.shape(v)):
            raise ValueError(f"Cannot load value of shape {np.shape(v)} into variable {var_op.name} of shape {t.shape}")
        self.values[var_op] = np.array(v) if isinstance(v, np.ndarray) else v

    def uninitialized(self, var_ops: Sequence[Operation]) -> errors.FailedPreconditionError:
        """The error for reading the first of ``var_ops`` that has no value."""
        missing = next(v for v in var_ops if v not in self.values)
        return errors.FailedPreconditionError(
            None, missing,
            f"Attempting to use uninitialized value {missing.name}  [variable created at {missing.where}]")

    def generator(self, op: Operation) -> np.random.Generator:
        """The random generator of ``op`` in this session, made from its seeds on first use."""
        rng = self._generators.get(op)
        if rng is None:
            seed, seed2 = op.attrs["seed"], op.attrs["seed2"]
            seeds = None if seed is None else [seed % 2 ** 64, seed2 % 2 ** 64]  # TF seeds may be negative
            rng = self._generators.setdefault(op, np.random.default_rng(seeds))  # one per op, even under threads
        return rng

    def clear(self) -> None:
        """Forget every value and generator (``Session.close``)."""
        self.values.clear()
        self._generators.clear()
