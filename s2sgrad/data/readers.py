"""File datasets: ``TFRecordDataset``, ``TextLineDataset``, ``FixedLengthRecordDataset`` (string scalar
elements, one file after another)."""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .. import errors
from ..ops.convert import convert_to_tensor
from ..shapes import TensorShape
from .dataset import Dataset
from .functions import Env, free_placeholders
from .nodes import Element, Node
from .structure import Spec
from .tfrecord import compression_name, file_bytes, read_records

__all__ = ["TFRecordDataset", "TextLineDataset", "FixedLengthRecordDataset"]


class FileRecords(Node):
    """The records ``read(path)`` yields for each of ``filenames`` (a string scalar or vector), in turn."""

    def __init__(self, filenames: Any, read: Callable[[str], Iterator[bytes]]) -> None:
        if isinstance(filenames, (str, bytes, os.PathLike)):
            filenames = [filenames]
        if isinstance(filenames, (list, tuple)):
            filenames = [os.fspath(f) if isinstance(f, os.PathLike) else f for f in filenames]
        names = convert_to_tensor(filenames, dtype=_dt.string)
        if names.shape.sizes is not None and len(names.shape.sizes) > 1:
            raise ValueError(f"filenames must be a string scalar or vector, got shape {names.shape}")
        self.own_captured = (names,)
        self.free = free_placeholders([names])
        self.read = read
        self.spec = Spec(_dt.string, TensorShape([]))

    def elements(self, env: Env) -> Iterator[Element]:
        (names,) = env.values(self.own_captured, self.free)
        for name in np.atleast_1d(np.asarray(names, dtype=object)).tolist():
            for record in self.read(name.decode("utf-8") if isinstance(name, bytes) else str(name)):
                yield [record]


class TFRecordDataset(Dataset):
    """The records of TFRecord files (``compression_type``: '', 'GZIP' or 'ZLIB'), checksums checked."""

    def __init__(self, filenames: Any, compression_type: Any = None, buffer_size: Any = None,
                 num_parallel_reads: Any = None, name: str | None = None) -> None:
        compression = compression_name(compression_type)
        super().__init__(FileRecords(filenames, lambda path: read_records(path, compression)))


class TextLineDataset(Dataset):
    """The lines of text files, without their line ends."""

    def __init__(self, filenames: Any, compression_type: Any = None, buffer_size: Any = None,
                 num_parallel_reads: Any = None, name: str | None = None) -> None:
        compression = compression_name(compression_type)

        def lines(path: str) -> Iterator[bytes]:
            for line in file_bytes(path, compression).splitlines(keepends=True):
                yield line.rstrip(b"\n").rstrip(b"\r")

        super().__init__(FileRecords(filenames, lines))


class FixedLengthRecordDataset(Dataset):
    """Records of ``record_bytes`` bytes between ``header_bytes`` and ``footer_bytes`` of each file."""

    def __init__(self, filenames: Any, record_bytes: int, header_bytes: int | None = None,
                 footer_bytes: int | None = None, buffer_size: Any = None, compression_type: Any = None,
                 num_parallel_reads: Any = None, name: str | None = None) -> None:
        compression = compression_name(compression_type)
        size, head, foot = int(record_bytes), int(header_bytes or 0), int(footer_bytes or 0)
        if size < 1 or head < 0 or foot < 0:
            raise ValueError(f"record_bytes must be positive and header/footer bytes >= 0, got {size}, {head}, {foot}")

        def records(path: str) -> Iterator[bytes]:
            data = file_bytes(path, compression)
            body = data[head:len(data) - foot]
            if len(body) % size:
                raise errors.DataLossError(None, None, f"{path}: {len(body)} bytes between header and footer is "
                                                       f"not a multiple of record_bytes {size}")
            for start in range(0, len(body), size):
                yield body[start:start + size]

        super().__init__(FileRecords(filenames, records))
