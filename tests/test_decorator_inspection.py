"""Seeing and debugging what the decorator compiled: ``source``, ``ir``, ``executable``, the
module's label, ``linecache`` registration, and comments that name the user's lines."""
from __future__ import annotations

import inspect
import linecache
import os
import re

import numpy as np
import pytest

import s2sgrad
from s2sgrad import errors
from s2sgrad.codegen import compiler
from s2sgrad.pipeline import Executable

HERE = os.path.basename(__file__)


def model(w, x):
    h = np.tanh(x @ w)
    return np.sum(h ** 2)


def first_line(f):
    return f.__code__.co_firstlineno + 1


@pytest.fixture
def args(rng):
    return rng.standard_normal((3, 2)), rng.standard_normal((4, 3))


def test_source_is_the_executed_module(args):
    gf = s2sgrad.grad(model)
    exe = gf.executable(*args)
    assert isinstance(exe, Executable)
    assert gf.source(*args) == exe.source == exe.module.source
    assert "def run(w, x):" in exe.source
    assert "g_w = " in exe.source and "return (g_w,)" in exe.source
    assert exe.module.params and exe.module.helpers == set() and isinstance(exe.module.constants, dict)


def test_comments_name_the_users_lines(args):
    source = s2sgrad.value_and_grad(model).source(*args)
    line = first_line(model)
    assert re.search(rf"np\.tanh\(.*# Tanh  {HERE}:{line}\n", source)
    assert re.search(rf"g_w = x\.T @ \(g_h \* \(1 - h \* h\)\) +# grad of MatMul  {HERE}:{line}\n", source)
    assert re.search(rf"np\.sum\(.*# Sum  {HERE}:{line + 1}\n", source)


def uses_many_numpy_functions(a):
    s = np.linalg.norm(a, axis=1) + np.std(a, axis=1) + np.einsum("ij->i", a)
    return np.mean(np.clip(s, -5, 5)) + np.trace(np.diag(a[0]))


def test_lines_inside_numpy_functions_are_the_callers(rng):
    source = s2sgrad.grad(uses_many_numpy_functions).source(rng.standard_normal((3, 3)))
    body = source.split("def run(", 1)[1]
    places = set(re.findall(r"#.*  (\S+:\d+)$", body, flags=re.M))
    line = first_line(uses_many_numpy_functions)
    assert places == {f"{HERE}:{line - 1}", f"{HERE}:{line}", f"{HERE}:{line + 1}"}  # def line: the argument


def test_ir_lists_the_traced_ops_and_their_gradients(args):
    text = s2sgrad.grad(model).ir(*args)
    assert re.search(r"^Tanh:0 f64\[4,2\] = Tanh\(MatMul:0\) +# " + re.escape(HERE), text, flags=re.M)
    assert "gradients/Tanh_grad" in text
    assert all(len(line.split(" = ", 1)) == 2 for line in text.splitlines())


def test_module_label_names_the_function(args):
    seen = []
    listener = lambda label, source, constants: seen.append((label, source))  # noqa: E731
    compiler.compile_listeners.append(listener)
    try:
        exe = s2sgrad.value_and_grad(model, wrt=(0, 1)).executable(*args)
    finally:
        compiler.compile_listeners.remove(listener)
    assert exe.label == "value_and_grad(model)"
    assert seen == [("value_and_grad(model)", exe.source)]
    assert exe.fn.filename.startswith("<s2sgrad:value_and_grad(model)-")


def test_generated_code_is_in_linecache(args):
    exe = s2sgrad.grad(model).executable(*args)
    assert "".join(linecache.getlines(exe.fn.filename)) == exe.source
    assert inspect.getsource(exe.fn).startswith("def run(w, x):")


def gather_rows(x, rows):
    return np.sum(x[rows] ** 2)


def test_runtime_errors_point_into_the_generated_module_and_the_users_line():
    gf = s2sgrad.grad(gather_rows)
    with pytest.raises(errors.InvalidArgumentError, match=rf"IndexError.*created at {HERE}:{first_line(gather_rows)}"):
        gf(np.ones(3), np.array([0, 7]))
    try:
        gf(np.ones(3), np.array([0, 7]))
    except errors.InvalidArgumentError as e:
        frames = []
        tb = e.__cause__.__traceback__
        while tb is not None:
            frames.append(tb.tb_frame.f_code.co_filename)
            tb = tb.tb_next
    assert any(f.startswith("<s2sgrad:grad(gather_rows)-") for f in frames)


def test_inspection_needs_concrete_examples():
    def outer(x):
        return s2sgrad.grad(model).source(x, np.ones((2, 3)))

    with pytest.raises(TypeError, match="concrete example arguments"):
        s2sgrad.grad(lambda w: np.sum(w) + len(outer(w)))(np.ones((3, 2)))
