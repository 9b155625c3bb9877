"""``tf.data``: input pipelines for graph mode (TF-1.x's ``tf.compat.v1.data``).

A dataset is a chain of pipeline nodes run in Python by the Session; ``get_next()`` is an op whose
values the Session feeds from the pipeline each run (``docs/design.md``, "tf.data").
"""
from __future__ import annotations

from typing import Any

from ..tf1_api import missing_names as _missing_names
from . import experimental
from .dataset import AUTOTUNE, Dataset
from .iterators import Iterator, element_classes, element_shapes, element_types
from .readers import FixedLengthRecordDataset, TextLineDataset, TFRecordDataset

__all__ = ["AUTOTUNE", "Dataset", "Iterator", "TFRecordDataset", "TextLineDataset", "FixedLengthRecordDataset",
           "make_one_shot_iterator", "make_initializable_iterator", "get_output_types", "get_output_shapes",
           "get_output_classes", "experimental"]


def make_one_shot_iterator(dataset: Dataset) -> Iterator:
    """``dataset.make_one_shot_iterator()``."""
    return _dataset(dataset, "make_one_shot_iterator").make_one_shot_iterator()


def make_initializable_iterator(dataset: Dataset, shared_name: str | None = None) -> Iterator:
    """``dataset.make_initializable_iterator()``."""
    return _dataset(dataset, "make_initializable_iterator").make_initializable_iterator(shared_name)


def get_output_types(dataset_or_iterator: Dataset | Iterator) -> Any:
    return element_types(_spec(dataset_or_iterator))


def get_output_shapes(dataset_or_iterator: Dataset | Iterator) -> Any:
    return element_shapes(_spec(dataset_or_iterator))


def get_output_classes(dataset_or_iterator: Dataset | Iterator) -> Any:
    return element_classes(_spec(dataset_or_iterator))


def _dataset(value: Any, what: str) -> Dataset:
    if not isinstance(value, Dataset):
        raise TypeError(f"{what} expects a tf.data.Dataset, got {value!r}")
    return value


def _spec(value: Any) -> Any:
    if not isinstance(value, (Dataset, Iterator)):
        raise TypeError(f"expected a tf.data.Dataset or Iterator, got {value!r}")
    return value.element_spec


__getattr__ = _missing_names("data", __name__)
