"""The sorted string table of a checkpoint's ``.index`` file (LevelDB's table format, uncompressed).

A table is data blocks, an empty meta-index block, an index block and a 48-byte footer. A block
holds entries sorted by key, each ``varint shared, varint unshared, varint value size, key suffix,
value`` (the key shares ``shared`` bytes with the previous one); every ``RESTART``-th entry stores
its whole key and the block ends with those entries' offsets (uint32 each) and their count. A
block is followed by a type byte (0: uncompressed) and the masked CRC-32C of block + type byte.
The index block maps, per data block, a key >= its last key to its handle (varint offset, varint
size). The footer is the meta-index and index handles padded to 40 bytes, then the magic number.
"""
from __future__ import annotations

import struct
from collections.abc import Iterator

from .. import crc32c
from .wire import WireError, get_varint, put_varint

__all__ = ["TableError", "build_table", "read_table"]

MAGIC = 0xDB4775248B80FB57
BLOCK_SIZE = 262144    # a data block is closed once it holds this many bytes (TF's default)
RESTART = 16           # entries between full keys in a data block (1 in the index block)
FOOTER = 48
_UNCOMPRESSED = 0


class TableError(ValueError):
    """A table that is truncated, corrupted or not a table; the message says what is wrong."""


class _BlockBuilder:
    def __init__(self, restart_interval: int) -> None:
        self.interval = restart_interval
        self.buf = bytearray()
        self.restarts = [0]
        self.count = 0
        self.last = b""

    def add(self, key: bytes, val: bytes) -> None:
        shared = 0
        if self.count < self.interval:
            limit = min(len(key), len(self.last))
            while shared < limit and key[shared] == self.last[shared]:
                shared += 1
        else:
            self.restarts.append(len(self.buf))
            self.count = 0
        self.buf += put_varint(shared) + put_varint(len(key) - shared) + put_varint(len(val))
        self.buf += key[shared:] + val
        self.last = key
        self.count += 1

    def size(self) -> int:
        return len(self.buf) + 4 * len(self.restarts) + 4

    def finish(self) -> bytes:
        return bytes(self.buf) + struct.pack(f"<{len(self.restarts) + 1}I", *self.restarts, len(self.restarts))


def _block_with_trailer(contents: bytes, offset: int) -> tuple[bytes, bytes]:
    """(the block as written with its trailer, its handle when written at ``offset``)."""
    crc = crc32c.extend(crc32c.value(contents), bytes([_UNCOMPRESSED]))
    handle = put_varint(offset) + put_varint(len(contents))
    return contents + bytes([_UNCOMPRESSED]) + struct.pack("<I", crc32c.mask(crc)), handle


def _separator(start: bytes, limit: bytes) -> bytes:
    """A short key >= ``start`` and < ``limit`` (LevelDB's bytewise choice, so tables match TF's bytes)."""
    i = 0
    while i < min(len(start), len(limit)) and start[i] == limit[i]:
        i += 1
    if i < min(len(start), len(limit)) and start[i] < 0xFF and start[i] + 1 < limit[i]:
        return start[:i] + bytes([start[i] + 1])
    return start


def _successor(key: bytes) -> bytes:
    """A short key >= ``key``."""
    for i, byte in enumerate(key):
        if byte != 0xFF:
            return key[:i] + bytes([byte + 1])
    return key


def build_table(entries: list[tuple[bytes, bytes]]) -> bytes:
    """The table holding ``entries`` (key, value), which must be sorted by key with no repeats."""
    out = bytearray()
    index = _BlockBuilder(1)
    block = _BlockBuilder(RESTART)
    for i, (key, val) in enumerate(entries):
        if i and key <= entries[i - 1][0]:
            raise ValueError(f"table keys must be sorted and distinct: {entries[i - 1][0]!r} then {key!r}")
        block.add(key, val)
        last = i == len(entries) - 1
        if block.size() >= BLOCK_SIZE or last:
            written, handle = _block_with_trailer(block.finish(), len(out))
            out += written
            index.add(_successor(key) if last else _separator(key, entries[i + 1][0]), handle)
            block = _BlockBuilder(RESTART)
    meta, meta_handle = _block_with_trailer(_BlockBuilder(1).finish(), len(out))
    out += meta
    written, index_handle = _block_with_trailer(index.finish(), len(out))
    out += written
    out += (meta_handle + index_handle).ljust(FOOTER - 8, b"\0") + struct.pack("<Q", MAGIC)
    return bytes(out)


def read_table(data: bytes) -> Iterator[tuple[bytes, bytes]]:
    """The (key, value) entries of a table, in order; TableError when any part is damaged."""
    if len(data) < FOOTER:
        raise TableError(f"file is too short to be a table ({len(data)} bytes)")
    footer = data[-FOOTER:]
    if struct.unpack("<Q", footer[-8:])[0] != MAGIC:
        raise TableError("not a table (bad magic number)")
    try:
        _, pos = _handle(footer, 0)
        index_handle, _ = _handle(footer, pos)
    except WireError as e:
        raise TableError(f"bad footer: {e}") from None
    for _, handle in _entries(_block(data, index_handle, len(data) - FOOTER)):
        try:
            block_handle, end = _handle(handle, 0)
        except WireError as e:
            raise TableError(f"bad block handle in the index: {e}") from None
        if end != len(handle):
            raise TableError("bad block handle in the index")
        yield from _entries(_block(data, block_handle, len(data) - FOOTER))


def _handle(buf: bytes, pos: int) -> tuple[tuple[int, int], int]:
    offset, pos = get_varint(buf, pos)
    size, pos = get_varint(buf, pos)
    return (offset, size), pos


def _block(data: bytes, handle: tuple[int, int], limit: int) -> bytes:
    """The contents of the block at ``handle``, its trailer checked."""
    offset, size = handle
    if offset + size + 5 > limit:
        raise TableError(f"block at {offset} (+{size} bytes) runs past the end of the table")
    contents, kind = data[offset:offset + size], data[offset + size]
    stored = struct.unpack("<I", data[offset + size + 1:offset + size + 5])[0]
    if crc32c.unmask(stored) != crc32c.extend(crc32c.value(contents), bytes([kind])):
        raise TableError(f"block checksum mismatch at offset {offset}")
    if kind != _UNCOMPRESSED:
        raise TableError(f"compressed block (type {kind}) at offset {offset} is not supported")
    return contents


def _entries(block: bytes) -> Iterator[tuple[bytes, bytes]]:
    """The (key, value) entries of a block's contents."""
    if len(block) < 4:
        raise TableError("block too short")
    restarts = struct.unpack("<I", block[-4:])[0]
    end = len(block) - 4 * (restarts + 1)
    if restarts < 1 or end < 0:
        raise TableError("bad restart count in block")
    pos, key = 0, b""
    try:
        while pos < end:
            shared, pos = get_varint(block, pos)
            unshared, pos = get_varint(block, pos)
            size, pos = get_varint(block, pos)
            if shared > len(key) or pos + unshared + size > end:
                raise TableError("bad entry in block")
            key = key[:shared] + block[pos:pos + unshared]
            pos += unshared
            yield key, block[pos:pos + size]
            pos += size
    except WireError as e:
        raise TableError(f"bad entry in block: {e}") from None
