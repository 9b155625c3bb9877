"""``tf.Assert`` and the ``tf.assert_*`` / ``tf.debugging.assert_*`` family, as TF-1.x graph mode
has them: a check that fails at run time raises InvalidArgumentError with TF's message (and
the run changes no variable); one TF can decide while building the graph (constant inputs,
static ranks, dtypes) raises then."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .. import errors
from ..primitives.debug import ASSERT
from ..ssa.graph import Operation, Tensor
from ..static import constant_value
from . import array_ops as a
from . import math_ops as m
from . import reduce_ops as r
from .control_flow import no_op
from .convert import convert_operands, convert_to_tensor, graph_of, is_tensor_like, record

__all__ = ["Assert", "assert_equal", "assert_none_equal", "assert_less", "assert_less_equal", "assert_greater",
           "assert_greater_equal", "assert_positive", "assert_negative", "assert_non_negative", "assert_non_positive",
           "assert_near", "assert_rank", "assert_rank_at_least", "assert_rank_in", "assert_type", "assert_integer",
           "assert_scalar", "is_numeric_tensor", "is_non_decreasing", "is_strictly_increasing"]


def Assert(condition: Any, data: Any, summarize: int | None = None, name: str | None = None) -> Operation:
    """An op that raises InvalidArgumentError ``assertion failed: [d0] [d1] ...`` when it runs and
    the scalar bool ``condition`` is false; each tensor of ``data`` shows its first ``summarize``
    (3) elements. Run it by fetching it or through ``tf.control_dependencies``.

    >>> # with tf.control_dependencies([tf.Assert(tf.reduce_all(x > 0), [x])]): y = tf.log(x)
    """
    items = list(data) if isinstance(data, (list, tuple)) else [data]
    graph = graph_of([condition, *items])
    with graph.as_default(), graph.name_scope(name or "Assert"):
        c = convert_to_tensor(condition)
        values = [convert_to_tensor(d) for d in items]
        limit = 3 if summarize is None else a.static_int(summarize, "summarize")
        return record(ASSERT, [c, *values], {"summarize": limit}, "Assert")


def _prefix(message: str | None) -> str:
    return f"{message}.  " if message else ""


def _static_text(item: Any) -> str:
    if is_tensor_like(item):
        value = constant_value(convert_to_tensor(item))
        return str(item) if value is None else str(value)
    return str(item)


def _binary(default: str, symbol: str, test: Callable, check: Callable) -> Any:
    def assert_binary(x: Any, y: Any, data: Any = None, summarize: int | None = None, message: str | None = None,
                      name: str | None = None) -> Operation:
        graph = graph_of([x, y])
        with graph.as_default(), graph.name_scope(name or default):
            x, y = convert_operands([x, y])
            condition = r.reduce_all(test(x, y))  # checks the operands' dtypes and shapes
            if data is None:
                data = [f"Condition x {symbol} y did not hold element-wise:", f"x ({x.name}) = ", x,
                        f"y ({y.name}) = ", y]
            data = list(data) if isinstance(data, (list, tuple)) else [data]
            if message is not None:
                data = [message, *data]
            known_x, known_y = constant_value(x), constant_value(y)
            if known_x is not None and known_y is not None and not np.all(check(known_x, known_y)):
                raise errors.InvalidArgumentError(None, None, "\n".join(_static_text(d) for d in data))
            return Assert(condition, data, summarize)
    assert_binary.__name__ = default
    assert_binary.__doc__ = (f"Assert that ``x {symbol} y`` holds for every element (broadcasting); see ``Assert``.\n\n"
                             f"    >>> # with tf.control_dependencies([tf.{default}(x, y)]): ...\n")
    return assert_binary


assert_equal = _binary("assert_equal", "==", m.equal, np.equal)
assert_none_equal = _binary("assert_none_equal", "!=", m.not_equal, np.not_equal)
assert_less = _binary("assert_less", "<", m.less, np.less)
assert_less_equal = _binary("assert_less_equal", "<=", m.less_equal, np.less_equal)
assert_greater = _binary("assert_greater", ">", m.greater, np.greater)
assert_greater_equal = _binary("assert_greater_equal", ">=", m.greater_equal, np.greater_equal)


def _sign(default: str, condition: str, check: Any, zero_first: bool) -> Any:
    def assert_sign(x: Any, data: Any = None, summarize: int | None = None, message: str | None = None,
                    name: str | None = None) -> Operation:
        graph = graph_of([x])
        with graph.as_default(), graph.name_scope(name or default):
            x = convert_to_tensor(x)
            if data is None:
                shown = f"x ({x.name}) = "
                # TF's assert_non_positive runs its two strings together (a missing comma): kept, as TF prints it
                joined = condition.endswith("<= 0 did not hold element-wise:")
                data = [_prefix(message), condition + shown, x] if joined else [_prefix(message), condition, shown, x]
            zero = a.zeros([], dtype=x.dtype)
            return check(zero, x, data=data, summarize=summarize) if zero_first else \
                check(x, zero, data=data, summarize=summarize)
    assert_sign.__name__ = default
    assert_sign.__doc__ = (f"Assert that every element of ``x`` satisfies ``{condition.split()[1:4]}``; see "
                           f"``Assert``.\n\n    >>> # tf.{default}(x)\n")
    return assert_sign


assert_positive = _sign("assert_positive", "Condition x > 0 did not hold element-wise:", assert_less, True)
assert_negative = _sign("assert_negative", "Condition x < 0 did not hold element-wise:", assert_less, False)
assert_non_negative = _sign("assert_non_negative", "Condition x >= 0 did not hold element-wise:", assert_less_equal,
                            True)
assert_non_positive = _sign("assert_non_positive", "Condition x <= 0 did not hold element-wise:", assert_less_equal,
                            False)


def assert_near(x: Any, y: Any, rtol: Any = None, atol: Any = None, data: Any = None, summarize: int | None = None,
                message: str | None = None, name: str | None = None) -> Operation:
    """Assert ``|x - y| <= atol + rtol * |y|`` elementwise (default tolerances: 10 float eps).

    >>> # tf.assert_near(computed, expected, rtol=1e-5)
    """
    graph = graph_of([x, y])
    with graph.as_default(), graph.name_scope(name or "assert_near"):
        x, y = convert_operands([x, y])
        eps = float(np.finfo(x.dtype.np).eps) if x.dtype.is_floating else 0.0
        rtol_t = convert_to_tensor(10 * eps if rtol is None else rtol, dtype=x.dtype, name="rtol")
        atol_t = convert_to_tensor(10 * eps if atol is None else atol, dtype=x.dtype, name="atol")
        if data is None:
            data = [_prefix(message), f"x and y not equal to tolerance rtol = {rtol_t}, atol = {atol_t}",
                    f"x ({x.name}) = ", x, f"y ({y.name}) = ", y]
        close = m.less_equal(m.abs(x - y), atol_t + rtol_t * m.abs(y))
        return Assert(r.reduce_all(close), data, summarize)


def _rank_check(default: str, what: str, holds: Callable[[int, list[int]], bool]) -> Any:
    def check(x: Any, ranks: list[int], data: Any, summarize: int | None, message: str | None,
              name: str | None) -> Operation:
        graph = graph_of([x])
        with graph.as_default(), graph.name_scope(name or default):
            x = convert_to_tensor(x)
            shown = ranks[0] if len(ranks) == 1 else tuple(ranks)
            if x.shape.rank is not None:
                if not holds(x.shape.rank, ranks):
                    raise ValueError(f"{_prefix(message)}Tensor {x.name} must have rank {what}{shown}.  Received rank "
                                     f"{x.shape.rank}, shape {x.shape}")
                return no_op(name="static_checks_determined_all_ok")
            rank = a.rank(x)
            if default == "assert_rank_at_least":
                condition = m.greater_equal(rank, ranks[0])
            else:
                condition = r.reduce_any(m.equal(rank, convert_to_tensor(ranks, dtype=_dt.int32)))
            if data is None:
                data = [_prefix(message), f"Tensor {x.name} must have rank{' ' + what.strip() if what else ''}",
                        *ranks, "Received shape: ", a.shape(x)]
            return Assert(condition, data, summarize)
    return check


_rank_is = _rank_check("assert_rank", "", lambda k, ranks: k == ranks[0])
_rank_at_least = _rank_check("assert_rank_at_least", "at least ", lambda k, ranks: k >= ranks[0])
_rank_in = _rank_check("assert_rank_in", "in ", lambda k, ranks: k in ranks)


def assert_rank(x: Any, rank: Any, data: Any = None, summarize: int | None = None, message: str | None = None,
                name: str | None = None) -> Operation:
    """Assert ``x`` has rank ``rank``: ValueError now when the rank is static, else at run time.

    >>> # tf.assert_rank(images, 4)
    """
    return _rank_is(x, [a.static_int(rank, "rank")], data, summarize, message, name)


def assert_rank_at_least(x: Any, rank: Any, data: Any = None, summarize: int | None = None,
                         message: str | None = None, name: str | None = None) -> Operation:
    """Assert ``x`` has rank ``rank`` or more (statically when known).

    >>> # tf.assert_rank_at_least(x, 2)
    """
    return _rank_at_least(x, [a.static_int(rank, "rank")], data, summarize, message, name)


def assert_rank_in(x: Any, ranks: Any, data: Any = None, summarize: int | None = None, message: str | None = None,
                   name: str | None = None) -> Operation:
    """Assert the rank of ``x`` is one of ``ranks`` (statically when known).

    >>> # tf.assert_rank_in(x, [1, 2])
    """
    if not isinstance(ranks, (list, tuple)):
        raise TypeError(f"ranks must be a list or tuple of ints, got {ranks!r}")
    return _rank_in(x, [a.static_int(k, "ranks") for k in ranks], data, summarize, message, name)


def assert_type(tensor: Any, tf_type: Any, message: str | None = None, name: str | None = None) -> Operation:
    """TypeError unless ``tensor`` has dtype ``tf_type`` (a graph-building check).

    >>> # tf.assert_type(labels, tf.int32)
    """
    t = convert_to_tensor(tensor)
    dtype = _dt.as_dtype(tf_type)
    if t.dtype is not dtype:
        raise TypeError(f"{_prefix(message)}{t.name} must be of type {dtype!r}; got {t.dtype!r}")
    with graph_of([t]).as_default():
        return no_op(name=name or "statically_determined_correct_type")


def assert_integer(x: Any, message: str | None = None, name: str | None = None) -> Operation:
    """TypeError unless ``x`` has an integer dtype (a graph-building check).

    >>> # tf.assert_integer(ids)
    """
    t = convert_to_tensor(x)
    if not t.dtype.is_integer:
        raise TypeError(f'{_prefix(message)}Expected "x" to be integer type.  Found: {t.name} of dtype {t.dtype}')
    with graph_of([t]).as_default():
        return no_op(name=name or "statically_determined_was_integer")


def assert_scalar(tensor: Any, name: str | None = None, message: str | None = None) -> Tensor:
    """``tensor``, after checking (while building) that its shape is ``[]``.

    >>> # step = tf.assert_scalar(step)
    """
    t = convert_to_tensor(tensor)
    if t.shape.rank is None:
        raise ValueError(f"{_prefix(message)}A scalar was expected for {t.name}, but its rank is unknown")
    if t.shape.rank != 0:
        raise ValueError(f"{_prefix(message)}Expected scalar shape for {t.name}, saw shape: {t.shape}.")
    return t


def is_numeric_tensor(tensor: Any) -> bool:
    """Whether ``tensor`` is a Tensor of a number dtype (not bool or string).

    >>> # tf.debugging.is_numeric_tensor(tf.constant([1.0]))  ->  True
    """
    return isinstance(tensor, Tensor) and (tensor.dtype.is_floating or tensor.dtype.is_integer
                                           or tensor.dtype.is_complex)


def _monotonic(default: str, test: Callable, what: str) -> Any:
    def check(x: Any, name: str | None = None) -> Tensor:
        graph = graph_of([x])
        with graph.as_default(), graph.name_scope(name or default):
            flat = a.reshape(convert_to_tensor(x), [-1])
            if not is_numeric_tensor(flat):
                raise TypeError(f"Expected x to be numeric, got {flat.dtype.name} ({flat.name})")
            return r.reduce_all(test(flat[:-1], flat[1:]))
    check.__name__ = default
    check.__doc__ = (f"A scalar bool: whether the elements of ``x`` (in row-major order) are {what} (True for "
                     f"fewer than two).\n\n    >>> # tf.debugging.{default}([1, 2, 2])\n")
    return check


is_non_decreasing = _monotonic("is_non_decreasing", m.less_equal, "non-decreasing")
is_strictly_increasing = _monotonic("is_strictly_increasing", m.less, "strictly increasing")
