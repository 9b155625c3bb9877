"""An independent reader of TensorFlow V2 checkpoints, written from the format's description for the
tests (it shares no code with s2sgrad.checkpoint): bitwise CRC-32C, the table read through its
restart points, protobuf fields read by hand.
"""
from __future__ import annotations

import struct

import numpy as np

DTYPES = {1: "<f4", 2: "<f8", 3: "<i4", 4: "u1", 5: "<i2", 6: "i1", 8: "<c8", 9: "<i8", 10: "?", 17: "<u2",
          18: "<c16", 19: "<f2", 22: "<u4", 23: "<u8"}
STRING = 7


def crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def unmask(m: int) -> int:
    r = (m - 0xA282EAD8) % 2 ** 32
    return ((r >> 17) | (r << 15)) % 2 ** 32


def varint(buf: bytes, i: int) -> tuple[int, int]:
    n = shift = 0
    while True:
        b = buf[i]
        i += 1
        n += (b & 127) << shift
        shift += 7
        if b < 128:
            return n, i


def fields(msg: bytes) -> list[tuple[int, object]]:
    out, i = [], 0
    while i < len(msg):
        tag, i = varint(msg, i)
        if tag & 7 == 0:
            val, i = varint(msg, i)
        elif tag & 7 == 5:
            val, i = struct.unpack_from("<I", msg, i)[0], i + 4
        elif tag & 7 == 2:
            n, i = varint(msg, i)
            val, i = msg[i:i + n], i + n
        else:
            raise AssertionError(f"unexpected wire type in {msg!r}")
        out.append((tag >> 3, val))
    return out


def block(data: bytes, offset: int, size: int) -> list[tuple[bytes, bytes]]:
    """A block's entries, decoded restart run by restart run (each run starts with a full key)."""
    contents = data[offset:offset + size]
    assert data[offset + size] == 0, "compressed block"
    assert unmask(struct.unpack_from("<I", data, offset + size + 1)[0]) == crc32c(contents + b"\0"), "block crc"
    count = struct.unpack_from("<I", contents, size - 4)[0]
    starts = list(struct.unpack_from(f"<{count}I", contents, size - 4 - 4 * count))
    limit = size - 4 - 4 * count
    entries = []
    for run, start in enumerate(starts):
        end = starts[run + 1] if run + 1 < count else limit
        i, key = start, b""
        while i < end:
            shared, i = varint(contents, i)
            assert i - 1 != start or shared == 0, "a restart point must hold a full key"
            unshared, i = varint(contents, i)
            n, i = varint(contents, i)
            key = key[:shared] + contents[i:i + unshared]
            entries.append((key, contents[i + unshared:i + unshared + n]))
            i += unshared + n
    return entries


def table(data: bytes) -> list[tuple[bytes, bytes]]:
    assert struct.unpack_from("<Q", data, len(data) - 8)[0] == 0xDB4775248B80FB57, "magic"
    footer = data[-48:]
    _, i = varint(footer, 0)
    _, i = varint(footer, i)
    index_offset, i = varint(footer, i)
    index_size, i = varint(footer, i)
    out = []
    for separator, handle in block(data, index_offset, index_size):
        offset, j = varint(handle, 0)
        size, _ = varint(handle, j)
        entries = block(data, offset, size)
        assert all(key <= separator for key, _ in entries), "index key below its block's keys"
        out += entries
    keys = [k for k, _ in out]
    assert keys == sorted(set(keys)), "keys not sorted"
    return out


def read(prefix: str) -> dict[str, np.ndarray]:
    """name -> value of every tensor in the checkpoint ``prefix`` (strings as object arrays of bytes)."""
    with open(prefix + ".index", "rb") as f:
        entries = table(f.read())
    assert entries[0][0] == b"", "header first"
    header = dict(fields(entries[0][1]))
    shards = header[1]
    out = {}
    for key, value in entries[1:]:
        entry: dict = {}
        dims = []
        for number, val in fields(value):
            if number == 2:
                dims = [dict(fields(d)).get(1, 0) for n, d in fields(val) if n == 2]  # type: ignore[arg-type]
            else:
                entry[number] = val
        with open(f"{prefix}.data-{entry.get(3, 0):05d}-of-{shards:05d}", "rb") as f:
            f.seek(entry.get(4, 0))
            raw = f.read(entry.get(5, 0))
        if entry[1] == STRING:   # varint lengths, their masked CRC (as uint32s), the bytes
            lengths, i = [], 0
            for _ in range(int(np.prod(dims))):
                n, i = varint(raw, i)
                lengths.append(n)
            as_uint32 = struct.pack(f"<{len(lengths)}I", *lengths)
            assert unmask(struct.unpack_from("<I", raw, i)[0]) == crc32c(as_uint32), f"length crc of {key!r}"
            assert crc32c(as_uint32 + raw[i:]) == unmask(entry[6]), f"crc of {key!r}"
            i += 4
            items = []
            for n in lengths:
                items.append(raw[i:i + n])
                i += n
            arr = np.empty(len(items), object)
            arr[:] = items
            out[key.decode()] = arr.reshape(dims)
        else:
            assert crc32c(raw) == unmask(entry[6]), f"crc of {key!r}"
            out[key.decode()] = np.frombuffer(raw, DTYPES[entry[1]]).reshape(dims)
    return out
