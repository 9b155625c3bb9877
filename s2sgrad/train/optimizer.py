"""The TF-v1 Optimizer protocol: ``compute_gradients`` -> ``apply_gradients`` = ``minimize``.

Subclasses write ``_apply_dense(grad, var)`` as ordinary ops (assignments whose new values
the Session commits at the end of the run); slot variables are ordinary, non-trainable
variables named ``<var>/<slot>`` and initialised by ``global_variables_initializer``.
"""
from __future__ import annotations

from typing import Any, Sequence

from ..backprop import gradients
from ..graph import Operation, Tensor
from ..ops import array_ops as a
from ..ops import control_flow as cf
from ..ops import variables as v
from ..ops.convert import convert_to_tensor
from ..ops.indexed_slices import IndexedSlices

__all__ = ["Optimizer", "get_or_create_global_step", "get_global_step"]


class Optimizer:
    """Base class; ``GATE_*`` are accepted for compatibility (runs are ordered by construction)."""

    GATE_NONE, GATE_OP, GATE_GRAPH = 0, 1, 2

    def __init__(self, use_locking: bool, name: str) -> None:
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._name = name
        self._slots: dict[str, dict[Any, v.Variable]] = {}
        self._non_slots: dict[str, v.Variable] = {}

    def get_name(self) -> str:
        return self._name

    def minimize(self, loss: Any, global_step: Any = None, var_list: Sequence[Any] | None = None,
                 gate_gradients: int = GATE_OP, aggregation_method: Any = None,
                 colocate_gradients_with_ops: bool = False, name: str | None = None,
                 grad_loss: Any = None) -> Operation:
        """Add ops that update ``var_list`` (default: trainable variables) to decrease ``loss``."""
        grads_and_vars = self.compute_gradients(loss, var_list=var_list, aggregation_method=aggregation_method,
                                                grad_loss=grad_loss)
        if not any(g is not None for g, _ in grads_and_vars):
            raise ValueError(
                "No gradients provided for any variable, check your graph for ops that do not support gradients, "
                f"between variables {[str(var) for _, var in grads_and_vars]} and loss {loss}.")
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def compute_gradients(self, loss: Any, var_list: Sequence[Any] | None = None, gate_gradients: int = GATE_OP,
                          aggregation_method: Any = None, colocate_gradients_with_ops: bool = False,
                          grad_loss: Any = None) -> list[tuple[Any, v.Variable]]:
        """``[(gradient or None, variable), ...]`` of ``loss`` for each variable."""
        if callable(loss):
            raise NotImplementedError("A callable loss is for eager execution; pass the loss tensor.")
        loss = convert_to_tensor(loss)
        if var_list is None:
            var_list = v.trainable_variables() or [x for x in loss.graph.get_collection(v.TRAINABLE_VARIABLES)]
        var_list = list(var_list)
        if not var_list:
            raise ValueError("No variables to optimize.")
        for var in var_list:
            if not isinstance(var, v.Variable):
                raise TypeError(f"var_list must contain tf.Variables, got {var!r}")
        grads = gradients(loss, [var.value() for var in var_list],
                                     grad_ys=None if grad_loss is None else [grad_loss],
                                     aggregation_method=aggregation_method)
        return list(zip(grads, var_list))

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None, name: str | None = None) -> Operation:
        """Ops applying each (gradient, variable) update; with ``global_step``, it is incremented."""
        pairs = [(g, var) for g, var in grads_and_vars]
        if not pairs:
            raise ValueError("No variables provided.")
        live = [(g, var) for g, var in pairs if g is not None]
        if not live:
            raise ValueError(f"No gradients provided for any variable: {[str(var) for _, var in pairs]}.")
        graph = live[0][1].graph
        with graph.as_default():
            with graph.name_scope(None):
                self._create_slots([var for _, var in live])
            with graph.name_scope(name or self._name):
                self._prepare()
                updates = []
                for g, var in live:
                    g = convert_to_tensor(g) if isinstance(g, IndexedSlices) else convert_to_tensor(g)
                    if g.dtype is not var.dtype:
                        raise TypeError(f"gradient of dtype {g.dtype.name} for variable {var.name} of dtype "
                                        f"{var.dtype.name}")
                    with graph.name_scope("update_" + var.op.name):
                        updates.append(self._apply_dense(g, var))
                finish = self._finish(updates, "update" if global_step is not None else (name or self._name))
                if global_step is None:
                    return finish
                with graph.control_dependencies([finish]):
                    return v.assign_add(global_step, 1, name=name or self._name).op

    # -- for subclasses ------------------------------------------------------------------------------
    def _create_slots(self, var_list: list) -> None:
        """Create slot variables for ``var_list`` (none by default)."""

    def _prepare(self) -> None:
        """Convert hyper-parameters to tensors before the updates are built."""

    def _apply_dense(self, grad: Tensor, var: v.Variable) -> Any:
        raise NotImplementedError

    def _finish(self, update_ops: list, name: str) -> Operation:
        return cf.group(*update_ops, name=name)

    def _zeros_slot(self, var: v.Variable, slot_name: str, op_name: str) -> v.Variable:
        return self._slot_with_init(var, slot_name, op_name, 0.0)

    def _slot_with_init(self, var: v.Variable, slot_name: str, op_name: str, value: float) -> v.Variable:
        slots = self._slots.setdefault(slot_name, {})
        if var not in slots:
            init = a.zeros(var.shape.as_list(), var.dtype) if value == 0 else \
                a.fill(var.shape.as_list(), convert_to_tensor(value, var.dtype))
            slots[var] = v.Variable(init, trainable=False, name=f"{var.op.name}/{op_name}")
        return slots[var]

    def get_slot(self, var: v.Variable, name: str) -> v.Variable | None:
        return self._slots.get(name, {}).get(var)

    def get_slot_names(self) -> list[str]:
        return sorted(self._slots)

    def variables(self) -> list[v.Variable]:
        return [s for slots in self._slots.values() for s in slots.values()] + list(self._non_slots.values())


def get_or_create_global_step(graph: Any = None) -> v.Variable:
    """The graph's ``global_step`` variable (int64, not trainable), created on first use."""
    from ..graph import get_default_graph
    graph = graph or get_default_graph()
    step = get_global_step(graph)
    if step is None:
        with graph.as_default(), graph.name_scope(None):
            step = v.Variable(a.zeros([], "int64"), trainable=False, name="global_step",
                              collections=[v.GLOBAL_VARIABLES, "global_step"])
    return step


def get_global_step(graph: Any = None) -> v.Variable | None:
    from ..graph import get_default_graph
    found = (graph or get_default_graph()).get_collection("global_step")
    return found[0] if found else None
