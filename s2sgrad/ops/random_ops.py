"""Random tensors. Each random op draws from its own generator, created per Session from the
graph-level seed (``set_random_seed``) and the op's seed, so seeded programs repeat exactly."""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..primitives.core import Primitive
from ..primitives.state import RANDOM_STANDARD_NORMAL, RANDOM_UNIFORM, RANDOM_UNIFORM_INT, TRUNCATED_NORMAL
from ..ssa.graph import Tensor, get_default_graph
from . import array_ops as a
from .convert import convert_operands, record1

__all__ = ["set_random_seed", "random_normal", "random_uniform", "truncated_normal", "get_seed"]

DEFAULT_GRAPH_SEED = 87654321


def set_random_seed(seed: int | None) -> None:
    """Make the random ops of the default graph reproducible."""
    get_default_graph().seed = _seed(seed)


def _seed(seed: Any) -> int | None:
    """An int seed (Python or NumPy integer, any sign) or None; TypeError otherwise."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be an int or None, got {seed!r}")
    return int(seed)


def get_seed(op_seed: int | None) -> tuple:
    """(graph seed, op seed) as TF derives them; (None, None) means fresh entropy."""
    graph = get_default_graph()
    op_seed = _seed(op_seed)
    if graph.seed is not None:
        return graph.seed, op_seed if op_seed is not None else graph.version
    if op_seed is not None:
        return DEFAULT_GRAPH_SEED, op_seed
    return None, None


def _draw(prim: Primitive, shape: Any, dtype: _dt.DType, seed: int | None, **attrs: Any) -> Tensor:
    """A ``prim`` op (named after its type) drawing samples of ``shape``, seeded as ``get_seed(seed)`` says."""
    seeds = get_seed(seed)
    dims = a.int_tensor(shape, "shape")
    return record1(prim, [dims], {"dtype": dtype, "seed": seeds[0], "seed2": seeds[1], **attrs}, prim.name)


def random_normal(shape: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = _dt.float32,
                  seed: int | None = None, name: str | None = None) -> Tensor:
    """Normal samples: ``standard_normal * stddev + mean``.

    >>> # w = tf.Variable(tf.random_normal([784, 10], stddev=0.01, seed=1))
    """
    return _normal(RANDOM_STANDARD_NORMAL, "random_normal", shape, mean, stddev, dtype, seed, name)


def truncated_normal(shape: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = _dt.float32,
                     seed: int | None = None, name: str | None = None) -> Tensor:
    """Normal samples more than two standard deviations out are redrawn.

    >>> # w = tf.Variable(tf.truncated_normal([784, 10], stddev=0.1))
    """
    return _normal(TRUNCATED_NORMAL, "truncated_normal", shape, mean, stddev, dtype, seed, name)


def _normal(prim: Primitive, what: str, shape: Any, mean: Any, stddev: Any, dtype: Any, seed: int | None,
            name: str | None) -> Tensor:
    """``prim`` samples (standard normal ones) scaled by ``stddev`` and shifted by ``mean``."""
    dtype = _dt.as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError(f"{what} needs a float dtype, got {dtype.name}")
    with get_default_graph().name_scope(name or what):
        z = _draw(prim, shape, dtype, seed)
        scale, shift = convert_operands([stddev, mean], dtype)
        return z * scale + shift


def random_uniform(shape: Any, minval: Any = 0, maxval: Any = None, dtype: Any = _dt.float32,
                   seed: int | None = None, name: str | None = None) -> Tensor:
    """Uniform samples in ``[minval, maxval)`` (ints need ``maxval``)."""
    dtype = _dt.as_dtype(dtype)
    with get_default_graph().name_scope(name or "random_uniform"):
        if dtype.is_integer:
            if maxval is None:
                raise ValueError("Must specify maxval for integer dtype " + dtype.name)
            return _draw(RANDOM_UNIFORM_INT, shape, dtype, seed, minval=a.static_int(minval, "minval"),
                         maxval=a.static_int(maxval, "maxval"))
        if not dtype.is_floating:
            raise TypeError(f"random_uniform needs a float or int dtype, got {dtype.name}")
        u = _draw(RANDOM_UNIFORM, shape, dtype, seed)
        maxval = 1.0 if maxval is None else maxval
        lo, hi = convert_operands([minval, maxval], dtype)
        return u * (hi - lo) + lo
