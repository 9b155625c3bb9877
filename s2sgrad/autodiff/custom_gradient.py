"""``tf.custom_gradient``: a function whose gradient the user writes, built as in TF graph mode.

The function's results, its arguments and the variables it reads pass through one
``IdentityN`` op whose gradient is overridden (``gradient_override_map``) by a gradient
registered for this call. The results' gradients go to the user's ``grad_fn``; its answers
flow to the arguments (and variables); nothing flows into the function's own ops. The code
generator reuses IdentityN's inputs as its outputs, so the op costs nothing at run time.
"""
from __future__ import annotations

import functools
import inspect
import itertools
from collections.abc import Callable
from typing import Any

from ..ops.array_ops import identity_n
from ..ops.convert import convert_to_tensor, graph_of
from ..primitives.state import VARIABLE_V2
from ..ssa.graph import Operation
from .registry import RegisterGradient

__all__ = ["custom_gradient"]

_call_ids = itertools.count()


def custom_gradient(f: Callable | None = None) -> Callable:
    """Decorator: ``f(*args)`` returns ``(y, grad_fn)``; ``grad_fn(*dys)`` returns one gradient per
    argument (a single tensor when there is one argument). ``y`` may be a tensor or a (nested)
    list/tuple of tensors: ``grad_fn`` gets one ``dy`` per tensor. When ``f`` reads variables,
    ``grad_fn(*dys, variables=[...])`` returns ``(arg_grads, variable_grads)``.

    >>> @custom_gradient
    ... def clip_grad(x):
    ...     return tf.identity(x), lambda dy: tf.clip_by_value(dy, -1.0, 1.0)
    """
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args: Any, **kwargs: Any) -> Any:
        if kwargs:
            raise ValueError("The custom_gradient decorator currently supports keywords arguments only when "
                             "eager execution is enabled.")
        return _call(f, args)

    return decorated


def _call(f: Callable, args: tuple) -> Any:
    flat_args = _flatten(args)
    graph = graph_of(flat_args)
    with graph.as_default():
        tensors = [convert_to_tensor(a) for a in flat_args]
        first_op = graph.version
        result, grad_fn = f(*_pack(args, tensors))
        flat_results = [convert_to_tensor(r) for r in _flatten(result)]
        variables = _variables_read(graph.get_operations()[first_op:])
        _check_signature(f, grad_fn, variables)
        name = f"CustomGradient-{next(_call_ids)}"
        RegisterGradient(name)(_gradient(grad_fn, len(flat_results), variables))
        with graph.gradient_override_map({"IdentityN": name}):
            outs = identity_n(flat_results + tensors + [v.value() for v in variables])
    return _pack(result, outs[:len(flat_results)])


def _gradient(grad_fn: Callable, n_results: int, variables: list) -> Callable:
    """The IdentityN gradient: nothing for the results, ``grad_fn``'s answers for the rest."""

    def gradient(op: Operation, *out_grads: Any) -> list:
        dys = out_grads[:n_results]
        if variables:
            arg_grads, var_grads = grad_fn(*dys, variables=variables)
            if len(var_grads) != len(variables):
                raise ValueError("Must return gradient for each variable from @custom_gradient grad_fn.")
        else:
            arg_grads, var_grads = grad_fn(*dys), []
        return [None] * n_results + _flatten(arg_grads) + list(var_grads)

    return gradient


def _variables_read(ops: list[Operation]) -> list:
    """The Variables whose value the ops created by ``f`` read (assignment targets are not reads)."""
    found: dict[Operation, Any] = {}
    for op in ops:
        refs = op.prim.ref_inputs
        for i, t in enumerate(op.inputs):
            if i not in refs and t.op.prim is VARIABLE_V2 and "variable" in t.op.attrs:
                found.setdefault(t.op, t.op.attrs["variable"])
    return sorted(found.values(), key=lambda v: v.name)


def _check_signature(f: Callable, grad_fn: Callable, variables: list) -> None:
    if not callable(grad_fn):
        raise TypeError(f"@tf.custom_gradient function {getattr(f, '__name__', f)!r} must return "
                        f"(result, grad_fn), got a {type(grad_fn).__name__} as grad_fn")
    if not variables:
        return
    params = inspect.signature(grad_fn).parameters.values()
    if not any(p.name == "variables" or p.kind is p.VAR_KEYWORD for p in params):
        raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument 'variables', since function "
                        f"uses variables: {[v.name for v in variables]}")


def _flatten(structure: Any) -> list:
    """The leaves of nested lists/tuples, left to right (anything else is a leaf)."""
    if isinstance(structure, (list, tuple)):
        return [leaf for item in structure for leaf in _flatten(item)]
    return [structure]


def _pack(structure: Any, flat: list) -> Any:
    """``flat`` (one item per leaf of ``structure``) arranged like ``structure``."""
    leaves = iter(flat)

    def build(s: Any) -> Any:
        if isinstance(s, (list, tuple)):
            items = [build(item) for item in s]
            return type(s)(*items) if hasattr(s, "_fields") else type(s)(items)
        return next(leaves)

    return build(structure)
