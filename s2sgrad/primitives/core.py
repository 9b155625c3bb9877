"""Primitive declarations: per op type, its shape/dtype rule, NumPy emitter and flags.

A primitive is plain data, declared once as a module constant (``TANH = unary("Tanh", ...)``)
and referred to by that object. ``infer`` sees inputs with ``.dtype`` and ``.shape`` (graph
Tensors at build time, concrete codegen Values when a Session specializes), ``emit`` turns an
instruction into one NumPy expression (``ast``). Gradient rules live above the op layer, in
``s2sgrad.autodiff.rules``.
"""
from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..static import broadcast_shape, constant_value  # re-exported for rules

__all__ = ["Primitive", "define", "template", "literal", "np_attr", "constant_value", "broadcast_shape",
           "same_dtype", "LOAD"]

Emitter = Callable[[Any, Sequence[ast.expr]], ast.expr]


@dataclasses.dataclass(frozen=True, eq=False)
class Primitive:
    """One op type; ``name`` is its TF op type (``op.type``)."""

    name: str
    infer: Callable[[Sequence[Any], dict], list]
    emit: Emitter | None
    differentiable: bool = True   # False: declared NotDifferentiable (gradients are None)
    default_name: str = ""
    pure: bool = True             # False: random/stateful; never folded, merged or removed
    ufunc: bool = False           # elementwise NumPy call: Python scalars may stand for constants
    shape_only: tuple = ()        # inputs read only for their static shape
    ref_inputs: tuple = ()        # inputs naming a variable to write (not a read)
    assigns: bool = False         # writes its new value (output 0) to the variable of input 0
    simplify: Callable | None = None  # (instr) -> Value to reuse, or None
    view: str = ""                # "input": may share memory with input 0; "readonly": a broadcast view
    uniform_from: int | None = None   # output elements are copies of this input's elements
    fill: int | None = None       # every output element is this value (ZerosLike: 0): folds to a constant
    fusable: bool = True          # False: may raise on input values (indexing), keep its own line
    identity: bool = False        # output 0 is input 0's value (constant_value looks through it)
    known_value: Callable | None = None  # (op) -> output 0's value when known before running, or None
    arity: int | None = None      # elementwise ops (unary/binary): the number of inputs
    tf_name: str = ""             # elementwise: the ``tf.math`` function the declaration gives (``xlogy``)
    numpy: tuple = ()             # elementwise: the NumPy ufuncs it computes (the decorator's dispatch)
    printed_attrs: tuple = ()     # attrs the IR printout shows first, even those it hides for other ops


def define(name: str, infer: Callable, emit: Emitter | None, *, differentiable: bool = True,
           default_name: str | None = None, **flags: Any) -> Primitive:
    """A primitive named ``name`` (TF's op type); ``default_name`` names its ops (default: ``name``)."""
    return Primitive(name, infer, emit, differentiable, default_name or name, **flags)


# -- emitters --------------------------------------------------------------------------------------

def template(text: str, inputs: Sequence[str] = ("x", "y", "z")) -> Emitter:
    """An emitter from a NumPy expression: ``inputs`` name the arguments, other names are attrs.

    >>> emit = template("np.sum(x, axis=axis)")
    """
    tree = ast.parse(text, mode="eval").body
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    attr_names = tuple(sorted(names - set(inputs) - {"np", "rt"}))
    used = [(name, i) for i, name in enumerate(inputs) if name in names]

    def emit(instr: Any, args: Sequence[ast.expr]) -> ast.expr:
        subst = {name: args[i] for name, i in used}
        for name in attr_names:
            subst[name] = literal(instr.attrs[name])
        return _instantiate(tree, subst)

    return emit


def _instantiate(node: Any, subst: dict) -> Any:
    """A copy of the template ``node`` with names replaced; subtrees without any substituted
    name are shared (generated trees only ever mutate the substituted nodes' parents)."""
    if isinstance(node, ast.Name):
        return subst.get(node.id, node)
    if isinstance(node, ast.AST):
        if not _has_names(node, subst):
            return node
        new = node.__class__()
        for field in node._fields:
            setattr(new, field, _instantiate(getattr(node, field), subst))
        return new
    if isinstance(node, list):
        return [_instantiate(n, subst) for n in node]
    return node


def _has_names(node: ast.AST, subst: dict) -> bool:
    names = _NAMES_BELOW.get(id(node))
    if names is None:
        names = _NAMES_BELOW[id(node)] = (frozenset(n.id for n in ast.walk(node) if isinstance(n, ast.Name)), node)
    return not names[0].isdisjoint(subst)


_NAMES_BELOW: dict[int, tuple] = {}  # template subtree -> the names in it (templates live forever)


LOAD = ast.Load()
_NUMPY_NAMES = {"bool": "bool_", "string": "object_"}


def np_attr(name: str) -> ast.expr:
    """``np.<name>``; ``name`` comes from our own tables, never from the user."""
    return ast.Attribute(ast.Name("np", LOAD), name, LOAD)


def literal(value: Any) -> ast.expr:
    """A Python/NumPy value as an expression that evaluates to an equal value."""
    if value is None or isinstance(value, (bool, str, bytes)) or value is Ellipsis:
        return ast.Constant(value)
    if isinstance(value, int):
        return ast.Constant(int(value)) if value >= 0 else ast.UnaryOp(ast.USub(), ast.Constant(-int(value)))
    if isinstance(value, float):
        return _float_literal(value)
    if type(value) is complex:  # np.complex128 is a complex too: it keeps its type below
        return ast.Call(ast.Name("complex", LOAD), [literal(value.real), literal(value.imag)], [])
    if isinstance(value, (tuple, list)):
        elts = [literal(v) for v in value]
        return ast.Tuple(elts, LOAD) if isinstance(value, tuple) else ast.List(elts, LOAD)
    if isinstance(value, slice):
        return ast.Call(ast.Name("slice", LOAD), [literal(value.start), literal(value.stop), literal(value.step)], [])
    if isinstance(value, _dt.DType):
        return np_attr(_NUMPY_NAMES.get(value.name, value.name))
    if isinstance(value, np.dtype):
        return literal(_dt.as_dtype(value))
    if isinstance(value, np.generic):
        dtype = _dt.as_dtype(value.dtype)
        if dtype is _dt.string:
            return ast.Constant(value.item())
        return ast.Call(literal(dtype), [literal(value.item())], [])
    if isinstance(value, np.ndarray):
        dtype = _dt.as_dtype(value.dtype)
        if value.size == 0:  # a nested list cannot spell an empty array's shape
            return ast.Call(np_attr("zeros"), [literal(value.shape)], [ast.keyword("dtype", literal(dtype))])
        return ast.Call(np_attr("array"), [literal(value.tolist())], [ast.keyword("dtype", literal(dtype))])
    raise TypeError(f"cannot write {type(value).__name__} value {value!r} as a literal")


def _float_literal(value: float) -> ast.expr:
    if value != value:
        return np_attr("nan")
    if value in (float("inf"), float("-inf")):
        return np_attr("inf") if value > 0 else ast.UnaryOp(ast.USub(), np_attr("inf"))
    if value < 0 or (value == 0 and str(value).startswith("-")):
        return ast.UnaryOp(ast.USub(), ast.Constant(-value))
    return ast.Constant(value)


# -- inference helpers -----------------------------------------------------------------------------

def same_dtype(inputs: Sequence[Any], what: str = "inputs") -> _dt.DType:
    """The dtype all ``inputs`` share; TypeError naming them (as ``what``) when they differ."""
    dtype = inputs[0].dtype
    for t in inputs[1:]:
        if t.dtype is not dtype:
            names = ", ".join(_name(t) for t in inputs)
            raise TypeError(f"{what} must have the same dtype, got {', '.join(t.dtype.name for t in inputs)} "
                            f"({names})")
    return dtype


def _name(t: Any) -> str:
    return getattr(t, "name", "?")
