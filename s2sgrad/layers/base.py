"""``tf.layers.Layer``: TF-1.x's graph-mode layer, whose variables live in a variable scope.

On its first call a layer opens ``variable_scope(name, default_name=<snake-case class name>)``
(so unnamed layers get ``dense``, ``dense_1``...) and remembers it; every later call re-enters
that scope with ``reuse=True`` and puts its ops under the name scope of the first call. New
weights' regularization losses go to ``REGULARIZATION_LOSSES``, a layer's updates (batch
normalization's moving averages) to ``UPDATE_OPS``.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .. import dtypes as _dt
from ..ops.convert import convert_to_tensor, graph_of, is_tensor_like
from ..ops.initializers import ones_initializer, zeros_initializer
from ..ops.variable_ops import Variable
from ..ops.variable_scope import REGULARIZATION_LOSSES, VariableScope, get_variable, variable_scope
from ..shapes import TensorShape
from ..ssa.graph import Graph, Tensor, get_default_graph

__all__ = ["Layer", "InputSpec", "ZEROS", "ONES"]

UPDATE_OPS = "update_ops"
ZEROS, ONES = zeros_initializer(), ones_initializer()  # the layers' default bias/gamma... initializers
_NAMES_KEY = "__layer_names"


def _snake_case(name: str) -> str:
    """``Conv2DTranspose`` -> ``conv2d_transpose``, as TF names layers."""
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", name)).lower()


def _unique_layer_name(graph: Graph, base: str) -> str:
    """``base``, then ``base_1``, ``base_2``... per graph (the names of unnamed layers)."""
    found = graph.get_collection(_NAMES_KEY)
    counts: dict[str, int] = found[0] if found else {}
    if not found:
        graph.add_to_collection(_NAMES_KEY, counts)
    n = counts.get(base, 0)
    counts[base] = n + 1
    return base if n == 0 else f"{base}_{n}"


def _add_to_collection(graph: Graph, key: str, items: Sequence[Any]) -> None:
    """Append the ``items`` not yet in collection ``key``."""
    collection = graph.get_collection_ref(key)
    present = {id(item) for item in collection}
    collection.extend(item for item in items if id(item) not in present)


class InputSpec:
    """What a layer accepts: ``ndim``, ``min_ndim`` and fixed sizes of some ``axes`` ({axis: size})."""

    def __init__(self, ndim: int | None = None, min_ndim: int | None = None, axes: dict | None = None) -> None:
        self.ndim, self.min_ndim, self.axes = ndim, min_ndim, dict(axes or {})

    def check(self, layer_name: str, shape: TensorShape) -> None:
        """ValueError worded as TF's when ``shape`` does not fit."""
        head = f'Input 0 of layer "{layer_name}" is incompatible with the layer: '
        if shape.ndims is None:
            return
        if self.ndim is not None and shape.ndims != self.ndim:
            raise ValueError(f"{head}expected ndim={self.ndim}, found ndim={shape.ndims}. "
                             f"Full shape received: {tuple(shape.as_list())}")
        if self.min_ndim is not None and shape.ndims < self.min_ndim:
            raise ValueError(f"{head}expected min_ndim={self.min_ndim}, found ndim={shape.ndims}. "
                             f"Full shape received: {tuple(shape.as_list())}")
        for axis, size in self.axes.items():
            got = shape.as_list()[axis]
            if got is not None and got != size:
                raise ValueError(f"{head}expected axis {axis} of input shape to have value {size}, but received "
                                 f"input with shape {tuple(shape.as_list())}")

    def __repr__(self) -> str:
        parts = [f"{k}={v}" for k, v in (("ndim", self.ndim), ("min_ndim", self.min_ndim),
                                         ("axes", self.axes or None)) if v is not None]
        return f"InputSpec({', '.join(parts)})"


class Layer:
    """Base class of the ``tf.layers`` classes: ``build(input_shape)`` makes the weights with
    ``add_weight``, ``call(inputs, ...)`` computes; ``layer(inputs)`` / ``layer.apply(inputs)`` run both."""

    def __init__(self, trainable: bool = True, name: str | None = None, dtype: Any = None, **kwargs: Any) -> None:
        unknown = set(kwargs) - {"_reuse", "_scope", "activity_regularizer", "input_shape", "batch_input_shape"}
        if unknown:
            raise TypeError(f"Keyword argument not understood: {sorted(unknown)[0]!r}")
        if kwargs.get("activity_regularizer") is not None:
            raise NotImplementedError("tf.layers: activity_regularizer= is not supported by s2sgrad")
        self.trainable = bool(trainable)
        self._dtype = None if dtype is None else _dt.as_dtype(dtype)
        self._reuse, self._scope = kwargs.get("_reuse"), None
        if kwargs.get("_scope"):  # the functional forms (tf.layers.dense(..., name=)) fix the scope now
            with variable_scope(kwargs["_scope"]) as captured:
                self._scope = captured
        self._base_name = name if isinstance(name, str) and name else _snake_case(type(self).__name__)
        self._name = name or _unique_layer_name(get_default_graph(), self._base_name)
        self._trainable_weights: list[Variable] = []
        self._non_trainable_weights: list[Variable] = []
        self._losses: list[Tensor] = []
        self._updates: list[Tensor] = []
        self.built = False
        self.input_spec: InputSpec | None = None

    # -- what the layer holds --------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self) -> str | None:
        return None if self._dtype is None else self._dtype.name

    @property
    def scope_name(self) -> str:
        if self._scope is None:
            raise ValueError("No name available for layer scope because the layer \"" + self._name +
                             "\" has not been used yet. The scope name is determined the first time the layer "
                             "instance is called. You must therefore call the layer before querying `scope_name`.")
        return self._scope.name

    @property
    def trainable_weights(self) -> list[Variable]:
        return list(self._trainable_weights) if self.trainable else []

    @property
    def non_trainable_weights(self) -> list[Variable]:
        extra = [] if self.trainable else self._trainable_weights
        return [*extra, *self._non_trainable_weights]

    @property
    def weights(self) -> list[Variable]:
        return self.trainable_weights + self.non_trainable_weights

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights
    variables = weights

    @property
    def losses(self) -> list[Tensor]:
        return list(self._losses)

    @property
    def updates(self) -> list[Tensor]:
        return list(self._updates)

    def add_loss(self, losses: Any, inputs: Any = None) -> None:
        """Record ``losses`` (a tensor or a list) as this layer's and in ``REGULARIZATION_LOSSES``."""
        new = [loss for loss in (losses if isinstance(losses, (list, tuple)) else [losses]) if loss is not None]
        self._losses.extend(new)
        if new:
            _add_to_collection(new[0].graph, REGULARIZATION_LOSSES, new)

    def add_update(self, updates: Any, inputs: Any = None) -> None:
        """Record ``updates`` (ops or tensors to run each training step, such as moving averages)."""
        self._updates.extend(updates if isinstance(updates, (list, tuple)) else [updates])

    # -- building and calling ---------------------------------------------------------------------
    def build(self, input_shape: TensorShape) -> None:
        self.built = True

    def call(self, inputs: Any, **kwargs: Any) -> Any:
        return inputs

    def _set_scope(self, scope: Any = None) -> None:
        if self._scope is None:
            if self._reuse:
                with variable_scope(scope if scope is not None else self._base_name) as captured:
                    self._scope = captured
            else:
                with variable_scope(scope, default_name=self._base_name) as captured:
                    self._scope = captured

    def add_weight(self, name: str, shape: Any, dtype: Any = None, initializer: Any = None, regularizer: Any = None,
                   trainable: bool | None = None, constraint: Any = None, **kwargs: Any) -> Variable:
        """A weight ``<layer scope>/name`` made with ``get_variable`` (shared when the layer is built or
        reuses); a new weight's ``regularizer`` loss is added under ``<name scope>/<name>/Regularizer``."""
        trainable = True if trainable is None else trainable
        graph = get_default_graph()
        existing = set(map(id, graph.get_collection("variables")))
        self._set_scope(None)
        scope = self._entered_scope()
        with variable_scope(scope, reuse=self.built or self._reuse, auxiliary_name_scope=False):
            with graph.name_scope(scope.original_name_scope):
                variable = get_variable(name, shape, dtype=_dt.as_dtype(dtype or self._dtype or _dt.float32),
                                        initializer=initializer, trainable=trainable and self.trainable,
                                        constraint=constraint, **kwargs)
                if regularizer is not None and id(variable) not in existing:
                    with graph.name_scope(name + "/Regularizer"):
                        self.add_loss(regularizer(variable))
        listed = self._trainable_weights if trainable else self._non_trainable_weights
        listed.append(variable)
        return variable

    def _entered_scope(self) -> VariableScope:
        assert self._scope is not None
        return self._scope

    def __call__(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        scope_arg = kwargs.pop("scope", None)
        graph = graph_of(list(inputs) if isinstance(inputs, (list, tuple)) else [inputs])
        with graph.as_default():
            self._set_scope(scope_arg)
            scope = self._entered_scope()
            with variable_scope(scope, reuse=True if self.built else self._reuse, auxiliary_name_scope=False):
                with graph.name_scope(scope.original_name_scope):
                    several = isinstance(inputs, (list, tuple)) and all(map(is_tensor_like, inputs))
                    if not several and not is_tensor_like(inputs):
                        inputs = convert_to_tensor(inputs)
                    if not self.built:
                        shape = _shape_of(inputs)
                        if self._dtype is None and not several:
                            self._dtype = inputs.dtype.base_dtype
                        if self.input_spec is not None:
                            self.input_spec.check(self._name, shape)
                        self.build(shape)
                        self.built = True
                    elif self.input_spec is not None:
                        self.input_spec.check(self._name, _shape_of(inputs))
                    outputs = self.call(inputs, *args, **kwargs)
            _add_to_collection(graph, UPDATE_OPS, self._updates)
        return outputs

    def apply(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        """The same as calling the layer."""
        return self(inputs, *args, **kwargs)


def _shape_of(inputs: Any) -> Any:
    if isinstance(inputs, (list, tuple)):
        return [TensorShape(getattr(x, "shape", None)) for x in inputs]
    return inputs.shape
