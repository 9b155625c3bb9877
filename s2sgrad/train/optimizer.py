"""The TF-v1 Optimizer protocol: ``compute_gradients`` -> ``apply_gradients`` = ``minimize``.

Subclasses write ``_apply_dense(grad, var)`` as ordinary ops. Reads of a variable in one run
see its value from before the run and an assignment's output is the new value, so an update
that needs a slot's new value (Adam's ``m_t``) reads it from the slot's assign op. Slot
variables are ordinary, non-trainable variables named ``<var>/<optimizer name>`` (``_1``,
``_2``... for further slots), initialised by ``global_variables_initializer``.
Hyper-parameters become tensors once per ``apply_gradients`` (Python floats as float32,
as in TF) and are cast to each variable's dtype.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .. import dtypes as _dt
from ..autodiff.backprop import gradients
from ..ops import array_ops as a
from ..ops import control_flow as cf
from ..ops import math_ops as m
from ..ops import variables as v
from ..ops.convert import convert_to_tensor, is_tensor_like
from ..ops.indexed_slices import IndexedSlices
from ..ssa.graph import Graph, Operation, Tensor, get_default_graph

__all__ = ["Optimizer", "RowwiseOptimizer"]

_FLOAT_TYPES = (_dt.float16, _dt.float32, _dt.float64)


class Optimizer:
    """Base class; ``GATE_*`` are accepted for compatibility (runs are ordered by construction)."""

    GATE_NONE, GATE_OP, GATE_GRAPH = 0, 1, 2

    def __init__(self, use_locking: bool, name: str) -> None:
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._use_locking = use_locking
        self._name = name
        self._slots: dict[str, dict[v.Variable, v.Variable]] = {}
        self._non_slots: dict[tuple[str, Graph], v.Variable] = {}
        self._hyper_values: dict[str, Any] = {}
        self._hyper_tensors: dict[str, Tensor] = {}

    def get_name(self) -> str:
        return self._name

    def minimize(self, loss: Any, global_step: Any = None, var_list: Sequence[Any] | None = None,
                 gate_gradients: int = GATE_OP, aggregation_method: Any = None,
                 colocate_gradients_with_ops: bool = False, name: str | None = None,
                 grad_loss: Any = None) -> Operation:
        """Add ops that update ``var_list`` (default: trainable variables) to decrease ``loss``.

        >>> # train_op = tf.train.AdamOptimizer(1e-3).minimize(loss, global_step=step)
        """
        grads_and_vars = self.compute_gradients(loss, var_list=var_list, gate_gradients=gate_gradients,
                                                aggregation_method=aggregation_method, grad_loss=grad_loss)
        if not any(g is not None for g, _ in grads_and_vars):
            raise ValueError(
                "No gradients provided for any variable, check your graph for ops that do not support gradients, "
                f"between variables {[str(var) for _, var in grads_and_vars]} and loss {loss}.")
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def compute_gradients(self, loss: Any, var_list: Sequence[Any] | None = None, gate_gradients: int = GATE_OP,
                          aggregation_method: Any = None, colocate_gradients_with_ops: bool = False,
                          grad_loss: Any = None) -> list[tuple[Tensor | IndexedSlices | None, v.Variable]]:
        """``[(gradient or None, variable), ...]`` of ``loss`` for each variable."""
        if callable(loss):
            raise NotImplementedError("A callable loss is for eager execution; pass the loss tensor.")
        if gate_gradients not in (self.GATE_NONE, self.GATE_OP, self.GATE_GRAPH):
            raise ValueError("gate_gradients must be one of: Optimizer.GATE_NONE, Optimizer.GATE_OP, "
                             f"Optimizer.GATE_GRAPH.  Not {gate_gradients}")
        loss = convert_to_tensor(loss)
        _check_float([loss])
        if var_list is None:
            var_list = loss.graph.get_collection(v.TRAINABLE_VARIABLES)
        if not isinstance(var_list, (list, tuple, set)):
            raise TypeError(f"var_list must be a list of tf.Variables, got {var_list!r}")
        var_list = list(var_list)
        if not var_list:
            raise ValueError("No variables to optimize.")
        for var in var_list:
            if not isinstance(var, v.Variable):
                raise NotImplementedError(f"Trying to optimize unsupported type {var!r}: var_list must hold "
                                          "tf.Variables")
        _check_float(var_list)
        grad_ys = None if grad_loss is None else [grad_loss]
        grads = gradients(loss, [var.value() for var in var_list], grad_ys=grad_ys,
                          aggregation_method=aggregation_method)
        return list(zip(grads, var_list, strict=True))

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None, name: str | None = None) -> Operation:
        """Ops applying each (gradient, variable) update; with ``global_step``, it is incremented
        after them. IndexedSlices gradients are applied as their dense sum (repeated indices add up,
        as TF deduplicates them) through ``_apply_sparse``, which knows which rows they touch."""
        if isinstance(grads_and_vars, (str, bytes, dict)) or not isinstance(grads_and_vars, Iterable):
            raise TypeError(f"grads_and_vars must be a list of (gradient, variable) pairs, got {grads_and_vars!r}")
        grads_and_vars = tuple(grads_and_vars)   # zip(grads, variables) is what people pass
        if not all(isinstance(pair, (list, tuple)) and len(pair) == 2 for pair in grads_and_vars):
            raise TypeError(f"grads_and_vars must be a list of (gradient, variable) pairs, got {grads_and_vars!r}")
        pairs = [(g, var) for g, var in grads_and_vars]
        if not pairs:
            raise ValueError("No variables provided.")
        for g, var in pairs:
            if not isinstance(var, v.Variable):
                raise NotImplementedError(f"Trying to update a Tensor {var!r}: only tf.Variables can be updated")
            if g is not None and not (is_tensor_like(g) or isinstance(g, IndexedSlices)):
                raise TypeError(f"Gradient must be a Tensor, IndexedSlices, or None: {g!r}")
        live = [(g, var) for g, var in pairs if g is not None]
        if not live:
            raise ValueError(f"No gradients provided for any variable: {[str(var) for _, var in pairs]}.")
        graph = live[0][1].graph
        with graph.as_default():
            with graph.name_scope(None):
                self._create_slots([var for _, var in live])
            with graph.name_scope(name or self._name) as scope:
                self._prepare()
                updates = []
                for g, var in live:
                    rows = _touched_rows(g, var) if isinstance(g, IndexedSlices) else None
                    g = convert_to_tensor(g)
                    if g.dtype is not var.dtype:
                        raise TypeError(f"gradient of dtype {g.dtype.name} for variable {var.name} of dtype "
                                        f"{var.dtype.name}")
                    with graph.name_scope("update_" + var.op.name):
                        updates.append(self._apply_dense(g, var) if rows is None else self._apply_sparse(g, rows, var))
                if global_step is None:
                    return self._finish(updates, scope)
                finish = self._finish(updates, "update")
                with graph.control_dependencies([finish]):
                    return v.assign_add(global_step, 1, name=scope).op

    # -- slots and non-slot variables ------------------------------------------------------------------
    def get_slot(self, var: v.Variable, name: str) -> v.Variable | None:
        """The slot variable ``name`` (e.g. ``"m"``) of ``var``, or None."""
        return self._slots.get(name, {}).get(var)

    def get_slot_names(self) -> list[str]:
        return sorted(self._slots)

    def variables(self) -> list[v.Variable]:
        """The optimizer's own variables (slots, and non-slot ones such as Adam's beta powers)."""
        graph = get_default_graph()
        own = [s for slots in self._slots.values() for s in slots.values() if s.graph is graph]
        own += [var for (_, g), var in self._non_slots.items() if g is graph]
        return sorted(own, key=lambda var: var.name)

    def _zeros_slot(self, var: v.Variable, slot_name: str, op_name: str) -> v.Variable:
        return self._slot_with_init(var, slot_name, op_name, 0.0)

    def _slot_with_init(self, var: v.Variable, slot_name: str, op_name: str, value: float) -> v.Variable:
        """The slot ``slot_name`` of ``var`` filled with ``value``, created on first use."""
        slots = self._slots.setdefault(slot_name, {})
        if var not in slots:
            with var.graph.as_default():
                if var.shape.is_fully_defined():
                    init = a.fill(var.shape.as_list(), convert_to_tensor(value, var.dtype))
                else:
                    init = a.zeros_like(var.initial_value) + value
                slots[var] = v.Variable(init, trainable=False, name=f"{var.op.name}/{op_name}")
        return slots[var]

    def _non_slot_variable(self, initial_value: Any, name: str, graph: Graph) -> v.Variable:
        """A variable shared by all updates of this optimizer in ``graph`` (created once)."""
        key = (name, graph)
        if key not in self._non_slots:
            with graph.as_default(), graph.name_scope(None):
                self._non_slots[key] = v.Variable(initial_value, trainable=False, name=name)
        return self._non_slots[key]

    # -- hyper-parameters ---------------------------------------------------------------------------
    def _set_hyper(self, name: str, value: Any) -> None:
        if value is None:
            raise ValueError(f"{self._name}: {name} must not be None")
        if not (callable(value) or is_tensor_like(value) or isinstance(value, (int, float))) \
                or isinstance(value, bool):
            raise TypeError(f"{self._name}: {name} must be a number or a scalar tensor, got {value!r}")
        self._hyper_values[name] = value

    def _prepare(self) -> None:
        """Make each hyper-parameter a tensor (Python floats become float32, as in TF)."""
        for name, value in self._hyper_values.items():
            value = value() if callable(value) and not is_tensor_like(value) else value
            t = convert_to_tensor(value, name=name)
            if t.shape.rank not in (None, 0):
                raise ValueError(f"{self._name}: {name} must be a scalar, got shape {t.shape}")
            self._hyper_tensors[name] = t

    def _hyper(self, name: str, var: v.Variable) -> Tensor:
        """Hyper-parameter ``name`` in ``var``'s dtype."""
        return m.cast(self._hyper_tensors[name], var.dtype)

    # -- for subclasses -----------------------------------------------------------------------------
    def _create_slots(self, var_list: list) -> None:
        """Create slot variables for ``var_list`` (none by default)."""

    def _apply_dense(self, grad: Tensor, var: v.Variable) -> Operation:
        raise NotImplementedError

    def _apply_sparse(self, grad: Tensor, rows: Tensor, var: v.Variable) -> Operation:
        """Apply an IndexedSlices gradient, given dense as ``grad``; ``rows`` (bool, broadcasting against
        ``var``) marks the rows it touches. TF's sparse kernels leave the other rows' values and slots
        alone; where a zero gradient does the same (SGD, Adagrad, Adam), that is the dense update."""
        return self._apply_dense(grad, var)

    @staticmethod
    def _in_rows(rows: Tensor | None, new: Any, old: Any) -> Any:
        """``new`` in the touched ``rows`` and ``old`` elsewhere (all of ``new`` for a dense gradient)."""
        return new if rows is None else a.where_v2(rows, new, old)

    def _finish(self, update_ops: list, name: str) -> Operation:
        return cf.group(*update_ops, name=name)



class RowwiseOptimizer(Optimizer):
    """An optimizer written once, as ``_apply_rows(grad, rows, var)``: ``rows`` is None for a dense gradient
    and marks the touched rows of an IndexedSlices one, whose other rows keep their value and slots
    (as TF's SparseApply* kernels leave them)."""

    def _apply_dense(self, grad: Tensor, var: v.Variable) -> Operation:
        return self._apply_rows(grad, None, var)

    def _apply_sparse(self, grad: Tensor, rows: Tensor, var: v.Variable) -> Operation:
        return self._apply_rows(grad, rows, var)

    def _apply_rows(self, grad: Tensor, rows: Tensor | None, var: v.Variable) -> Operation:
        raise NotImplementedError

def _touched_rows(grad: IndexedSlices, var: v.Variable) -> Tensor:
    """Which rows of ``var`` the IndexedSlices ``grad`` touches: bool, shaped ``[rows, 1, ...]``."""
    hits = a.unsorted_segment_sum(a.ones_like(grad.indices, dtype=_dt.int32), grad.indices, a.shape(var)[0])
    return a.reshape(m.greater(hits, 0), [-1] + [1] * (len(var.shape) - 1))


def _check_float(values: Sequence[Any]) -> None:
    for t in values:
        if t.dtype not in _FLOAT_TYPES:
            raise ValueError(f"Invalid type {t.dtype.name} for {t.name}, expected: "
                             f"{[d.name for d in _FLOAT_TYPES]}.")
