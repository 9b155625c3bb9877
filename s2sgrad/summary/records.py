"""TFRecord framing, as TensorFlow writes event files: per record
``length (uint64 LE) | masked crc32c(length) | data | masked crc32c(data)``, with ``s2sgrad/wire.py``'s
masked CRC-32C (the vectorized one of ``s2sgrad/crc32c.py``, shared with tf.data and checkpoints)."""
from __future__ import annotations

import struct
from typing import BinaryIO

from ..wire import masked_crc32c

__all__ = ["tfrecord", "write_record"]


def tfrecord(data: bytes) -> bytes:
    """``data`` framed as one TFRecord."""
    length = struct.pack("<Q", len(data))
    return length + struct.pack("<I", masked_crc32c(length)) + data + struct.pack("<I", masked_crc32c(data))


def write_record(file: BinaryIO, data: bytes) -> None:
    """Append ``data`` to ``file`` as one TFRecord."""
    file.write(tfrecord(data))
