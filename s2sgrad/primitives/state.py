"""Sources and state: constants, placeholders, variables, assignments, identity, random numbers.

Const, Placeholder and VariableV2 have no emitter: the code generator makes them module
constants and function parameters. Assignments are committed by the Session after a run.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..shapes import TensorShape
from ..static import constant_value
from .common import like_input, unknown_dims
from .core import define, same_dtype


def _attr_spec(inputs: Sequence[Any], attrs: dict) -> list:
    return [(attrs["dtype"], TensorShape(attrs["shape"]))]


_CONST_SHAPES: dict[tuple, TensorShape] = {}  # a Const's shape by its value's sizes (shapes are immutable)


def _const_spec(inputs: Sequence[Any], attrs: dict) -> list:
    """``_attr_spec`` for a Const, whose ``shape`` is its value's: one TensorShape per distinct shape."""
    sizes = attrs["shape"]
    shape = _CONST_SHAPES.get(sizes)
    if shape is None:
        shape = TensorShape(sizes)
        if len(_CONST_SHAPES) < 1024:
            _CONST_SHAPES[sizes] = shape
    return [(attrs["dtype"], shape)]


def _with_default(inputs: Sequence[Any], attrs: dict) -> list:
    shape = TensorShape(attrs["shape"])
    if not shape.is_compatible_with(inputs[0].shape):
        raise ValueError(f"default value of shape {inputs[0].shape} is incompatible with shape {shape}")
    return [(inputs[0].dtype, shape)]


def _assign_spec(inputs: Sequence[Any], attrs: dict) -> list:
    var, value = inputs
    same_dtype([var, value], "variable and assigned value")
    if attrs.get("validate_shape", True):
        if not var.shape.is_compatible_with(value.shape):
            raise ValueError(f"Shapes {var.shape} and {value.shape} are incompatible")
        return [(var.dtype, var.shape.merge_with(value.shape))]
    return [(var.dtype, value.shape)]


def _update_spec(inputs: Sequence[Any], attrs: dict) -> list:
    var, delta = inputs
    same_dtype([var, delta], "variable and update")
    if not var.shape.is_compatible_with(delta.shape):
        raise ValueError(f"Shapes {var.shape} and {delta.shape} are incompatible")
    return [(var.dtype, var.shape)]


def _no_outputs(inputs: Sequence[Any], attrs: dict) -> list:
    return []


CONST = define("Const", _const_spec, differentiable=False, known_value=lambda op: op.attrs["value"],
               printed_attrs=("value",))
PLACEHOLDER = define("Placeholder", _attr_spec, differentiable=False)
PLACEHOLDER_WITH_DEFAULT = define("PlaceholderWithDefault", _with_default)
VARIABLE_V2 = define("VariableV2", _attr_spec, differentiable=False, default_name="Variable")
ASSIGN = define("Assign", _assign_spec, differentiable=False, ref_inputs=(0,), assigns=True)
ASSIGN_ADD = define("AssignAdd", _update_spec, expr="x + y", differentiable=False, assigns=True, ufunc=True)
ASSIGN_SUB = define("AssignSub", _update_spec, expr="x - y", differentiable=False, assigns=True, ufunc=True)
NO_OP = define("NoOp", _no_outputs, differentiable=False)
IDENTITY = define("Identity", like_input, view="input", identity=True)
STOP_GRADIENT = define("StopGradient", like_input, differentiable=False,
                       view="input", identity=True)


def _like_inputs(inputs: Sequence[Any], attrs: dict) -> list:
    return [(t.dtype, t.shape) for t in inputs]


# IdentityN carries tf.custom_gradient's overridden gradient; its outputs are its inputs, so the
# code generator reuses the input values and the op costs nothing at run time.
IDENTITY_N = define("IdentityN", _like_inputs, view="input")


# -- random numbers: each op draws from its own generator, seeded per Session ----------------------

def _shape_arg(inputs: Sequence[Any], attrs: dict) -> list:
    shape = inputs[0]
    if not shape.dtype.is_integer:
        raise TypeError(f"shape must be an integer tensor, got {shape.dtype.name}")
    value = constant_value(shape)
    if value is not None:
        dims = [int(d) for d in value.reshape(-1)]
        if any(d < 0 for d in dims):
            raise ValueError(f"shape must not have negative dimensions, got {dims}")
        return [(attrs["dtype"], TensorShape(dims))]
    return [(attrs["dtype"], unknown_dims(shape))]


RANDOM_STANDARD_NORMAL = define("RandomStandardNormal", _shape_arg,
                                differentiable=False, pure=False)
RANDOM_UNIFORM = define("RandomUniform", _shape_arg, differentiable=False, pure=False)
TRUNCATED_NORMAL = define("TruncatedNormal", _shape_arg, differentiable=False, pure=False)
RANDOM_UNIFORM_INT = define("RandomUniformInt", _shape_arg, differentiable=False, pure=False)
