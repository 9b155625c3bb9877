"""``tf.cond`` and ``tf.case``: an If op whose branches are regions, run only when taken.

As in TF 2.x's ``tf.compat.v1.cond`` (graph mode): each branch function runs once to record its
ops; at run time only the taken branch's ops run, including its assignments.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import dtypes as _dt
from ..primitives.control import IF
from ..ssa.graph import get_default_graph
from ..ssa.regions import Region
from . import array_ops as a
from . import math_ops as m
from . import nest
from . import reduce_ops as r
from .assert_ops import Assert
from .blocks import as_result, control_op, trace
from .convert import convert_to_tensor

__all__ = ["cond", "case"]


def cond(pred: Any, true_fn: Callable | None = None, false_fn: Callable | None = None, strict: bool = False,
         name: str | None = None, fn1: Callable | None = None, fn2: Callable | None = None) -> Any:
    """``true_fn()`` if ``pred`` else ``false_fn()``, as one op; both return the same structure
    (``strict`` is accepted: as in TF 2.x, a one-element list stays a list).

    >>> # y = tf.cond(x > 0, lambda: tf.sqrt(x), lambda: tf.zeros_like(x))
    """
    true_fn = _one_of(true_fn, fn1, "true_fn", "fn1")
    false_fn = _one_of(false_fn, fn2, "false_fn", "fn2")
    if isinstance(pred, bool):
        raise TypeError("pred must not be a Python bool")
    if not callable(true_fn):
        raise TypeError("true_fn must be callable.")
    if not callable(false_fn):
        raise TypeError("false_fn must be callable.")
    pred = convert_to_tensor(pred)
    if pred.dtype is not _dt.bool:
        raise TypeError(f"pred must be a bool tensor, got {pred.dtype.name} ({pred.name})")
    if pred.shape.rank not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {pred.shape.rank} for pred {pred.name} of tf.cond")
    graph = get_default_graph()
    outer = graph._current_region()
    with graph.name_scope(name or "cond") as scope:
        regions = [Region("then", outer), Region("else", outer)]
        returned = [trace(graph, region, fn, (), which) for region, fn, which in
                    zip(regions, (true_fn, false_fn), ("true_fn", "false_fn"), strict=True)]
        _same_structure(returned[0], returned[1])
        for region, value, which in zip(regions, returned, ("true_fn", "false_fn"), strict=True):
            with graph._in_region(region):
                region.results = [as_result(v, which) for v in nest.flatten(value)]
        for a, b in zip(regions[0].results, regions[1].results, strict=True):
            if a.dtype is not b.dtype:
                raise TypeError(f"{_MISMATCH}\n\ntrue_fn output: {a}\nfalse_fn output: {b}\n\nError details:\n"
                                f"{a} and {b} have different types")
        op = control_op(graph, IF, [pred], regions, {}, scope)
    return nest.pack_sequence_as(returned[0], list(op.outputs))


def case(pred_fn_pairs: Any, default: Callable | None = None, exclusive: bool = False, strict: bool = False,
         name: str = "case") -> Any:
    """The function of the first true predicate in ``pred_fn_pairs`` (else ``default``), as nested
    conds; with ``exclusive``, a run in which more than one predicate is true fails."""
    if not isinstance(pred_fn_pairs, (list, tuple, dict)):
        raise TypeError(f"pred_fn_pairs must be a list or tuple of (pred, fn) pairs, got {pred_fn_pairs!r}")
    if default is not None and not callable(default):
        raise TypeError(f"default must be callable, got {default!r}")
    pairs = list(pred_fn_pairs.items()) if isinstance(pred_fn_pairs, dict) else list(pred_fn_pairs)
    for item in pairs:
        if not isinstance(item, tuple) or len(item) != 2:
            raise TypeError(f"Each entry in pred_fn_pairs must be a 2-tuple, got {item!r}")
        if not callable(item[1]):
            raise TypeError(f"fn for pred {item[0]!r} must be callable.")
    if not pairs and default is None:
        raise ValueError("pred_fn_pairs must not be empty when default is None")
    if default is None:
        *pairs, (_, default) = pairs
    graph = get_default_graph()
    with graph.name_scope(name):
        preds = [convert_to_tensor(p) for p, _ in pairs]
        for p in preds:
            if p.dtype is not _dt.bool:
                raise TypeError(f"pred must be a bool tensor, got {p.dtype.name} ({p.name})")
        chained = list(zip(preds, [fn for _, fn in pairs], strict=True))
        if not exclusive or len(preds) < 2:
            return _chain(chained, default, strict)
        with graph.control_dependencies([_at_most_one_true(preds)]):
            return _chain(chained, default, strict)


def _at_most_one_true(preds: list) -> Any:
    """The Assert that fails a run in which more than one of ``preds`` is true (TF's message)."""
    stacked = a.stack(preds, name="preds_c")
    count = r.reduce_sum(m.cast(stacked, _dt.int32), name="num_true_conds")
    names = ", ".join(p.name for p in preds)
    return Assert(m.less_equal(count, 1), [f"Input error: exclusive=True: more than 1 conditions ({names}) "
                                           "evaluated as True:", stacked], summarize=len(preds))


def _chain(pairs: list, default: Callable, strict: bool) -> Any:
    if not pairs:
        return default()
    (pred, fn), rest = pairs[0], pairs[1:]
    return cond(pred, fn, lambda: _chain(rest, default, strict), strict=strict)


def _one_of(value: Any, old: Any, new_name: str, old_name: str) -> Any:
    if old is not None:
        if value is not None:
            raise TypeError(f"cond(): {new_name} and {old_name} may not be set simultaneously.")
        return old
    return value


_MISMATCH = ("true_fn and false_fn arguments to tf.cond must have the same number, type, and overall structure "
             "of return values.")


def _same_structure(a: Any, b: Any) -> None:
    try:
        nest.assert_same_structure(a, b)
    except ValueError as e:
        raise TypeError(f"{_MISMATCH}\n\ntrue_fn output: {a}\nfalse_fn output: {b}\n\nError details:\n{e}") from None
