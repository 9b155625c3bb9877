"""Checks and prints that run with the program: ``Assert`` and ``PrintV2`` (no outputs),
``Print`` and ``CheckNumerics`` (their input, passed through). They are effects: kept though
nothing reads them, never folded or merged, each on its own line."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .common import like_input
from .core import define


def _assert_infer(inputs: Sequence[Any], attrs: dict) -> list:
    condition = inputs[0]
    if not condition.dtype.is_bool:
        raise TypeError(f"Value passed to parameter 'condition' has DataType {condition.dtype.name} not allowed for "
                        f"Assert (expects bool)")
    return []


def _check_numerics_infer(inputs: Sequence[Any], attrs: dict) -> list:
    if not inputs[0].dtype.is_floating:
        raise TypeError(f"Value passed to parameter 'tensor' has DataType {inputs[0].dtype.name} not allowed for "
                        f"CheckNumerics (expects a float tensor)")
    return like_input(inputs, attrs)


ASSERT = define("Assert", _assert_infer, differentiable=False, effect=True, fusable=False)
PRINT_V2 = define("PrintV2", lambda inputs, attrs: [], differentiable=False, effect=True, fusable=False)
PRINT = define("Print", like_input, effect=True, fusable=False)
CHECK_NUMERICS = define("CheckNumerics", _check_numerics_infer, effect=True, fusable=False)
