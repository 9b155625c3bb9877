"""Injection-proof code generation: whatever users name their ops, scopes, variables,
arguments, functions and files, and whatever text their string constants hold, the generated
code means the same thing, its names collide with nothing, and none of that text executes.

Payloads call a sentinel installed in ``builtins``: if any user text ever ran as code, the
sentinel would record it. Every generated module is also checked on its AST
(``generated_code.problems``): only NumPy is imported, every name is bound once and read
after it is bound, nothing shadows ``np``/``rt``/``run``/``_constants`` or a builtin.
"""
from __future__ import annotations

import ast
import builtins
import contextlib
import string

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import s2sgrad as tf
from generated_code import problems
from s2sgrad.codegen import compiler

FIRST = string.ascii_letters + string.digits + "."
REST = FIRST + "_\\/>-"
PAYLOADS = ["__import__('builtins').s2sgrad_sentinel('name')",
            "x'); __import__('builtins').s2sgrad_sentinel('quote'); ('",
            "\"\"\"\n__import__('builtins').s2sgrad_sentinel('docstring')\n\"\"\"",
            "a\\\n__import__('builtins').s2sgrad_sentinel('continuation')",
            "# comment\n__import__('builtins').s2sgrad_sentinel('comment')",
            "\x00\r\x0b\x0c\u2028\u2029\ufeff", "", "\\", "'''", "{np}", "%s%d"]
# Valid TF node names that mean something to Python or to the generated module.
TRICKY = ["np", "rt", "run", "s/_constants", "s/__builtins__", "s/__import__", "def", "lambda", "class", "None",
          "True", "print", "exec", "eval", "slice", "tuple", "map", "complex", "match", "type", "g_x", "new_w",
          "x_1", "rng_x", "Mul", "mul", "MUL_1", "t", "c", "c_1", ".x", "..", ".", "0", "1e5", "a\\", "x>y",
          "a-b", "np.random", "a" * 60, "a" * 60 + "b", "gradients", "gradients/x", "init", "Variable"]
node_names = st.one_of(st.sampled_from(TRICKY),
                       st.builds(lambda a, b: a + b, st.sampled_from(FIRST), st.text(REST, max_size=12)))
scope_names = st.one_of(st.just(""), node_names, node_names.map(lambda n: n + "/"))
texts = st.one_of(st.sampled_from(PAYLOADS), st.text(max_size=30))


@pytest.fixture(autouse=True)
def sentinel(monkeypatch):
    fired: list = []
    monkeypatch.setattr(builtins, "s2sgrad_sentinel", fired.append, raising=False)
    yield fired
    assert not fired, f"user text was executed: {fired}"


@contextlib.contextmanager
def checked_modules():
    """Collects every module compiled inside; on exit, checks each one's AST."""
    sources: list[str] = []
    listener = lambda label, source, constants: sources.append(source)  # noqa: E731
    compiler.compile_listeners.append(listener)
    try:
        yield sources
    finally:
        compiler.compile_listeners.remove(listener)
    assert sources
    for source in sources:
        assert problems(source) == [], source


def _program(names, scope, text):
    x = tf.placeholder(tf.float32, [3], name=names[0])
    with tf.name_scope(scope):
        w = tf.Variable(np.array([0.5, -1.0, 2.0], np.float32), name=names[1])
        a = tf.multiply(x, w, name=names[2])
        b = tf.tanh(a, name=names[3])
    c = tf.add(b, tf.constant(0.5, name=names[4]), name=names[5])
    s = tf.constant(text, name=names[6])
    loss = tf.reduce_sum(c * c, name=names[7])
    gx, gw = tf.gradients(loss, [x, w])
    step = tf.train.GradientDescentOptimizer(0.25).minimize(loss, name=names[8])
    return x, w, loss, gx, gw, s, step


def _reference(x, w):
    b = np.tanh(x * w)
    c = b + np.float32(0.5)
    dc = 2 * c * (1 - b * b)
    return np.sum(c * c), dc * w, dc * x


@given(names=st.lists(node_names, min_size=9, max_size=9), scope=scope_names, text=texts)
def test_any_valid_names_and_any_string_give_the_same_program(names, scope, text):
    data = np.array([1.0, 0.25, -0.5], np.float32)
    with tf.Graph().as_default() as graph, checked_modules():
        x, w, loss, gx, gw, s, step = _program(names, scope, text)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            got = sess.run([loss, gx, gw, s], {x: data})
            sess.run(step, {x: data})
            w_after = sess.run(w)
    w0 = np.array([0.5, -1.0, 2.0], np.float32)
    expected = _reference(data, w0)
    for g, e in zip(got[:3], expected, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-6)
    assert got[3] == text.encode("utf-8")
    np.testing.assert_allclose(w_after, w0 - 0.25 * expected[2], rtol=1e-6)
    ir = str(graph).splitlines()
    ops = graph.get_operations()
    assert len(ir) == len(ops)
    for line, op in zip(ir, ops, strict=True):
        assert line.startswith(f"{op.outputs[0].name} " if op.outputs else f"^{op.name} ")


@given(name=st.text(min_size=1, max_size=12))
def test_names_tf_does_not_allow_are_refused_before_anything_is_recorded(name):
    valid = name[0] in FIRST and all(ch in REST for ch in name)
    makers = (lambda x: tf.identity(x, name=name), lambda x: tf.identity(x, name=name + "/"),
              lambda x: tf.Variable(1.0, name=name), lambda x: tf.constant(2.0, name=name),
              lambda x: tf.get_default_graph().name_scope(name).__enter__(),
              lambda x: tf.get_default_graph().name_scope(name + "/").__enter__())
    for make in makers:
        with tf.Graph().as_default() as graph:
            x = tf.constant(1.0, name="x")
            if valid:
                make(x)
                continue
            with pytest.raises(ValueError, match="is not a valid (node|scope) name"):
                make(x)
            assert len(graph.get_operations()) == 1
    with tf.Graph().as_default() as graph, graph.name_scope("outer"):
        if all(ch in REST for ch in name):  # inside a scope, a name may also start with _ - > \\ /
            graph.name_scope(name).__enter__()
        else:
            with pytest.raises(ValueError, match="is not a valid scope name"):
                graph.name_scope(name).__enter__()


@pytest.mark.parametrize("bad", [3, b"bytes", ["x"], object()])
def test_names_that_are_not_strings_are_a_type_error(bad):
    x = tf.constant(1.0)
    with pytest.raises(TypeError, match="name must be a string"):
        tf.identity(x, name=bad)
    with pytest.raises(TypeError, match="name must be a string"):
        tf.get_default_graph().name_scope(bad).__enter__()


def test_names_that_only_differ_after_sanitizing_or_truncation_stay_distinct():
    spellings = ["a.b", "a-b", "a>b", "a\\b", "a/b", "A_B", "aB", "a_b", "a__b", "g_x", "new_x", "x_1",
                 "p" * 50 + "1", "p" * 50 + "2", "np", "rt", "run", "s/_constants"]
    with checked_modules():
        x = tf.placeholder(tf.float32, [], name="x")
        outs = [tf.multiply(x, float(i + 1), name=n) for i, n in enumerate(spellings)]
        (gx,) = tf.gradients(tf.add_n(outs), [x])
        with tf.Session() as sess:
            got = sess.run(outs + [gx], {x: 2.0})
    assert got == [2.0 * (i + 1) for i in range(len(spellings))] + [sum(range(1, len(spellings) + 1))]


def test_a_hostile_file_name_stays_inside_its_comments():
    program = "x = tf.placeholder(tf.float32, [2], name='x')\ny = tf.reduce_sum(tf.tanh(x) * 2.0)\n"
    filename = "evil\n__import__('builtins').s2sgrad_sentinel('file')\n#\r\x0b.py"
    namespace = {"tf": tf}
    exec(compile(program, filename, "exec"), namespace)  # the user's program
    x, y = namespace["x"], namespace["y"]
    with checked_modules() as sources:
        (g,) = tf.gradients(y, [x])
        with tf.Session() as sess:
            got = sess.run([y, g], {x: [0.5, -1.0]})
    np.testing.assert_allclose(got[0], 2 * np.sum(np.tanh([0.5, -1.0])), rtol=1e-6)
    np.testing.assert_allclose(got[1], 2 * (1 - np.tanh([0.5, -1.0]) ** 2), rtol=1e-6)
    assert "evil\\n__import__" in sources[0]   # the file name, escaped, in the comments
    graph = tf.get_default_graph()
    assert len(str(graph).splitlines()) == len(graph.get_operations())


def test_decorated_functions_may_name_arguments_like_the_generated_module():
    def f(np_, rt, run, _constants, g_rt, __builtins__):  # the point of the test
        return np.sum(np_ * rt) + np.sum(run ** 2) * _constants + np.sum(g_rt * __builtins__)

    args = (np.arange(3.0), np.ones(3), np.array([1.0, 2.0]), 3.0, np.full(2, 2.0), np.array([5.0, 7.0]))
    with checked_modules():
        grads = tf.grad(f, wrt=(0, 1, 2, 3, 4, 5))(*args)
    expected = (args[1], args[0], 2 * args[2] * 3.0, 5.0, args[5], args[4])
    for got, want in zip(grads, expected, strict=True):
        np.testing.assert_allclose(got, want)


@given(key=texts.filter(lambda k: k != "x"), qualname=texts)
def test_keyword_argument_names_and_function_names_are_only_data(key, qualname):
    def f(x, **kwargs):
        return np.sum(x * kwargs[key]) + np.sum(kwargs[key] ** 2)

    f.__qualname__ = qualname
    x, y = np.array([1.0, 2.0]), np.array([3.0, -1.0])
    with checked_modules() as sources:
        value, (gx, gy) = tf.value_and_grad(f, wrt=("x", key))(x, **{key: y})
    assert value == pytest.approx(np.sum(x * y) + np.sum(y ** 2))
    np.testing.assert_allclose(gx, y)
    np.testing.assert_allclose(gy, x + 2 * y)
    docstring = ast.get_docstring(ast.parse(sources[-1]), clean=False)
    assert f"value_and_grad({qualname})" in docstring


@given(text=texts, shape=st.sampled_from([(), (2,), (2, 3)]))
def test_string_constants_of_any_shape_round_trip(text, shape):
    value = np.full(shape, text, dtype=object)
    with tf.Graph().as_default(), checked_modules():
        s = tf.constant(value.tolist() if shape else text)
        joined = tf.identity(s, name="joined")
        with tf.Session() as sess:
            got = sess.run([s, joined])
    expected = np.full(shape, text.encode("utf-8"), dtype=object)
    for g in got:
        assert np.shape(g) == shape and np.all(np.asarray(g, dtype=object) == expected)
