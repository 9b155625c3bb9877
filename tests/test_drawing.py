"""Graphviz DOT of graph slices: structure, labels and escaping."""
import re
import shutil
import subprocess

import numpy as np
import pytest

import s2sgrad as tf
from s2sgrad.codegen.lower import needed_ops
from s2sgrad.drawing import FORWARD_COLOR, GRADIENT_COLOR, dot_string, to_dot


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


def _program():
    x = tf.placeholder(tf.float32, shape=[None, 3], name="x")
    w = tf.Variable(np.ones((3, 2), np.float32), name="w")
    scale = tf.multiply(tf.constant(2.0, name="two"), tf.constant(3.0, name="three"), name="scale")  # folded
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w, name="xw") * scale, name="sq"), name="loss")
    g, = tf.gradients(loss, w)
    return x, w, loss, g


def _nodes(text):
    """node name -> its attribute text, for the statements that declare a node."""
    return dict(re.findall(r"^\s*(\w+) \[(label=.*)\];$", text, re.MULTILINE))


def test_the_optimized_picture_is_the_program_that_runs_and_the_unoptimized_is_the_slice():
    x, w, loss, g = _program()
    optimized = tf.dot([loss, g], feed_list=[x])
    sliced = tf.dot([loss, g], feed_list=[x], optimized=False)
    source = tf.source([loss, g], feed_list=[x])
    assert optimized.startswith("digraph s2sgrad {") and sliced.startswith("digraph s2sgrad {")
    assert "scale" in sliced and '"Const\\ntwo"' in sliced       # the graph still multiplies two constants
    assert "scale" not in optimized and "two" not in optimized   # the program folded them to one
    assert re.search(r'\[label="6\.0", shape=plaintext', optimized)
    instrs = {n: a for n, a in _nodes(optimized).items() if re.fullmatch(r"i\d+", n)}
    commented = re.findall(r"# (?:grad of )?(\w+)  ", source)   # one provenance comment per statement
    assert 0 < len(instrs) and len(commented) <= len(instrs) < len(_nodes(sliced))
    gradient = [a for a in instrs.values() if f'fillcolor="{GRADIENT_COLOR}"' in a]
    forward = [a for a in instrs.values() if f'fillcolor="{FORWARD_COLOR}"' in a]
    assert len(gradient) + len(forward) == len(instrs) and gradient and forward
    assert all("gradients/" in a and "grad of " in a for a in gradient)
    assert all("gradients/" not in a for a in forward)
    assert re.search(r"^\s*p\d+ \[label=\"w\", shape=cylinder", optimized, re.MULTILINE)
    assert re.search(r'^\s*i\d+ -> out1 \[label="f32\[3,2\]"\];', optimized, re.MULTILINE)   # the gradient, fetched
    assert f'fillcolor="{GRADIENT_COLOR}"' in sliced and f'fillcolor="{FORWARD_COLOR}"' in sliced


def test_session_dot_draws_the_module_compiled_for_the_fed_shapes_and_its_updates():
    x, w, loss, g = _program()
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        feed = {x: np.ones((4, 3), np.float32)}
        text = sess.dot([train, loss], feed)
        assert 'label="f32[4,3]"' in text and "f32[?,3]" not in text
        assert re.search(r'-> p\d+ \[label="assign", style=bold', text)      # the update of w
        assert sess.dot([train, loss], feed, optimized=False) == tf.dot([train, loss], feed_list=[x], optimized=False)
        before = sess.run(w)
        sess.dot([train, loss], feed)
        np.testing.assert_array_equal(sess.run(w), before)                   # drawing runs nothing


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_svg_through_graphviz():
    x, w, loss, g = _program()
    svg = tf.dot([loss, g], feed_list=[x], format="svg")
    assert svg.lstrip().startswith("<?xml") and "</svg>" in svg
    assert "gradients/xw_grad" in svg and GRADIENT_COLOR in svg
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert "</svg>" in sess.dot(loss, {x: np.ones((1, 3), np.float32)}, format="svg")


def test_svg_without_graphviz_names_what_to_install(monkeypatch, tmp_path):
    x, w, loss, g = _program()
    monkeypatch.setenv("PATH", str(tmp_path))       # no `dot` program anywhere
    with pytest.raises(RuntimeError, match=r"needs Graphviz's 'dot' program.*apt-get install graphviz"):
        tf.dot(loss, feed_list=[x], format="svg")
    assert tf.dot(loss, feed_list=[x]).startswith("digraph")   # DOT text needs nothing


def test_unknown_format_is_refused():
    x, w, loss, g = _program()
    with pytest.raises(ValueError, match="format must be one of 'dot', 'svg', got 'png'"):
        tf.dot(loss, feed_list=[x], format="png")


def test_session_dot_of_a_tf_data_pipeline_draws_the_module_and_consumes_no_element():
    batches = tf.data.Dataset.from_tensor_slices(np.arange(6, dtype=np.float32).reshape(3, 2)).batch(2)
    x = batches.make_one_shot_iterator().get_next()
    w = tf.Variable(np.ones(2, np.float32), name="w")
    loss = tf.reduce_sum(x * w, name="loss")
    g, = tf.gradients(loss, w)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        text = sess.dot([loss, g])
        assert re.search(r'p\d+ \[label="feed\\n[^"]*", shape=ellipse, style=dashed\];', text)  # the element
        assert f'fillcolor="{GRADIENT_COLOR}"' in text and "-> out1" in text
        value, grad = sess.run([loss, g])
    assert value == 0.0 + 1.0 + 2.0 + 3.0                   # the first batch: drawing took none
    np.testing.assert_array_equal(grad, [2.0, 4.0])
