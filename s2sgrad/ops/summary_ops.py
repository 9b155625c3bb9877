"""``tf.summary.scalar``, ``histogram``, ``image``, ``audio``, ``text``, ``merge`` and ``merge_all``.

Each summary op outputs a scalar string: the serialized ``Summary`` protocol buffer that
``FileWriter.add_summary`` writes. As in TensorFlow, ``scalar('loss', x)`` opens the name scope
``loss`` (``loss_1`` the second time); the tag is that scope's full name (``train/loss`` inside
``tf.name_scope('train')``), the op takes the same name, and the op joins the ``summaries``
collection (or ``collections=``).
"""
from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..primitives.core import Primitive
from ..primitives.summary import (
    AUDIO_SUMMARY,
    HISTOGRAM_SUMMARY,
    IMAGE_SUMMARY,
    MERGE_SUMMARY,
    SCALAR_SUMMARY,
    TEXT_SUMMARY,
)
from ..ssa.graph import Tensor, get_default_graph
from ..static import constant_value
from .convert import convert_to_tensor, graph_of, record1

__all__ = ["scalar", "histogram", "image", "audio", "text", "merge", "merge_all", "SUMMARIES", "clean_tag"]

SUMMARIES = "summaries"   # tf.GraphKeys.SUMMARIES
BAD_COLOR = (255, 0, 0, 255)   # the colour of NaN and inf pixels: opaque red, as TF
_INVALID_TAG_CHARACTERS = re.compile(r"[^-/\w.]")


def clean_tag(name: str) -> str:
    """``name`` with the characters TF refuses in tags replaced by ``_`` and no leading ``/``."""
    if not isinstance(name, str):
        raise TypeError(f"summary name must be a string, got {name!r}")
    return _INVALID_TAG_CHARACTERS.sub("_", name).lstrip("/")


@contextlib.contextmanager
def _summary_scope(name: str, family: str | None) -> Iterator[tuple[str, str]]:
    """(tag, op name) of a summary called ``name``: its name scope, prefixed by ``family``'s if given."""
    name = clean_tag(name)
    if family is not None:
        family = clean_tag(family)
    graph = get_default_graph()
    with graph.name_scope(name if family is None else f"{family}/{name}") as scope:
        tag = scope.rstrip("/")
        yield (tag if family is None else f"{family}/{tag}"), scope


def _collect(summary: Tensor, collections: Sequence[str] | None) -> Tensor:
    keys = [SUMMARIES] if collections is None else collections
    if isinstance(keys, str):
        raise TypeError(f"collections must be a list of collection names, got the string {keys!r}")
    for key in dict.fromkeys(keys):
        summary.graph.add_to_collection(key, summary)
    return summary


def _summary(prim: Primitive, name: str, tensor: Any, collections: Sequence[str] | None, family: str | None,
             dtype: Any = None, **attrs: Any) -> Tensor:
    with _summary_scope(name, family) as (tag, scope):
        value = convert_to_tensor(tensor, dtype=dtype)
        return _collect(record1(prim, [value], {"tag": tag, **attrs}, name=scope), collections)


def _positive_int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{what} must be a positive int, got {value!r}")
    return value


def scalar(name: str, tensor: Any, collections: Sequence[str] | None = None, family: str | None = None) -> Tensor:
    """A Summary with one value: ``tf.summary.scalar('loss', loss)``."""
    return _summary(SCALAR_SUMMARY, name, tensor, collections, family)


def histogram(name: str, values: Any, collections: Sequence[str] | None = None,
              family: str | None = None) -> Tensor:
    """A Summary with the histogram of ``values`` over TF's default buckets; NaN/inf fail at run time."""
    return _summary(HISTOGRAM_SUMMARY, name, values, collections, family)


def image(name: str, tensor: Any, max_outputs: int = 3, collections: Sequence[str] | None = None,
          family: str | None = None) -> Tensor:
    """Up to ``max_outputs`` PNG images of a [batch, height, width, 1|3|4] uint8 or float tensor (floats
    scaled to 0..255 per image as TF does; NaN/inf pixels red)."""
    max_outputs = _positive_int(max_outputs, "max_outputs")
    return _summary(IMAGE_SUMMARY, name, tensor, collections, family, max_images=max_outputs, bad_color=BAD_COLOR)


def audio(name: str, tensor: Any, sample_rate: Any, max_outputs: int = 3, collections: Sequence[str] | None = None,
          family: str | None = None) -> Tensor:
    """Up to ``max_outputs`` 16-bit WAV clips of a [batch, frames(, channels)] float tensor in [-1, 1]."""
    max_outputs = _positive_int(max_outputs, "max_outputs")
    rate = constant_value(sample_rate) if isinstance(sample_rate, Tensor) else sample_rate
    if isinstance(rate, np.ndarray) and rate.ndim == 0:
        rate = rate.item()
    if isinstance(rate, bool) or not isinstance(rate, (int, float, np.number)):
        raise TypeError(f"sample_rate must be a number known before running, got {sample_rate!r}")
    if float(rate) <= 0:
        raise ValueError(f"sample_rate must be positive, got {float(rate)}")
    return _summary(AUDIO_SUMMARY, name, tensor, collections, family, dtype=_dt.float32 if not isinstance(
        tensor, Tensor) else None, sample_rate=float(rate), max_outputs=max_outputs)


def text(name: str, tensor: Any, collections: Sequence[str] | None = None) -> Tensor:
    """A string tensor for TensorBoard's text dashboard."""
    dtype = None if isinstance(tensor, Tensor) else _dt.string   # a tensor of another dtype: the op says so
    return _summary(TEXT_SUMMARY, name, tensor, collections, None, dtype=dtype)


def merge(inputs: Sequence[Any], collections: Sequence[str] | None = None, name: str | None = None) -> Tensor:
    """One Summary holding the values of ``inputs`` (serialized summaries) in order; a repeated tag fails
    at run time, as in TF."""
    if isinstance(inputs, (Tensor, str, bytes)) or not isinstance(inputs, Sequence) or not inputs:
        raise ValueError(f"merge needs a non-empty list of summary tensors, got {inputs!r}")
    tensors = [convert_to_tensor(x) for x in inputs]
    with graph_of(tensors).name_scope(name or "Merge"):
        merged = record1(MERGE_SUMMARY, tensors)
    for key in collections or ():
        merged.graph.add_to_collection(key, merged)
    return merged


def merge_all(key: str = SUMMARIES, scope: str | None = None, name: str | None = None) -> Tensor | None:
    """``merge`` of every summary in collection ``key`` (optionally only names under ``scope``), or None
    when there is none."""
    if not isinstance(key, str):
        raise TypeError(f"key must be a collection name (a string), got {key!r}")
    if scope is not None and not isinstance(scope, str):
        raise TypeError(f"scope must be a name prefix (a string) or None, got {scope!r}")
    found = get_default_graph().get_collection(key, scope)
    return merge(found, name=name) if found else None
