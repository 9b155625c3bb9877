"""Table-driven op tests: each family lists OpCases in ``tests/cases_<family>.py`` (``CASES``).

For every case, ``test_op_table.py`` checks the forward result against a NumPy reference
(through ``Session.run``, specialized to the fed shapes, and through a module compiled for
unknown shapes), and the gradient against finite differences for float inputs.
"""
from __future__ import annotations

import collections
import dataclasses
import glob
import importlib
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

import s2sgrad as tf
from s2sgrad import pipeline
from s2sgrad.codegen.build import build_module
from s2sgrad.codegen.lower import needed_ops
from s2sgrad.testing import check_gradients


@dataclasses.dataclass
class OpCase:
    """``build(*tensors)`` makes the op under test from placeholders fed with ``inputs``;
    ``reference(*arrays)`` computes the expected value with NumPy."""

    id: str
    build: Callable[..., Any]
    inputs: Sequence[Any]
    reference: Callable[..., Any] | None = None
    grad: bool = True           # finite-difference check w.r.t. the float inputs
    grad_inputs: Sequence[int] | None = None   # which inputs to differentiate (default: all float)
    order2: bool = False        # also check second derivatives
    rtol: float = 1e-6
    atol: float = 1e-9
    known_rank: bool = False    # the op needs static ranks: unknown-shape variants keep the rank

    def arrays(self) -> list[np.ndarray]:
        return [np.asarray(v) for v in self.inputs]


def all_cases() -> list[OpCase]:
    here = os.path.dirname(__file__)
    cases: list[OpCase] = []
    for path in sorted(glob.glob(os.path.join(here, "cases_*.py"))):
        module = importlib.import_module(os.path.splitext(os.path.basename(path))[0])
        cases.extend(module.CASES)
    repeated = sorted(name for name, count in collections.Counter(c.id for c in cases).items() if count > 1)
    if repeated:
        raise ValueError(f"op cases share ids: {repeated}")
    return cases


def build(case: OpCase, static: bool = True) -> tuple[tf.Graph, list, Any]:
    """A fresh graph with one placeholder per input (static or unknown shapes) and the output."""
    graph = tf.Graph()
    with graph.as_default():
        holders = [tf.placeholder(tf.as_dtype(a.dtype), _static_shape(case, a.shape, static), name=f"in{i}")
                   for i, a in enumerate(case.arrays())]
        out = case.build(*holders)
    return graph, holders, out


def corpus_modules() -> Iterator[tuple[OpCase, Any]]:
    """(case, generated Module) for every case, its placeholders of static and of unknown shapes."""
    for case in all_cases():
        for static in (True, False):
            _, holders, out = build(case, static)
            outs = out if isinstance(out, (list, tuple)) else [out]
            specs = {h: (h.dtype, tuple(a.shape) if static else None)
                     for h, a in zip(holders, case.arrays(), strict=True)}
            module, _, _ = build_module(needed_ops(outs, [], set(holders)), outs, specs, lambda v: None)
            yield case, module


def _static_shape(case: OpCase, shape: tuple, static: bool) -> Any:
    if static:
        return shape
    return [None] * len(shape) if case.known_rank else None


def run_forward(case: OpCase, static: bool = True) -> Any:
    graph, holders, out = build(case, static)
    with tf.Session(graph=graph) as sess:
        return sess.run(out, dict(zip(holders, case.arrays(), strict=True)))


def run_generic(case: OpCase) -> Any:
    """Run a module compiled without knowing the fed shapes (the emitters' fallback paths)."""
    graph, holders, out = build(case, static=False)
    outs = out if isinstance(out, (list, tuple)) else [out]
    graph_slice = pipeline.plan(graph, outs, holders)
    exe = pipeline.compile(graph_slice, graph_slice.feed_specs(), lambda v: None)
    generators = [np.random.default_rng(0) for _ in exe.rng_ops]  # random ops' generators follow the feeds
    values = graph_slice.structure.rebuild(exe.call(case.arrays() + generators))
    return values if isinstance(out, (list, tuple)) else values[0]


def assert_matches(case: OpCase, got: Any, expected: Any) -> None:
    if isinstance(expected, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(expected), (got, expected)
        for g, e in zip(got, expected, strict=True):
            assert_matches(case, g, e)
        return
    expected = np.asarray(expected)
    got_arr = np.asarray(got)
    assert got_arr.dtype == expected.dtype, f"{case.id}: dtype {got_arr.dtype} != {expected.dtype}"
    assert got_arr.shape == expected.shape, f"{case.id}: shape {got_arr.shape} != {expected.shape}"
    if expected.dtype.kind in "fc":
        np.testing.assert_allclose(got_arr, expected, rtol=case.rtol, atol=case.atol, err_msg=case.id)
    else:
        np.testing.assert_array_equal(got_arr, expected, err_msg=case.id)


def check_case_gradient(case: OpCase) -> None:
    graph, holders, out = build(case)
    arrays = case.arrays()
    wanted = case.grad_inputs if case.grad_inputs is not None else [
        i for i, a in enumerate(arrays) if a.dtype.kind == "f"]
    outs = out if isinstance(out, (list, tuple)) else [out]
    with graph.as_default():
        floats = [o for o in outs if o.dtype.is_floating]
        y = floats[0] if len(floats) == 1 else tf.add_n([tf.reduce_sum(o * (i + 1.0)) for i, o in enumerate(floats)])
        feeds = dict(zip(holders, arrays, strict=True))
        for order in (1, 2) if case.order2 else (1,):
            check_gradients(y, [holders[i] for i in wanted], feeds, order=order)
