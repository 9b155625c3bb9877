"""NumPy ufuncs and Python operators on traced values.

NumPy itself resolves the loop dtypes (``ufunc.resolve_dtypes``, weak Python scalars
included); operands are cast to them and one rule per ufunc records the graph ops.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..ops import array_ops as a
from ..ops import math_ops as m
from ..ops.convert import constant
from ..primitives import ALL
from ..static import constant_value
from .convert import as_tensor, cast, is_weak, promotion_key
from .indexing import assign_all
from .registry import UFUNCS, ufunc_rule, unsupported, user_line
from .traced import Traced

__all__ = ["call"]


def call(ufunc: np.ufunc, inputs: tuple, kwargs: dict, operator: bool = False) -> Traced:
    """Record ``ufunc(*inputs)``; results of Python operators on weak values stay weak."""
    rule = UFUNCS.get(ufunc)
    if rule is None or ufunc.nout != 1:
        raise unsupported(ufunc)
    dtype = _check_kwargs(ufunc, kwargs)
    keys = tuple(promotion_key(v) for v in inputs)
    options = {} if dtype is None else {"signature": (None,) * ufunc.nin + (np.dtype(dtype),)}
    try:
        loop = ufunc.resolve_dtypes(keys + (None,), **options)  # type: ignore[arg-type]  # **options: signature= only
    except TypeError as e:
        raise TypeError(f"numpy.{ufunc.__name__} at {user_line()}: {e}") from None
    tensors = [as_tensor(v, dt) for v, dt in zip(inputs, loop, strict=False)]  # loop ends with the output's
    result = cast(rule(*tensors), loop[-1])
    return Traced(result, weak=operator and all(is_weak(v) for v in inputs))


def _check_kwargs(ufunc: np.ufunc, kwargs: dict) -> Any:
    out = kwargs.pop("out", None)
    if out is not None and out != (None,):
        raise unsupported(f"numpy.{ufunc.__name__}(..., out=...)", "Assign the result instead.")
    where = kwargs.pop("where", True)
    if where is not True:
        raise unsupported(f"numpy.{ufunc.__name__}(..., where=...)", "Use np.where on the result instead.")
    dtype = kwargs.pop("dtype", None)
    for ignored in ("casting", "order", "subok"):
        kwargs.pop(ignored, None)
    if kwargs:
        raise unsupported(f"numpy.{ufunc.__name__}(..., {', '.join(kwargs)}=...)")
    return dtype


# -- rules: tensors arrive in the loop dtypes ---------------------------------------------------------

def _const_like(x: Any, value: float) -> Any:
    return constant(value, x.dtype)


def _is_float(x: Any) -> bool:
    return x.dtype.is_floating or x.dtype.is_complex


def _bool(x: Any) -> Any:
    return x if x.dtype.is_bool else m.not_equal(x, _const_like(x, 0))


# ufuncs that are one primitive: named by its declaration (``numpy=(np.tanh,)``)
for _prim in ALL:
    for _u in _prim.numpy:
        UFUNCS[_u] = functools.partial(m.elementwise, _prim)


@ufunc_rule(np.positive)
def _identity(x: Any) -> Any:
    return x


@ufunc_rule(np.logical_not)
def _logical_not(x: Any) -> Any:
    return m.logical_not(_bool(x))


def _on_truth(rule: Callable) -> Callable:
    """logical_and/or/xor of numbers: of their truth values, as NumPy computes them."""
    return lambda x, y: rule(_bool(x), _bool(y))


UFUNCS[np.logical_and] = _on_truth(m.logical_and)
UFUNCS[np.logical_or] = _on_truth(m.logical_or)
UFUNCS[np.logical_xor] = _on_truth(m.logical_xor)


def _integers_unchanged(rule: Callable) -> Callable:
    return lambda x: rule(x) if _is_float(x) else x


UFUNCS[np.floor] = _integers_unchanged(m.floor)
UFUNCS[np.ceil] = _integers_unchanged(m.ceil)
UFUNCS[np.trunc] = _integers_unchanged(lambda x: a.where(x < 0.0, m.ceil(x), m.floor(x)))


def _float_test(rule: Callable, for_integers: Callable) -> Callable:
    """isnan/isinf/isfinite: integers are never nan or inf."""
    return lambda x: rule(x) if _is_float(x) else for_integers(x, x)


UFUNCS[np.isnan] = _float_test(m.is_nan, m.not_equal)
UFUNCS[np.isinf] = _float_test(m.is_inf, m.not_equal)
UFUNCS[np.isfinite] = _float_test(m.is_finite, m.equal)


def _bool_only(name: str, rule: Callable) -> Callable:
    def bitwise(*xs: Any) -> Any:
        if not all(x.dtype.is_bool for x in xs):
            raise unsupported(f"numpy.{name} on integers", "Bitwise integer operations are not differentiable.")
        return rule(*xs)
    return bitwise


UFUNCS[np.bitwise_and] = _bool_only("bitwise_and", m.logical_and)
UFUNCS[np.bitwise_or] = _bool_only("bitwise_or", m.logical_or)
UFUNCS[np.bitwise_xor] = _bool_only("bitwise_xor", m.logical_xor)
UFUNCS[np.invert] = _bool_only("invert", m.logical_not)


@ufunc_rule(np.exp2)
def _exp2(x: Any) -> Any:
    return m.pow(_const_like(x, 2.0), x)


def _log_base(base: float) -> Callable:
    return lambda x: m.realdiv(m.log(x), _const_like(x, math.log(base)))


UFUNCS[np.log2] = _log_base(2.0)
UFUNCS[np.log10] = _log_base(10.0)


def _scaled(factor: float) -> Callable:
    return lambda x: m.multiply(x, _const_like(x, factor))


UFUNCS[np.deg2rad] = UFUNCS[np.radians] = _scaled(math.pi / 180)
UFUNCS[np.rad2deg] = UFUNCS[np.degrees] = _scaled(180 / math.pi)


@ufunc_rule(np.arctanh)
def _arctanh(x: Any) -> Any:
    """``(log1p(x) - log1p(-x)) / 2``: accurate on (-1, 1), infinite at 1 with an infinite gradient."""
    return 0.5 * (m.log1p(x) - m.log1p(-x))


def _logaddexp(exp: Callable, log: Callable) -> Callable:
    """``top + log(exp(x - top) + exp(y - top))`` with ``top`` held constant: exact gradients, no overflow."""
    def rule(x: Any, y: Any) -> Any:
        top = a.stop_gradient(m.maximum(x, y))
        return top + log(exp(x - top) + exp(y - top))
    return rule


UFUNCS[np.logaddexp] = _logaddexp(m.exp, m.log)
UFUNCS[np.logaddexp2] = _logaddexp(_exp2, _log_base(2.0))


@ufunc_rule(np.power, np.float_power)
def _power(x: Any, y: Any) -> Any:
    """``x ** y``; at ``x == 0, y == 0`` (value 1) the base is taken as 1 so both gradients are 0,
    not ``0 * inf`` (autograd's values there). A constant exponent without zeros is plain ``x ** y``."""
    known = constant_value(y)
    if known is not None and np.all(np.asarray(known) != 0) or x.dtype.is_integer:
        return m.pow(x, y)
    zero_zero = m.logical_and(m.equal(x, _const_like(x, 0)), m.equal(y, _const_like(y, 0)))
    return m.pow(a.where_v2(zero_zero, _const_like(x, 1), x), y)


@ufunc_rule(np.fmod)
def _fmod(x: Any, y: Any) -> Any:
    """The remainder with the sign of ``x``: ``x % |y|`` mirrored for negative ``x`` (NumPy's exact values);
    a remainder equal to ``x`` is ``x`` itself, so -0.0 stays -0.0."""
    size = m.abs(y)
    r = a.where_v2(x < _const_like(x, 0), -m.floormod(-x, size), m.floormod(x, size))
    return a.where_v2(m.equal(r, x), x, r)


@ufunc_rule(np.heaviside)
def _heaviside(x: Any, y: Any) -> Any:
    """0 below 0, 1 above, ``y`` at 0 (its gradient reaches ``y`` there), NaN where ``x`` is NaN."""
    x = a.stop_gradient(x)  # a step: no gradient reaches x
    step = a.where_v2(x > _const_like(x, 0), _const_like(x, 1), a.where_v2(x < _const_like(x, 0), _const_like(x, 0), x))
    return a.where_v2(m.equal(x, _const_like(x, 0)), y, step)


# -- Python operators ------------------------------------------------------------------------------

_OPERANDS = (Traced, np.ndarray, np.generic, bool, int, float, complex, list, tuple)
_OPERATORS = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "truediv": np.true_divide,
              "floordiv": np.floor_divide, "mod": np.remainder, "pow": np.power, "matmul": np.matmul,
              "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}
_COMPARISONS = {"lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
                "eq": np.equal, "ne": np.not_equal}


def _binary(u: np.ufunc, reverse: bool = False) -> Callable:
    def operator(self: Traced, other: Any) -> Any:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return call(u, (other, self) if reverse else (self, other), {}, operator=True)
    return operator


def _inplace(u: np.ufunc) -> Callable:
    def operator(self: Traced, other: Any) -> Any:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        assign_all(self, call(u, (self, other), {}, operator=True))
        return self
    return operator


def _unary(u: np.ufunc) -> Callable:
    return lambda self: call(u, (self,), {}, operator=True)


for _name, _u in _OPERATORS.items():
    setattr(Traced, f"__{_name}__", _binary(_u))
    setattr(Traced, f"__r{_name}__", _binary(_u, reverse=True))
    setattr(Traced, f"__i{_name}__", _inplace(_u))
for _name, _u in _COMPARISONS.items():
    setattr(Traced, f"__{_name}__", _binary(_u))
for _name, _u in {"neg": np.negative, "pos": np.positive, "abs": np.absolute, "invert": np.invert}.items():
    setattr(Traced, f"__{_name}__", _unary(_u))
