"""Op cases: the summary ops. The expected bytes are encoded here by hand from summary.proto's field
numbers (and the stdlib ``wave`` module for audio), independently of s2sgrad's encoder."""
import bisect
import io
import struct
import sys
import wave
import zlib

import numpy as np

import s2sgrad as tf
from optable import OpCase

R = np.random.default_rng(15)


def _varint(n):
    n &= (1 << 64) - 1
    out = b""
    while True:
        low, n = n & 0x7F, n >> 7
        out += bytes([low | (0x80 if n else 0)])
        if not n:
            return out


def _len(field, payload):
    return _varint(field * 8 + 2) + _varint(len(payload)) + payload


def _value(tag, body):
    return _len(1, _len(1, tag.encode()) + body)


def _scalar(tag, v):
    return _value(tag, b"\x15" + struct.pack("<f", float(v)))


def _limits():
    edges, e = [], 1e-12
    while e < 1e20:
        edges.append(e)
        e *= 1.1
    edges.append(sys.float_info.max)
    return [-x for x in reversed(edges)] + [0.0] + edges


def _histogram(tag, values):
    values = [float(v) for v in np.ravel(values)]
    limits = _limits()
    counts = [0.0] * len(limits)
    for v in values:
        counts[bisect.bisect_right(limits, v)] += 1
    kept = [(limits[i], counts[i]) for i in range(len(limits))
            if counts[i] or i == len(limits) - 1 or counts[i + 1]]
    d = lambda n, v: _varint(n * 8 + 1) + struct.pack("<d", v)  # noqa: E731
    body = d(1, min(values)) + d(2, max(values)) + d(3, len(values)) + d(4, sum(values)) + \
        d(5, sum(v * v for v in values))
    body += _len(6, b"".join(struct.pack("<d", lim) for lim, _ in kept))
    body += _len(7, b"".join(struct.pack("<d", c) for _, c in kept))
    return _value(tag, _len(5, body))


def _text(tag, strings):
    strings = np.asarray(strings, dtype=object)
    shape = b"".join(_len(2, b"\x08" + _varint(n)) for n in strings.shape)
    tensor = b"\x08\x07" + _len(2, shape) + b"".join(_len(8, s.encode()) for s in strings.ravel())
    return _value(tag, _len(9, _len(1, _len(1, b"text"))) + _len(8, tensor))


def _png(pixels):
    h, w, c = pixels.shape
    chunk = lambda k, d: struct.pack(">I", len(d)) + k + d + struct.pack(">I", zlib.crc32(k + d))  # noqa: E731
    raw = b"".join(b"\x00" + pixels[y].tobytes() for y in range(h))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, {1: 0, 3: 2, 4: 6}[c], 0, 0, 0)) \
        + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")


def _images(tag, batch, max_images):
    out = b""
    for i, img in enumerate(batch[:max_images]):
        h, w, c = img.shape
        body = b"\x08" + _varint(h) + b"\x10" + _varint(w) + b"\x18" + _varint(c) + _len(4, _png(img))
        out += _value(f"{tag}/image/{i}" if max_images > 1 else f"{tag}/image", _len(4, body))
    return out


def _audio(tag, clips, rate):
    out = b""
    for i, clip in enumerate(clips):
        buffer = io.BytesIO()
        with wave.open(buffer, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(rate)
            w.writeframes((np.clip(clip, -1, 1) * 32767).astype("<i2").tobytes())
        body = b"\x0d" + struct.pack("<f", rate) + b"\x10\x01\x18" + _varint(len(clip)) + \
            _len(4, buffer.getvalue()) + _len(5, b"audio/wav")
        out += _value(f"{tag}/audio/{i}", _len(6, body))
    return out


UINT8_IMAGES = R.integers(0, 256, (3, 2, 4, 3)).astype(np.uint8)
POSITIVE = R.uniform(0, 4, (2, 3, 2, 1))
CLIPS = R.uniform(-1.2, 1.2, (2, 6))

CASES = [
    OpCase("scalar_summary", lambda x: tf.summary.scalar("loss", x * 2.0), [np.float32(1.25)],
           lambda x: _scalar("loss", x * 2.0), grad=False),
    OpCase("scalar_summary_int", lambda x: tf.summary.scalar("steps", x), [np.int32(-7)],
           lambda x: _scalar("steps", x), grad=False),
    OpCase("histogram_summary", lambda x: tf.summary.histogram("w", x), [R.standard_normal((4, 5)) * 3],
           lambda x: _histogram("w", x), grad=False),
    OpCase("histogram_summary_ints", lambda x: tf.summary.histogram("counts", x),
           [np.array([0, 0, 3, -2, 1000000], np.int64)], lambda x: _histogram("counts", x), grad=False),
    OpCase("image_summary_uint8", lambda x: tf.summary.image("img", x, max_outputs=2), [UINT8_IMAGES],
           lambda x: _images("img", x, 2), grad=False),
    OpCase("image_summary_float", lambda x: tf.summary.image("pos", x, max_outputs=1), [POSITIVE],
           lambda x: _images("pos", (x[:1] * (255.0 / x[0].max())).astype(np.uint8), 1), grad=False),
    OpCase("audio_summary", lambda x: tf.summary.audio("clip", x, 8000, max_outputs=2), [CLIPS],
           lambda x: _audio("clip", x, 8000), grad=False),
    OpCase("text_summary", lambda: tf.summary.text("note", tf.constant([["a", "bc"], ["d", "é"]])), [],
           lambda: _text("note", [["a", "bc"], ["d", "é"]]), grad=False),
    OpCase("merge_summary", lambda x, y: tf.summary.merge([tf.summary.scalar("a", x), tf.summary.histogram("b", y)]),
           [np.float64(0.5), np.array([1.0, 2.0, 2.0])], lambda x, y: _scalar("a", x) + _histogram("b", y), grad=False),
]
