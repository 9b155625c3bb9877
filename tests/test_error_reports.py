"""Errors name what the user wrote: the op, its line (for a gradient op also the forward op's
line), the generated line; nothing internal chained in front; the decorator's errors without
s2sgrad's frames; BdbQuit, KeyboardInterrupt, SystemExit and GeneratorExit pass through untouched
(and a run they stop changes no variable)."""
from __future__ import annotations

import bdb
import os
import re
import subprocess
import sys
import textwrap
import traceback

import numpy as np
import pytest

import s2sgrad as tf
from conftest import checkout_env
from s2sgrad.codegen import runtime

HERE = os.path.basename(__file__)


def line_of(op) -> str:
    return f"{HERE}:{op.location[1]}"


def test_an_error_in_a_gradient_op_names_the_forward_line_and_the_gradients_call():
    x = tf.placeholder(tf.float32, [3], name="x")
    i = tf.placeholder(tf.int32, [None], name="i")
    rows = tf.gather(x, i)
    (g,) = tf.gradients(tf.reduce_sum(rows) + tf.reduce_sum(x), x)   # two contributions: made dense
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError) as info:
        sess.run(g, {x: np.ones(3), i: [0, 5]})
    error = info.value
    assert error.op.grad_of is x.op
    first, generated = str(error).split("\n")
    assert first == (f"segment_ids[1] = 5 is out of range [0, 3) (op '{error.op.name}' of type UnsortedSegmentSum, "
                     f"created at {line_of(error.op)} for the gradient of op 'x' of type Placeholder, "
                     f"created at {line_of(x.op)})")
    assert line_of(error.op) == f"{HERE}:{g.op.location[1]}" != line_of(x.op)
    assert re.fullmatch(r"  generated line (\d+) of <s2sgrad:run-[0-9a-f]{10}-\d+>: "
                        r"\w+ = rt\.segment_sum\(g_rows, i, 3\)"
                        r"( +# grad of Placeholder  " + re.escape(line_of(x.op)) + ")?",
                        generated), generated
    frame = traceback.extract_tb(error.__traceback__)[-1]
    assert frame.filename.startswith("<s2sgrad:run-") and frame.line in generated
    assert [f.filename for f in traceback.extract_tb(error.__cause__.__traceback__)] == [frame.filename]


def test_feed_and_fetch_errors_are_not_chained_to_an_internal_lookup():
    x = tf.placeholder(tf.float32, name="x")
    with tf.Session() as sess:
        for fetch, feeds, kind in [(x * 2.0, {}, tf.errors.InvalidArgumentError), ("nothing:0", {}, ValueError),
                                   (object(), {}, TypeError), (x, {"x:7": 1.0}, TypeError),
                                   ([x, None], {x: 1.0}, TypeError)]:
            with pytest.raises(kind) as info:
                sess.run(fetch, feeds)
            e = info.value
            assert e.__cause__ is None and (e.__context__ is None or e.__suppress_context__), repr(e)
            assert "During handling" not in "".join(traceback.format_exception(e))


@pytest.mark.parametrize("kind", [KeyboardInterrupt, SystemExit, GeneratorExit, bdb.BdbQuit])
def test_interrupts_and_debugger_exits_pass_through_a_run_untouched(monkeypatch, kind):
    x = tf.placeholder(tf.float32, [3], name="x")
    i = tf.placeholder(tf.int32, [None], name="i")
    v = tf.Variable(np.zeros(3, np.float32), name="v")
    (g,) = tf.gradients(tf.reduce_sum(tf.gather(x, i)) + tf.reduce_sum(x), x)
    step = tf.assign_add(v, g)
    raised = kind("stop")

    def interrupted(*args):
        raise raised

    with tf.Session() as sess:
        sess.run(v.initializer)
        sess.run(step, {x: np.ones(3), i: [0]})
        monkeypatch.setattr(runtime, "segment_sum", interrupted)
        with pytest.raises(kind) as info:
            sess.run(step, {x: np.ones(3), i: [0]})
        assert info.value is raised and info.value.__cause__ is None
        monkeypatch.undo()
        np.testing.assert_array_equal(sess.run(v), [2.0, 1.0, 1.0])


@pytest.mark.parametrize("kind", [KeyboardInterrupt, SystemExit, bdb.BdbQuit])
def test_interrupts_pass_through_the_decorator_untouched(kind):
    raised = kind("stop")

    def f(x):
        if raised is not None:
            raise raised
        return np.sum(x)

    with pytest.raises(kind) as info:
        tf.grad(f)(np.ones(2))
    assert info.value is raised
    assert any(os.sep + "tracing" + os.sep in f.filename for f in traceback.extract_tb(info.value.__traceback__))


DECORATED = """\
import numpy as np
import s2sgrad

def model(w, x):
    return np.sum(np.dot(x, w))

def picked(x, rows):
    return np.sum(x[rows] ** 2)

s2sgrad.grad({call})
"""


def run_decorated(tmp_path, call, **env):
    (tmp_path / "prog.py").write_text(DECORATED.format(call=call))
    return subprocess.run([sys.executable, "prog.py"], capture_output=True, text=True, timeout=120,
                          env=checkout_env(**env), cwd=tmp_path)


def frames(stderr):
    """(file, function) of each frame printed (before 3.11 the decorator's re-raise shows too)."""
    found = re.findall(r'File "([^"]+)", line \d+, in (\S+)', stderr)
    if sys.version_info < (3, 11):
        found = [f for f in found if not f[0].endswith(os.path.join("s2sgrad", "tracebacks.py"))]
    return found


def test_decorator_errors_show_the_users_frames_only(tmp_path):
    result = run_decorated(tmp_path, "model)(np.ones(4), np.ones((2, 3))")
    prog = str(tmp_path / "prog.py")
    assert frames(result.stderr) == [(prog, "<module>"), (prog, "model")], result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("ValueError: matmul: Input operand 1 has a mismatch")
    failing = run_decorated(tmp_path, "picked)(np.ones(3), np.array([0, 7])")
    shown = frames(failing.stderr)
    assert shown[-2:] == [(prog, "<module>"), (shown[-1][0], "run")]
    assert shown[-1][0].startswith("<s2sgrad:grad(picked)-")
    assert "np.take(x, rows, axis=0)" in failing.stderr
    assert "created at prog.py:8" in failing.stderr


def test_traceback_filtering_can_be_turned_off(tmp_path):
    result = run_decorated(tmp_path, "model)(np.ones(4), np.ones((2, 3))", S2SGRAD_TRACEBACK_FILTERING="off")
    files = [f for f, _ in frames(result.stderr)]
    assert any(os.sep + os.path.join("s2sgrad", "tracing") + os.sep in f for f in files), result.stderr


def test_pytest_reports_decorator_errors_at_the_users_lines(tmp_path):
    (tmp_path / "test_prog.py").write_text(textwrap.dedent("""\
        import numpy as np
        import s2sgrad

        def model(w, x):
            return np.sum(np.dot(x, w))

        def test_model():
            s2sgrad.grad(model)(np.ones(4), np.ones((2, 3)))
        """))
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_prog.py"],
                            capture_output=True, text=True, timeout=120, env=checkout_env(), cwd=tmp_path)
    assert "1 failed" in result.stdout, result.stdout
    located = re.findall(r"^(\S+):(\d+): ", result.stdout, re.MULTILINE)
    assert located == [("test_prog.py", "8"), ("test_prog.py", "5")], result.stdout
