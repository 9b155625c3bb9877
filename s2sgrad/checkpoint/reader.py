"""Reading checkpoints: ``tf.train.NewCheckpointReader`` / ``load_checkpoint``, ``list_variables``,
and the checked value of a checkpoint tensor for a variable (what restoring assigns)."""
from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .. import errors
from ..ops.variables import Variable
from .bundle import BundleReader
from .state import latest_checkpoint, path_argument

__all__ = ["CheckpointReader", "NewCheckpointReader", "load_checkpoint", "list_variables", "checkpoint_prefix",
           "value_for"]


_DT_NAMES = {"float32": "float", "float64": "double", "float16": "half"}   # TF's DataType names


class CheckpointReader:
    """The tensors of one checkpoint, by name (TF's ``CheckpointReader``).

    >>> # reader = tf.train.NewCheckpointReader("/tmp/model.ckpt-10"); reader.get_tensor("w")
    """

    def __init__(self, filepattern: str) -> None:
        self._bundle = BundleReader(path_argument(filepattern, "filepattern"))

    def has_tensor(self, tensor_str: str) -> bool:
        return isinstance(tensor_str, str) and tensor_str in self._bundle.entries

    def get_tensor(self, tensor_str: str) -> Any:
        """The value of ``tensor_str`` (a NumPy scalar for rank 0, as TF; strings as bytes)."""
        if not isinstance(tensor_str, str):
            raise TypeError(f"tensor_str must be a tensor name, got {tensor_str!r}")
        value = self._bundle.read(tensor_str)
        return value[()] if value.ndim == 0 else value

    def get_variable_to_shape_map(self) -> dict[str, list[int]]:
        return {name: list(e.shape) for name, e in self._bundle.entries.items()}

    def get_variable_to_dtype_map(self) -> dict[str, _dt.DType]:
        return {name: e.dtype for name, e in self._bundle.entries.items()}

    def debug_string(self) -> bytes:
        """One line per tensor, sorted by name, as TF's: ``w (DT_FLOAT) [3,1]``."""
        lines = [f"{name} (DT_{_DT_NAMES.get(e.dtype.name, e.dtype.name).upper()}) [{','.join(map(str, e.shape))}]\n"
                 for name, e in sorted(self._bundle.entries.items())]
        return "".join(lines).encode()


def NewCheckpointReader(filepattern: str) -> CheckpointReader:
    """A reader of the checkpoint ``filepattern`` (NotFoundError when there is none)."""
    return CheckpointReader(filepattern)


def checkpoint_prefix(ckpt_dir_or_file: str) -> str:
    """The latest checkpoint of a directory, or the prefix itself (ValueError when a directory has none)."""
    path = path_argument(ckpt_dir_or_file, "ckpt_dir_or_file")
    if os.path.isdir(path):
        latest = latest_checkpoint(path)
        if latest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given directory {path}")
        return latest
    return path


def load_checkpoint(ckpt_dir_or_file: str) -> CheckpointReader:
    """A reader of ``ckpt_dir_or_file``: a checkpoint prefix, or a directory (its latest checkpoint)."""
    return CheckpointReader(checkpoint_prefix(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file: str) -> list[tuple[str, list[int]]]:
    """``[(name, shape), ...]`` of the tensors in a checkpoint, sorted by name."""
    return sorted(load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map().items())


def value_for(bundle: BundleReader, key: str, var: Variable, reshape: bool = False) -> Any:
    """The value of checkpoint tensor ``key`` for ``var``, as a session stores it; TF's errors when
    it is missing (NotFoundError) or its dtype or shape does not fit (InvalidArgumentError). With
    ``reshape``, a tensor of another shape with as many elements takes ``var``'s static shape."""
    entry = bundle.entries.get(key)
    if entry is None:
        raise errors.NotFoundError(None, var.op, f"Key {key} not found in checkpoint")
    if entry.dtype is not var.dtype:
        raise errors.InvalidArgumentError(None, var.op, f"tensor_name = {key}; expected dtype {var.dtype.name} "
                                          f"does not equal original dtype {entry.dtype.name} (variable "
                                          f"{var.op.name})")
    target = entry.shape
    if reshape and var.shape.is_fully_defined():
        static = tuple(int(d) for d in var.shape.as_list() if d is not None)
        target = static if math.prod(static) == math.prod(entry.shape) else target
    if not var.shape.is_compatible_with(target):
        lhs = var.shape.as_list() if var.shape.rank is not None else "<unknown>"
        raise errors.InvalidArgumentError(None, var.op, f"Assign requires shapes of both tensors to match. lhs "
                                          f"shape= {lhs} rhs shape= {list(entry.shape)} (variable "
                                          f"{var.op.name}, checkpoint tensor {key})")
    value = bundle.read(key).reshape(target)
    return value[()] if value.ndim == 0 else np.array(value)
