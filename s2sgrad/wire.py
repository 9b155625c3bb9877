"""Byte formats TensorFlow's files share: CRC32C (masked, as TFRecord and checkpoints store it;
computed by ``s2sgrad.crc32c``)
and the protocol-buffer wire format (varints, tags, length-delimited fields).

Written from the formats' specifications (RFC 3720's Castagnoli polynomial; the protobuf
encoding guide); no protobuf dependency. A message is built as bytes with ``field_*`` and read
back with ``fields``, which yields ``(field number, wire type, value)``.
"""
from __future__ import annotations

import struct
from collections.abc import Iterator

import numpy as np

from . import crc32c as _crc

__all__ = ["crc32c", "masked_crc32c", "unmask_crc32c", "encode_varint", "decode_varint", "field_varint",
           "field_bytes", "field_fixed32", "field_fixed64", "packed_varints", "packed_floats", "fields",
           "decode_packed_varints", "to_signed64", "VARINT", "FIXED64", "BYTES", "FIXED32"]

VARINT, FIXED64, BYTES, FIXED32 = 0, 1, 2, 5   # wire types


def crc32c(data: bytes, crc: int = 0) -> int:
    """The CRC32C (Castagnoli) of ``data``, continuing from ``crc`` (``s2sgrad.crc32c``, vectorized)."""
    return _crc.extend(crc, data)


def masked_crc32c(data: bytes) -> int:
    """The CRC32C of ``data`` rotated right by 15 bits plus a constant, as TensorFlow stores it."""
    return _crc.mask(_crc.value(data))


def unmask_crc32c(masked: int) -> int:
    """The CRC32C that ``masked_crc32c`` turned into ``masked``."""
    return _crc.unmask(masked)


def encode_varint(value: int) -> bytes:
    """``value`` as a base-128 varint; negative numbers as their 64-bit two's complement."""
    if value < 0:
        value += 1 << 64
    out = bytearray()
    while True:
        bits = value & 0x7F
        value >>= 7
        if value:
            out.append(bits | 0x80)
        else:
            out.append(bits)
            return bytes(out)


def decode_varint(data: bytes, pos: int) -> tuple[int, int]:
    """The varint at ``data[pos:]`` and the position after it (ValueError when truncated or too long)."""
    result = shift = 0
    while True:
        if pos >= len(data):
            raise ValueError("truncated varint")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise ValueError("varint longer than 10 bytes")


def to_signed64(value: int) -> int:
    """A decoded varint as the signed 64-bit integer it encodes (int64 fields)."""
    return value - (1 << 64) if value >= 1 << 63 else value


def _key(number: int, wire_type: int) -> bytes:
    return encode_varint(number << 3 | wire_type)


def field_varint(number: int, value: int) -> bytes:
    return _key(number, VARINT) + encode_varint(value)


def field_bytes(number: int, value: bytes) -> bytes:
    """A length-delimited field: bytes, a string, a nested message or a packed array."""
    return _key(number, BYTES) + encode_varint(len(value)) + value


def field_fixed32(number: int, value: int) -> bytes:
    return _key(number, FIXED32) + struct.pack("<I", value)


def field_fixed64(number: int, value: int) -> bytes:
    return _key(number, FIXED64) + struct.pack("<Q", value)


def packed_varints(values: list[int] | np.ndarray) -> bytes:
    """The payload of a packed repeated varint field."""
    return b"".join(encode_varint(int(v)) for v in values)


def packed_floats(values: list[float] | np.ndarray) -> bytes:
    """The payload of a packed repeated float field (little-endian IEEE single precision)."""
    return np.asarray(values, dtype="<f4").tobytes()


def decode_packed_varints(data: bytes) -> list[int]:
    """The varints of a packed field's payload."""
    out, pos = [], 0
    while pos < len(data):
        value, pos = decode_varint(data, pos)
        out.append(value)
    return out


def fields(data: bytes) -> Iterator[tuple[int, int, int | bytes]]:
    """``(field number, wire type, value)`` of each field of a message: ints for varint and fixed
    fields, bytes for length-delimited ones. ValueError when the bytes are not a message."""
    pos, end = 0, len(data)
    while pos < end:
        key, pos = decode_varint(data, pos)
        number, wire_type = key >> 3, key & 7
        if number == 0:
            raise ValueError("field number 0")
        value: int | bytes
        if wire_type == VARINT:
            value, pos = decode_varint(data, pos)
        elif wire_type == BYTES:
            size, pos = decode_varint(data, pos)
            if pos + size > end:
                raise ValueError("truncated length-delimited field")
            value, pos = data[pos:pos + size], pos + size
        elif wire_type in (FIXED32, FIXED64):
            width = 4 if wire_type == FIXED32 else 8
            if pos + width > end:
                raise ValueError("truncated fixed-width field")
            value = int.from_bytes(data[pos:pos + width], "little")
            pos += width
        else:
            raise ValueError(f"unsupported wire type {wire_type}")
        yield number, wire_type, value
