"""Cells made of cells: ``MultiRNNCell`` (a stack), ``DropoutWrapper``, ``ResidualWrapper``, ``DeviceWrapper``.

A stack puts cell ``i``'s variables under ``multi_rnn_cell/cell_<i>/``; the wrappers add no
scope of their own, so a wrapped cell's variables are named as the bare cell's would be.
"""
from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

from .. import dtypes as _dt
from ..ops import array_ops as a
from ..ops import math_ops as m
from ..ops import nest, nn_ops, random_ops
from ..ops.indexing_ops import slice as _slice
from ..ops.variables import Variable, variable_scope
from ..shapes import TensorShape
from ..ssa.graph import Tensor, device, name_scope
from .cell_base import LSTMStateTuple, RNNCell

__all__ = ["MultiRNNCell", "DropoutWrapper", "ResidualWrapper", "DeviceWrapper"]


def _check_cell(cell: Any) -> RNNCell:
    if not isinstance(cell, RNNCell):
        raise TypeError(f"The parameter cell is not a RNNCell: {cell!r}")
    return cell


class MultiRNNCell(RNNCell):
    """Cells applied one after another: cell ``i``'s output is cell ``i + 1``'s input; the state is the
    tuple of the cells' states (or their concatenation when ``state_is_tuple=False``)."""

    def __init__(self, cells: Any, state_is_tuple: bool = True) -> None:
        super().__init__()
        if not isinstance(cells, (list, tuple)):
            raise TypeError(f"cells must be a list or tuple, but saw: {cells!r}.")
        if not cells:
            raise ValueError("Must specify at least one cell for MultiRNNCell.")
        self._cells = [_check_cell(c) for c in cells]
        self._state_is_tuple = state_is_tuple
        if not state_is_tuple and any(nest.is_nested(c.state_size) for c in self._cells):
            raise ValueError("Some cells return tuples of states, but the flag state_is_tuple is not set. "
                             f"State sizes are: {[c.state_size for c in self._cells]}")

    @property
    def state_size(self) -> Any:
        sizes = tuple(c.state_size for c in self._cells)
        return sizes if self._state_is_tuple else sum(sizes)

    @property
    def output_size(self) -> Any:
        return self._cells[-1].output_size

    @property
    def variables(self) -> list[Variable]:
        return [v for c in self._cells for v in c.variables]

    @property
    def trainable_variables(self) -> list[Variable]:
        return [v for c in self._cells for v in c.trainable_variables]

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        if not self._state_is_tuple:
            return super().zero_state(batch_size, dtype)
        with name_scope(type(self).__name__ + "ZeroState"):
            return tuple(c.zero_state(batch_size, dtype) for c in self._cells)

    def call(self, inputs: Tensor, state: Any) -> tuple[Any, Any]:
        if self._state_is_tuple and (not nest.is_nested(state) or len(state) != len(self._cells)):
            raise ValueError(f"Expected state to be a tuple of length {len(self._cells)}, but received: {state!r}")
        position, new_states, current = 0, [], inputs
        for i, cell in enumerate(self._cells):
            with variable_scope(f"cell_{i}"):
                if self._state_is_tuple:
                    cell_state = state[i]
                else:
                    cell_state = _slice(state, [0, position], [-1, cell.state_size])
                    position += cell.state_size
                current, new_state = cell(current, cell_state)
            new_states.append(new_state)
        return current, (tuple(new_states) if self._state_is_tuple else a.concat(new_states, 1))


class _Wrapper(RNNCell):
    """A cell around ``cell``: same sizes and variables, no scope of its own."""

    def __init__(self, cell: Any) -> None:
        super().__init__()
        self._cell = _check_cell(cell)

    @property
    def wrapped_cell(self) -> RNNCell:
        return self._cell

    @property
    def state_size(self) -> Any:
        return self._cell.state_size

    @property
    def output_size(self) -> Any:
        return self._cell.output_size

    @property
    def variables(self) -> list[Variable]:
        return self._cell.variables

    @property
    def trainable_variables(self) -> list[Variable]:
        return self._cell.trainable_variables

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        with name_scope(type(self).__name__ + "ZeroState"):
            return self._cell.zero_state(batch_size, dtype)

    def __call__(self, inputs: Any, state: Any, scope: Any = None, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        return self.wrap(inputs, state, lambda i, s: self._cell(i, s, scope, *args, **kwargs))

    def wrap(self, inputs: Any, state: Any, run_cell: Callable[[Any, Any], tuple[Any, Any]]) -> tuple[Any, Any]:
        raise NotImplementedError


def _keep_lstm_memory(substate: Any) -> Any:
    """TF's default state filter: dropout on every state but an LSTM's memory ``c``."""
    return LSTMStateTuple(c=False, h=True) if isinstance(substate, LSTMStateTuple) else True


class DropoutWrapper(_Wrapper):
    """Dropout on the cell's inputs, outputs and new state, each kept with its own probability.

    With ``variational_recurrent=True`` one mask per wrapper (shared by the batch and by every time
    step) is drawn for each, as in Gal and Ghahramani; that needs ``dtype`` (and ``input_size`` when the
    inputs are dropped). ``dropout_state_filter_visitor`` picks the parts of the state to drop
    (default: all but an LSTM's ``c``)."""

    def __init__(self, cell: Any, input_keep_prob: Any = 1.0, output_keep_prob: Any = 1.0, state_keep_prob: Any = 1.0,
                 variational_recurrent: bool = False, input_size: Any = None, dtype: Any = None,
                 seed: int | None = None, dropout_state_filter_visitor: Any = None) -> None:
        super().__init__(cell)
        for what, p in (("input_keep_prob", input_keep_prob), ("state_keep_prob", state_keep_prob),
                        ("output_keep_prob", output_keep_prob)):
            if isinstance(p, (int, float)) and not 0 < float(p) <= 1:
                raise ValueError(f"Parameter {what} must be between 0 and 1: {p}")
        if dropout_state_filter_visitor is not None and not callable(dropout_state_filter_visitor):
            raise TypeError("dropout_state_filter_visitor must be callable")
        self._keep = {"input": input_keep_prob, "state": state_keep_prob, "output": output_keep_prob}
        self._seed = seed
        self._state_filter = dropout_state_filter_visitor or _keep_lstm_memory
        self._noise: dict[str, Any] = {}
        if variational_recurrent:
            if dtype is None:
                raise ValueError("When variational_recurrent=True, dtype must be provided")
            sizes = {"input": input_size, "state": cell.state_size, "output": cell.output_size}
            for what, size in sizes.items():
                if _drops(self._keep[what]):
                    if size is None:
                        raise ValueError("When variational_recurrent=True and input_keep_prob < 1.0 or is unknown, "
                                         "input_size must be provided")
                    self._noise[what] = self._masks_noise(what, size, _dt.as_dtype(dtype))

    def _leaf_seed(self, what: str, index: int) -> int | None:
        if self._seed is None:
            return None
        return zlib.crc32(f"{self._seed}{what}_{index}".encode()) & 0x7FFFFFFF

    def _masks_noise(self, what: str, size: Any, dtype: _dt.DType) -> Any:
        leaves = [random_ops.random_uniform([1, *TensorShape(s).as_list()], dtype=dtype, seed=self._leaf_seed(what, i))
                  for i, s in enumerate(nest.flatten(size))]
        return nest.pack_sequence_as(size, leaves) if nest.is_nested(size) else leaves[0]

    def _dropout(self, what: str, values: Any, keep: Any, selected: list[bool] | None = None) -> Any:
        noise = self._noise.get(what)
        flat_noise = nest.flatten(noise) if noise is not None else None
        leaves = nest.flatten(values)
        out = []
        for i, (value, chosen) in enumerate(zip(leaves, selected or [True] * len(leaves), strict=True)):
            if not chosen:
                out.append(value)
            elif flat_noise is None:
                out.append(nn_ops.dropout(value, keep_prob=keep, seed=self._leaf_seed(what, i)))
            else:
                mask = m.floor(m.add(keep, flat_noise[i]))
                out.append(m.multiply(m.divide(value, keep), mask))
        return nest.pack_sequence_as(values, out) if nest.is_nested(values) else out[0]

    def wrap(self, inputs: Any, state: Any, run_cell: Callable[[Any, Any], tuple[Any, Any]]) -> tuple[Any, Any]:
        if _drops(self._keep["input"]):
            inputs = self._dropout("input", inputs, self._keep["input"])
        output, new_state = run_cell(inputs, state)
        if _drops(self._keep["state"]):
            selected = _filter_leaves(self._state_filter, new_state)
            new_state = self._dropout("state", new_state, self._keep["state"], selected)
        if _drops(self._keep["output"]):
            output = self._dropout("output", output, self._keep["output"])
        return output, new_state


def _drops(keep_prob: Any) -> bool:
    return not isinstance(keep_prob, (int, float)) or float(keep_prob) < 1


def _filter_leaves(visitor: Callable[[Any], Any], structure: Any) -> list[bool]:
    """One flag per leaf of ``structure``: ``visitor``'s answer for it, asked top down as TF does (True
    at a structure asks again for each of its parts; a structure of answers speaks for the parts)."""
    answer = visitor(structure)
    if not nest.is_nested(answer):
        if answer and nest.is_nested(structure):
            return [flag for item in structure for flag in _filter_leaves(visitor, item)]
        return [bool(answer)] * len(nest.flatten(structure))
    flags: list[bool] = []
    for said, item in zip(answer, structure, strict=True):
        flags += _filter_leaves(visitor, item) if said else [False] * len(nest.flatten(item))
    return flags


class ResidualWrapper(_Wrapper):
    """The cell's output plus its input (or ``residual_fn(inputs, outputs)``)."""

    def __init__(self, cell: Any, residual_fn: Callable[[Any, Any], Any] | None = None) -> None:
        super().__init__(cell)
        self._residual_fn = residual_fn

    def wrap(self, inputs: Any, state: Any, run_cell: Callable[[Any, Any], tuple[Any, Any]]) -> tuple[Any, Any]:
        outputs, new_state = run_cell(inputs, state)
        if self._residual_fn is not None:
            return self._residual_fn(inputs, outputs), new_state
        nest.assert_same_structure(inputs, outputs)

        def add(inp: Tensor, out: Tensor) -> Tensor:
            if not inp.shape.is_compatible_with(out.shape):
                raise ValueError(f"ResidualWrapper: the input shape {inp.shape} and the output shape {out.shape} "
                                 "differ; pass residual_fn to combine them")
            return m.add(inp, out)
        return nest.map_structure(add, inputs, outputs), new_state


class DeviceWrapper(_Wrapper):
    """The cell's ops (and its zero state) recorded on ``device``."""

    def __init__(self, cell: Any, device: str) -> None:
        super().__init__(cell)
        self._device = device

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        with device(self._device):
            return super().zero_state(batch_size, dtype)

    def wrap(self, inputs: Any, state: Any, run_cell: Callable[[Any, Any], tuple[Any, Any]]) -> tuple[Any, Any]:
        with device(self._device):
            return run_cell(inputs, state)
