"""``tf.GraphKeys`` and the default graph's collections: ``tf.get_collection(tf.GraphKeys.LOSSES)``.

The key strings are TensorFlow's, so programs that use the strings or the names alike see
the variables, losses and global step that s2sgrad records.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .ops.indexed_slices import IndexedSlices
from .ops.variables import GLOBAL_VARIABLES, LOCAL_VARIABLES, MODEL_VARIABLES, TRAINABLE_VARIABLES, Variable
from .ssa.graph import Tensor, get_default_graph

__all__ = ["GraphKeys", "add_to_collection", "add_to_collections", "get_collection", "get_collection_ref", "is_tensor"]


class GraphKeys:
    """TensorFlow's standard collection names (s2sgrad fills the variable, loss and step ones)."""

    GLOBAL_VARIABLES = VARIABLES = GLOBAL_VARIABLES
    TRAINABLE_VARIABLES = TRAINABLE_VARIABLES
    LOCAL_VARIABLES = LOCAL_VARIABLES
    MODEL_VARIABLES = MODEL_VARIABLES
    CONCATENATED_VARIABLES = "concatenated_variables"
    LOCAL_RESOURCES = "local_resources"
    RESOURCES = "resources"
    TRAINABLE_RESOURCE_VARIABLES = "trainable_resource_variables"
    READY_OP = "ready_op"
    READY_FOR_LOCAL_INIT_OP = "ready_for_local_init_op"
    SUMMARY_OP = "summary_op"
    EVAL_STEP = "eval_step"
    COND_CONTEXT = "cond_context"
    WHILE_CONTEXT = "while_context"
    ASSET_FILEPATHS = "asset_filepaths"
    SAVEABLE_OBJECTS = "saveable_objects"
    METRIC_VARIABLES = "metric_variables"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    LOSSES = "losses"
    REGULARIZATION_LOSSES = "regularization_losses"
    GLOBAL_STEP = "global_step"
    UPDATE_OPS = "update_ops"
    SUMMARIES = "summaries"
    TRAIN_OP = "train_op"
    INIT_OP = "init_op"
    LOCAL_INIT_OP = "local_init_op"
    SAVERS = "savers"
    WEIGHTS = "weights"
    BIASES = "biases"
    ACTIVATIONS = "activations"
    QUEUE_RUNNERS = "queue_runners"
    TABLE_INITIALIZERS = "table_initializer"
    SUMMARY_OP = "summary_op"
    READY_OP = "ready_op"
    READY_FOR_LOCAL_INIT_OP = "ready_for_local_init_op"


def get_collection(key: str, scope: str | None = None) -> list:
    """The default graph's collection ``key`` (a copy), optionally only names starting with ``scope``."""
    return get_default_graph().get_collection(key, scope)


def get_collection_ref(key: str) -> list:
    """The default graph's collection ``key`` itself: what is appended to it is in the collection."""
    return get_default_graph().get_collection_ref(key)


def add_to_collection(name: str, value: Any) -> None:
    """Append ``value`` to the default graph's collection ``name``."""
    get_default_graph().add_to_collection(name, value)


def add_to_collections(names: str | Iterable[str], value: Any) -> None:
    """Append ``value`` to each of the collections ``names`` (one name is accepted too)."""
    for name in [names] if isinstance(names, str) else set(names):
        add_to_collection(name, value)


def is_tensor(x: Any) -> bool:
    """Whether ``x`` is a graph tensor: a Tensor, a Variable or IndexedSlices (not an array or a number)."""
    return isinstance(x, (Tensor, Variable, IndexedSlices))
