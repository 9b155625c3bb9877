"""``tf.map_fn``, ``tf.scan``, ``tf.foldl``, ``tf.foldr``: loops over the first dimension of
``elems``, built on ``tf.while_loop`` and ``tf.TensorArray`` as TensorFlow builds them."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import dtypes as _dt
from ..ssa.graph import Tensor, get_default_graph
from . import nest
from .array_ops import shape as shape_of
from .convert import convert_to_tensor
from .loop_ops import while_loop
from .tensor_array_ops import TensorArray

__all__ = ["map_fn", "scan", "foldl", "foldr"]


def _length(flat: list[Tensor]) -> Any:
    """The number of elements along the first dimension (static when known)."""
    first = flat[0]
    if first.shape.rank == 0:
        raise ValueError(f"elems must be a 1+ dimensional Tensor, not a scalar: {first}")
    n = first.shape.sizes[0] if first.shape.sizes is not None else None
    return n if n is not None else shape_of(first)[0]


def _elements(elems: Any) -> tuple[list[Tensor], Any, list[TensorArray]]:
    flat = [convert_to_tensor(e, name="elems") for e in nest.flatten(elems)]
    if not flat:
        raise ValueError("elems must not be empty")
    n = _length(flat)
    arrays = [TensorArray(e.dtype, size=n).unstack(e) for e in flat]
    return flat, n, arrays


def map_fn(fn: Callable, elems: Any, dtype: Any = None, parallel_iterations: Any = None, back_prop: bool = True,
           swap_memory: bool = False, infer_shape: bool = True, name: str | None = None,
           fn_output_signature: Any = None) -> Any:
    """``fn`` applied to each element of ``elems`` along its first dimension, results stacked.

    >>> # squares = tf.map_fn(lambda x: x * x, tf.constant([1.0, 2.0, 3.0]))
    """
    if not callable(fn):
        raise TypeError("fn must be callable.")
    signature = fn_output_signature if fn_output_signature is not None else dtype
    graph = get_default_graph()
    with graph.name_scope(name or "map"):
        flat, n, arrays = _elements(elems)
        out_structure = signature if signature is not None else elems
        out_dtypes = [_dt.as_dtype(d) for d in nest.flatten(signature)] if signature is not None else \
            [e.dtype for e in flat]
        outputs = [TensorArray(d, size=n) for d in out_dtypes]

        def body(i: Tensor, *acc: TensorArray) -> tuple:
            value = fn(nest.pack_sequence_as(elems, [ta.read(i) for ta in arrays]))
            nest.assert_same_structure(_leaves_of(out_structure), _leaves_of(value), "fn output and dtype")
            return (i + 1, *[ta.write(i, v) for ta, v in zip(acc, nest.flatten(value), strict=True)])

        _, *done = while_loop(lambda i, *acc: i < n, body, [0, *outputs], back_prop=back_prop,
                              parallel_iterations=parallel_iterations or 10)
        return nest.pack_sequence_as(out_structure, [ta.stack() for ta in done])


def scan(fn: Callable, elems: Any, initializer: Any = None, parallel_iterations: int = 10, back_prop: bool = True,
         swap_memory: bool = False, infer_shape: bool = True, reverse: bool = False, name: str | None = None) -> Any:
    """The running ``a = fn(a, x)`` over the elements of ``elems``, every ``a`` stacked."""
    return _accumulate(fn, elems, initializer, reverse, back_prop, name or "scan", keep_all=True)


def foldl(fn: Callable, elems: Any, initializer: Any = None, parallel_iterations: int = 10, back_prop: bool = True,
          swap_memory: bool = False, name: str | None = None) -> Any:
    """``a = fn(a, x)`` over the elements of ``elems`` from the first; the final ``a``."""
    return _accumulate(fn, elems, initializer, False, back_prop, name or "foldl", keep_all=False)


def foldr(fn: Callable, elems: Any, initializer: Any = None, parallel_iterations: int = 10, back_prop: bool = True,
          swap_memory: bool = False, name: str | None = None) -> Any:
    """``a = fn(a, x)`` over the elements of ``elems`` from the last; the final ``a``."""
    return _accumulate(fn, elems, initializer, True, back_prop, name or "foldr", keep_all=False)


def _accumulate(fn: Callable, elems: Any, initializer: Any, reverse: bool, back_prop: bool, name: str,
                keep_all: bool) -> Any:
    if not callable(fn):
        raise TypeError("fn must be callable.")
    graph = get_default_graph()
    with graph.name_scope(name):
        flat, n, arrays = _elements(elems)
        last = n - 1
        if initializer is None:
            structure = elems
            start = [ta.read(last if reverse else 0) for ta in arrays]
            first, stop = (last - 1, -1) if reverse else (1, n)
        else:
            structure = initializer
            start = [convert_to_tensor(v) for v in nest.flatten(initializer)]
            first, stop = (last, -1) if reverse else (0, n)
        step = -1 if reverse else 1
        outputs = [TensorArray(a.dtype, size=n) for a in start]
        if keep_all and initializer is None:
            at = last if reverse else 0
            outputs = [ta.write(at, a) for ta, a in zip(outputs, start, strict=True)]

        def body(i: Tensor, acc: list, out: list) -> tuple:
            x = nest.pack_sequence_as(elems, [ta.read(i) for ta in arrays])
            new = nest.flatten(fn(nest.pack_sequence_as(structure, acc), x))
            if keep_all:
                out = [ta.write(i, v) for ta, v in zip(out, new, strict=True)]
            return i + step, new, out

        keep_going = (lambda i, acc, out: i > stop) if reverse else (lambda i, acc, out: i < stop)
        _, final, done = while_loop(keep_going, body, [first, start, outputs], back_prop=back_prop)
        if keep_all:
            return nest.pack_sequence_as(structure, [ta.stack() for ta in done])
        return nest.pack_sequence_as(structure, final)


def _leaves_of(structure: Any) -> Any:
    return nest.map_structure(lambda leaf: 0, structure) if nest.is_nested(structure) else 0
