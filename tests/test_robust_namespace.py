"""The exec namespace: generated modules see NumPy (``np``), the runtime helpers (``rt``) and
their own large constants (``_constants``), and import nothing but NumPy.

Checked over a corpus: every op-table case (forward, shape-generic and gradient modules),
the decorator corpus, the seed programs and a training loop with every optimizer. Each
module's AST must pass ``generated_code.problems`` and each compiled function's globals must
hold nothing else.
"""
from __future__ import annotations

import ast
import contextlib
import glob
import inspect
import io
import os

import numpy as np
import pytest

import optable
import s2sgrad as tf
from conftest import EXAMPLES
from generated_code import problems
from s2sgrad import pipeline
from s2sgrad.codegen import (
    runtime,
    runtime_conv,
    runtime_example,
    runtime_resize,
    runtime_summary,
    runtime_tensor_array,
    runtime_text,
)
from test_robust_atomic import OPTIMIZERS

NAMESPACE = {"__name__", "__doc__", "__builtins__", "np", "rt", "_constants", "run"}
PYTHON_ADDS = {"__warningregistry__"}  # the warnings module's record of (ignored) NumPy warnings


@contextlib.contextmanager
def compiled_functions():
    """Every function compiled inside, checked on exit: clean AST, nothing else in its globals."""
    functions: list = []
    original = pipeline.load_source

    def load(source, constants, label="run", **kwargs):
        fn = original(source, constants, label, **kwargs)
        functions.append(fn)
        return fn

    pipeline.load_source = load
    try:
        yield functions
    finally:
        pipeline.load_source = original
    assert functions
    for fn in functions:
        _check(fn)


def _check(fn) -> None:
    assert problems(fn.source) == [], fn.source
    module_constants = {stmt.targets[0].id for stmt in ast.parse(fn.source).body if isinstance(stmt, ast.Assign)}
    assert set(fn.__globals__) - PYTHON_ADDS == NAMESPACE | module_constants, fn.source
    assert fn.__globals__["np"] is np and fn.__globals__["rt"] is runtime
    assert fn.__globals__["__name__"] == "s2sgrad.generated"
    assert set(fn.__globals__["_constants"]) <= module_constants


def test_the_op_table_compiles_to_clean_modules():
    with compiled_functions() as functions:
        for case in optable.all_cases():
            optable.run_forward(case)
            optable.run_generic(case)
            if case.grad:
                optable.check_case_gradient(case)
    assert len(functions) > 1000


def test_the_decorator_corpus_compiles_to_clean_modules():
    from test_decorator_corpus import CASES
    rng = np.random.default_rng(0)
    with compiled_functions() as functions:
        for case in CASES:
            tf.value_and_grad(case.f, wrt=case.wrt)(*case.args(rng))
    assert len(functions) >= len({case.f for case in CASES})


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(EXAMPLES, "seed_program_*.py"))),
                         ids=os.path.basename)
def test_the_seed_programs_compile_to_clean_modules(path):
    with open(path, encoding="utf-8") as f:
        code = compile(f.read(), path, "exec")
    with compiled_functions(), contextlib.redirect_stdout(io.StringIO()):
        exec(code, {"__name__": "__main__"})  # the seed program


@pytest.mark.parametrize("optimizer", OPTIMIZERS.values(), ids=OPTIMIZERS.keys())
def test_training_with_every_optimizer_compiles_to_clean_modules(optimizer):
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    labels = tf.placeholder(tf.int32, [None], name="labels")
    hidden = tf.nn.relu(tf.matmul(x, tf.Variable(np.ones((3, 4), np.float32))) + 0.1)
    logits = tf.matmul(hidden, tf.Variable(np.full((4, 2), 0.5, np.float32)))
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    step = optimizer().minimize(loss, global_step=tf.train.get_or_create_global_step())
    with compiled_functions(), tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(2):
            sess.run([step, loss], {x: np.ones((5, 3)), labels: [0, 1, 0, 1, 1]})


def test_the_runtime_helpers_depend_on_numpy_and_math_only():
    modules = {name for name, value in vars(runtime).items() if inspect.ismodule(value)}
    assert modules == {"np", "math"}
    # runtime.py re-exports its siblings' helpers: runtime_summary.py imports NumPy and the standard
    # library's struct, sys and zlib, the others NumPy only
    siblings = {"runtime_conv", "runtime_resize", "runtime_summary", "runtime_text", "runtime_tensor_array",
                "runtime_example"}
    for module, allowed in ((runtime, {"numpy", "math", "__future__", *siblings}),
                            (runtime_conv, {"numpy", "numpy.lib.stride_tricks", "__future__"}),
                            (runtime_resize, {"numpy", "__future__"}),
                            (runtime_text, {"numpy", "__future__"}),
                            (runtime_tensor_array, {"numpy", "__future__"}),
                            (runtime_example, {"numpy", "__future__"}),
                            (runtime_summary, {"numpy", "struct", "sys", "zlib", "__future__"})):
        tree = ast.parse(inspect.getsource(module))
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                    for alias in (node.names if isinstance(node, ast.Import) else [ast.alias(node.module)])}
        assert imported == allowed, module.__name__
    summary_modules = {name for name, value in vars(runtime_summary).items() if inspect.ismodule(value)}
    assert summary_modules == {"np", "struct", "sys", "zlib"}


def test_the_session_glue_holds_no_user_text():
    """The per-plan and per-executable glue is generated too: only internal identifiers."""
    weird = "a\\b>c.d-e"
    x = tf.placeholder(tf.float32, [2], name=weird)
    w = tf.Variable([1.0, 2.0], name=weird + "w")
    loss = tf.reduce_sum(x * w, name=weird + "loss")
    step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run([step, loss], {x: [1.0, 1.0]})
        runner = next(r for r in sess._runners.values() if len(r.plan.fed) == 1)
    for glue in [runner.dispatch, *map(inspect.unwrap, runner.steps.values())]:   # past s2sgrad.threads' wrapper
        code = glue.__code__
        names = set(code.co_names) | set(code.co_varnames)
        assert all(n.isidentifier() and n.isascii() and weird not in n for n in names), names
        assert not any(isinstance(c, str) and "a\\b" in c for c in code.co_consts)
