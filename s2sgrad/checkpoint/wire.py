"""The protobuf wire format for the few messages a checkpoint index holds (varints: ``s2sgrad.wire``).

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

from ..wire import decode_varint, encode_varint, to_signed64

__all__ = ["WireError", "Fixed32", "put_varint", "get_varint", "signed64", "encode", "decode"]

_VARINT, _FIXED64, _BYTES, _FIXED32 = 0, 1, 2, 5


class WireError(ValueError):
    """Bytes that are not a well-formed varint or message."""


class Fixed32(int):
    """An int written as a 4-byte little-endian field (protobuf ``fixed32``)."""


def put_varint(n: int) -> bytes:
    """``n`` (0 <= n < 2**64; negative int64s as their two's complement) as a varint."""
    return encode_varint(n & 0xFFFFFFFFFFFFFFFF)


def get_varint(buf: bytes | memoryview, pos: int) -> tuple[int, int]:
    """The varint at ``buf[pos:]`` and the position after it (``WireError`` when malformed)."""
    try:
        return decode_varint(buf, pos)  # type: ignore[arg-type]  # memoryview indexes as bytes do
    except ValueError as e:
        raise WireError(f"truncated or overlong varint ({e})") from None


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


signed64 = to_signed64  # a varint read back as an int64 (two's complement)
