"""Graphviz DOT of graph slices: structure, labels and escaping."""
import re
import shutil
import subprocess

import numpy as np
import pytest

import s2sgrad as tf
from s2sgrad.codegen.lower import needed_ops
from s2sgrad.dot import dot_string, to_dot


@pytest.mark.parametrize("text, quoted", [
    ("plain", '"plain"'),
    ('say "hi"', '"say \\"hi\\""'),
    ("back\\slash", '"back\\\\slash"'),
    ('end\\"; evil [color=red', '"end\\\\\\"; evil [color=red"'),
    ("line\nbreak\ttab\x00", '"line\\\\nbreak\\\\ttab\\\\x00"'),
])
def test_dot_string_escapes_everything_a_user_can_write(text, quoted):
    assert dot_string(text) == quoted
    assert re.fullmatch(r'"(?:[^"\\\n]|\\.)*"', quoted)


def _slice(*fetches, fed=()):
    return needed_ops(fetches, [], set(fed), check_feeds=False)


def test_ops_are_nodes_and_tensors_are_labelled_edges():
    x = tf.placeholder(tf.float32, shape=[None, 3], name="x")
    w = tf.Variable(np.ones((3, 2), np.float32), name="w")
    y = tf.matmul(x, w, name="y")
    parts = tf.split(y, 2, axis=1, name="parts")
    z = tf.add(parts[1], 1.0, name="z")
    with tf.control_dependencies([y.op]):
        done = tf.no_op(name="done")
    text = to_dot([("module 1: run", _slice(z, fed=[x])), ("module 2: run", _slice(x, fed=[]) + [done])])
    assert text == to_dot([("module 1: run", _slice(z, fed=[x])), ("module 2: run", _slice(x) + [done])])
    x_id, w_id, y_id, z_id = (t.op.id for t in (x, w, y, z))
    split_id = parts[1].op.id
    assert f'm1_op{x_id} [label="Placeholder\\nx", shape=ellipse, style=dashed' in text       # fed: outside
    assert f'm1_op{w_id} [label="VariableV2\\nw", shape=cylinder' in text
    assert f'm1_op{x_id} -> m1_op{y_id} [label="f32[?,3]"];' in text
    assert f'm1_op{w_id} -> m1_op{y_id} [label="f32[3,2]"];' in text
    assert f'm1_op{split_id} -> m1_op{z_id} [label=":1 f32[?,1]"];' in text                   # second output
    assert f'm2_op{y_id} -> m2_op{done.id} [style=dashed, arrowhead=odot];' in text         # control edge
    assert text.count("subgraph cluster_") == 2


def test_gradient_ops_are_shaded():
    x = tf.placeholder(tf.float32, shape=[2], name="x")
    g, = tf.gradients(tf.reduce_sum(tf.sin(x)), x)
    text = to_dot([("grad", _slice(g, fed=[x]))])
    assert re.search(r'\[label="Cos\\ngradients/Sin_grad/Cos", style="rounded,filled"', text)
    if shutil.which("dot"):
        assert subprocess.run(["dot", "-Tsvg"], input=text, text=True, capture_output=True).returncode == 0
