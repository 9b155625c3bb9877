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
from .convert import as_tensor, is_weak, result_type
from .traced import Traced, TracedValueError

__all__ = ["load", "if_", "if_return", "while_", "for_", "range_", "and_", "or_", "not_"]


class _Undefined:
    """The value of a variable a converted statement assigns but that has none yet: any use of it
    raises TracedValueError saying why."""

    __slots__ = ("reason",)

    def __init__(self, reason: str = "") -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return "<undefined>"

    def _fail(self, *args: Any, **kwargs: Any) -> Any:
        raise TracedValueError(self.reason or "a variable was read before it was assigned")


for _method in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__",
                "__pow__", "__rpow__", "__matmul__", "__rmatmul__", "__neg__", "__lt__", "__le__", "__gt__", "__ge__",
                "__bool__", "__getitem__", "__len__", "__iter__", "__array__", "__array_ufunc__",
                "__array_function__", "__float__", "__int__", "__index__"):
    setattr(_Undefined, _method, _Undefined._fail)

_ARRAY = (Traced, np.ndarray, np.generic, bool, int, float, complex)


def load(get: Callable[[], Any]) -> Any:
    try:
        return get()
    except NameError:  # UnboundLocalError too: the variable is not assigned yet
        return _Undefined()


# -- if -------------------------------------------------------------------------------------------------

def if_(test: Any, then: Callable, orelse: Callable, state: tuple, names: tuple, line: int) -> tuple:
    if not isinstance(test, Traced):
        return then(*state) if test else orelse(*state)
    return _traced_if(test, lambda: then(*_own(state)), lambda: orelse(*_own(state)), names, line, statement=True)


def if_return(test: Any, then: Callable, orelse: Callable, state: tuple, names: tuple, line: int) -> Any:
    if not isinstance(test, Traced):
        return then(*state) if test else orelse(*state)
    return _traced_if(test, lambda: then(*_own(state)), lambda: orelse(*_own(state)), names, line, statement=False)


def _own(state: tuple) -> tuple:
    """Each traced branch its own copies of the arrays (both are recorded; ``out[i] = v`` in one must
    not change what the other sees)."""
    return tuple(v.copy() if isinstance(v, Traced) else v for v in state)


def _traced_if(test: Traced, then: Callable, orelse: Callable, names: tuple, line: int, statement: bool) -> Any:
    """``tf.cond`` of the two branches. The first recording gives each result its own dtype; when the
    branches disagree (a Python 0.0 against a float32 array) or a variable has a value in one branch
    only, the cond is recorded again with the joint dtypes and without that variable."""
    pred = _predicate(test, "if", line)
    dtypes: list | None = None
    dropped: set[int] = set()
    for _ in range(2):
        seen: dict[int, Any] = {}
        try:
            outs = cond(pred, _branch(then, 0, seen, dtypes, dropped), _branch(orelse, 1, seen, dtypes, dropped),
                        name="cond")
        except TypeError:
            if dtypes is not None or len(seen) < 2:
                raise
            dropped = _one_sided(seen, names, statement)
            dtypes = _joint_dtypes(seen, dropped, line)
            continue
        _same_statics(_leaves(_kept(seen[0], dropped))[1], _leaves(_kept(seen[1], dropped))[1], line)
        value = _kept(seen[0], dropped)
        rebuilt = _rebuild(value, iter([Traced(t) for t in outs]))
        if statement:
            defined = iter(rebuilt)
            return tuple(_Undefined(_one_branch(names[k], line)) if k in dropped else next(defined)
                         for k in range(len(seen[0])))
        return rebuilt
    raise AssertionError("unreachable")


def _branch(fn: Callable, key: int, seen: dict, dtypes: list | None, dropped: set[int]) -> Callable:
    def run() -> list:
        value = fn()
        seen[key] = value
        leaves = _leaves(_kept(value, dropped))[0]
        return [as_tensor(v, dtypes[i] if dtypes else None) for i, v in enumerate(leaves)]
    return run


def _kept(value: Any, dropped: set[int]) -> Any:
    """A branch's state without the variables only one branch defines."""
    return tuple(v for k, v in enumerate(value) if k not in dropped) if dropped else value


def _one_sided(seen: dict, names: tuple, statement: bool) -> set[int]:
    if not statement:
        return set()
    return {k for k, (x, y) in enumerate(zip(seen[0], seen[1], strict=True))
            if isinstance(x, _Undefined) != isinstance(y, _Undefined)}


def _joint_dtypes(seen: dict, dropped: set[int], line: int) -> list:
    a, b = (_leaves(_kept(seen[k], dropped))[0] for k in (0, 1))
    if len(a) != len(b):
        raise TracedValueError(f"the branches of the `if` at line {line} (its condition depends on traced values) "
                               f"give results of different structures: {seen[0]!r} and {seen[1]!r}")
    return [_joint_dtype(x, y) for x, y in zip(a, b, strict=True)]


def _one_branch(name: str, line: int) -> str:
    return (f"`{name}` is assigned in only one branch of the `if` at line {line}, whose condition depends on "
            f"traced values, and has no value before it: assign it before the `if` or in both branches")


def _same_statics(a: list, b: list, line: int) -> None:
    for x, y in zip(a, b, strict=True):
        if isinstance(x, _Undefined) and isinstance(y, _Undefined):
            continue
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
    """``tf.while_loop`` over the array leaves of the defined state variables (the others are the
    body's own temporaries: undefined at each iteration's start and after the loop). A variable that
    starts as a Python number takes the dtype the body gives it (recorded again when that differs)."""
    carried = [k for k, v in enumerate(state) if not isinstance(v, _Undefined)]
    start = [state[k] for k in carried]
    start_leaves, statics = _leaves(tuple(start))
    dtypes = [_dtype(v) for v in start_leaves]
    weak = [is_weak(v) for v in start_leaves]
    labels = _labels([names[k] if k < len(names) else "loop_var" for k in carried], start)
    for _ in range(2):
        made: list = []
        try:
            outs = _record_loop(test, body, state, carried, start, statics, dtypes, weak, made, labels, line, kind)
        except TypeError:
            learned = [_dtype(v) if w else d for v, w, d in zip(made, weak, dtypes, strict=False)] if made else None
            if learned is None or learned == dtypes:
                raise
            dtypes, weak = learned, [False] * len(learned)
            continue
        return tuple(_full_state(state, carried, start, outs))
    raise AssertionError("unreachable")


def _record_loop(test: Callable, body: Callable, state: tuple, carried: list, start: list, statics: list,
                 dtypes: list, weak: list, made: list, labels: list, line: int, kind: str) -> list:
    def loop_test(*tensors: Tensor) -> Tensor:
        return _predicate(test(*_full_state(state, carried, start, tensors)), kind, line)

    def loop_body(*tensors: Tensor) -> list:
        nxt = body(*_full_state(state, carried, start, tensors))
        leaves, others = _leaves(tuple(nxt[k] for k in carried))
        for a, b in zip(statics, others, strict=True):
            if a is not b and not (isinstance(a, (str, bytes, type(None))) and a == b):
                raise TracedValueError(f"the `{kind}` loop at line {line} depends on traced values and changes the "
                                       f"Python value {a!r} to {b!r}: only arrays can change between iterations")
        made[:] = leaves
        return [as_tensor(v, None if w else d) for v, w, d in zip(leaves, weak, dtypes, strict=True)]

    signature = inspect.Signature([inspect.Parameter(n, inspect.Parameter.POSITIONAL_ONLY) for n in labels])
    for fn in (loop_test, loop_body):  # the loop variables are named as the user's variables
        named: Any = fn
        named.__signature__ = signature
    inits = [as_tensor(v, d) for v, d in zip(_leaves(tuple(start))[0], dtypes, strict=True)]
    return while_loop(loop_test, loop_body, inits, return_same_structure=True, name=kind) if inits else []


def _full_state(state: tuple, carried: list, start: list, tensors: Sequence[Tensor]) -> list:
    """The state with the loop variables' array leaves taken from ``tensors`` (as arrays, not weak)."""
    values = _rebuild(tuple(start), iter([Traced(t) for t in tensors]))
    full = [_Undefined("a variable assigned in a loop body before the loop") if isinstance(v, _Undefined) else v
            for v in state]
    for k, v in zip(carried, values, strict=True):
        full[k] = v
    return full


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
