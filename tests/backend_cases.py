"""Every op-table case's forward values and gradients, run on a given backend (portability tests)."""
from __future__ import annotations

from typing import Any

import numpy as np

import optable
import s2sgrad as tf


def case_fetches(case: optable.OpCase) -> tuple[tf.Graph, list, list]:
    """The case's graph, placeholders and fetches: its outputs, then the gradients of their float
    sum with respect to its float inputs (when the case has a gradient)."""
    graph, holders, out = optable.build(case)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    with graph.as_default():
        wanted = case.grad_inputs if case.grad_inputs is not None else [
            i for i, h in enumerate(holders) if h.dtype.is_floating]
        floats = [o for o in outs if o.dtype.is_floating]
        grads: list = []
        if case.grad and wanted and floats:
            total = tf.add_n([tf.reduce_sum(o * (i + 1.0)) for i, o in enumerate(floats)])
            grads = [g for g in tf.gradients(total, [holders[i] for i in wanted]) if g is not None]
    return graph, holders, outs + grads


def run_case(case: optable.OpCase, backend: str) -> list[Any]:
    """The case's fetches computed on ``backend``."""
    graph, holders, fetches = case_fetches(case)
    with tf.Session(graph=graph, backend=backend) as sess:
        return sess.run(fetches, dict(zip(holders, case.arrays(), strict=True)))


def assert_same(case: optable.OpCase, got: list, expected: list) -> None:
    """Same dtypes, shapes and (to the case's tolerance) values."""
    for g, e in zip(got, expected, strict=True):
        if hasattr(e, "indices") and hasattr(e, "values"):  # an IndexedSlices gradient
            assert_same(case, [g.values, g.indices], [e.values, e.indices])
            continue
        g, e = np.asarray(g), np.asarray(e)
        assert g.dtype == e.dtype and g.shape == e.shape, (case.id, g.dtype, g.shape, e.dtype, e.shape)
        if e.dtype.kind in "fc":
            np.testing.assert_allclose(g, e, rtol=max(case.rtol, 1e-6), atol=max(case.atol, 1e-7), err_msg=case.id)
        else:
            np.testing.assert_array_equal(g, e, err_msg=case.id)
