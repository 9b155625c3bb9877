"""The code generator's working form: a straight-line Program of Instrs over Values.

It is built from a graph slice with concrete shapes (``lower``), rewritten by the passes
(``passes``) and written out as Python (``emit``). The user's Graph is never modified.
"""
from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import dtypes as _dt
from ..shapes import TensorShape

if TYPE_CHECKING:  # types only: the graph and the primitive declarations are imported by their users
    from ..primitives.core import Primitive
    from ..ssa.graph import Operation, Tensor

__all__ = ["Kind", "Value", "Instr", "Block", "Program", "uniform"]


class Kind(str, enum.Enum):
    """What a Value is: computed by an instruction, a parameter of ``run`` or known at compile time."""

    TEMP = "temp"    # computed by an instruction of the program
    FEED = "feed"    # parameter: a fed tensor (``source`` is the Tensor)
    VAR = "var"      # parameter: a variable's stored value (``source`` is the variable Operation)
    RNG = "rng"      # parameter: a random generator (``source`` is the random Operation)
    BLOCK = "block"  # parameter of a block (a loop variable at the start of an iteration)
    CONST = "const"  # known at compile time (``const`` holds it)
    SHAPE = "shape"  # an argument read only for its (fully known) static shape; no run-time value


class Value:
    """An SSA value: dtype, (usually concrete) shape, and its constant when known."""

    __slots__ = ("dtype", "shape", "const", "tensor", "kind", "source", "producer", "label")

    def __init__(self, dtype: _dt.DType, shape: TensorShape, const: Any = None, tensor: Tensor | None = None,
                 kind: Kind = Kind.TEMP, source: Tensor | Operation | Value | None = None, label: str = "") -> None:
        self.dtype = dtype
        self.shape = shape
        self.const = const      # NumPy value when known at compile time
        self.tensor = tensor    # the graph Tensor this value computes (for names and errors)
        self.kind = kind
        self.source = source    # for params: the fed Tensor / variable Operation / random op; a copy's original
        self.producer: Instr | None = None  # the instruction that computes it
        self.label = label      # the name of a value with no tensor of its own (a rolled loop's index, records)

    @property
    def name(self) -> str:
        return self.tensor.name if self.tensor is not None else f"<{self.kind.value}>"

    @property
    def op(self) -> Operation | None:
        return None if self.tensor is None else self.tensor.op

    @property
    def size(self) -> int | None:
        return self.shape.num_elements()

    def is_uniform(self) -> bool:
        """True for a constant whose elements are all equal (it can be written as one scalar)."""
        c = self.const
        if c is None or self.dtype is _dt.string:
            return False
        if not isinstance(c, np.ndarray) or c.ndim == 0:
            return True
        if c.size == 0:
            return False  # no element to stand for it
        if 0 in c.strides and all(s == 0 for s in c.strides):
            return True
        return bool(np.all(c == c.flat[0])) and not (c.dtype.kind in "fc" and np.isnan(c.flat[0]))

    def scalar(self) -> Any:
        """The single element of a uniform constant, as a NumPy scalar of this dtype."""
        c = self.const
        if isinstance(c, np.ndarray):
            return c[()] if c.ndim == 0 else c.flat[0]  # (``flat`` makes an iterator: 3x slower on a 0-d array)
        return self.dtype.np.type(c)

    def __repr__(self) -> str:
        sizes = self.shape.sizes
        return f"Value({self.name}, {self.dtype.name}{list(sizes) if sizes is not None else '[*]'})"


class Instr:
    """One primitive application: ``outs = prim(args; attrs)``, made for graph op ``op``. A
    control-flow instruction also runs its ``blocks`` (If: then, else; While: cond, body; For: body)."""

    __slots__ = ("prim", "args", "attrs", "outs", "op", "blocks")

    def __init__(self, prim: Primitive, args: list[Value], attrs: dict[str, Any], outs: list[Value],
                 op: Operation, blocks: tuple[Block, ...] = ()) -> None:
        self.prim = prim
        self.args = args
        self.attrs = attrs
        self.outs = outs
        self.op = op
        self.blocks = blocks
        for v in outs:
            v.producer = self

    def __repr__(self) -> str:
        return f"Instr({self.prim.name}, {self.args} -> {self.outs})"


class Block:
    """A control-flow instruction's block: ``params`` bound on entry, ``instrs`` in order,
    ``results`` out; ``kept`` are the values recorded once per iteration (loop bodies)."""

    __slots__ = ("params", "instrs", "results", "kept", "commits")

    def __init__(self, params: list[Value]) -> None:
        self.params = params
        self.instrs: list[Instr] = []
        self.results: list[Value] = []
        self.kept: list[Value] = []
        self.commits: list[tuple[Operation, Value]] = []  # while lowering: assignments made in the block


class Program:
    """A straight-line program: params in, outputs and variable commits out."""

    def __init__(self) -> None:
        self.params: list[Value] = []
        self.instrs: list[Instr] = []
        self.outputs: list[Value] = []
        self.commits: list[tuple[Operation, Value]] = []  # (variable Operation, new value), graph order
        # id of a value computed in place -> the value whose array it overwrites: a running sum's partial
        # sum (``total += term``, accumulate.py), a scaled gradient (``g *= lr``, inplace.py)
        self.accumulators: dict[int, Value] = {}


def uniform(like: Value, scalar: Any) -> Value:
    """A constant with ``like``'s (fully known) shape, every element ``scalar``: a zero-stride view,
    so its size costs nothing."""
    value = np.asarray(scalar, dtype=like.dtype.np)
    sizes = like.shape.known_sizes()
    const = value[()] if not sizes else np.broadcast_to(value, sizes)
    return Value(like.dtype, like.shape, const=const, tensor=like.tensor, kind=Kind.CONST)
