"""``import s2sgrad as tf`` shows TF's names and s2sgrad's documented additions, nothing else:
in ``dir()``, in the standard library's tab completion (``rlcompleter``, what the REPL uses) and
IPython's; every error class a user can meet is importable from the top level or ``tf.errors``."""
from __future__ import annotations

import glob
import inspect
import os
import pkgutil
import re
import rlcompleter

import pytest

import s2sgrad as tf
from conftest import ROOT
from s2sgrad.tf1_api import tf1_names

TF_TOP_LEVEL = {n.rstrip(".") for n in tf1_names() if "." not in n.rstrip(".")}
# error classes that never reach a user: each with where it is caught or who raises it
INTERNAL_ERRORS = {
    "s2sgrad.checkpoint.wire.WireError": "checkpoint reading turns it into DataLossError",
    "s2sgrad.checkpoint.table.TableError": "checkpoint reading turns it into DataLossError",
    "s2sgrad.codegen.printer.Unsupported": "the printer's fallback signal, caught by the printer",
    "s2sgrad.codegen.xp.NotPortable": "users meet and catch it as tf.errors.UnimplementedError, its base class",
    "s2sgrad.ssa.verify.VerifyError": "the verifier of the test suite's checked mode",
    "s2sgrad.testing.GradientCheckError": "the test suite's gradient checker (s2sgrad.testing)",
}


def completions(text, namespace):
    completer = rlcompleter.Completer(namespace)
    found, i = [], 0
    while (match := completer.complete(text, i)) is not None:
        found.append(match)
        i += 1
    return found


def test_tab_completion_lists_the_public_names_only():
    shown = sorted(m.removeprefix("tf.").removesuffix("(").removesuffix("()") for m in completions("tf.", {"tf": tf}))
    assert shown == sorted(tf.__all__)
    assert completions("tf.codeg", {"tf": tf}) == [] and completions("tf.pipel", {"tf": tf}) == []
    assert completions("tf.Traced", {"tf": tf}) == ["tf.TracedValueError("]


@pytest.mark.filterwarnings("ignore:`Completer.complete` is pending deprecation")
def test_ipython_completion_lists_the_public_names_only():
    pytest.importorskip("IPython")
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.Completer.use_jedi = False
    shell.user_ns["tf"] = tf
    _, matches = shell.complete("tf.", "tf.")
    assert {m.removeprefix("tf.") for m in matches} == set(tf.__all__)


def test_every_name_beyond_tfs_is_documented():
    docs = "".join(open(p, encoding="utf-8").read() for p in [os.path.join(ROOT, "README.md"),
                                                               *glob.glob(os.path.join(ROOT, "docs", "*.md"))])
    additions = sorted(set(tf.__all__) - TF_TOP_LEVEL)
    assert {"grad", "source", "TracedValueError"} <= set(additions)
    undocumented = [n for n in additions if not re.search(rf"\b(s2sgrad|tf)\.{n}\b", docs)]
    assert undocumented == []


def _error_classes():
    for info in pkgutil.walk_packages(tf.__path__, "s2sgrad."):
        if info.name == "s2sgrad.__main__":   # runs the CLI
            continue
        module = __import__(info.name, fromlist=["_"])
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, BaseException) and cls.__module__ == info.name:
                yield cls


def test_every_error_class_a_user_meets_is_importable_from_the_top_level():
    namespaces = [(tf, tf.__all__), (tf.errors, tf.errors.__all__), (tf.train, dir(tf.train)),
                  (tf.flags, dir(tf.flags))]
    reachable = {id(getattr(m, n)) for m, names in namespaces for n in names}
    missing = [f"{c.__module__}.{c.__qualname__}" for c in _error_classes()
               if id(c) not in reachable and f"{c.__module__}.{c.__qualname__}" not in INTERNAL_ERRORS]
    assert missing == []
    assert tf.TracedValueError.__module__ == "s2sgrad.tracing.traced" and issubclass(tf.TracedValueError, TypeError)
    assert tf.UnsupportedTensorFlowName is tf.errors.UnsupportedTensorFlowName
