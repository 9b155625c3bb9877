"""TFRecord framing, as TensorFlow writes event files (and ``.tfrecord`` files): per record
``length (uint64 LE) | masked crc32c(length) | data | masked crc32c(data)``.

CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) is computed with a 256-entry table; the
"mask" rotates the CRC right by 15 bits and adds 0xA282EAD8, as TensorFlow's ``crc32c::Mask``.
"""
from __future__ import annotations

import struct
from typing import BinaryIO

__all__ = ["crc32c", "masked_crc32c", "tfrecord", "write_record"]

_MASK_DELTA = 0xA282EAD8


def _table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return tuple(table)


_TABLE = _table()


def crc32c(data: bytes) -> int:
    """The CRC-32C of ``data`` (``crc32c(b"123456789") == 0xE3069283``)."""
    crc = 0xFFFFFFFF
    table = _TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data: bytes) -> int:
    """The CRC TFRecord stores: ``crc32c`` rotated right by 15 bits plus 0xA282EAD8 (mod 2**32)."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def tfrecord(data: bytes) -> bytes:
    """``data`` framed as one TFRecord."""
    length = struct.pack("<Q", len(data))
    return length + struct.pack("<I", masked_crc32c(length)) + data + struct.pack("<I", masked_crc32c(data))


def write_record(file: BinaryIO, data: bytes) -> None:
    """Append ``data`` to ``file`` as one TFRecord."""
    file.write(tfrecord(data))
