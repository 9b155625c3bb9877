"""What static_rnn and dynamic_rnn share: the initial state, ``sequence_length`` masking, reversal.

Past a sequence's length a step outputs zeros and carries the state through unchanged, so the final
state of each batch row is its state after its own last step (TF's ``_rnn_step``).
"""
from __future__ import annotations

from typing import Any

from .. import dtypes as _dt
from ..ops import array_ops as a
from ..ops import math_ops as m
from ..ops import nest
from ..ops.convert import convert_to_tensor
from ..ops.indexing_ops import gather_nd
from ..ops.reduce_ops import cumsum
from ..ssa.graph import Tensor
from .cell_base import RNNCell, zeros_like_sizes

__all__ = ["check_cell", "sequence_lengths", "dtype_or_none", "start_state", "zero_output", "masked_step",
           "reverse_sequence"]


def check_cell(cell: Any, what: str = "cell") -> RNNCell:
    """``cell`` when it is an RNNCell (TypeError naming ``what`` otherwise)."""
    if not isinstance(cell, RNNCell):
        raise TypeError(f"{what} must be an instance of RNNCell, got {cell!r}")
    return cell


def sequence_lengths(sequence_length: Any) -> Tensor | None:
    """``sequence_length`` as an int32 vector named ``sequence_length`` (None stays None)."""
    if sequence_length is None:
        return None
    lengths = m.cast(convert_to_tensor(sequence_length), _dt.int32)
    if lengths.shape.rank not in (None, 1):
        raise ValueError(f"sequence_length must be a vector of length batch_size, but saw shape: {lengths.shape}")
    return a.identity(lengths, name="sequence_length")


def dtype_or_none(dtype: Any) -> _dt.DType | None:
    """``dtype`` as a DType (TypeError for what is not one), None staying None."""
    return None if dtype is None else _dt.as_dtype(dtype)


def start_state(cell: RNNCell, initial_state: Any, dtype: Any, batch_size: Any) -> Any:
    """``initial_state``, or the cell's zero state for ``batch_size`` rows when there is none."""
    if initial_state is not None:
        return initial_state
    if dtype is None:
        raise ValueError("If no initial_state is provided, dtype must be specified")
    return cell.zero_state(batch_size, _dt.as_dtype(dtype))


def zero_output(cell: RNNCell, batch_size: Any, dtype: Any) -> Any:
    """Zeros shaped like the cell's output for ``batch_size`` rows."""
    return zeros_like_sizes(cell.output_size, batch_size, dtype)


def masked_step(cell: RNNCell, time: Any, inputs: Any, state: Any, lengths: Tensor | None,
                zeros: Any) -> tuple[Any, Any]:
    """One step of ``cell``; rows whose sequence has ended (``time >= length``) output ``zeros`` and keep
    their ``state``."""
    output, new_state = cell(inputs, state)
    if lengths is None:
        return output, new_state
    done = m.greater_equal(time, lengths)
    output = nest.map_structure(lambda z, o: a.where(done, z, o), zeros, output)
    nest.assert_same_structure(state, new_state)
    new_state = nest.map_structure(lambda old, new: a.where(done, old, new), state, new_state)
    return output, new_state


def _positions(count: Tensor) -> Tensor:
    """``[0, 1, ..., count - 1]`` for a count known only at run time."""
    return m.subtract(cumsum(a.ones(a.reshape(count, [1]), dtype=_dt.int32)), 1)


def reverse_sequence(x: Tensor, lengths: Tensor, seq_axis: int, batch_axis: int) -> Tensor:
    """Each batch row's first ``length`` steps in reverse order, the steps after them left in place."""
    x = convert_to_tensor(x)
    rank = x.shape.rank
    if rank is None:
        raise ValueError(f"reverse_sequence needs the rank of {x.name}")
    perm = [seq_axis, batch_axis] + [d for d in range(rank) if d not in (seq_axis, batch_axis)]
    time_major = a.transpose(x, perm) if perm != list(range(rank)) else x
    t = a.expand_dims(_positions(a.shape(time_major)[0]), 1)
    ends = a.expand_dims(lengths, 0)
    source = a.where_v2(m.less(t, ends), m.subtract(m.subtract(ends, 1), t), t)
    rows = m.add(m.multiply(source, 0), a.expand_dims(_positions(a.shape(time_major)[1]), 0))
    reversed_ = gather_nd(time_major, a.stack([source, rows], axis=-1))
    reversed_.set_shape(time_major.shape)
    inverse = [perm.index(d) for d in range(rank)]
    return a.transpose(reversed_, inverse) if perm != list(range(rank)) else reversed_
