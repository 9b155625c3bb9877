"""What converted control flow calls (``flow_source``): Python's own semantics on Python values;
on traced values, ``tf.cond`` and ``tf.while_loop`` with the statement's functions traced into
their blocks, so the compiled module has real ``if``/``while`` blocks.

A statement's *state* (the variables it assigns) is passed in and returned. Array leaves of the
state become the branch results or loop variables; other leaves (None, strings, functions)
must come out as they went in. Each branch or body runs once in a scratch block first, to learn
the dtypes its results take (a Python ``0.0`` that becomes a float32 array is carried as float32).
"""
from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..ops import math_ops as m
from ..ops.cond_ops import cond
from ..ops.loop_ops import while_loop
from ..ops.reduce_ops import reduce_all
from ..ssa.graph import Tensor
from ..ssa.regions import Region
from .convert import as_tensor, is_weak, result_type
from .traced import Traced, TracedValueError, current_trace

__all__ = ["UNDEFINED", "load", "if_", "if_return", "while_", "for_", "range_", "and_", "or_", "not_"]


class _Undefined:
    """The value of a variable a converted statement assigns but that had none before it."""

    def __repr__(self) -> str:
        return "<undefined>"


UNDEFINED = _Undefined()
_ARRAY = (Traced, np.ndarray, np.generic, bool, int, float, complex)


def load(get: Callable[[], Any]) -> Any:
    try:
        return get()
    except NameError:  # UnboundLocalError too: the variable is not assigned yet
        return UNDEFINED


# -- if -------------------------------------------------------------------------------------------------

def if_(test: Any, then: Callable, orelse: Callable, state: tuple, names: tuple, line: int) -> tuple:
    if not isinstance(test, Traced):
        return then(*state) if test else orelse(*state)
    return _traced_if(test, lambda: then(*state), lambda: orelse(*state), names, line, statement=True)


def if_return(test: Any, then: Callable, orelse: Callable, state: tuple, names: tuple, line: int) -> Any:
    if not isinstance(test, Traced):
        return then(*state) if test else orelse(*state)
    return _traced_if(test, lambda: then(*state), lambda: orelse(*state), names, line, statement=False)


def _traced_if(test: Traced, then: Callable, orelse: Callable, names: tuple, line: int, statement: bool) -> Any:
    pred = _predicate(test, "if", line)
    trial = [_dry_run(then), _dry_run(orelse)]
    if statement:
        for name, x, y in zip(names, trial[0], trial[1], strict=True):
            if (x is UNDEFINED) != (y is UNDEFINED):
                raise TracedValueError(
                    f"`{name}` is assigned in only one branch of the `if` at line {line}, whose condition depends on "
                    f"traced values, and has no value before it: assign it before the `if` or in both branches")
    leaves = [_leaves(v) for v in trial]
    if len(leaves[0][0]) != len(leaves[1][0]) or len(leaves[0][1]) != len(leaves[1][1]):
        raise TracedValueError(f"the branches of the `if` at line {line} (its condition depends on traced values) "
                               f"give results of different structures: {trial[0]!r} and {trial[1]!r}")
    _same_statics(leaves[0][1], leaves[1][1], line)
    dtypes = [_joint_dtype(a, b) for a, b in zip(leaves[0][0], leaves[1][0], strict=True)]
    weak = [False] * len(dtypes)  # an If's outputs are arrays, whatever the branches returned

    def branch(fn: Callable) -> Callable:
        return lambda: [as_tensor(v, d) for v, d in zip(_leaves(fn())[0], dtypes, strict=True)]

    outs = cond(pred, branch(then), branch(orelse), name="cond") if dtypes else []
    traced = [Traced(t, weak=w) for t, w in zip(outs, weak, strict=True)]
    return _rebuild(trial[0], iter(traced))


def _same_statics(a: list, b: list, line: int) -> None:
    for x, y in zip(a, b, strict=True):
        if x is not y and not (isinstance(x, (str, bytes, type(None))) and x == y):
            raise TracedValueError(
                f"the branches of the `if` at line {line} (its condition depends on traced values) leave a Python "
                f"value ({x!r} / {y!r}) different: only arrays can differ between the branches")


def and_(first: Any, *rest: Callable[[], Any]) -> Any:
    """``a and b``: elementwise logical and once a traced value is involved (every operand then runs)."""
    value = first
    for thunk in rest:
        if isinstance(value, Traced):
            value = np.logical_and(value, thunk())
        elif not value:
            return value
        else:
            value = thunk()
    return value


def or_(first: Any, *rest: Callable[[], Any]) -> Any:
    """``a or b``: elementwise logical or once a traced value is involved."""
    value = first
    for thunk in rest:
        if isinstance(value, Traced):
            value = np.logical_or(value, thunk())
        elif value:
            return value
        else:
            value = thunk()
    return value


def not_(value: Any) -> Any:
    return np.logical_not(value) if isinstance(value, Traced) else not value


# -- loops ----------------------------------------------------------------------------------------------

def while_(test: Callable, body: Callable, state: tuple, names: tuple, line: int) -> tuple:
    state = tuple(state)
    while True:
        keep_going = test(*state)
        if isinstance(keep_going, Traced):
            return _traced_loop(test, body, state, names, line, "while")
        if not keep_going:
            return state
        state = tuple(body(*state))


class _TracedRange:
    """``range(start, stop, step)`` with a traced bound (a Python int step)."""

    def __init__(self, start: Any, stop: Any, step: Any) -> None:
        if isinstance(step, Traced) or step == 0:
            raise TracedValueError("the step of a `range` with traced bounds must be a nonzero Python int")
        self.start, self.stop, self.step = start, stop, step


def range_(*args: Any) -> Any:
    if not any(isinstance(a, Traced) for a in args):
        return range(*args)
    start, stop, step = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(args) > 2 else 1)
    return _TracedRange(start, stop, step)


def for_(items: Any, body: Callable, state: tuple, names: tuple, line: int) -> tuple:
    if isinstance(items, _TracedRange):
        start, stop, step = items.start, items.stop, items.step
        element = lambda i: i  # noqa: E731
    elif isinstance(items, Traced):
        if not items.shape:
            raise TracedValueError(f"the `for` loop at line {line} iterates over a 0-d array")
        start, stop, step = 0, items.shape[0], 1
        element = lambda i: items[i]  # noqa: E731
    else:
        state = tuple(state)
        for item in items:
            state = tuple(body(item, *state))
        return state
    counter = Traced(as_tensor(start, np.int32 if not isinstance(start, Traced) else None))

    def test(i: Traced, *rest: Any) -> Any:
        return i < stop if step > 0 else i > stop

    def step_body(i: Traced, *rest: Any) -> tuple:
        return (i + step, *body(element(i), *rest))

    return _traced_loop(test, step_body, (counter, *state), ("the loop index", *names), line, "for")[1:]


def _traced_loop(test: Callable, body: Callable, state: tuple, names: tuple, line: int, kind: str) -> tuple:
    """``tf.while_loop`` over the array leaves of the defined state variables (the others are
    the body's own temporaries: undefined at each iteration's start and after the loop)."""
    carried = [k for k, v in enumerate(state) if v is not UNDEFINED]
    start = [state[k] for k in carried]
    start_leaves, statics = _leaves(tuple(start))
    trial = _dry_run(lambda: body(*state))
    trial_leaves, trial_statics = _leaves(tuple(trial[k] for k in carried))
    for a, b in zip(statics, trial_statics, strict=True):
        if a is not b and not (isinstance(a, (str, bytes, type(None))) and a == b):
            raise TracedValueError(f"the `{kind}` loop at line {line} depends on traced values and changes the Python "
                                   f"value {a!r} to {b!r}: only arrays can change from one iteration to the next")
    dtypes = [_joint_dtype(a, b) if is_weak(a) else _dtype(a) for a, b in zip(start_leaves, trial_leaves, strict=True)]
    weak = [False] * len(dtypes)  # a loop variable is an array now, even if it started as a Python number

    def full_state(tensors: Sequence[Tensor]) -> list:
        values = _rebuild(tuple(start), iter([Traced(t, weak=w) for t, w in zip(tensors, weak, strict=True)]))
        full = [UNDEFINED] * len(state)
        for k, v in zip(carried, values, strict=True):
            full[k] = v
        return full

    def loop_test(*tensors: Tensor) -> Tensor:
        return _predicate(test(*full_state(tensors)), kind, line)

    def loop_body(*tensors: Tensor) -> list:
        nxt = body(*full_state(tensors))
        leaves, _ = _leaves(tuple(nxt[k] for k in carried))
        return [as_tensor(v, d) for v, d in zip(leaves, dtypes, strict=True)]

    labels = _labels([names[k] if k < len(names) else "loop_var" for k in carried], start)
    signature = inspect.Signature([inspect.Parameter(n, inspect.Parameter.POSITIONAL_ONLY) for n in labels])
    for fn in (loop_test, loop_body):  # the loop variables are named as the user's variables
        named: Any = fn
        named.__signature__ = signature
    inits = [as_tensor(v, d) for v, d in zip(start_leaves, dtypes, strict=True)]
    outs = while_loop(loop_test, loop_body, inits, return_same_structure=True, name=kind) if inits else []
    return tuple(full_state(outs))


# -- shared -----------------------------------------------------------------------------------------------

def _predicate(test: Any, kind: str, line: int) -> Tensor:
    """A statement's condition as a scalar bool tensor (an array's truth value, as Python takes it)."""
    t = as_tensor(test)
    if t.shape.num_elements() != 1:
        raise TracedValueError(f"the condition of the `{kind}` at line {line} is an array of shape {t.shape}: its "
                               "truth value is ambiguous; reduce it with np.all or np.any")
    if t.dtype.name != "bool":
        t = m.not_equal(t, m.cast(0, t.dtype))
    return reduce_all(t) if t.shape.rank else t


def _dry_run(fn: Callable) -> Any:
    """``fn()`` recorded into a block no op runs: to see what it returns."""
    graph = current_trace().graph
    with graph._in_region(Region("scratch", graph._current_region())):
        return fn()


def _leaves(value: Any) -> tuple[list, list]:
    """(array leaves, other leaves) of a state value, in a fixed order."""
    arrays: list = []
    others: list = []

    def walk(v: Any) -> None:
        if isinstance(v, (tuple, list)):
            for item in v:
                walk(item)
        elif isinstance(v, dict):
            for key in sorted(v):
                walk(v[key])
        elif isinstance(v, _ARRAY):
            arrays.append(v)
        else:
            others.append(v)

    walk(value)
    return arrays, others


def _rebuild(value: Any, arrays: Any) -> Any:
    if isinstance(value, (tuple, list)):
        items = [_rebuild(v, arrays) for v in value]
        return type(value)(items) if not hasattr(value, "_fields") else type(value)(*items)
    if isinstance(value, dict):
        return {key: _rebuild(value[key], arrays) for key in sorted(value)}
    if isinstance(value, _ARRAY):
        return next(arrays)
    return value


def _labels(names: list[str], values: list) -> list[str]:
    """One name per array leaf: the variable's name (``name_0``, ``name_1``... for a structure)."""
    out = []
    for name, value in zip(names, values, strict=True):
        n = len(_leaves(value)[0])
        out += [name] if n == 1 else [f"{name}_{i}" for i in range(n)]
    return [n if n.isidentifier() else "loop_var" for n in out]


def _dtype(v: Any) -> np.dtype:
    return result_type(v)


def _joint_dtype(a: Any, b: Any) -> np.dtype:
    return result_type(a, b)
