"""``tf.variable_scope``, ``tf.get_variable`` and the per-graph variable store, as TF-1.x has them.

Variable names come from the variable scope only; op names from the name scope that each
``variable_scope`` opens (uniquified: a second ``variable_scope("a")`` puts its ops under ``a_1/``
while its variables stay under ``a/``). Reuse is inherited by inner scopes and cannot be turned
off inside a reusing one; ``default_name`` scopes are made unique per variable scope.
"""
from __future__ import annotations

import contextlib
import enum
import functools
import inspect
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Any

from .. import dtypes as _dt
from ..shapes import TensorShape
from ..ssa.graph import Graph, get_default_graph
from . import initializers
from .convert import convert_to_tensor, graph_of
from .variable_ops import GLOBAL_VARIABLES, LOCAL_VARIABLES, TRAINABLE_VARIABLES, Variable

__all__ = ["AUTO_REUSE", "VariableScope", "variable_scope", "get_variable_scope", "get_variable",
           "get_local_variable", "no_regularizer"]

REGULARIZATION_LOSSES = "regularization_losses"
_STORE_KEY = "__variable_store"


class _ReuseMode(enum.Enum):
    """``tf.AUTO_REUSE``: create a variable when it does not exist, share it when it does."""
    AUTO_REUSE = 1


AUTO_REUSE = _ReuseMode.AUTO_REUSE


def no_regularizer(_: Any) -> None:
    """The regularizer that adds no loss (turns off a scope's regularizer for one variable)."""
    return None


class _Store:
    """One graph's variables by full name, how often each scope name was opened, and each thread's
    current scope."""

    def __init__(self) -> None:
        self.variables: dict[str, Variable] = {}
        self.opened: dict[str, int] = {}
        self._thread = threading.local()

    @property
    def current(self) -> VariableScope:
        if not hasattr(self._thread, "scope"):
            self._thread.scope = VariableScope(False)
        return self._thread.scope

    @current.setter
    def current(self, scope: VariableScope) -> None:
        self._thread.scope = scope

    def open(self, name: str) -> None:
        self.opened[name] = self.opened.get(name, 0) + 1

    def close_subscopes(self, name: str) -> None:
        """Forget the inner scopes of ``name``: re-entering it numbers ``default_name`` scopes from 0 again."""
        for key in self.opened:
            if key.startswith(name + "/"):
                self.opened[key] = 0

    def unique_name(self, prefix: str) -> str:
        """``prefix``, or ``prefix_1``, ``prefix_2``... when that scope was opened before."""
        outer = self.current.name
        full = f"{outer}/{prefix}" if outer else prefix
        if not self.opened.get(full):
            return prefix
        i = 1
        while self.opened.get(f"{full}_{i}"):
            i += 1
        return f"{prefix}_{i}"


def _store(graph: Graph) -> _Store:
    found = graph.get_collection(_STORE_KEY)
    if not found:
        graph.add_to_collection(_STORE_KEY, _Store())
        found = graph.get_collection(_STORE_KEY)
    return found[0]


class VariableScope:
    """A variable scope: its full ``name``, ``reuse`` flag, and the defaults (``initializer``,
    ``regularizer``, ``dtype``, ``custom_getter``...) its ``get_variable`` calls use."""

    def __init__(self, reuse: Any, name: str = "", initializer: Any = None, regularizer: Any = None,
                 caching_device: Any = None, partitioner: Any = None, custom_getter: Any = None,
                 name_scope: str = "", dtype: Any = _dt.float32, use_resource: Any = None,
                 constraint: Any = None) -> None:
        self._name, self._reuse, self._name_scope = name, reuse, name_scope
        self.initializer, self.regularizer, self.caching_device = initializer, regularizer, caching_device
        self.dtype, self.use_resource, self.constraint = _dt.as_dtype(dtype), use_resource, constraint
        self.partitioner, self.custom_getter = partitioner, custom_getter

    @property
    def name(self) -> str:
        return self._name

    @property
    def original_name_scope(self) -> str:
        """The name scope the scope's ops went into when it was first entered (``"a/"``)."""
        return self._name_scope

    @property
    def reuse(self) -> Any:
        return self._reuse

    def reuse_variables(self) -> None:
        """Share variables from now on in this scope (cannot be undone)."""
        self._reuse = True

    def set_initializer(self, initializer: Any) -> None:
        self.initializer = initializer

    def set_regularizer(self, regularizer: Any) -> None:
        self.regularizer = regularizer

    def set_dtype(self, dtype: Any) -> None:
        self.dtype = _dt.as_dtype(dtype)

    def set_use_resource(self, use_resource: Any) -> None:
        self.use_resource = use_resource

    def set_caching_device(self, caching_device: Any) -> None:
        self.caching_device = caching_device

    def set_partitioner(self, partitioner: Any) -> None:
        self.partitioner = partitioner

    def set_custom_getter(self, custom_getter: Any) -> None:
        self.custom_getter = custom_getter

    def get_collection(self, name: str) -> list:
        """The default graph's collection ``name``, only what lies in this scope."""
        return get_default_graph().get_collection(name, self._name + "/" if self._name else None)

    def trainable_variables(self) -> list:
        return self.get_collection(TRAINABLE_VARIABLES)

    def global_variables(self) -> list:
        return self.get_collection(GLOBAL_VARIABLES)

    def local_variables(self) -> list:
        return self.get_collection(LOCAL_VARIABLES)

    def get_variable(self, var_store: Any, name: str, shape: Any = None, dtype: Any = None, initializer: Any = None,
                     regularizer: Any = None, reuse: Any = None, trainable: bool | None = None,
                     collections: Any = None, caching_device: Any = None, partitioner: Any = None,
                     validate_shape: bool = True, use_resource: Any = None, custom_getter: Any = None,
                     constraint: Any = None, synchronization: Any = None, aggregation: Any = None) -> Variable:
        """The variable ``<scope>/name`` from ``var_store`` (None: the default graph's), with this
        scope's defaults for what the call leaves out."""
        store = var_store if isinstance(var_store, _Store) else _store(get_default_graph())
        partitioner = self.partitioner if partitioner is None else partitioner
        if partitioner is not None:
            raise NotImplementedError(f"get_variable({name!r}): partitioned variables (partitioner=) are not "
                                      "supported by s2sgrad")
        full_name = f"{self._name}/{name}" if self._name else name
        if dtype is not None and initializer is not None and not callable(initializer):
            init_dtype = convert_to_tensor(initializer).dtype.base_dtype
            if init_dtype is not _dt.as_dtype(dtype):
                raise ValueError(f"Initializer type '<dtype: '{init_dtype.name}'>' and explicit dtype "
                                 f"'<dtype: '{_dt.as_dtype(dtype).name}'>' "
                                 "don't match.")
        request = {"shape": shape, "dtype": self.dtype if dtype is None else _dt.as_dtype(dtype),
                   "initializer": self.initializer if initializer is None else initializer,
                   "regularizer": self.regularizer if regularizer is None else regularizer,
                   "reuse": self._reuse if reuse is None else reuse, "trainable": trainable,
                   "collections": collections, "caching_device": caching_device, "partitioner": None,
                   "validate_shape": validate_shape, "use_resource": use_resource,
                   "synchronization": synchronization, "aggregation": aggregation}
        getter: Callable[..., Variable] = functools.partial(_true_getter, store)
        custom_getter = self.custom_getter if custom_getter is None else custom_getter
        with get_default_graph().name_scope(None):
            if custom_getter is None:
                return getter(full_name, constraint=self.constraint if constraint is None else constraint, **request)
            if not callable(custom_getter):
                raise ValueError(f"Passed a custom_getter which is not callable: {custom_getter}")
            if _takes(custom_getter, "constraint"):
                request["constraint"] = self.constraint if constraint is None else constraint
            return custom_getter(getter=getter, name=full_name, **request)


def _takes(function: Callable, parameter: str) -> bool:
    params = inspect.signature(function).parameters.values()
    return any(p.name == parameter or p.kind is p.VAR_KEYWORD for p in params)


def _true_getter(store: _Store, name: str, shape: Any = None, dtype: Any = _dt.float32, initializer: Any = None,
                 regularizer: Any = None, reuse: Any = None, trainable: bool | None = None, collections: Any = None,
                 constraint: Any = None, validate_shape: bool = True, **_ignored: Any) -> Variable:
    """Share ``store``'s variable ``name`` or create it, as ``reuse`` allows (what custom getters wrap)."""
    from_value = initializer is not None and not callable(initializer)
    if shape is not None and from_value:
        raise ValueError("If initializer is a constant, do not specify shape.")
    dtype, shape = _dt.as_dtype(dtype), TensorShape(shape)
    found = store.variables.get(name)
    if found is not None:
        if reuse is False:
            raise ValueError(f"Variable {name} already exists, disallowed. Did you mean to set reuse=True "
                             "or reuse=tf.AUTO_REUSE in VarScope?")
        if not shape.is_compatible_with(found.shape):
            raise ValueError(f"Trying to share variable {name}, but specified shape {shape} and found shape "
                             f"{found.shape}.")
        if dtype is not found.dtype.base_dtype:
            raise ValueError(f"Trying to share variable {name}, but specified dtype {dtype.name} and found dtype "
                             f"{found.dtype.name}.")
        return found
    if reuse is True:
        raise ValueError(f"Variable {name} does not exist, or was not created with tf.get_variable(). "
                         "Did you mean to set reuse=tf.AUTO_REUSE in VarScope?")
    variable = Variable(_initial_value(name, shape, dtype, initializer, from_value), trainable=trainable,
                        collections=collections, validate_shape=validate_shape, name=name,
                        dtype=None if from_value else dtype, constraint=constraint)
    store.variables[name] = variable
    if regularizer is not None:
        with variable.graph.name_scope(name + "/Regularizer/"):
            loss = regularizer(variable)
        if loss is not None:
            variable.graph.add_to_collection(REGULARIZATION_LOSSES, loss)
    return variable


def _initial_value(name: str, shape: TensorShape, dtype: _dt.DType, initializer: Any, from_value: bool) -> Any:
    """What ``Variable`` gets: the constant, or a function calling the initializer with the full shape."""
    if from_value:
        return initializer
    if initializer is None:
        if dtype.is_floating:
            initializer = initializers.glorot_uniform_initializer()
        elif dtype.is_integer or dtype.is_bool or dtype is _dt.string:
            initializer = initializers.zeros_initializer()
        else:
            raise ValueError(f"An initializer for variable {name} of <dtype: '{dtype.name}'> is required")
    if inspect.isclass(initializer):
        initializer = initializer()
    if shape.is_fully_defined():
        dims = shape.as_list()
        return lambda: initializer(dims, dtype=dtype)
    if not inspect.signature(initializer).parameters:
        return initializer
    raise ValueError("The initializer passed is not valid. It should be a callable with no arguments and the shape "
                     "should not be provided or an instance of `tf.keras.initializers.*' and `shape` should be "
                     "fully defined.")


def get_variable_scope() -> VariableScope:
    """The current variable scope of the default graph (the root scope, named ``""``, outside any)."""
    return _store(get_default_graph()).current


def get_variable(name: str, shape: Any = None, dtype: Any = None, initializer: Any = None, regularizer: Any = None,
                 trainable: bool | None = None, collections: Any = None, caching_device: Any = None,
                 partitioner: Any = None, validate_shape: bool = True, use_resource: Any = None,
                 custom_getter: Any = None, constraint: Any = None, synchronization: Any = None,
                 aggregation: Any = None) -> Variable:
    """The variable ``<scope>/name``: created on first use (initializer, dtype and regularizer default
    to the scope's), shared when the scope reuses; ValueError as TF words it otherwise.

    >>> # with tf.variable_scope("layer1"): w = tf.get_variable("w", [784, 10])   # layer1/w:0
    """
    if not isinstance(name, str):
        raise TypeError(f"get_variable: name must be a string, got {name!r}")
    return get_variable_scope().get_variable(
        None, name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer, trainable=trainable,
        collections=collections, caching_device=caching_device, partitioner=partitioner,
        validate_shape=validate_shape, use_resource=use_resource, custom_getter=custom_getter, constraint=constraint,
        synchronization=synchronization, aggregation=aggregation)


def get_local_variable(name: str, shape: Any = None, dtype: Any = None, initializer: Any = None,
                       regularizer: Any = None, trainable: bool = False, collections: Any = None,
                       caching_device: Any = None, partitioner: Any = None, validate_shape: bool = True,
                       use_resource: Any = None, custom_getter: Any = None, constraint: Any = None,
                       synchronization: Any = None, aggregation: Any = None) -> Variable:
    """``get_variable`` into the ``local_variables`` collection (not global, not trainable)."""
    return get_variable(name, shape, dtype, initializer, regularizer, False, [LOCAL_VARIABLES, *(collections or [])],
                        caching_device, partitioner, validate_shape, use_resource, custom_getter, constraint,
                        synchronization, aggregation)


class variable_scope:  # TF's public name (a class: arguments are checked before the with block)
    """``with tf.variable_scope("layer1"):`` prefixes variable names with ``layer1/`` and opens a
    name scope for ops; ``reuse=True`` / ``tf.AUTO_REUSE`` shares variables; a ``VariableScope``
    object re-enters that scope (its ops under a new name scope named like its last part)."""

    def __init__(self, name_or_scope: Any, default_name: str | None = None, values: Any = None,
                 initializer: Any = None, regularizer: Any = None, caching_device: Any = None,
                 partitioner: Any = None, custom_getter: Any = None, reuse: Any = None, dtype: Any = None,
                 use_resource: Any = None, constraint: Any = None, auxiliary_name_scope: bool = True) -> None:
        if default_name is None and name_or_scope is None:
            raise TypeError("If default_name is None then name_or_scope is required")
        if name_or_scope is not None and not isinstance(name_or_scope, (VariableScope, str)):
            raise TypeError("VariableScope: name_or_scope must be a string or VariableScope.")
        reuse = None if reuse is False else reuse  # False means "inherit", as in TF
        if not (reuse is True or reuse is None or reuse is AUTO_REUSE):
            raise ValueError("The reuse parameter must be True or False or None.")
        if not isinstance(auxiliary_name_scope, bool):
            raise TypeError(f"The auxiliary_name_scope must be `True` or `False`, while get {auxiliary_name_scope}")
        self._name_or_scope, self._default_name, self._reuse = name_or_scope, default_name, reuse
        self._aux = auxiliary_name_scope
        self._settings = {"initializer": initializer, "regularizer": regularizer, "caching_device": caching_device,
                          "partitioner": partitioner, "dtype": dtype, "use_resource": use_resource,
                          "constraint": constraint}
        self._custom_getter = custom_getter
        self._graph = graph_of(list(values)) if values else get_default_graph()
        self._exits: list[contextlib.ExitStack] = []

    def __enter__(self) -> VariableScope:
        stack = contextlib.ExitStack()
        try:
            stack.enter_context(self._graph.as_default())
            scope = self._enter(stack)
        except BaseException:
            stack.close()
            raise
        self._exits.append(stack)
        return scope

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self._exits.pop().close()

    def _name_scope(self, stack: contextlib.ExitStack, name: str) -> str | None:
        """Open the scope's name scope (``name``; the current one again without the auxiliary name scope)."""
        if not self._aux:
            current = self._graph.get_name_scope()
            return stack.enter_context(self._graph.name_scope(current + "/" if current else ""))
        return stack.enter_context(self._graph.name_scope(name)) if name else None

    def _enter(self, stack: contextlib.ExitStack) -> VariableScope:
        store = _store(self._graph)
        outer, target = store.current, self._name_or_scope
        if isinstance(target, VariableScope):
            self._name_scope(stack, target.name.split("/")[-1])
            scope = VariableScope(target.reuse if not self._reuse else self._reuse, target.name, target.initializer,
                                  target.regularizer, target.caching_device, target.partitioner,
                                  target.custom_getter, target.original_name_scope, target.dtype,
                                  target.use_resource, target.constraint)
            store.open(target.name)
            saved = dict(store.opened)
            stack.callback(lambda: setattr(store, "opened", saved))
        else:
            if target is None:
                if self._reuse:
                    raise ValueError("reuse=True cannot be used without a name_or_scope")
                name_scope = self._name_scope(stack, self._default_name or "")
                target = store.unique_name(self._default_name or "")
            else:
                name_scope = self._name_scope(stack, target)
            full = f"{outer.name}/{target}" if outer.name else target
            scope = VariableScope(self._reuse or outer.reuse, full, outer.initializer, outer.regularizer,
                                  outer.caching_device, outer.partitioner, outer.custom_getter,
                                  target if name_scope is None else name_scope, outer.dtype, outer.use_resource,
                                  outer.constraint)
            store.open(full)
            stack.callback(store.close_subscopes, full)
        self._apply_settings(scope, outer)
        stack.callback(setattr, store, "current", outer)
        store.current = scope
        return scope

    def _apply_settings(self, scope: VariableScope, outer: VariableScope) -> None:
        for key, value in self._settings.items():
            if value is not None:
                setattr(scope, key, _dt.as_dtype(value) if key == "dtype" else value)
        if self._custom_getter is not None:
            scope.set_custom_getter(_chain(self._custom_getter, outer.custom_getter))


def _chain(custom_getter: Callable, outer_getter: Callable | None) -> Callable:
    """A scope's custom getter calling the enclosing scope's one as its ``getter``."""
    if outer_getter is None:
        return custom_getter

    def chained(getter: Callable, *args: Any, **kwargs: Any) -> Any:
        return custom_getter(functools.partial(outer_getter, getter), *args, **kwargs)
    return chained

