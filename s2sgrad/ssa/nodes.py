"""The IR's nodes: an Operation applies a primitive to input Tensors; each of its output
Tensors is an SSA value, defined exactly once. The Graph that holds them is in ``graph.py``."""
from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from types import FrameType
from typing import TYPE_CHECKING, Any

from .. import dtypes as _dt
from ..shapes import TensorShape, as_shape
from .default_session import session_for

if TYPE_CHECKING:
    from ..primitives.core import Primitive
    from .graph import Graph
    from .regions import Region

__all__ = ["GraphElement", "Operation", "Tensor", "TensorOperators", "user_location"]

_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # s2sgrad/


_INSIDE: dict[str, bool] = {}         # co_filename -> is it s2sgrad's (the walk below runs for every op)
_last_location = ("<unknown>", 0)     # consecutive ops of one user line share one tuple
# instruction offset -> (code, its location): a frame's line number is decoded from the code's line table on
# every read, and a loop's ops come from the same few instructions. Keyed by the offset alone (no key to
# build per op), the code checked by identity: another code at the same offset just replaces the entry.
_LINES: dict[int, tuple[Any, tuple[str, int]]] = {}
_getframe = sys._getframe


def user_location(start: int = 1) -> tuple[str, int]:
    """(filename, line) of the innermost frame outside the s2sgrad package, looking from the frame
    ``start`` levels up (1: the caller; ``Graph.create_op`` passes 2, its own frame being s2sgrad's)."""
    global _last_location
    frame: Any = _getframe(start)
    inside = _INSIDE
    try:
        while inside[frame.f_code.co_filename]:
            frame = frame.f_back
    except (KeyError, AttributeError):   # a file not seen before, or the bottom of the stack
        frame = _first_outside(_getframe(start))
        if frame is None:
            return ("<unknown>", 0)
    code = frame.f_code
    lasti = frame.f_lasti
    known = _LINES.get(lasti)
    if known is not None and known[0] is code:
        return known[1]
    filename, line = code.co_filename, frame.f_lineno
    last = _last_location
    if last[1] != line or last[0] != filename:
        _last_location = last = (filename, line)
    if len(_LINES) >= 4096:   # bounded: generated and exec'd code comes and goes
        _LINES.clear()
    _LINES[lasti] = (code, last)
    return last


def _first_outside(frame: FrameType | None) -> FrameType | None:
    """The first frame from ``frame`` down the stack whose file is not s2sgrad's (learning the files)."""
    while frame is not None:
        filename = frame.f_code.co_filename
        inside = _INSIDE.get(filename)
        if inside is None:
            inside = filename.startswith(_PKG_DIR)
            if len(_INSIDE) < 4096:   # generated modules have unique names: stay bounded
                _INSIDE[filename] = inside
        if not inside:
            return frame
        frame = frame.f_back
    return None


class GraphElement:
    """Graphs and what they hold are identities: a copy is the element itself (``copy.deepcopy``
    of a structure holding tensors does not clone, or recurse through, their graph), and
    pickling is refused with a hint."""

    __slots__ = ()

    def __copy__(self) -> Any:
        return self

    def __deepcopy__(self, memo: dict) -> Any:
        return self

    def __reduce__(self) -> Any:
        raise TypeError(f"Cannot pickle {self!r}: graph elements are symbolic; pickle the values that "
                        "Session.run returns")


class TensorOperators:
    """The operators of tensors and variables (``+ - * / // % ** @ & | ^``, ``-x``, ``abs``, ``~``,
    ``< <= > >=``, ``[...]``), declared for type checkers: ``s2sgrad.ops.overloads``
    attaches them at import, since the ops they record sit above the IR. ``==`` stays identity."""

    __slots__ = ()

    if TYPE_CHECKING:
        def __add__(self, other: object) -> Tensor: ...
        def __radd__(self, other: object) -> Tensor: ...
        def __sub__(self, other: object) -> Tensor: ...
        def __rsub__(self, other: object) -> Tensor: ...
        def __mul__(self, other: object) -> Tensor: ...
        def __rmul__(self, other: object) -> Tensor: ...
        def __truediv__(self, other: object) -> Tensor: ...
        def __rtruediv__(self, other: object) -> Tensor: ...
        def __floordiv__(self, other: object) -> Tensor: ...
        def __rfloordiv__(self, other: object) -> Tensor: ...
        def __mod__(self, other: object) -> Tensor: ...
        def __rmod__(self, other: object) -> Tensor: ...
        def __pow__(self, other: object) -> Tensor: ...
        def __rpow__(self, other: object) -> Tensor: ...
        def __matmul__(self, other: object) -> Tensor: ...
        def __rmatmul__(self, other: object) -> Tensor: ...
        def __and__(self, other: object) -> Tensor: ...
        def __rand__(self, other: object) -> Tensor: ...
        def __or__(self, other: object) -> Tensor: ...
        def __ror__(self, other: object) -> Tensor: ...
        def __xor__(self, other: object) -> Tensor: ...
        def __rxor__(self, other: object) -> Tensor: ...
        def __neg__(self) -> Tensor: ...
        def __pos__(self) -> Tensor: ...
        def __abs__(self) -> Tensor: ...
        def __invert__(self) -> Tensor: ...
        def __lt__(self, other: object) -> Tensor: ...
        def __le__(self, other: object) -> Tensor: ...
        def __gt__(self, other: object) -> Tensor: ...
        def __ge__(self, other: object) -> Tensor: ...
        def __getitem__(self, key: object) -> Tensor: ...


class Tensor(GraphElement, TensorOperators):
    """One output of an Operation: ``<op name>:<index>``, with a dtype and a static shape."""

    __slots__ = ("op", "value_index", "dtype", "_shape", "_consumers", "__weakref__")

    __array_priority__ = 100

    if TYPE_CHECKING:  # attached by ``s2sgrad.ops.overloads``, as the operators are
        def eval(self, feed_dict: Any = None, session: Any = None) -> Any: ...

    def __init__(self, op: Operation, value_index: int, dtype: _dt.DType, shape: TensorShape) -> None:
        self.op = op
        self.value_index = value_index
        self.dtype = dtype
        self._shape = shape
        # the ops reading it, in creation order: None, the one op, or a list of two or more (most tensors
        # have one consumer: no list to allocate and for the collector to scan)
        self._consumers: Operation | list[Operation] | None = None

    @property
    def name(self) -> str:
        return f"{self.op.name}:{self.value_index}"

    @property
    def graph(self) -> Graph:
        return self.op.graph

    @property
    def shape(self) -> TensorShape:
        return self._shape

    def get_shape(self) -> TensorShape:
        return self._shape

    def set_shape(self, shape: Any) -> None:
        """Refine the static shape; ValueError when ``shape`` contradicts it."""
        if type(shape) is TensorShape and shape.sizes == self._shape.sizes:
            return  # nothing to refine (``tf.gradients`` sets every gradient's shape to its input's)
        try:
            self._shape = self._shape.merge_with(as_shape(shape))
        except ValueError:
            raise ValueError(
                f"Tensor {self.name} has shape {self._shape}, which is incompatible with {as_shape(shape)}"
            ) from None

    @property
    def ndim(self) -> int | None:
        return self._shape.rank

    @property
    def device(self) -> str:
        return self.op._device

    def consumers(self) -> list[Operation]:
        readers = self._consumers
        if readers is None:
            return []
        return list(readers) if isinstance(readers, list) else [readers]

    def _set_consumers(self, readers: list[Operation]) -> None:
        self._consumers = None if not readers else readers[0] if len(readers) == 1 else readers

    def __repr__(self) -> str:
        return f"<tf.Tensor '{self.name}' shape={self._shape} dtype={self.dtype.name}>"

    def __str__(self) -> str:
        return f'Tensor("{self.name}", shape={self._shape}, dtype={self.dtype.name})'

    def __bool__(self) -> bool:
        raise TypeError(
            f"Using a symbolic tf.Tensor ({self.name}) as a Python bool is not allowed: its value is only "
            "known when the graph runs. Select elementwise with tf.where, or fetch the value with sess.run first.")

    def __iter__(self) -> Iterator:
        raise TypeError(f"Tensor {self.name} is not iterable in graph mode; use tf.unstack or indexing.")

    def __len__(self) -> int:
        dims = self._shape.sizes
        if not dims or dims[0] is None:
            raise TypeError(f"len() of tensor {self.name} with shape {self._shape} is not known statically")
        return dims[0]

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        raise NotImplementedError(
            f"Cannot convert a symbolic tf.Tensor ({self.name}) to a NumPy array; run it in a Session.")

    __hash__ = object.__hash__


class Operation(GraphElement):
    """A node of the graph: ``prim`` is its primitive, ``type`` that primitive's TF op type;
    ``attrs`` are its static parameters."""

    __slots__ = ("graph", "name", "prim", "type", "inputs", "outputs", "attrs", "control_inputs",
                 "location", "id", "grad_of", "region", "_device", "_colocation", "__weakref__")

    def __init__(self, graph: Graph, name: str, prim: Primitive, inputs: tuple, attrs: dict,
                 specs: Sequence[tuple], control_inputs: Sequence[Operation], location: tuple, grad_of: Any,
                 region: Any = None, op_id: int = -1) -> None:
        self.graph = graph
        self.name = name
        self.prim = prim
        self.type = prim.name
        self.inputs = inputs
        self.attrs = attrs
        self.control_inputs = control_inputs
        self.location = location
        self.grad_of: Operation | None = grad_of  # the forward op whose gradient rule made this op
        self.id = op_id                           # its index in the graph's creation order
        self.region: Region | None = region      # the control-flow block holding it (None: the graph's top level)
        self._device = ""                         # recorded only: see s2sgrad.platform.devices
        self._colocation: tuple | None = None     # b"loc:@<op>" groups from tf.colocate_with
        self.outputs: tuple[Tensor, ...]
        if len(specs) == 1:
            dtype, shape = specs[0]
            self.outputs = (Tensor(self, 0, dtype, shape),)
        else:
            self.outputs = tuple([Tensor(self, i, dt, shape) for i, (dt, shape) in enumerate(specs)])

    @property
    def device(self) -> str:
        """The device string the op was created under (placement itself is a no-op)."""
        return self._device

    def colocation_groups(self) -> list[bytes]:
        return list(self._colocation or (f"loc:@{self.name}".encode(),))

    def get_attr(self, name: str) -> Any:
        if name == "_class" and self._colocation:
            return list(self._colocation)
        try:
            return self.attrs[name]
        except KeyError:
            raise ValueError(f"Operation {self.name!r} ({self.type}) has no attr named {name!r}") from None

    def values(self) -> tuple:
        return self.outputs

    def _add_output(self, dtype: _dt.DType, shape: TensorShape) -> Tensor:
        """A new last output (a control-flow op exposing what its gradient reads from its blocks)."""
        t = Tensor(self, len(self.outputs), dtype, shape)
        self.outputs = (*self.outputs, t)
        return t

    def _replace_input(self, index: int, t: Tensor) -> None:
        """Read ``t`` instead of input ``index`` (a gradient routing a read of a forward block)."""
        old = self.inputs[index]
        readers = old.consumers()
        readers.remove(self)
        old._set_consumers(readers)
        t._set_consumers([*t.consumers(), self])
        self.inputs = (*self.inputs[:index], t, *self.inputs[index + 1:])

    @property
    def node_def(self) -> dict:
        return {"name": self.name, "op": self.type, "input": [t.name for t in self.inputs],
                "attr": dict(self.attrs)}

    @property
    def where(self) -> str:
        """``file.py:line`` of the user code that created this op."""
        return f"{os.path.basename(self.location[0])}:{self.location[1]}"

    def run(self, feed_dict: Any = None, session: Any = None) -> None:
        """Run this op in ``session`` or the default session."""
        session_for(session, self).run(self, feed_dict)

    def __repr__(self) -> str:
        return f"<tf.Operation '{self.name}' type={self.type}>"

    __hash__ = object.__hash__
