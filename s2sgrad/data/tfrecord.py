"""TFRecord files: ``TFRecordWriter``, ``tf_record_iterator``, ``TFRecordOptions`` and the
``TFRecordDataset`` source's reader.

A record is ``uint64 length``, ``uint32 masked CRC32C of the length``, ``data``, ``uint32 masked
CRC32C of the data``, little-endian (``s2sgrad/wire.py`` has the CRC). A file may be compressed as a
whole, GZIP or ZLIB. A bad length, checksum or compressed stream raises DataLossError naming the file.
"""
from __future__ import annotations

import gzip
import os
import struct
import zlib
from collections.abc import Iterator
from typing import Any

from .. import errors
from ..wire import masked_crc32c

__all__ = ["TFRecordWriter", "TFRecordOptions", "TFRecordCompressionType", "tf_record_iterator", "read_records",
           "compression_name", "file_bytes"]

_COMPRESSIONS = {"": "", "NONE": "", "GZIP": "GZIP", "ZLIB": "ZLIB"}


class TFRecordCompressionType:
    NONE, ZLIB, GZIP = 0, 1, 2


def compression_name(value: Any) -> str:
    """A compression type ('' for none) from a name, a TFRecordCompressionType, options or None."""
    if value is None:
        return ""
    if isinstance(value, TFRecordOptions):
        return value.compression_type
    if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1, 2):
        return ("", "ZLIB", "GZIP")[value]
    if isinstance(value, bytes):
        value = value.decode()
    if isinstance(value, str) and value.upper() in _COMPRESSIONS:
        return _COMPRESSIONS[value.upper()]
    raise ValueError(f"compression_type must be '', 'NONE', 'GZIP' or 'ZLIB', got {value!r}")


class TFRecordOptions:
    """``TFRecordOptions(compression_type)``; the zlib tuning arguments are accepted."""

    def __init__(self, compression_type: Any = None, flush_mode: Any = None, input_buffer_size: Any = None,
                 output_buffer_size: Any = None, window_bits: Any = None, compression_level: Any = None,
                 compression_method: Any = None, mem_level: Any = None, compression_strategy: Any = None) -> None:
        self.compression_type = compression_name(compression_type)
        self.compression_level = 6 if compression_level is None else int(compression_level)

    @classmethod
    def get_compression_type_string(cls, options: Any) -> str:
        return compression_name(options)


def encode_record(data: bytes) -> bytes:
    """One record's bytes as a TFRecord file holds them."""
    length = struct.pack("<Q", len(data))
    return length + struct.pack("<I", masked_crc32c(length)) + data + struct.pack("<I", masked_crc32c(data))


class TFRecordWriter:
    """Writes records to ``path`` (``options``: a TFRecordOptions or a compression type name)."""

    def __init__(self, path: Any, options: Any = None) -> None:
        self.path = os.fspath(path)
        self._compression = compression_name(options)
        level = options.compression_level if isinstance(options, TFRecordOptions) else 6
        try:
            self._file: Any = open(self.path, "wb")
        except OSError as e:
            raise errors.NotFoundError(None, None, f"{self.path}; {e.strerror}") from None
        if self._compression == "GZIP":
            self._file = gzip.GzipFile(fileobj=self._file, mode="wb", compresslevel=level, mtime=0)
        self._zlib = zlib.compressobj(level) if self._compression == "ZLIB" else None

    def write(self, record: Any) -> None:
        if self._file is None:
            raise errors.FailedPreconditionError(None, None, f"TFRecordWriter for {self.path} is closed")
        if isinstance(record, str):
            record = record.encode("utf-8")
        if not isinstance(record, (bytes, bytearray, memoryview)):
            raise TypeError(f"TFRecordWriter.write expects bytes, got {type(record).__name__}")
        data = encode_record(bytes(record))
        self._file.write(self._zlib.compress(data) if self._zlib is not None else data)

    def flush(self) -> None:
        if self._file is not None:
            if self._zlib is not None:
                self._file.write(self._zlib.flush(zlib.Z_SYNC_FLUSH))
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            if self._zlib is not None:
                self._file.write(self._zlib.flush())
            inner = getattr(self._file, "fileobj", None)
            self._file.close()
            if inner is not None:
                inner.close()
            self._file = None

    def __enter__(self) -> TFRecordWriter:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def file_bytes(path: str, compression: str) -> bytes:
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise errors.NotFoundError(None, None, f"{path}; {e.strerror}") from None
    try:
        if compression == "GZIP":
            return gzip.decompress(raw)
        if compression == "ZLIB":
            return zlib.decompress(raw)
    except (OSError, EOFError, zlib.error) as e:
        raise errors.DataLossError(None, None, f"corrupted {compression} stream in {path}: {e}") from None
    return raw


def read_records(path: str, compression: str = "") -> Iterator[bytes]:
    """The records of the file at ``path``, their lengths and checksums checked."""
    data = file_bytes(path, compression)
    pos, end = 0, len(data)
    while pos < end:
        if end - pos < 12:
            raise errors.DataLossError(None, None, f"truncated record at byte {pos} in {path}")
        length_bytes = data[pos:pos + 8]
        (length,), (crc,) = struct.unpack("<Q", length_bytes), struct.unpack("<I", data[pos + 8:pos + 12])
        if masked_crc32c(length_bytes) != crc:
            raise errors.DataLossError(None, None, f"corrupted record at byte {pos} in {path}: length checksum "
                                                   "mismatch")
        start = pos + 12
        if end - start < length + 4:
            raise errors.DataLossError(None, None, f"truncated record at byte {pos} in {path}")
        record = data[start:start + length]
        (crc,) = struct.unpack("<I", data[start + length:start + length + 4])
        if masked_crc32c(record) != crc:
            raise errors.DataLossError(None, None, f"corrupted record at byte {pos} in {path}: data checksum "
                                                   "mismatch")
        yield record
        pos = start + length + 4


def tf_record_iterator(path: Any, options: Any = None) -> Iterator[bytes]:
    """``tf.python_io.tf_record_iterator``: the records of the file at ``path``."""
    return read_records(os.fspath(path), compression_name(options))
