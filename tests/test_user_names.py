"""Generated code names values after the user's own variables (``logits = tf.matmul(h, w2)``
gives ``logits`` and its adjoint ``g_logits``), falling back to op names where the statement
is not a plain assignment of one tensor; names stay safe, unique and deterministic."""
import ast
import linecache

import numpy as np

import s2sgrad as tf
from evaluate import exec_program
from generated_code import problems


def _run_body(source):
    tree = ast.parse(source)
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
    return fn, [line.split("#")[0].strip() for line in ast.get_source_segment(source, fn).splitlines()]


def _source(program, fetch="grads", feeds=("x",)):
    ns = exec_program(program)
    return tf.source(ns[fetch], [ns[f] for f in feeds])


MLP = """\
x = tf.placeholder(tf.float32, [4, 3], name="input")
w1 = tf.Variable(np.ones((3, 5), np.float32))
w2 = tf.Variable(np.ones((5, 2), np.float32))
h = tf.tanh(tf.matmul(x, w1) * 0.5 + 0.1)
logits = tf.matmul(h, w2)
loss = tf.reduce_sum(logits * logits)
grads = tf.gradients(loss, [w1, w2])
"""


def test_values_and_adjoints_take_the_users_variable_names():
    source = _source(MLP)
    fn, lines = _run_body(source)
    assert [a.arg for a in fn.args.args] == ["x", "w1", "w2"]
    assert "h = np.tanh(x @ w1 * 0.5 + 0.1)" in lines        # the Tanh: outermost op of its line
    assert "logits = h @ w2" in lines
    assert "g_logits = logits + logits" in lines
    assert "g_h = g_logits @ w2.T" in lines and "g_w2 = h.T @ g_logits" in lines
    assert "g_w1 = x.T @ (g_h * (1 - h * h) * 0.5)" in lines   # line 4's gradient: one statement, as line 4
    assert "mat_mul_1" not in source and problems(source) == []


def test_statements_that_assign_no_single_tensor_fall_back_to_op_names():
    source = _source("""\
x = tf.placeholder(tf.float32, [3], name="x")
a, b = tf.tanh(x), tf.square(x)
parts = [tf.exp(x), tf.sin(x)]
c = tf.cos(x); d = tf.abs(c)
grads = tf.add_n([a, b, parts[0], parts[1], d])
""")
    _, lines = _run_body(source)
    names = {line.split(" = ")[0] for line in lines if " = " in line}
    assert {"tanh", "square", "exp", "sin", "abs_", "grads"} <= names, source   # cos fused into abs_
    assert not {"a", "b", "c", "d", "parts"} & names


def test_multi_line_statements_and_attributes_of_self():
    source = _source("""\
class Model:
    def __init__(self, x):
        self.hidden = tf.tanh(
            tf.square(x)
            + 1.0)
x = tf.placeholder(tf.float32, [3], name="x")
grads = Model(x).hidden * 2.0
""")
    _, lines = _run_body(source)
    assert "add = np.square(x) + 1.0" in lines and "hidden = np.tanh(add)" in lines, source


def test_repeated_and_reserved_names_stay_unique_and_safe():
    source = _source("""\
x = tf.placeholder(tf.float32, [3], name="x")
h = tf.tanh(x)
h = tf.tanh(h * 2.0)
np_ = None
run = tf.exp(h)
rt = tf.sin(run)
λ = tf.cos(rt)
grads = λ + h
""")
    _, lines = _run_body(source)
    names = [line.split(" = ")[0] for line in lines if " = " in line]
    assert names == ["h", "h_1", "run_", "rt_", "t", "grads"], source   # λ: no ASCII left, so "t"
    assert problems(source) == []


def test_a_loop_names_only_its_last_pass():
    source = _source("""\
x = tf.placeholder(tf.float32, [3], name="x")
h = x
for _ in range(3):
    h = tf.tanh(h * 2.0)
grads = h
""")
    _, lines = _run_body(source)
    assert lines[1:3] == ["mul_2 = np.tanh(np.tanh(x * 2.0) * 2.0) * 2.0", "h = np.tanh(mul_2)"], source


def test_without_source_op_names_are_used(tmp_path):
    ns = {"tf": tf, "np": np}
    exec(compile(MLP, str(tmp_path / "gone.py"), "exec"), ns)  # no file, nothing in linecache
    source = tf.source(ns["grads"], [ns["x"]])
    assert "mat_mul_1 = tanh @ variable_1" in source.replace("  ", " "), source


def test_names_follow_the_text_seen_when_compiling():
    ns = exec_program(MLP, "renamed.py")
    first = tf.source(ns["grads"], [ns["x"]])
    linecache.cache["renamed.py"] = (1, None, [line.replace("logits", "scores") + "\n"
                                              for line in MLP.splitlines()], "renamed.py")
    tf.reset_default_graph()
    ns = {"tf": tf, "np": np}
    exec(compile(MLP, "renamed.py", "exec"), ns)  # the registered text says scores
    second = tf.source(ns["grads"], [ns["x"]])
    assert "logits = h @ w2" in first and "scores = h @ w2" in second and "g_scores" in second
