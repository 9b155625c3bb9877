"""The ``RNNCell`` base class, ``LSTMStateTuple`` and the helpers the cells share.

A cell creates its variables with ``tf.get_variable`` on its first call, inside a variable scope
named after the cell (``basic_lstm_cell``, or ``name=``) or the ``scope`` passed to that call;
later calls use the same variables and open a fresh name scope for their ops, as TF-1.x's cells do.
"""
from __future__ import annotations

import collections
import re
from collections.abc import Callable
from typing import Any

from .. import dtypes as _dt
from ..ops import array_ops as a
from ..ops import math_ops as m
from ..ops import nest, nn_ops
from ..ops.convert import convert_to_tensor
from ..ops.variables import Variable, VariableScope, get_variable, variable_scope
from ..shapes import TensorShape
from ..ssa.graph import Tensor, name_scope

__all__ = ["RNNCell", "LSTMStateTuple", "activation_function", "linear", "zeros_like_sizes", "batch_dimension",
           "input_depth"]

ACTIVATIONS: dict[str, Callable[..., Tensor]] = {
    "tanh": m.tanh, "sigmoid": m.sigmoid, "relu": nn_ops.relu, "relu6": nn_ops.relu6, "elu": nn_ops.elu,
    "selu": nn_ops.selu, "softplus": nn_ops.softplus, "softsign": nn_ops.softsign, "linear": a.identity}


def activation_function(activation: Any) -> Callable[..., Tensor]:
    """The cell's activation: ``tanh`` for None, a callable as given, or one named like ``"relu"``."""
    if activation is None:
        return m.tanh
    if callable(activation):
        return activation
    if isinstance(activation, str) and activation in ACTIVATIONS:
        return ACTIVATIONS[activation]
    raise ValueError(f"Unknown activation {activation!r}: pass a callable or one of {sorted(ACTIVATIONS)}")


class LSTMStateTuple(collections.namedtuple("LSTMStateTuple", ("c", "h"))):
    """An LSTM's state: ``c`` the cell memory, ``h`` the output (both ``[batch, size]``)."""

    __slots__ = ()

    @property
    def dtype(self) -> _dt.DType:
        c, h = self
        if c.dtype != h.dtype:
            raise TypeError(f"Inconsistent internal state: {c.dtype} vs {h.dtype}")
        return c.dtype


def _snake_case(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", re.sub(r"(?<=[A-Z])(?=[A-Z][a-z])", "_", name)).lower()


class RNNCell:
    """A recurrent cell: ``output, new_state = cell(inputs, state)``.

    Subclasses define ``state_size``, ``output_size``, ``build(input_shape)`` (create variables with
    ``self.add_variable``) and ``call(inputs, state)``.
    """

    def __init__(self, trainable: bool = True, name: str | None = None, dtype: Any = None, reuse: Any = None,
                 **kwargs: Any) -> None:
        if name is not None and not isinstance(name, str):
            raise TypeError(f"RNNCell name must be a string, got {name!r}")
        self.trainable = trainable
        self._name = name
        self._dtype = None if dtype is None else _dt.as_dtype(dtype)
        self._reuse = reuse
        self._scope: VariableScope | None = None
        self._variables: list[Variable] = []
        self.built = False

    # -- what a cell is ---------------------------------------------------------------------------
    @property
    def state_size(self) -> Any:
        """The size of the state: an int, a TensorShape, or a structure of them."""
        raise NotImplementedError(f"{type(self).__name__} must define state_size")

    @property
    def output_size(self) -> Any:
        """The size of the output: an int or a TensorShape."""
        raise NotImplementedError(f"{type(self).__name__} must define output_size")

    @property
    def name(self) -> str:
        return self._scope.name if self._scope is not None else (self._name or _snake_case(type(self).__name__))

    @property
    def variables(self) -> list[Variable]:
        """The variables this cell created or shared, in creation order."""
        return list(self._variables)

    weights = variables

    @property
    def trainable_variables(self) -> list[Variable]:
        return [v for v in self._variables if v.trainable] if self.trainable else []

    trainable_weights = trainable_variables

    def build(self, input_shape: TensorShape) -> None:
        """Create the cell's variables (a cell without variables needs none)."""

    def call(self, inputs: Tensor, state: Any) -> tuple[Any, Any]:
        raise NotImplementedError(f"{type(self).__name__} must define call(inputs, state)")

    def add_variable(self, name: str, shape: Any, initializer: Any = None, dtype: Any = None) -> Variable:
        """``tf.get_variable(name, shape)`` in the cell's scope, recorded as one of its variables."""
        var = get_variable(name, shape, dtype=dtype or self._dtype, initializer=initializer,
                           trainable=self.trainable)
        self._variables.append(var)
        return var

    # -- running it -------------------------------------------------------------------------------
    def __call__(self, inputs: Any, state: Any, scope: Any = None, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        inputs = nest.map_structure(convert_to_tensor, inputs)
        if self._scope is not None:
            with variable_scope(self._scope, reuse=True):
                return self.call(inputs, state, *args, **kwargs)
        if scope is not None:
            opened = variable_scope(scope, reuse=self._reuse or None)
        elif self._reuse:
            opened = variable_scope(self.name, reuse=True)
        else:
            opened = variable_scope(self._name, default_name=_snake_case(type(self).__name__))
        with opened as captured:
            self._scope = captured
            first = nest.flatten(inputs)[0]
            if self._dtype is None:
                self._dtype = first.dtype.base_dtype
            self.build(first.shape)
            self.built = True
            return self.call(inputs, state, *args, **kwargs)

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        """Zeros shaped like ``state_size`` with a leading ``batch_size`` dimension."""
        with name_scope(type(self).__name__ + "ZeroState"):
            return zeros_like_sizes(self.state_size, batch_size, dtype)

    def get_initial_state(self, inputs: Any = None, batch_size: Any = None, dtype: Any = None) -> Any:
        """``zero_state`` for ``inputs``' batch size and dtype (or the ones given)."""
        if inputs is not None:
            inputs = convert_to_tensor(inputs)
            batch_size = batch_dimension(inputs)
            dtype = dtype or inputs.dtype
        return self.zero_state(batch_size, dtype)


def _size_list(size: Any) -> list:
    return TensorShape(size).as_list()


def zeros_like_sizes(sizes: Any, batch_size: Any, dtype: Any) -> Any:
    """A structure of zero tensors ``[batch_size, *size]`` for each size in ``sizes``."""
    def zeros(size: Any) -> Tensor:
        if not isinstance(batch_size, Tensor):
            return a.zeros([batch_size, *_size_list(size)], dtype=dtype)
        shape = a.concat([a.reshape(batch_size, [1]), _size_list(size)], 0)
        out = a.zeros(shape, dtype=dtype)
        out.set_shape([None, *_size_list(size)])
        return out
    if not nest.is_nested(sizes):
        return zeros(sizes)
    return nest.pack_sequence_as(sizes, [zeros(s) for s in nest.flatten(sizes)])


def batch_dimension(x: Tensor, axis: int = 0) -> Any:
    """``x``'s dimension ``axis`` (the batch): an int when static, else a scalar tensor."""
    size = x.shape.as_list()[axis] if x.shape.rank is not None else None
    return int(size) if size is not None else a.shape(x)[axis]


def input_depth(input_shape: Any) -> int:
    """The static size of the inputs' last dimension (a cell's kernel needs it)."""
    shape = TensorShape(input_shape)
    depth = shape[-1] if shape.rank else None
    depth = getattr(depth, "value", depth)
    if depth is None:
        raise ValueError(f"Expected inputs.shape[-1] to be known, saw shape: {shape}")
    return int(depth)


def linear(args: list[Tensor], kernel: Variable, bias: Variable | None) -> Tensor:
    """``concat(args, 1) @ kernel + bias``: the affine map every cell applies."""
    joined = args[0] if len(args) == 1 else a.concat(args, 1)
    out = m.matmul(joined, kernel)
    return nn_ops.bias_add(out, bias) if bias is not None else out
