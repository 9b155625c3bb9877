"""What static_rnn and dynamic_rnn share: the initial state, ``sequence_length`` masking, reversal.

Past a sequence's length a step outputs zeros and carries the state through unchanged, so the final
state of each batch row is its state after its own last step (TF's ``_rnn_step``).
"""
from __future__ import annotations

from typing import Any

from .. import dtypes as _dt
from ..ops import array_ops as a
from ..ops import math_ops as m
from ..ops.convert import convert_to_tensor
from ..ops.creation import range as _range
from ..ops.indexing_ops import gather_nd
from ..ops.reduce_ops import cumsum
from ..ssa.graph import Tensor
from . import nest
from .cell_base import RNNCell, batch_dimension, zeros_like_sizes

__all__ = ["check_cell", "sequence_lengths", "start_state", "zero_output", "masked_step", "reverse_sequence"]


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


def start_state(cell: RNNCell, initial_state: Any, dtype: Any, first_input: Tensor) -> Any:
    """``initial_state``, or the cell's zero state for ``first_input``'s batch when there is none."""
    if initial_state is not None:
        return initial_state
    if not dtype:
        raise ValueError("If no initial_state is provided, dtype must be specified")
    return cell.zero_state(batch_dimension(first_input), dtype)


def zero_output(cell: RNNCell, first_input: Tensor, dtype: Any) -> Any:
    """Zeros shaped like the cell's output for ``first_input``'s batch."""
    return zeros_like_sizes(cell.output_size, batch_dimension(first_input), dtype)


def masked_step(cell: RNNCell, time: int, inputs: Any, state: Any, lengths: Tensor | None,
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


def reverse_sequence(x: Tensor, lengths: Tensor, seq_axis: int, batch_axis: int) -> Tensor:
    """Each batch row's first ``length`` steps in reverse order, the steps after them left in place."""
    x = convert_to_tensor(x)
    rank = x.shape.rank
    if rank is None:
        raise ValueError(f"reverse_sequence needs the rank of {x.name}")
    perm = [seq_axis, batch_axis] + [d for d in range(rank) if d not in (seq_axis, batch_axis)]
    time_major = a.transpose(x, perm) if perm != list(range(rank)) else x
    steps = time_major.shape.as_list()[0]
    if steps is None:
        raise ValueError(f"reverse_sequence needs the number of steps of {x.name} (shape {x.shape}) when the "
                         "graph is built")
    t = a.expand_dims(_range(steps), 1)
    ends = a.expand_dims(lengths, 0)
    source = a.where_v2(m.less(t, ends), m.subtract(m.subtract(ends, 1), t), t)
    rows = m.add(m.multiply(source, 0), m.subtract(cumsum(a.ones_like(ends), axis=1), 1, name="batch_index"))
    reversed_ = gather_nd(time_major, a.stack([source, rows], axis=-1))
    reversed_.set_shape(time_major.shape)
    inverse = [perm.index(d) for d in range(rank)]
    return a.transpose(reversed_, inverse) if perm != list(range(rank)) else reversed_
