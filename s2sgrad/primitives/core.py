"""Primitive declarations: per op type, its shape/dtype rule and flags.

A primitive is plain data, declared once as a module constant (``TANH = unary("Tanh", ...)``)
and referred to by that object. ``infer`` sees inputs with ``.dtype`` and ``.shape`` (graph
Tensors at build time, concrete codegen Values when a Session specializes). An elementwise
primitive also declares its NumPy expression (``expr``: ``"np.tanh(x)"``); the code generator
turns that text, or its own emitter for the other primitives (``s2sgrad.codegen.emitters``),
into NumPy code. Gradient rules live above the op layer, in ``s2sgrad.autodiff.rules``.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from .. import dtypes as _dt
from ..static import broadcast_shape, constant_value  # re-exported for rules

__all__ = ["Primitive", "define", "constant_value", "broadcast_shape", "same_dtype", "EXPR_ARGS"]

EXPR_ARGS = ("x", "y", "z")   # how an ``expr`` names the inputs, unless the declaration says otherwise


@dataclasses.dataclass(frozen=True, eq=False)
class Primitive:
    """One op type; ``name`` is its TF op type (``op.type``)."""

    name: str
    infer: Callable[[Sequence[Any], dict], list]
    differentiable: bool = True   # False: declared NotDifferentiable (gradients are None)
    default_name: str = ""
    pure: bool = True             # False: random/stateful; never folded, merged or removed
    ufunc: bool = False           # elementwise NumPy call: Python scalars may stand for constants
    shape_only: tuple = ()        # inputs read only for their static shape
    ref_inputs: tuple = ()        # inputs naming a variable to write (not a read)
    assigns: bool = False         # writes its new value (output 0) to the variable of input 0
    view: str = ""                # "input": may share memory with input 0; "readonly": a broadcast view
    uniform_from: int | None = None   # output elements are copies of this input's elements
    fill: int | None = None       # every output element is this value (ZerosLike: 0): folds to a constant
    fusable: bool = True          # False: may raise on input values (indexing), keep its own line
    identity: bool = False        # output 0 is input 0's value (constant_value looks through it)
    known_value: Callable | None = None  # (op) -> output 0's value when known before running, or None
    arity: int | None = None      # elementwise ops (unary/binary): the number of inputs
    expr: str = ""                # elementwise: its NumPy expression (``"np.tanh(x)"``); attrs by name
    expr_args: tuple[str, ...] = EXPR_ARGS  # the names ``expr`` gives the inputs, in order
    tf_names: tuple[str, ...] = ()  # elementwise: its ``tf.*`` functions (``ops/math_ops.py``), first the main one
    numpy: tuple = ()             # elementwise: the NumPy ufuncs it computes (the decorator's dispatch)
    kinds: str = ""               # elementwise: the dtype kinds it accepts (``primitives/math.py: KINDS``)
    printed_attrs: tuple = ()     # attrs the IR printout shows first, even those it hides for other ops
    lists: bool = False           # its value is a Python list at run time (a TensorArray): never folded
    control: bool = False         # runs the regions in ``attrs["_regions"]`` (If, While, For): lowered as blocks
    host: bool = False            # computed by the Session in Python around the module (tf.data iterators):
    #                               its outputs are fed, an op without outputs is skipped (primitives/data.py)


def define(name: str, infer: Callable, *, differentiable: bool = True, default_name: str | None = None,
           **flags: Any) -> Primitive:
    """A primitive named ``name`` (TF's op type); ``default_name`` names its ops (default: ``name``)."""
    return Primitive(name, infer, differentiable, default_name or name, **flags)


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
