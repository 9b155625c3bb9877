"""A TensorFlow 1.x name s2sgrad lacks is an UnsupportedTensorFlowName that says so (with no misleading
"Did you mean"); any other missing name is an ordinary AttributeError; the coverage table is current.
"""
from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import traceback

import pytest

import s2sgrad as tf
from s2sgrad.tf1_api import COVERAGE_PAGE, UnsupportedTensorFlowName, tf1_names
from tools import coverage_table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# (expression, TF name): missing names of every kind, in every namespace module
MISSING = [("tf.py_func", "tf.py_func"),
           ("tf.sparse_tensor_to_dense", "tf.sparse_tensor_to_dense"), ("tf.nn.dilation2d", "tf.nn.dilation2d"),
           ("tf.train.import_meta_graph", "tf.train.import_meta_graph"), ("tf.math.bessel_i0", "tf.math.bessel_i0"),
           ("tf.linalg.expm", "tf.linalg.expm"), ("tf.losses.hinge_loss", "tf.losses.hinge_loss"),
           ("tf.errors.raise_exception_on_not_ok_status", "tf.errors.raise_exception_on_not_ok_status"),
           ("tf.random.categorical", "tf.random.categorical"), ("tf.initializers.orthogonal",
                                                                "tf.initializers.orthogonal"),
           ("tf.debugging.assert_equal", "tf.debugging.assert_equal"), ("tf.manip.roll", "tf.manip.roll"),
           ("tf.compat.forward_compatible", "tf.compat.forward_compatible"), ("tf.dtypes.saturate_cast",
                                                                       "tf.dtypes.saturate_cast"),
           ("tf.contrib.layers.fully_connected", "tf.contrib.layers.fully_connected"),
           ("tf.contrib.framework.arg_scope", "tf.contrib.framework.arg_scope"),
           ("tf.scalar_summary", "tf.scalar_summary"), ("tf.train.SummaryWriter", "tf.train.SummaryWriter"),
           ("tf.merge_all_summaries", "tf.merge_all_summaries"), ("tf.histogram_summary", "tf.histogram_summary")]
NAMESPACES = ["tf.audio", "tf.summary", "tf.keras", "tf.layers", "tf.sparse", "tf.compat.v2", "tf.contrib.learn",
              "tf.contrib.slim"]


def _error(expression: str) -> AttributeError:
    with pytest.raises(AttributeError) as info:
        eval(expression, {"tf": tf})  # the test's own attribute expressions
    return info.value


def _printed(e: BaseException) -> str:
    """What Python prints for ``e`` (its own display, which adds "Did you mean" hints in 3.11), and what
    the traceback module formats (which adds them too from 3.12 on)."""
    python = io.StringIO()
    with contextlib.redirect_stderr(python):
        sys.__excepthook__(type(e), e, e.__traceback__)
    return python.getvalue() + "".join(traceback.format_exception(e))


@pytest.mark.parametrize("expression, tf_name", MISSING, ids=[e for e, _ in MISSING])
def test_a_missing_tensorflow_name_says_so(expression, tf_name):
    e = _error(expression)
    assert type(e) is UnsupportedTensorFlowName and e.tf_name == tf_name
    assert str(e).startswith(f"{tf_name} is a TensorFlow 1.x name that s2sgrad does not support yet")
    assert str(e).endswith(f"; {COVERAGE_PAGE} lists what s2sgrad supports")
    printed = _printed(e)
    assert "Did you mean" not in printed and printed.count(f"UnsupportedTensorFlowName: {e}\n") == 2
    assert not hasattr(tf, tf_name.split(".")[-1]) or "." in tf_name.removeprefix("tf.")


@pytest.mark.parametrize("expression", NAMESPACES)
def test_a_missing_tensorflow_namespace_says_so(expression):
    e = _error(expression)
    assert type(e) is UnsupportedTensorFlowName and e.tf_name == expression
    assert f"{expression} is a TensorFlow 1.x namespace that s2sgrad does not support yet" in str(e)


@pytest.mark.parametrize("expression, planned", [
    ("tf.summary", "(planned: summaries, issue 15)"), ("tf.scalar_summary", "(planned: summaries, issue 15)"),
    ("tf.saved_model", "(planned: input pipelines and checkpoints, issue 15)"),
    ("tf.nn.conv3d_transpose", "(planned: the model-building surface, issue 14)"),
    ("tf.nn.raw_rnn", "(planned: the model-building surface, issue 14)")])
def test_planned_features_name_their_issue(expression, planned):
    assert planned in str(_error(expression))


def _missing_by_module() -> list[tuple[object, str]]:
    """(s2sgrad module, attribute) for every TF name s2sgrad lacks inside a namespace it has."""
    out = []
    for name in sorted(tf1_names()):
        parent, _, leaf = name.rstrip(".").rpartition(".")
        if not coverage_table.supported(name) and (not parent or coverage_table.supported(parent + ".")):
            out.append((eval("tf." + parent if parent else "tf", {"tf": tf}), leaf))
    return out


def _python_would_suggest(module: object, name: str) -> bool:
    """Whether Python prints a "Did you mean" for an ordinary missing attribute ``module.name``."""
    return "Did you mean" in _printed(AttributeError(f"no {name}", name=name, obj=module))


def test_no_missing_tensorflow_name_gets_a_did_you_mean():
    """Python would guess for many of them (tf.device -> 'divide', tf.nn.conv2d -> ...); it guesses for none."""
    missing = _missing_by_module()
    assert len(missing) > 300  # 879 when written
    guessed = 0
    for module, name in missing:
        e = _error_from(module, name)
        assert type(e) is UnsupportedTensorFlowName and "Did you mean" not in _printed(e), (module, name)
        guessed += _python_would_suggest(module, name)
    assert guessed > 20  # 109 when written (tf.device -> divide among them)


def _error_from(module: object, name: str) -> AttributeError:
    with pytest.raises(AttributeError) as info:
        getattr(module, name)
    return info.value


def test_python_itself_prints_no_guess_for_a_missing_tensorflow_name():
    """The interpreter's own display of an uncaught error, in a fresh process."""
    name = next(n for module, n in _missing_by_module() if module is tf and _python_would_suggest(tf, n))
    result = subprocess.run([sys.executable, "-c", f"import s2sgrad as tf\ntf.{name}"], capture_output=True, text=True)
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(f"s2sgrad.tf1_api.UnsupportedTensorFlowName: tf.{name} is a TensorFlow 1.x name that "
                           "s2sgrad does not support yet")
    assert last.endswith(f"; {COVERAGE_PAGE} lists what s2sgrad supports") and "Did you mean" not in result.stderr


@pytest.mark.parametrize("expression, suggestion", [("tf.reduce_summ", "reduce_sum"), ("tf.nn.reluu", "relu"),
                                                    ("tf.train.AdamOptimiser", "AdamOptimizer"),
                                                    ("tf.math.reduce_meen", "reduce_mean"),
                                                    ("tf.not_a_name_anywhere", None)])
def test_a_name_tensorflow_lacks_too_is_an_ordinary_attribute_error(expression, suggestion):
    e = _error(expression)
    module, _, name = expression.rpartition(".")
    assert type(e) is AttributeError and e.name == name and e.obj is eval(module, {"tf": tf})
    assert str(e) == f"module {e.obj.__name__!r} has no attribute {name!r}"
    hint = f"Did you mean: '{suggestion}'?"
    assert (hint in _printed(e)) == (suggestion is not None) and "TensorFlow" not in _printed(e)
    assert _printed(e).count(f"AttributeError: {e}") == 2


def test_private_and_dunder_lookups_stay_ordinary():
    assert not hasattr(tf, "__path_hook__") and not hasattr(tf.nn, "_private")
    assert type(_error("tf.__wrapped__")) is AttributeError
    with pytest.raises(ImportError):
        exec("from s2sgrad import py_func", {})  # `from` imports turn the error into ImportError


def test_missing_names_are_attribute_errors_for_feature_detection():
    assert not hasattr(tf, "py_func") and getattr(tf.nn, "ctc_loss", None) is None
    assert isinstance(UnsupportedTensorFlowName("tf.x"), AttributeError)
    assert tf.errors.UnsupportedTensorFlowName is UnsupportedTensorFlowName


def test_the_name_list_is_tf1s_api():
    names = tf1_names()
    assert len(names) > 2000
    assert {"placeholder", "Session", "nn.relu", "nn.", "train.AdamOptimizer", "compat.v1.", "keras.",
            "mul", "scalar_summary", "contrib.layers.xavier_initializer", "app.run", "gfile.Exists"} <= names
    assert not any(n.startswith(("raw_ops.", "compat.v1.", "keras.")) and n not in ("compat.v1.", "keras.")
                   for n in names)
    # every name's namespaces are listed too
    assert all(n.rsplit(".", 2)[0] + "." in names for n in names if n.rstrip(".").count("."))
    with open(os.path.join(ROOT, "s2sgrad", "data", "tf1_names.txt"), encoding="utf-8") as f:
        header = f.readline()
    assert header.startswith("# TensorFlow ") and "tools/tf1_names.py" in header


def test_the_name_list_is_package_data():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        assert 's2sgrad = ["py.typed", "data/*.txt"]' in f.read()


def test_every_tensorflow_name_s2sgrad_has_resolves_without_the_fallback():
    """Supported names are real attributes (not produced by ``__getattr__``), and s2sgrad's own
    namespaces that TF has are all in the list."""
    supported = [n for n in tf1_names() if coverage_table.supported(n)]
    assert len(supported) > 400
    for name in ["nn.", "math.", "linalg.", "train.", "losses.", "errors.", "dtypes.", "random.", "initializers.",
                 "debugging.", "manip.", "compat.", "contrib.", "contrib.layers.", "contrib.framework."]:
        assert name in tf1_names() and coverage_table.supported(name)


def test_the_coverage_table_in_the_docs_is_current():
    path = os.path.join(ROOT, "docs", "comparison.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    assert coverage_table.with_table(text, path) == text, \
        "docs/comparison.md's coverage table is stale: run python tools/coverage_table.py --write docs/comparison.md"


def test_the_coverage_table_counts_per_namespace():
    rows = coverage_table.counts()
    assert rows["tf.nn"][0] == sum(1 for n in tf1_names() if n.startswith("nn.") and not n.endswith(".")
                                   and coverage_table.supported(n))
    assert rows["tf.image"] == (7, sum(1 for n in tf1_names() if n.startswith("image.") and not n.endswith(".")))
    table = coverage_table.table()
    assert table.splitlines()[2].startswith("| `tf` | ") and table.splitlines()[-1].startswith("| all | ")
    with pytest.raises(ValueError, match="has no coverage section"):
        coverage_table.with_table("no markers", "x.md")


def test_dir_lists_the_public_names_and_no_internal_module():
    listed = dir(tf)
    assert listed == sorted(tf.__all__)
    assert all(hasattr(tf, name) for name in listed)
    for internal in ("ssa", "codegen", "pipeline", "autodiff", "primitives", "gcpause", "tracing"):
        assert internal not in listed
        assert hasattr(tf, internal)   # hidden from the listing, still importable for those who need it
    for public in ("nn", "train", "compat", "Session", "gradients", "source", "grad", "explain"):
        assert public in listed
