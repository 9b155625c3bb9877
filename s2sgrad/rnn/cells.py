"""The cells of ``tf.nn.rnn_cell``: ``BasicRNNCell``, ``BasicLSTMCell``, ``LSTMCell``, ``GRUCell``.

Variables and their names are TF-1.x's (``kernel`` ``[input_depth + units, k * units]`` and
``bias``; ``gates/`` and ``candidate/`` for the GRU; ``w_f_diag``... and ``projection/kernel`` for
the LSTM), so checkpoints written by TensorFlow line up. The gates are split ``i, j, f, o``.
"""
from __future__ import annotations

from typing import Any

from ..ops import array_ops as a
from ..ops import math_ops as m
from ..ops.initializers import constant_initializer, zeros_initializer
from ..shapes import TensorShape
from ..ssa.graph import Tensor
from .cell_base import LSTMStateTuple, RNNCell, activation_function, input_depth, linear

__all__ = ["BasicRNNCell", "BasicLSTMCell", "LSTMCell", "GRUCell"]


def _units(num_units: Any, what: str = "num_units") -> int:
    if isinstance(num_units, bool) or not isinstance(num_units, int) or num_units <= 0:
        raise ValueError(f"{what} must be a positive integer, got {num_units!r}")
    return num_units


class _StateIsOutput(RNNCell):
    """A cell whose state is its output: ``num_units`` wide, with an ``activation``."""

    def __init__(self, num_units: int, activation: Any, reuse: Any, name: str | None, dtype: Any,
                 **kwargs: Any) -> None:
        super().__init__(name=name, dtype=dtype, reuse=reuse, **kwargs)
        self._num_units = _units(num_units)
        self._activation = activation_function(activation)

    @property
    def state_size(self) -> int:
        return self._num_units

    @property
    def output_size(self) -> int:
        return self._num_units


class BasicRNNCell(_StateIsOutput):
    """``h' = activation(concat([x, h]) @ kernel + bias)``; the output is ``h'``."""

    def __init__(self, num_units: int, activation: Any = None, reuse: Any = None, name: str | None = None,
                 dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(num_units, activation, reuse, name, dtype, **kwargs)

    def build(self, input_shape: TensorShape) -> None:
        depth = input_depth(input_shape)
        self._kernel = self.add_variable("kernel", [depth + self._num_units, self._num_units])
        self._bias = self.add_variable("bias", [self._num_units], initializer=zeros_initializer())

    def call(self, inputs: Tensor, state: Tensor) -> tuple[Tensor, Tensor]:
        output = self._activation(linear([inputs, state], self._kernel, self._bias))
        return output, output


class BasicLSTMCell(RNNCell):
    """The LSTM without peepholes or projection: one ``kernel`` for the four gates ``i, j, f, o``.

    ``c' = c * sigmoid(f + forget_bias) + sigmoid(i) * activation(j)``,
    ``h' = activation(c') * sigmoid(o)``.
    """

    def __init__(self, num_units: int, forget_bias: float = 1.0, state_is_tuple: bool = True, activation: Any = None,
                 reuse: Any = None, name: str | None = None, dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(name=name, dtype=dtype, reuse=reuse, **kwargs)
        self._num_units = _units(num_units)
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = activation_function(activation)

    @property
    def state_size(self) -> Any:
        n = self._num_units
        return LSTMStateTuple(n, n) if self._state_is_tuple else 2 * n

    @property
    def output_size(self) -> int:
        return self._num_units

    def build(self, input_shape: TensorShape) -> None:
        depth = input_depth(input_shape)
        self._kernel = self.add_variable("kernel", [depth + self._num_units, 4 * self._num_units])
        self._bias = self.add_variable("bias", [4 * self._num_units], initializer=zeros_initializer())

    def call(self, inputs: Tensor, state: Any) -> tuple[Tensor, Any]:
        c, h = state if self._state_is_tuple else a.split(state, 2, axis=1)
        i, j, f, o = a.split(linear([inputs, h], self._kernel, self._bias), 4, axis=1)
        forget = m.sigmoid(m.add(f, self._forget_bias))
        new_c = m.add(m.multiply(c, forget), m.multiply(m.sigmoid(i), self._activation(j)))
        new_h = m.multiply(self._activation(new_c), m.sigmoid(o))
        return new_h, (LSTMStateTuple(new_c, new_h) if self._state_is_tuple else a.concat([new_c, new_h], 1))


class LSTMCell(RNNCell):
    """The LSTM with optional peepholes (``w_f_diag``, ``w_i_diag``, ``w_o_diag``), cell clipping and an
    output projection ``projection/kernel`` (``num_proj``, clipped by ``proj_clip``)."""

    def __init__(self, num_units: int, use_peepholes: bool = False, cell_clip: float | None = None,
                 initializer: Any = None, num_proj: int | None = None, proj_clip: float | None = None,
                 num_unit_shards: Any = None, num_proj_shards: Any = None, forget_bias: float = 1.0,
                 state_is_tuple: bool = True, activation: Any = None, reuse: Any = None, name: str | None = None,
                 dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(name=name, dtype=dtype, reuse=reuse, **kwargs)
        for arg, value in (("num_unit_shards", num_unit_shards), ("num_proj_shards", num_proj_shards)):
            if value is not None:
                raise NotImplementedError(f"LSTMCell({arg}=...): partitioned variables are not supported")
        self._num_units = _units(num_units)
        self._num_proj = None if num_proj is None else _units(num_proj, "num_proj")
        self._use_peepholes, self._cell_clip, self._proj_clip = use_peepholes, cell_clip, proj_clip
        self._initializer, self._forget_bias = initializer, forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = activation_function(activation)

    @property
    def state_size(self) -> Any:
        h = self._num_proj or self._num_units
        return LSTMStateTuple(self._num_units, h) if self._state_is_tuple else self._num_units + h

    @property
    def output_size(self) -> int:
        return self._num_proj or self._num_units

    def build(self, input_shape: TensorShape) -> None:
        depth, n, init = input_depth(input_shape), self._num_units, self._initializer
        self._kernel = self.add_variable("kernel", [depth + (self._num_proj or n), 4 * n], initializer=init)
        self._bias = self.add_variable("bias", [4 * n], initializer=zeros_initializer())
        if self._use_peepholes:
            self._w_f_diag = self.add_variable("w_f_diag", [n], initializer=init)
            self._w_i_diag = self.add_variable("w_i_diag", [n], initializer=init)
            self._w_o_diag = self.add_variable("w_o_diag", [n], initializer=init)
        if self._num_proj is not None:
            self._proj_kernel = self.add_variable("projection/kernel", [n, self._num_proj], initializer=init)

    def call(self, inputs: Tensor, state: Any) -> tuple[Tensor, Any]:
        if self._state_is_tuple:
            c_prev, m_prev = state
        else:
            c_prev, m_prev = a.split(state, [self._num_units, self._num_proj or self._num_units], axis=1)
        i, j, f, o = a.split(linear([inputs, m_prev], self._kernel, self._bias), 4, axis=1)
        if self._use_peepholes:
            f = m.add(f, m.multiply(self._w_f_diag, c_prev))
            i = m.add(i, m.multiply(self._w_i_diag, c_prev))
        c = m.add(m.multiply(m.sigmoid(m.add(f, self._forget_bias)), c_prev),
                  m.multiply(m.sigmoid(i), self._activation(j)))
        if self._cell_clip is not None:
            c = m.clip_by_value(c, -self._cell_clip, self._cell_clip)
        if self._use_peepholes:
            o = m.add(o, m.multiply(self._w_o_diag, c))
        h = m.multiply(m.sigmoid(o), self._activation(c))
        if self._num_proj is not None:
            h = m.matmul(h, self._proj_kernel)
            if self._proj_clip is not None:
                h = m.clip_by_value(h, -self._proj_clip, self._proj_clip)
        return h, (LSTMStateTuple(c, h) if self._state_is_tuple else a.concat([c, h], 1))


class GRUCell(_StateIsOutput):
    """The gated recurrent unit: gates ``r, u = sigmoid(concat([x, h]) @ gates/kernel + gates/bias)``,
    candidate ``activation(concat([x, r * h]) @ candidate/kernel + candidate/bias)``,
    ``h' = u * h + (1 - u) * candidate``. The gate bias starts at 1 unless ``bias_initializer`` says."""

    def __init__(self, num_units: int, activation: Any = None, reuse: Any = None, kernel_initializer: Any = None,
                 bias_initializer: Any = None, name: str | None = None, dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(num_units, activation, reuse, name, dtype, **kwargs)
        self._kernel_initializer, self._bias_initializer = kernel_initializer, bias_initializer

    def build(self, input_shape: TensorShape) -> None:
        depth, n = input_depth(input_shape), self._num_units
        kernel_init, bias_init = self._kernel_initializer, self._bias_initializer
        self._gate_kernel = self.add_variable("gates/kernel", [depth + n, 2 * n], initializer=kernel_init)
        self._gate_bias = self.add_variable("gates/bias", [2 * n],
                                            initializer=bias_init or constant_initializer(1.0))
        self._candidate_kernel = self.add_variable("candidate/kernel", [depth + n, n], initializer=kernel_init)
        self._candidate_bias = self.add_variable("candidate/bias", [n], initializer=bias_init or zeros_initializer())

    def call(self, inputs: Tensor, state: Tensor) -> tuple[Tensor, Tensor]:
        r, u = a.split(m.sigmoid(linear([inputs, state], self._gate_kernel, self._gate_bias)), 2, axis=1)
        candidate = self._activation(linear([inputs, m.multiply(r, state)], self._candidate_kernel,
                                            self._candidate_bias))
        new_h = m.add(m.multiply(u, state), m.multiply(m.subtract(1.0, u), candidate))
        return new_h, new_h
