"""Candidate samplers (``LogUniformCandidateSampler``, ``UniformCandidateSampler``): random ops
drawing ``num_sampled`` classes from ``[0, range_max)``, with the expected counts of the true
and the sampled classes that sampled losses subtract."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import dtypes as _dt
from ..shapes import TensorShape
from .core import define


def _sampler_infer(name: str) -> Any:
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        true_classes = inputs[0]
        if true_classes.dtype is not _dt.int64:
            raise TypeError(f"Value passed to parameter 'true_classes' has DataType {true_classes.dtype.name} not "
                            f"allowed for {name} (expects int64)")
        if true_classes.shape.rank not in (None, 2):
            raise ValueError(f"Shape must be rank 2 but is rank {true_classes.shape.rank} for '{name}' (true_classes)")
        if attrs["unique"] and attrs["num_sampled"] > attrs["range_max"]:
            raise ValueError(f"{name}: with unique=True num_sampled ({attrs['num_sampled']}) must be at most "
                             f"range_max ({attrs['range_max']})")
        n = attrs["num_sampled"]
        return [(_dt.int64, TensorShape([n])), (_dt.float32, true_classes.shape), (_dt.float32, TensorShape([n]))]
    return infer


LOG_UNIFORM_CANDIDATE_SAMPLER = define("LogUniformCandidateSampler", _sampler_infer("LogUniformCandidateSampler"),
                                       differentiable=False, pure=False)
UNIFORM_CANDIDATE_SAMPLER = define("UniformCandidateSampler", _sampler_infer("UniformCandidateSampler"),
                                   differentiable=False, pure=False)
