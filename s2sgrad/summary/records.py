"""TFRecord framing, as TensorFlow writes event files: per record
``length (uint64 LE) | masked crc32c(length) | data | masked crc32c(data)``. The CRC is the
checkpoint package's vectorized CRC-32C (``checkpoint/crc32c.py``: about 20 MB/s against 5 MB/s for
a byte loop on a 11 kB summary, 160 MB/s on 1 MB images), the same function as ``s2sgrad/wire.py``'s."""
from __future__ import annotations

import struct
from typing import BinaryIO

from ..checkpoint.crc32c import mask, value

__all__ = ["masked_crc32c", "tfrecord", "write_record"]


def masked_crc32c(data: bytes) -> int:
    """The CRC TFRecord stores: CRC-32C rotated right by 15 bits plus 0xA282EAD8."""
    return mask(value(data))


def tfrecord(data: bytes) -> bytes:
    """``data`` framed as one TFRecord."""
    length = struct.pack("<Q", len(data))
    return length + struct.pack("<I", masked_crc32c(length)) + data + struct.pack("<I", masked_crc32c(data))


def write_record(file: BinaryIO, data: bytes) -> None:
    """Append ``data`` to ``file`` as one TFRecord."""
    file.write(tfrecord(data))
