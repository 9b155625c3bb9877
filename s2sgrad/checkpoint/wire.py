"""Varints and the protobuf wire format, for the few messages a checkpoint index holds.

A message is encoded from ``(field number, value)`` pairs: an int is a varint field, a
``Fixed32`` a 4-byte field, bytes (or an encoded sub-message) a length-delimited field.
Decoding gives ``{field number: [values]}``, varints as ints, fixed32 as ints, length-delimited
fields as bytes; a malformed message raises ``WireError``.

>>> decode(encode([(1, 150), (2, b"hi")]))
{1: [150], 2: [b'hi']}
"""
from __future__ import annotations

import struct
from collections.abc import Iterable

__all__ = ["WireError", "Fixed32", "put_varint", "get_varint", "signed64", "encode", "decode"]

_VARINT, _FIXED64, _BYTES, _FIXED32 = 0, 1, 2, 5


class WireError(ValueError):
    """Bytes that are not a well-formed varint or message."""


class Fixed32(int):
    """An int written as a 4-byte little-endian field (protobuf ``fixed32``)."""


def put_varint(n: int) -> bytes:
    """``n`` (0 <= n < 2**64; negative int64s as their two's complement) as a varint."""
    n &= 0xFFFFFFFFFFFFFFFF
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def get_varint(buf: bytes | memoryview, pos: int) -> tuple[int, int]:
    """The varint at ``buf[pos:]`` and the position after it."""
    result = shift = 0
    while True:
        if pos >= len(buf) or shift > 63:
            raise WireError("truncated or overlong varint")
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7


def encode(fields: Iterable[tuple[int, int | bytes]]) -> bytes:
    """A message from ``(field number, value)`` pairs, in the order given."""
    out = bytearray()
    for number, val in fields:
        if isinstance(val, Fixed32):
            out += put_varint(number << 3 | _FIXED32) + struct.pack("<I", val)
        elif isinstance(val, int):
            out += put_varint(number << 3 | _VARINT) + put_varint(val)
        else:
            out += put_varint(number << 3 | _BYTES) + put_varint(len(val)) + val
    return bytes(out)


def decode(buf: bytes) -> dict[int, list]:
    """``{field number: [values]}`` of a message (fixed64 fields as ints)."""
    fields: dict[int, list] = {}
    pos = 0
    while pos < len(buf):
        key, pos = get_varint(buf, pos)
        number, kind = key >> 3, key & 7
        val: int | bytes
        if kind == _VARINT:
            val, pos = get_varint(buf, pos)
        elif kind in (_FIXED32, _FIXED64):
            width = 4 if kind == _FIXED32 else 8
            if pos + width > len(buf):
                raise WireError("truncated fixed-width field")
            val = int.from_bytes(buf[pos:pos + width], "little")
            pos += width
        elif kind == _BYTES:
            size, pos = get_varint(buf, pos)
            if pos + size > len(buf):
                raise WireError("truncated length-delimited field")
            val = bytes(buf[pos:pos + size])
            pos += size
        else:
            raise WireError(f"unsupported wire type {kind}")
        if number == 0:
            raise WireError("field number 0")
        fields.setdefault(number, []).append(val)
    return fields


def signed64(n: int) -> int:
    """A varint read back as an int64 (two's complement)."""
    return n - (1 << 64) if n >= 1 << 63 else n
