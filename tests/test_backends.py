"""Array backends: choosing one (Session, env default, grad, export, dump), the translated text,
NumPy-only ops named, missing libraries named with their extra (docs/backends.md)."""
from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import s2sgrad as tf
from s2sgrad import errors, pipeline
from s2sgrad.codegen.backends import Backend, get_backend
from s2sgrad.codegen.xp import translate_module

HAS_STRICT = importlib.util.find_spec("array_api_strict") is not None
strict_only = pytest.mark.skipif(not HAS_STRICT, reason="array-api-strict is not installed")
pytestmark = pytest.mark.filterwarnings("ignore")


def _program():
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    w = tf.Variable(np.full((3, 4), 0.5, np.float32), name="w")
    h = tf.tanh(tf.matmul(x, w))
    joined = tf.transpose(tf.expand_dims(tf.concat([h, h * 2.0], axis=1), 0), [2, 0, 1])
    loss = tf.reduce_sum(tf.cast(joined, tf.float64))
    return x, w, loss, tf.train.GradientDescentOptimizer(0.1).minimize(loss)


def test_numpy_backend_text_is_untouched():
    with tf.Graph().as_default():
        x, _, loss, train = _program()
        feeds = {x: np.ones((2, 3), np.float32)}
        with tf.Session() as plain, tf.Session(backend="numpy") as named:
            plain.run(tf.global_variables_initializer())
            named.run(tf.global_variables_initializer())
            assert plain.source([loss, train], feeds) == named.source([loss, train], feeds)
        graph_slice = pipeline.plan(tf.get_default_graph(), [loss], [x])
        module = pipeline.generate(graph_slice, graph_slice.feed_specs(), pipeline.static_variable_spec)
        assert translate_module(module, get_backend("numpy")) is module


@strict_only
def test_translated_text_reads_like_the_numpy_text():
    with tf.Graph().as_default():
        x, _, loss, train = _program()
        feeds = {x: np.ones((2, 3), np.float32)}
        with tf.Session() as numpy_sess, tf.Session(backend="array_api_strict") as sess:
            for s in (numpy_sess, sess):
                s.run(tf.global_variables_initializer())
            numpy_text, text = numpy_sess.source([loss, train], feeds), sess.source([loss, train], feeds)
    assert "import array_api_strict as xp" in text
    for numpy_name, standard in [("np.tanh(", "xp.tanh("), ("np.concatenate(", "xp.concat("),
                                 ("np.transpose(", "xp.permute_dims("), (".astype(np.float64)", "xp.astype(")]:
        assert numpy_name in numpy_text and standard in text, (numpy_name, standard)
    body = text.split("def run", 1)[1]
    assert "np." not in body
    assert len(text.splitlines()) == len(numpy_text.splitlines()) + 2   # + the xp and runtime_xp imports
    assert "as array API statements for the array_api_strict backend." in text


@strict_only
def test_line_map_follows_the_translated_text():
    with tf.Graph().as_default():
        x, _, loss, _ = _program()
        graph_slice = pipeline.plan(tf.get_default_graph(), [loss], [x], backend="array_api_strict")
        exe = pipeline.compile(graph_slice, graph_slice.feed_specs(), pipeline.static_variable_spec)
        numpy_exe = pipeline.compile(pipeline.plan(tf.get_default_graph(), [loss], [x]), graph_slice.feed_specs(),
                                     pipeline.static_variable_spec)
    lines = exe.source.splitlines()
    assert [op for _, op in sorted(exe.module.line_ops.items())] == \
        [op for _, op in sorted(numpy_exe.module.line_ops.items())]
    for number, op in exe.module.line_ops.items():
        assert lines[number - 1].startswith("    ") and not lines[number - 1].lstrip().startswith("#"), op


def test_backend_names_are_checked(monkeypatch):
    with pytest.raises(ValueError, match="backend must be one of 'numpy'"):
        tf.Session(backend="tpu")
    monkeypatch.setenv("S2SGRAD_BACKEND", "tpu")
    with pytest.raises(ValueError, match="S2SGRAD_BACKEND must be one of"):
        tf.Session()


@strict_only
def test_environment_sets_the_default_backend(monkeypatch):
    monkeypatch.setenv("S2SGRAD_BACKEND", "array_api_strict")
    with tf.Graph().as_default(), tf.Session() as sess:
        assert sess.backend == "array_api_strict"
        x = tf.placeholder(tf.float64, [3])
        assert "xp.exp(" in sess.source(tf.exp(x), {x: np.zeros(3)})


def test_a_missing_library_names_its_extra():
    missing = Backend("fake", "s2sgrad_no_such_module", ("s2sgrad_no_such_module",), "fake")
    with pytest.raises(ImportError, match=r"pip install s2sgrad\[fake\]"):
        missing.xp()


@strict_only
def test_a_numpy_only_op_is_named_with_its_reason():
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float64, [2, 3], name="a")
        product = tf.einsum("ij,kj->ik", a, a)
        with tf.Session(backend="array_api_strict") as sess, \
                pytest.raises(errors.UnimplementedError, match=r"np\.einsum has no 'array_api_strict' form.*Einsum"):
            sess.run(product, {a: np.ones((2, 3))})


@strict_only
def test_decorated_gradient_on_a_backend():
    def f(w, x):
        return np.sum(np.tanh(x @ w) ** 2)

    w, x = np.linspace(-1, 1, 6).reshape(3, 2), np.linspace(0, 1, 12).reshape(4, 3)
    expected = tf.grad(f)(w, x)
    got = tf.grad(f, backend="array_api_strict")(w, x)
    assert type(got) is np.ndarray and got.dtype == np.float64
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    value, gradient = tf.value_and_grad(f, backend="array_api_strict")(w, x)
    np.testing.assert_allclose(value, f(w, x), rtol=1e-12)
    np.testing.assert_allclose(gradient, expected, rtol=1e-12)


@strict_only
def test_dump_backend_shows_the_translated_module(tmp_path):
    script = tmp_path / "prog.py"
    script.write_text("import numpy as np, s2sgrad as tf\nx = tf.placeholder(tf.float32, [2])\n"
                      "with tf.Session() as s:\n    s.run(tf.tanh(x), {x: np.ones(2, np.float32)})\n")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(tf.__file__))))
    env.pop("S2SGRAD_BACKEND", None)
    out = subprocess.run([sys.executable, "-m", "s2sgrad", "dump", "--backend", "array_api_strict", str(script)],
                         capture_output=True, text=True, env=env, check=True).stdout
    assert "import array_api_strict as xp" in out and "xp.tanh(x)" in out
    plain = subprocess.run([sys.executable, "-m", "s2sgrad", "dump", str(script)],
                           capture_output=True, text=True, env=env, check=True).stdout
    assert "np.tanh(x)" in plain and "xp." not in plain


@pytest.mark.parametrize("backend", ["torch", "jax"])
def test_export_for_a_backend_runs_standalone(backend, tmp_path):
    pytest.importorskip(backend)
    pytest.importorskip("array_api_compat")
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [4, 3], name="x")
        w = tf.Variable(np.full((3, 2), 0.3, np.float32), name="w")
        target = tf.constant(np.eye(4, 2, dtype=np.float32))
        loss = tf.reduce_mean((tf.nn.softmax(tf.matmul(x, w)) * 3.0 - target) ** 2)
        train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
        xs = np.arange(12, dtype=np.float32).reshape(4, 3) / 10
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            tf.export([loss, train], str(tmp_path / "step.py"), {x: xs}, session=sess, backend=backend)
            expected = [sess.run([loss, train], {x: xs})[0] for _ in range(3)]
    text = (tmp_path / "step.py").read_text()
    assert "xrt = _xrt()" in text and not re.search(r"^\s*(import|from) s2sgrad", text, re.MULTILINE)
    code = f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import step; s = step.Step(); " \
           "print([float(s(__import__('numpy').arange(12, dtype='float32').reshape(4, 3) / 10)[0]) for _ in range(3)])"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}   # without s2sgrad on the path
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    np.testing.assert_allclose(eval(out), expected, rtol=1e-6)
