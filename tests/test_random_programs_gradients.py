"""Random programs: gradients against finite differences, and their None/zero structure against
a reference computed from the program's dependency structure.

A program is a list of steps over float64 placeholders: elementwise ops, broadcasting binary
ops, reductions over random axes, matmul, transpose, reshape, ``tf.stop_gradient`` and an
int cast round trip (the last two cut the path). Each example also picks intermediate
tensors for ``stop_gradients=`` and maybe one intermediate x downstream of the inputs.
"""
from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

import s2sgrad as tf
from s2sgrad.testing import check_gradients

INPUT_SHAPES = [(3, 4), (4,), (), (3, 1), (4, 2)]
UNARY = {"tanh": tf.tanh, "sin": tf.sin, "cos": tf.cos, "sigmoid": tf.sigmoid, "neg": tf.negative}
BINARY = {"add": tf.add, "sub": tf.subtract, "mul": tf.multiply,
          "div": lambda a, b: a / (2.0 + tf.tanh(b))}
REDUCE = {"sum": tf.reduce_sum, "mean": tf.reduce_mean}
CUTS = ("stop", "cast")   # steps through which no gradient flows


@dataclasses.dataclass
class Step:
    kind: str           # unary | binary | reduce | matmul | transpose | flatten | stop | cast
    args: tuple         # indices of earlier nodes
    param: Any = None   # op name; (op name, axis, keepdims) for reductions; transpose_b for matmul


@dataclasses.dataclass
class Program:
    shapes: list        # input shapes; inputs are nodes 0..len(shapes)-1
    steps: list
    y: int
    stops: set          # nodes passed as stop_gradients=
    extra_x: int | None  # an intermediate node also differentiated against

    @property
    def n_inputs(self) -> int:
        return len(self.shapes)

    def parents(self, node: int) -> tuple:
        """The nodes that ``node`` depends on differentiably (none for inputs and cuts)."""
        if node < self.n_inputs:
            return ()
        step = self.steps[node - self.n_inputs]
        return () if step.kind in CUTS else step.args


def _broadcasts(a: tuple, b: tuple) -> bool:
    try:
        np.broadcast_shapes(a, b)
        return True
    except ValueError:
        return False


@st.composite
def programs(draw: Any) -> Program:
    shapes = draw(st.lists(st.sampled_from(INPUT_SHAPES), min_size=1, max_size=3))
    nodes = list(shapes)
    steps = []
    for _ in range(draw(st.integers(1, 7))):
        first = draw(st.integers(0, len(nodes) - 1))
        a = nodes[first]
        kind = draw(st.sampled_from(["unary", "unary", "binary", "binary", "reduce", "matmul", "transpose",
                                     "flatten", "stop", "cast"]))
        if kind == "binary":
            partners = [i for i, s in enumerate(nodes) if _broadcasts(a, s)]
            second = draw(st.sampled_from(partners))
            step = Step(kind, (first, second), draw(st.sampled_from(sorted(BINARY))))
            shape = np.broadcast_shapes(a, nodes[second])
        elif kind == "reduce" and a:
            axes = draw(st.none() | st.lists(st.integers(-len(a), len(a) - 1), min_size=1, max_size=len(a),
                                             unique_by=lambda ax, a=a: ax % len(a)))
            keep = draw(st.booleans())
            step = Step(kind, (first,), (draw(st.sampled_from(sorted(REDUCE))), axes, keep))
            reduced = {ax % len(a) for ax in axes} if axes is not None else set(range(len(a)))
            shape = tuple(1 if i in reduced else d for i, d in enumerate(a) if keep or i not in reduced)
        elif kind == "matmul" and len(a) == 2:   # a @ b, or a @ b.T (a @ a.T always fits)
            partners = [(i, flip) for i, s in enumerate(nodes) for flip in (False, True)
                        if len(s) == 2 and s[1 if flip else 0] == a[1]]
            second, flip = draw(st.sampled_from(partners))
            step, shape = Step(kind, (first, second), flip), (a[0], nodes[second][0 if flip else 1])
        elif kind == "transpose" and len(a) == 2:
            step, shape = Step(kind, (first,)), (a[1], a[0])
        elif kind in ("flatten", "stop", "cast"):
            step, shape = Step(kind, (first,)), ((int(np.prod(a)),) if kind == "flatten" else a)
        else:
            step, shape = Step("unary", (first,), draw(st.sampled_from(sorted(UNARY)))), a
        steps.append(step)
        nodes.append(shape)
    inner = list(range(len(shapes), len(nodes)))
    y = draw(st.sampled_from(inner[-2:]))
    stops = draw(st.sets(st.sampled_from(inner), max_size=2))
    extra_x = draw(st.none() | st.sampled_from(inner))
    return Program(shapes, steps, y, stops, extra_x)


def _apply(step: Step, args: list) -> tuple:
    """The node's tensor, and the tensor to freeze in finite differences when it is a cut."""
    if step.kind == "unary":
        return UNARY[step.param](args[0]), None
    if step.kind == "binary":
        return BINARY[step.param](*args), None
    if step.kind == "reduce":
        name, axes, keep = step.param
        return REDUCE[name](args[0], axis=axes, keepdims=keep), None
    if step.kind == "matmul":
        return tf.matmul(*args, transpose_b=step.param), None
    if step.kind == "transpose":
        return tf.transpose(args[0]), None
    if step.kind == "flatten":
        return tf.reshape(args[0], [-1]), None
    out = tf.stop_gradient(args[0]) if step.kind == "stop" else \
        tf.cast(tf.cast(args[0] * 3.0, tf.int32), tf.float64)
    return out, out


def build(program: Program, inputs: list, wrap: set = frozenset()) -> tuple[list, list]:
    """The nodes' tensors over ``inputs``; nodes in ``wrap`` pass through ``tf.stop_gradient``.
    Also returns the cut tensors, whose values finite differences must hold fixed."""
    nodes, frozen = list(inputs), []
    for i, step in enumerate(program.steps, start=program.n_inputs):
        out, cut = _apply(step, [nodes[j] for j in step.args])
        if i in wrap:
            out = cut = tf.stop_gradient(out)
        nodes.append(out)
        frozen += [cut] if cut is not None else []
    return nodes, frozen


def connected(program: Program) -> set:
    """Nodes that receive a gradient from y: backwards over differentiable edges, not through
    the stop_gradients nodes (which still receive their own)."""
    seen, stack = {program.y}, [program.y]
    while stack:
        node = stack.pop()
        if node in program.stops:
            continue
        for parent in program.parents(node):
            if parent not in seen:
                seen.add(parent)
                stack.append(parent)
    return seen


def _feeds(program: Program, inputs: list, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    return {x: rng.uniform(-1.5, 1.5, shape) for x, shape in zip(inputs, program.shapes, strict=True)}


def _values(sess: tf.Session, grads: list, feeds: dict) -> list:
    present = [g for g in grads if g is not None]
    values = iter(sess.run(present, feeds))
    return [None if g is None else next(values) for g in grads]


# Corner cases the search may miss: an x behind a cast round trip or a stop_gradient (the op
# before it is reached through an int tensor / blocks), y itself a stop, an x that is a stop.
CAST_X = Program([(3,)], [Step("unary", (0,), "sin"), Step("cast", (1,)), Step("binary", (2, 0), "mul")],
                 y=3, stops=set(), extra_x=2)
STOP_X = Program([(3, 1), (4,)], [Step("stop", (0,)), Step("binary", (2, 1), "add"),
                                  Step("reduce", (3,), ("sum", [0], True))], y=4, stops=set(), extra_x=2)
STOP_Y = Program([(4, 2)], [Step("matmul", (0, 0), True), Step("unary", (1,), "tanh")], y=2, stops={2},
                 extra_x=1)
STOPPED_X = Program([(3, 4)], [Step("unary", (0,), "cos"), Step("binary", (1, 0), "mul")], y=2, stops={1},
                    extra_x=1)


@given(programs(), st.integers(0, 2**16))
@example(CAST_X, 0)
@example(STOP_X, 1)
@example(STOP_Y, 2)
@example(STOPPED_X, 3)
def test_gradient_structure_matches_the_dependency_structure(program, seed):
    graph = tf.Graph()
    with graph.as_default():
        inputs = [tf.placeholder(tf.float64, s, name=f"x{i}") for i, s in enumerate(program.shapes)]
        nodes, _ = build(program, inputs)
        xs = inputs + ([nodes[program.extra_x]] if program.extra_x is not None else [])
        stops = [nodes[i] for i in program.stops]
        none = tf.gradients(nodes[program.y], xs, stop_gradients=stops)
        zero = tf.gradients(nodes[program.y], xs, stop_gradients=stops, unconnected_gradients="zero")
        alone = [tf.gradients(nodes[program.y], x, stop_gradients=stops)[0] for x in xs]
    reach = connected(program)
    indices = list(range(program.n_inputs)) + ([program.extra_x] if program.extra_x is not None else [])
    assert [g is not None for g in none] == [i in reach for i in indices]
    assert [g is not None for g in alone] == [i in reach for i in indices]
    feeds = _feeds(program, inputs, seed)
    with tf.Session(graph=graph) as sess:
        got_none, got_zero, got_alone = (_values(sess, gs, feeds) for gs in (none, zero, alone))
        shapes = sess.run([tf.shape(x) for x in xs], feeds) if xs else []
    for g, z, single, shape in zip(got_none, got_zero, got_alone, shapes, strict=True):
        if g is None:
            np.testing.assert_array_equal(z, np.zeros(shape))
            assert z.dtype == np.float64
        else:
            # an x downstream of other xs gets the same total as when it is differentiated alone
            np.testing.assert_allclose(z, g, rtol=1e-12)
            np.testing.assert_allclose(single, g, rtol=1e-10, atol=1e-12)


@given(programs(), st.integers(0, 2**16), st.booleans())
@example(CAST_X, 0, True)
@example(STOP_X, 1, True)
@example(STOPPED_X, 3, True)
def test_gradients_match_finite_differences(program, seed, second_order):
    graph = tf.Graph()
    with graph.as_default():
        inputs = [tf.placeholder(tf.float64, s, name=f"x{i}") for i, s in enumerate(program.shapes)]
        nodes, _ = build(program, inputs)
        twin, frozen = build(program, inputs, wrap=program.stops)
        y = nodes[program.y]
        with_stops = tf.gradients(y, inputs, stop_gradients=[nodes[i] for i in program.stops])
        wrapped = tf.gradients(twin[program.y], inputs)
    assert [g is None for g in with_stops] == [g is None for g in wrapped]
    feeds = _feeds(program, inputs, seed)
    with tf.Session(graph=graph) as sess:
        # stop_gradients= acts exactly like tf.stop_gradient on those tensors
        for a, b in zip(_values(sess, with_stops, feeds), _values(sess, wrapped, feeds), strict=True):
            if a is not None:
                np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
        # cut tensors are held at their values, so the differences see only differentiable paths
        held = dict(zip(frozen, sess.run(frozen, feeds), strict=True)) if frozen else {}
    order = 2 if second_order and any(g is not None for g in wrapped) else 1
    with graph.as_default():
        check_gradients(twin[program.y], inputs, {**feeds, **held}, order=order, seed=seed)
