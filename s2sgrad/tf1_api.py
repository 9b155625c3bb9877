"""TensorFlow 1.x's public names, and the error for the ones s2sgrad does not have yet.

Each s2sgrad module that stands for a TF namespace (``s2sgrad`` for ``tf``, ``s2sgrad.nn`` for
``tf.nn``...) ends with ``__getattr__ = tf1_api.missing_names("nn", __name__)`` (PEP 562):

>>> import s2sgrad as tf
>>> tf.nn.conv3d_transpose
Traceback (most recent call last):
...
s2sgrad.tf1_api.UnsupportedTensorFlowName: tf.nn.conv3d_transpose is a TensorFlow 1.x name that s2sgrad does not...

A name TensorFlow does not have either is an ordinary AttributeError (with Python's
"Did you mean" for typos). The list is ``data/tf1_names.txt``, written by ``tools/tf1_names.py``.
"""
from __future__ import annotations

import functools
import importlib.resources
import sys
from collections.abc import Callable
from typing import NoReturn

__all__ = ["UnsupportedTensorFlowName", "tf1_names", "missing_names", "COVERAGE_PAGE"]

COVERAGE_PAGE = "docs/comparison.md#coverage"
# Where a planned feature is tracked: (prefix of the name relative to tf, what it is, issue).
PLANNED = [
    (("summary.", "scalar_summary", "histogram_summary", "image_summary", "audio_summary", "merge_summary",
      "merge_all_summaries", "train.SummaryWriter"), "summaries", 15),
    (("data.", "train.MonitoredTrainingSession", "train.SessionRunHook", "saved_model."),
     "input pipelines and checkpoints", 15),
    (("layers.", "nn.conv", "nn.max_pool", "nn.avg_pool", "nn.rnn_cell.", "nn.raw_rnn", "nn.static_state_saving_rnn",
      "nn.batch_normalization",
      "contrib.rnn.", "contrib.layers.", "train.exponential_decay", "metrics."), "the model-building surface", 14),
]


class UnsupportedTensorFlowName(AttributeError):
    """A TensorFlow 1.x name that s2sgrad does not provide (yet); ``tf_name`` is its full name.

    ``name`` and ``obj`` stay None, so Python's traceback adds no "Did you mean" guess: the
    closest s2sgrad spelling of a TensorFlow name is rarely what the program meant.
    """

    def __init__(self, tf_name: str, namespace: bool = False) -> None:
        kind = "namespace" if namespace else "name"
        message = (f"{tf_name} is a TensorFlow 1.x {kind} that s2sgrad does not support yet"
                   f"{_planned(tf_name + '.' if namespace else tf_name)}; {COVERAGE_PAGE} lists what s2sgrad supports")
        super().__init__(message)
        self.tf_name = tf_name


def _planned(tf_name: str) -> str:
    relative = tf_name.removeprefix("tf.")
    for prefixes, what, issue in PLANNED:
        if relative.startswith(prefixes):
            return f" (planned: {what}, issue {issue})"
    return ""


@functools.cache
def tf1_names() -> frozenset[str]:
    """TF-1.x's public names relative to ``tf`` (``"nn.relu"``); namespaces end in ``"."``."""
    text = importlib.resources.files(__package__).joinpath("data").joinpath("tf1_names.txt").read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


def missing_names(namespace: str, module_name: str) -> Callable[[str], NoReturn]:
    """A module ``__getattr__`` for the s2sgrad module standing for ``tf.<namespace>`` ("" for tf)."""
    prefix = namespace + "." if namespace else ""

    def __getattr__(name: str) -> NoReturn:
        if not name.startswith("_"):
            if prefix + name in tf1_names():
                raise UnsupportedTensorFlowName(f"tf.{prefix}{name}")
            if prefix + name + "." in tf1_names():
                raise UnsupportedTensorFlowName(f"tf.{prefix}{name}", namespace=True)
        raise AttributeError(f"module {module_name!r} has no attribute {name!r}", name=name,
                             obj=sys.modules[module_name])

    return __getattr__
