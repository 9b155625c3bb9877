"""``check_gradients``: compare symbolic gradients with central finite differences.

It checks one random direction at a time: for a random cotangent ``u`` of y and direction
``v`` of the xs, ``<gradients(y, xs, grad_ys=u), v>`` must equal
``<(y(x + eps v) - y(x - eps v)) / (2 eps), u>``. ``order=2`` applies the same test to the
gradient itself, so second derivatives are checked too.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .autodiff.backprop import gradients
from .ops import math_ops as m
from .ops import reduce_ops as r
from .ops.convert import constant, convert_to_tensor
from .session import Session
from .ssa.graph import Tensor

__all__ = ["check_gradients", "GradientCheckError"]


class GradientCheckError(AssertionError):
    """Symbolic and numerical directional derivatives disagree."""


def check_gradients(y: Any, xs: Any, feed_dict: dict | None = None, session: Session | None = None,
                    order: int = 1, eps: float | None = None, rtol: float | None = None,
                    atol: float | None = None, seed: int = 0, directions: int = 2) -> float:
    """Raise GradientCheckError unless ``tf.gradients(y, xs)`` matches finite differences.

    ``xs`` are tensors (placeholders, variables or intermediates); their values come from
    ``feed_dict`` or are computed in ``session``. Returns the worst relative error seen.

    >>> # check_gradients(tf.sin(x) * x, [x], {x: np.linspace(-1, 1, 5)})
    """
    if order not in (1, 2):
        raise ValueError(f"order must be 1 or 2, got {order}")
    y = convert_to_tensor(y)
    xs = [convert_to_tensor(x) for x in (xs if isinstance(xs, (list, tuple)) else [xs])]
    if not all(x.dtype.is_floating for x in xs + [y]):
        raise TypeError("check_gradients needs float tensors for y and every x")
    own = session is None
    sess = session if session is not None else Session(graph=y.graph)
    try:
        if own:
            init = [v.initializer for v in y.graph.get_collection("variables")]
            if init:
                sess.run(init)
        feeds = dict(feed_dict or {})
        base = {x: np.asarray(feeds[x] if x in feeds else sess.run(x, feeds)) for x in xs}
        rng = np.random.default_rng(seed)
        target = y
        if order == 2:
            target = _gradient_dot(y, xs, rng, base, sess, feeds)
        return _check_first_order(target, xs, base, feeds, sess, rng, eps, rtol, atol, directions)
    finally:
        if own:
            sess.close()


def _cotangent_gradients(y: Tensor, xs: Sequence[Tensor], rng: np.random.Generator, sess: Session,
                         feeds: dict) -> tuple[np.ndarray, list]:
    """A random cotangent ``u`` shaped like y's value at ``feeds``, and ``tf.gradients(y, xs, grad_ys=u)``."""
    y_value = np.asarray(sess.run(y, feeds))
    u = rng.standard_normal(y_value.shape).astype(y.dtype.np)
    with y.graph.as_default():
        return u, gradients(y, list(xs), grad_ys=constant(u))


def _gradient_dot(y: Tensor, xs: Sequence[Tensor], rng: np.random.Generator, base: dict, sess: Session,
                  feeds: dict) -> Tensor:
    """``sum_i <dy/dx_i, w_i>`` for random ``w``: its gradient is a Hessian-vector product."""
    _, grads = _cotangent_gradients(y, xs, rng, sess, {**feeds, **base})
    with y.graph.as_default():
        terms = []
        for g, x in zip(grads, xs, strict=True):
            if g is None:
                continue
            w = constant(rng.standard_normal(base[x].shape).astype(x.dtype.np))
            terms.append(r.reduce_sum(m.multiply(convert_to_tensor(g), w)))
        if not terms:
            raise GradientCheckError(f"no first-order gradient of {y.name} reaches the xs")
        return m.add_n(terms)


def _check_first_order(y: Tensor, xs: Sequence[Tensor], base: dict, feeds: dict, sess: Session,
                       rng: np.random.Generator, eps: float | None, rtol: float | None, atol: float | None,
                       directions: int) -> float:
    dtype = y.dtype.np
    low = np.finfo(dtype).bits <= 32
    eps = eps if eps is not None else (1e-2 if low else 1e-6)
    rtol = rtol if rtol is not None else (2e-2 if low else 1e-5)
    atol = atol if atol is not None else (1e-3 if low else 1e-7)
    at_base = {**feeds, **base}
    u_value, grads = _cotangent_gradients(y, xs, rng, sess, at_base)
    fetch = [convert_to_tensor(g) for g in grads if g is not None]
    values = iter(sess.run(fetch, at_base) if fetch else [])
    symbolic = {x: (np.asarray(next(values)) if g is not None else np.zeros_like(base[x]))
                for x, g in zip(xs, grads, strict=True)}
    worst = 0.0
    for _ in range(directions):
        v = {x: rng.standard_normal(base[x].shape).astype(base[x].dtype) for x in xs}
        analytic = sum(float(np.sum(symbolic[x].astype(np.float64) * v[x])) for x in xs)
        plus = np.asarray(sess.run(y, {**feeds, **{x: base[x] + eps * v[x] for x in xs}}), np.float64)
        minus = np.asarray(sess.run(y, {**feeds, **{x: base[x] - eps * v[x] for x in xs}}), np.float64)
        numeric = float(np.sum((plus - minus) / (2 * eps) * u_value))
        error = abs(analytic - numeric)
        scale = max(abs(analytic), abs(numeric))
        if error > atol + rtol * scale:
            raise GradientCheckError(
                f"gradient of {y.name} w.r.t. {[x.name for x in xs]} disagrees with finite differences: "
                f"symbolic {analytic!r}, numeric {numeric!r} (eps={eps}, |diff|={error:.3g})")
        worst = max(worst, error / scale if scale else 0.0)
    return worst
