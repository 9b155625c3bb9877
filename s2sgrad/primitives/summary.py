"""Summary ops: each outputs a scalar string, the serialized ``tensorflow.Summary`` of its input.

The tag (and the image/audio settings) are attributes, so the generated line reads
``loss_summary = rt.scalar_summary('train/loss', loss)``. None of them is differentiable, and none
is constant-folded (the line stays a readable call rather than a bytes literal).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import dtypes as _dt
from ..shapes import TensorShape
from .core import define


def _kinds(what: str, kinds: str) -> Any:
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        x = inputs[0]
        if x.dtype.np.kind not in kinds:
            raise TypeError(f"{what} summary {attrs['tag']!r} needs {_KIND_NAMES[kinds]}, got a {x.dtype.name} tensor")
        return [(_dt.string, TensorShape([]))]
    return infer


_KIND_NAMES = {"iuf": "real numbers", "uf": "uint8 or float images",
               "f": "floats", "O": "strings"}


def _scalar_infer(inputs: Sequence[Any], attrs: dict) -> list:
    rank = inputs[0].shape.rank
    if rank is not None and rank != 0:
        raise ValueError(f"scalar summary {attrs['tag']!r} needs a single value (a rank-0 tensor), "
                         f"got shape {inputs[0].shape}")
    return _kinds("scalar", "iuf")(inputs, attrs)


def _image_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    sizes = x.shape.sizes
    if sizes is not None and (len(sizes) != 4 or sizes[-1] not in (None, 1, 3, 4)):
        raise ValueError(f"image summary {attrs['tag']!r} needs a [batch, height, width, channels] tensor with "
                         f"1, 3 or 4 channels, got shape {x.shape}")
    if x.dtype not in (_dt.uint8, _dt.float16, _dt.float32, _dt.float64):
        raise TypeError(f"image summary {attrs['tag']!r} needs uint8 or float images, got a {x.dtype.name} tensor")
    return [(_dt.string, TensorShape([]))]


def _merge_infer(inputs: Sequence[Any], attrs: dict) -> list:
    for x in inputs:
        if x.dtype is not _dt.string:
            raise TypeError(f"merge needs serialized summaries (string tensors), got {x.dtype.name} tensor {x.name}")
    return [(_dt.string, TensorShape([]))]


def _summary(name: str, infer: Any, **flags: Any) -> Any:
    """A summary primitive: not differentiable, never constant-folded, its tag shown first in the IR."""
    return define(name, infer, differentiable=False, foldable=False, printed_attrs=("tag",), **flags)


SCALAR_SUMMARY = _summary("ScalarSummary", _scalar_infer)
HISTOGRAM_SUMMARY = _summary("HistogramSummary", _kinds("histogram", "iuf"), fusable=False)
IMAGE_SUMMARY = _summary("ImageSummary", _image_infer, fusable=False)
AUDIO_SUMMARY = _summary("AudioSummaryV2", _kinds("audio", "f"), fusable=False)
TEXT_SUMMARY = _summary("TensorSummaryV2", _kinds("text", "O"), default_name="TextSummary")
MERGE_SUMMARY = define("MergeSummary", _merge_infer, differentiable=False, foldable=False, fusable=False)
