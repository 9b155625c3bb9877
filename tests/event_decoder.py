"""An independent reader of event files for the tests, written from the formats' specs: TFRecord
framing (checked CRC-32C, computed bit by bit here), the protobuf wire format, and the Event /
Summary / HistogramProto / Image field numbers of TensorFlow's .proto files."""
from __future__ import annotations

import glob
import os
import struct
import zlib

import numpy as np


def crc32c_bitwise(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


def _masked(data: bytes) -> int:
    crc = crc32c_bitwise(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def records(path: str) -> list[bytes]:
    data = open(path, "rb").read()
    out, pos = [], 0
    while pos < len(data):
        header = data[pos:pos + 8]
        (length,) = struct.unpack("<Q", header)
        assert struct.unpack("<I", data[pos + 8:pos + 12])[0] == _masked(header), "length CRC"
        body = data[pos + 12:pos + 12 + length]
        assert struct.unpack("<I", data[pos + 12 + length:pos + 16 + length])[0] == _masked(body), "data CRC"
        out.append(body)
        pos += 16 + length
    return out


def fields(message: bytes) -> list[tuple[int, object]]:
    """(field number, value) pairs: ints for varints, bytes for length-delimited, raw 8/4 bytes."""
    out, pos = [], 0
    while pos < len(message):
        key, pos = _varint(message, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(message, pos)
        elif wire == 1:
            value, pos = message[pos:pos + 8], pos + 8
        elif wire == 5:
            value, pos = message[pos:pos + 4], pos + 4
        elif wire == 2:
            size, pos = _varint(message, pos)
            value, pos = message[pos:pos + size], pos + size
        else:
            raise ValueError(f"wire type {wire}")
        out.append((number, value))
    return out


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return result, pos


def _one(pairs, number, default=None):
    found = [v for n, v in pairs if n == number]
    return found[-1] if found else default


def _double(raw) -> float:
    return struct.unpack("<d", raw)[0]


def histogram(message: bytes) -> dict:
    f = fields(message)
    packed = lambda n: np.frombuffer(b"".join(v for k, v in f if k == n), "<f8")  # noqa: E731
    return {"min": _double(_one(f, 1, bytes(8))), "max": _double(_one(f, 2, bytes(8))),
            "num": _double(_one(f, 3, bytes(8))), "sum": _double(_one(f, 4, bytes(8))),
            "sum_squares": _double(_one(f, 5, bytes(8))), "bucket_limit": packed(6), "bucket": packed(7)}


def png_pixels(png: bytes) -> np.ndarray:
    """The pixels of a non-interlaced 8-bit PNG (filters 0-4 undone), as (height, width, channels)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos:pos + 4])
        kind, body = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + length]
        assert struct.unpack(">I", png[pos + 8 + length:pos + 12 + length])[0] == zlib.crc32(kind + body)
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and interlace == 0
    channels = {0: 1, 4: 2, 2: 3, 6: 4}[color]
    raw = zlib.decompress(idat)
    stride = width * channels
    out = np.zeros((height, stride), np.int64)
    for y in range(height):
        filt, line = raw[y * (stride + 1)], np.frombuffer(raw, np.uint8, stride, y * (stride + 1) + 1).astype(np.int64)
        prev = out[y - 1] if y else np.zeros(stride, np.int64)
        row = np.zeros(stride, np.int64)
        for x in range(stride):
            a = row[x - channels] if x >= channels else 0
            b, c = prev[x], (prev[x - channels] if x >= channels else 0)
            pred = [0, a, b, (a + b) // 2, _paeth(a, b, c)][filt]
            row[x] = (line[x] + pred) & 0xFF
        out[y] = row
    return out.reshape(height, width, channels).astype(np.uint8)


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def summary_values(summary: bytes) -> list[dict]:
    """Each Summary.Value as a dict: tag and one of simple_value / histo / image / tensor / audio."""
    out = []
    for number, value in fields(summary):
        assert number == 1
        f = fields(value)
        item: dict = {"tag": _one(f, 1, b"").decode()}
        if _one(f, 2) is not None:
            item["simple_value"] = struct.unpack("<f", _one(f, 2))[0]
        if _one(f, 5) is not None:
            item["histo"] = histogram(_one(f, 5))
        if _one(f, 4) is not None:
            img = fields(_one(f, 4))
            item["image"] = {"height": _one(img, 1, 0), "width": _one(img, 2, 0), "colorspace": _one(img, 3, 0),
                             "pixels": png_pixels(_one(img, 4))}
        if _one(f, 8) is not None:
            tensor = fields(_one(f, 8))
            shape = [_one(fields(d), 1, 0) for n, d in fields(_one(tensor, 2, b"")) if n == 2]
            item["tensor"] = {"dtype": _one(tensor, 1), "shape": shape, "string_val": [v for n, v in tensor if n == 8]}
            meta = fields(_one(f, 9, b""))
            item["plugin_name"] = _one(fields(_one(meta, 1, b"")), 1, b"").decode()
        out.append(item)
    return out


def events(logdir_or_file: str) -> list[dict]:
    """Every event of the file (or the one event file of a directory)."""
    path = logdir_or_file
    if os.path.isdir(path):
        (path,) = glob.glob(os.path.join(path, "events.out.tfevents.*"))
    out = []
    for record in records(path):
        f = fields(record)
        item = {"wall_time": _double(_one(f, 1, bytes(8))), "step": _one(f, 2, 0)}
        if _one(f, 3) is not None:
            item["file_version"] = _one(f, 3).decode()
        if _one(f, 4) is not None:
            item["graph_def"] = _one(f, 4)
        if _one(f, 5) is not None:
            item["summary"] = summary_values(_one(f, 5))
        if _one(f, 7) is not None:
            log = fields(_one(f, 7))
            item["session_log"] = {"status": _one(log, 1, 0), "checkpoint_path": _one(log, 2, b"").decode()}
        out.append(item)
    return out
