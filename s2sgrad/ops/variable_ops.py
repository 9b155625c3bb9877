"""``tf.Variable``, the variable collections, assignment ops and the initializing ops.

A variable is a ``VariableV2`` op whose output is its value at the start of a run; its
storage lives in each Session. Assign ops compute new values that the Session commits
atomically at the end of a run.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .. import dtypes as _dt
from ..primitives.core import Primitive
from ..primitives.state import ASSIGN, ASSIGN_ADD, ASSIGN_SUB, IDENTITY, VARIABLE_V2
from ..shapes import TensorShape
from ..ssa.default_session import session_for
from ..ssa.graph import Graph, GraphElement, Operation, Tensor, get_default_graph
from ..ssa.nodes import TensorOperators
from . import control_flow as cf
from .convert import convert_to_tensor, graph_of, record1
from .overloads import install

__all__ = ["Variable", "global_variables", "trainable_variables", "local_variables", "model_variables",
           "variables_initializer", "global_variables_initializer", "assign", "assign_add", "assign_sub"]

GLOBAL_VARIABLES = "variables"
TRAINABLE_VARIABLES = "trainable_variables"
LOCAL_VARIABLES = "local_variables"
MODEL_VARIABLES = "model_variables"


class Variable(GraphElement, TensorOperators):
    """A mutable tensor kept across runs by each Session.

    >>> w = Variable(2.0, name="weight")
    >>> w.name
    'weight:0'
    """

    def __init__(self, initial_value: Any = None, trainable: bool | None = None, collections: Any = None,
                 validate_shape: bool = True, caching_device: Any = None, name: str | None = None,
                 variable_def: Any = None, dtype: Any = None, expected_shape: Any = None,
                 import_scope: Any = None, constraint: Any = None, use_resource: Any = None,
                 synchronization: Any = None, aggregation: Any = None, shape: Any = None) -> None:
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        if name is not None and not isinstance(name, str):
            raise TypeError(f"Variable name must be a string, got {name!r}")
        self.trainable = True if trainable is None else bool(trainable)
        self.constraint = constraint
        graph = graph_of([initial_value]) if not callable(initial_value) else get_default_graph()
        with graph.as_default(), graph._outside_blocks(), graph.name_scope(name or "Variable") as scope:
            if callable(initial_value):
                with graph.name_scope("Initializer"):
                    value = initial_value()
            else:
                value = initial_value
            init = convert_to_tensor(value, dtype=None, name="initial_value")
            if dtype is not None and _dt.as_dtype(dtype) is not init.dtype:
                if isinstance(value, Tensor):
                    raise ValueError(f"initial_value has dtype {init.dtype.name}, but dtype={_dt.as_dtype(dtype).name}")
                init = convert_to_tensor(value, dtype=dtype, name="initial_value")
            static = TensorShape(shape) if shape is not None else (init.shape if validate_shape else TensorShape(None))
            if validate_shape and not static.is_compatible_with(init.shape):
                raise ValueError(f"initial_value of shape {init.shape} does not match shape={static}")
            self._op = graph.create_op(VARIABLE_V2, [], {"dtype": init.dtype, "shape": static.sizes,
                                                          "variable": self}, name=scope)
            self._initial_value = init
            self._initializer = record1(ASSIGN, [self._op.outputs[0], init],
                                        {"validate_shape": validate_shape}, "Assign").op
        self._graph = graph
        for key in collections if collections is not None else [GLOBAL_VARIABLES]:
            graph.add_to_collection(key, self)
        if self.trainable and (collections is None or TRAINABLE_VARIABLES not in collections):
            graph.add_to_collection(TRAINABLE_VARIABLES, self)

    # -- identity --------------------------------------------------------------------------------
    @property
    def op(self) -> Operation:
        return self._op

    @property
    def name(self) -> str:
        return self._op.outputs[0].name

    @property
    def graph(self) -> Graph:
        return self._graph

    @property
    def dtype(self) -> _dt.DType:
        return self._op.outputs[0].dtype

    @property
    def shape(self) -> TensorShape:
        return self._op.outputs[0].shape

    def get_shape(self) -> TensorShape:
        return self.shape

    @property
    def device(self) -> str:
        return self._op.device

    @property
    def initializer(self) -> Operation:
        return self._initializer

    @property
    def initial_value(self) -> Tensor:
        return self._initial_value

    def initialized_value(self) -> Tensor:
        return self._initial_value

    # -- reading ---------------------------------------------------------------------------------
    def _as_graph_element(self) -> Tensor:
        return self._op.outputs[0]

    def value(self) -> Tensor:
        return self._op.outputs[0]

    def read_value(self) -> Tensor:
        with self._graph.as_default():
            return record1(IDENTITY, [self._op.outputs[0]], None, self._op.name + "/read")

    def eval(self, session: Any = None) -> Any:
        return session_for(session, self._op).run(self)

    # -- writing ---------------------------------------------------------------------------------
    def assign(self, value: Any, use_locking: Any = None, name: str | None = None, read_value: bool = True) -> Any:
        return assign(self, value, name=name)

    def assign_add(self, delta: Any, use_locking: Any = None, name: str | None = None, read_value: bool = True) -> Any:
        return assign_add(self, delta, name=name)

    def assign_sub(self, delta: Any, use_locking: Any = None, name: str | None = None, read_value: bool = True) -> Any:
        return assign_sub(self, delta, name=name)

    def load(self, value: Any, session: Any = None) -> None:
        """Write ``value`` into this variable in ``session`` (the default session if None)."""
        session_for(session, self._op).variable_store.load(self._op, value)

    def __repr__(self) -> str:
        return f"<tf.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}>"

    def __bool__(self) -> bool:
        raise TypeError(f"Using a tf.Variable ({self.name}) as a Python bool is not allowed in graph mode.")

    def __iter__(self) -> Iterator:
        raise TypeError(f"Variable {self.name} is not iterable in graph mode.")

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        raise NotImplementedError(f"Cannot convert the tf.Variable {self.name} to a NumPy array; "
                                  "fetch it with sess.run first.")

    __hash__ = object.__hash__


install(Variable, lambda v: v.value())


def _variable_op(ref: Any) -> Operation:
    if isinstance(ref, Variable):
        return ref.op
    if isinstance(ref, Tensor) and ref.op.prim is VARIABLE_V2:
        return ref.op
    raise TypeError(f"assign needs a tf.Variable, got {ref!r}")


def _update(prim: Primitive, ref: Any, value: Any, name: str | None) -> Tensor:
    var = _variable_op(ref)
    with var.graph.as_default():
        v = convert_to_tensor(value, dtype=var.outputs[0].dtype) if not isinstance(value, Tensor) \
            else convert_to_tensor(value)
        return record1(prim, [var.outputs[0], v], {"validate_shape": True}, name or prim.name)


def assign(ref: Any, value: Any, validate_shape: bool = True, use_locking: Any = None,
           name: str | None = None) -> Tensor:
    """Set ``ref`` to ``value`` when the op runs; the output is the new value."""
    return _update(ASSIGN, ref, value, name)


def assign_add(ref: Any, value: Any, use_locking: Any = None, name: str | None = None) -> Tensor:
    """Add ``value`` to ``ref`` when the op runs; the output is the new value.

    >>> # increment = tf.assign_add(counter, 1)
    """
    return _update(ASSIGN_ADD, ref, value, name)


def assign_sub(ref: Any, value: Any, use_locking: Any = None, name: str | None = None) -> Tensor:
    """Subtract ``value`` from ``ref`` when the op runs; the output is the new value.

    >>> # step = tf.assign_sub(w, 0.1 * grad_w)
    """
    return _update(ASSIGN_SUB, ref, value, name)


def global_variables(scope: str | None = None) -> list[Variable]:
    """The default graph's variables (those whose name starts with ``scope``, when given)."""
    return get_default_graph().get_collection(GLOBAL_VARIABLES, scope)


def trainable_variables(scope: str | None = None) -> list[Variable]:
    """The default graph's trainable variables: what optimizers update by default."""
    return get_default_graph().get_collection(TRAINABLE_VARIABLES, scope)


def local_variables(scope: str | None = None) -> list[Variable]:
    """The default graph's ``local_variables`` collection."""
    return get_default_graph().get_collection(LOCAL_VARIABLES, scope)


def model_variables(scope: str | None = None) -> list[Variable]:
    """The default graph's ``model_variables`` collection."""
    return get_default_graph().get_collection(MODEL_VARIABLES, scope)


def variables_initializer(var_list: list, name: str = "init") -> Operation:
    """An op that runs the initializers of ``var_list``."""
    return cf.group(*[v.initializer for v in var_list], name=name)


def global_variables_initializer() -> Operation:
    """An op that initializes every global variable.

    >>> # sess.run(tf.global_variables_initializer())
    """
    return variables_initializer(global_variables())


initialize_all_variables = global_variables_initializer


def local_variables_initializer() -> Operation:
    """An op that initializes the local variables."""
    return variables_initializer(local_variables(), name="local_init")
