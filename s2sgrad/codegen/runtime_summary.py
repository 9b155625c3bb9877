"""The summary helpers generated modules call as ``rt.scalar_summary(...)``: each returns a serialized
``tensorflow.Summary`` protocol buffer (bytes), written field by field in the protobuf wire format.

Part of the runtime (``runtime.py`` re-exports them), so the same rule holds: NumPy, the standard
library and the other helpers here only; ``s2sgrad.export`` copies their source. The message and
field numbers are those of TensorFlow's ``summary.proto`` / ``tensor.proto``.
"""
from __future__ import annotations

import struct
import sys
import zlib

import numpy as np

__all__ = ["scalar_summary", "histogram_summary", "image_summary", "audio_summary", "text_summary",
           "merge_summary",
           # protobuf wire-format pieces, also used by s2sgrad.summary for Event messages
           "varint", "read_varint", "delimited", "int_field", "double_field", "float_field"]


def varint(n):
    """A non-negative int as a protobuf base-128 varint (negative int64s as their 64-bit two's complement)."""
    n &= (1 << 64) - 1
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def read_varint(data, pos):
    """(value, position after it) of the varint at ``data[pos]``."""
    shift = result = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return result, pos


def delimited(field, payload):
    """A length-delimited field (wire type 2): strings, bytes, embedded messages, packed arrays."""
    return varint(field << 3 | 2) + varint(len(payload)) + payload


def int_field(field, value):
    """A varint field (wire type 0): ints, bools, enums."""
    return varint(field << 3) + varint(int(value))


def double_field(field, value):
    """A 64-bit field (wire type 1): doubles."""
    return varint(field << 3 | 1) + struct.pack("<d", value)


def float_field(field, value):
    """A 32-bit field (wire type 5): floats."""
    return varint(field << 3 | 5) + np.asarray(value, "<f4").tobytes()   # out of float range: inf, as a cast


def _summary_value(tag, field, payload):
    """``Summary{value{tag, <field>: payload}}``; field 2 (simple_value) is a float, the others messages."""
    tag_bytes = delimited(1, tag.encode("utf-8"))
    body = float_field(2, payload) if field == 2 else delimited(field, payload)
    return delimited(1, tag_bytes + body)


def scalar_summary(tag, value):
    """A Summary with one ``simple_value``: what ``tf.summary.scalar`` produces."""
    return _summary_value(tag, 2, float(value))


def _default_bucket_limits():
    """TensorFlow's histogram bucket edges: +-1e-12 growing by x1.1 up to 1e20, then +-DBL_MAX, and 0."""
    positive = []
    edge = 1e-12
    while edge < 1e20:
        positive.append(edge)
        edge *= 1.1
    positive.append(sys.float_info.max)
    return np.array([-e for e in reversed(positive)] + [0.0] + positive)


_BUCKET_LIMITS = _default_bucket_limits()


def histogram_summary(tag, values):
    """A Summary with a ``HistogramProto`` of ``values`` over TF's default buckets; empty runs of
    buckets merge into the last one of the run, as TF encodes them. NaN or inf values are refused."""
    x = np.asarray(values, dtype=np.float64).ravel()
    if not np.all(np.isfinite(x)):
        raise ValueError(f"Nan in summary histogram for: {tag}")
    counts = np.bincount(np.searchsorted(_BUCKET_LIMITS, x, side="right"), minlength=len(_BUCKET_LIMITS))
    counts = counts[:len(_BUCKET_LIMITS)].astype(np.float64)
    keep = counts > 0
    keep[:-1] |= counts[1:] > 0
    keep[-1] = True
    big = sys.float_info.max
    proto = b"".join([double_field(1, x.min() if x.size else big), double_field(2, x.max() if x.size else -big),
                      double_field(3, float(x.size)), double_field(4, float(np.sum(x))),
                      double_field(5, float(np.sum(x * x))),
                      delimited(6, _BUCKET_LIMITS[keep].astype("<f8").tobytes()),
                      delimited(7, counts[keep].astype("<f8").tobytes())])
    return _summary_value(tag, 5, proto)


def _png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _png(pixels):
    """A PNG file of an (height, width, channels) uint8 array; channels 1, 2, 3 or 4."""
    height, width, channels = pixels.shape
    color = {1: 0, 2: 4, 3: 2, 4: 6}[channels]   # grey, grey+alpha, RGB, RGBA
    header = struct.pack(">IIBBBBB", width, height, 8, color, 0, 0, 0)
    rows = np.zeros((height, 1 + width * channels), np.uint8)   # filter byte 0 (none) at each row's start
    rows[:, 1:] = pixels.reshape(height, width * channels)
    return b"".join([b"\x89PNG\r\n\x1a\n", _png_chunk(b"IHDR", header),
                     _png_chunk(b"IDAT", zlib.compress(rows.tobytes(), 6)), _png_chunk(b"IEND", b"")])


def _to_uint8(image, bad_color):
    """One float image as uint8, as TF scales it: [0, max] to [0, 255] when nothing is negative, else
    [-m, m] to [1, 255] around 128 (m the largest magnitude); NaN and inf pixels become ``bad_color``."""
    finite = np.isfinite(image)
    good = image[finite]
    low = float(good.min()) if good.size else 0.0
    high = float(good.max()) if good.size else 0.0
    if low < 0:
        most = max(abs(low), abs(high))
        scale, offset = (127.0 / most if most > 0 else 0.0), 128.0
    else:
        scale, offset = (255.0 / high if high > 0 else 0.0), 0.0
    real = image.dtype.type   # TF scales in the image's own precision
    pixels = (np.where(finite, image, 0) * real(scale) + real(offset)).astype(np.uint8)
    bad = ~np.all(finite, axis=-1)
    pixels[bad] = np.asarray(bad_color, np.uint8)[:image.shape[-1]]
    return pixels


def image_summary(tag, images, max_images, bad_color):
    """A Summary of up to ``max_images`` PNG images from a [batch, height, width, channels] tensor;
    tags ``tag/image`` (max_images 1) or ``tag/image/0``, ``tag/image/1``..."""
    images = np.asarray(images)
    if images.ndim != 4 or images.shape[-1] not in (1, 3, 4):
        raise ValueError(f"Tensor must be 4-D with last dim 1, 3, or 4, not {list(images.shape)} (summary {tag!r})")
    parts = []
    for i, image in enumerate(images[:max_images]):
        pixels = image if image.dtype == np.uint8 else _to_uint8(image, bad_color)
        height, width, channels = pixels.shape
        proto = b"".join([int_field(1, height), int_field(2, width), int_field(3, channels),
                          delimited(4, _png(pixels))])
        parts.append(_summary_value(f"{tag}/image/{i}" if max_images > 1 else f"{tag}/image", 4, proto))
    return b"".join(parts)


def _wav(samples, sample_rate):
    """A 16-bit PCM WAV file of (frames, channels) float samples in [-1, 1]."""
    frames, channels = samples.shape
    pcm = (np.clip(samples, -1.0, 1.0) * 32767.0).astype("<i2").tobytes()
    fmt = struct.pack("<HHIIHH", 1, channels, int(sample_rate), int(sample_rate) * channels * 2, channels * 2, 16)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(pcm)) + pcm
    return b"RIFF" + struct.pack("<I", len(body)) + body


def audio_summary(tag, audio, sample_rate, max_outputs):
    """A Summary of up to ``max_outputs`` WAV clips from a [batch, frames] or [batch, frames, channels] tensor."""
    audio = np.asarray(audio, dtype=np.float64)
    if audio.ndim == 2:
        audio = audio[:, :, None]
    if audio.ndim != 3:
        raise ValueError(f"audio must be 2-D or 3-D, got shape {list(np.shape(audio))} (summary {tag!r})")
    parts = []
    for i, clip in enumerate(audio[:max_outputs]):
        frames, channels = clip.shape
        proto = b"".join([float_field(1, float(sample_rate)), int_field(2, channels), int_field(3, frames),
                          delimited(4, _wav(clip, sample_rate)), delimited(5, b"audio/wav")])
        parts.append(_summary_value(f"{tag}/audio/{i}" if max_outputs > 1 else f"{tag}/audio", 6, proto))
    return b"".join(parts)


def text_summary(tag, text):
    """A Summary holding a string tensor for TensorBoard's text plugin (metadata plugin_name "text")."""
    strings = np.asarray(text, dtype=object)
    shape = b"".join(delimited(2, int_field(1, n)) for n in strings.shape)
    values = b"".join(delimited(8, s if isinstance(s, bytes) else str(s).encode("utf-8")) for s in strings.ravel())
    tensor = int_field(1, 7) + delimited(2, shape) + values   # dtype DT_STRING, tensor_shape, string_val
    metadata = delimited(1, delimited(1, b"text"))              # plugin_data{plugin_name: "text"}
    value = delimited(1, tag.encode("utf-8")) + delimited(9, metadata) + delimited(8, tensor)
    return delimited(1, value)


def _tags(summary):
    """The tags of a serialized Summary's values (each value is field 1; its tag is its field 1)."""
    tags = []
    pos = 0
    while pos < len(summary):
        key, pos = read_varint(summary, pos)
        length, pos = read_varint(summary, pos)
        if key != 10:
            raise ValueError(f"not a serialized Summary: field key {key} at byte {pos}")
        value, pos = summary[pos:pos + length], pos + length
        inner, start = read_varint(value, 0)
        if inner == 10:
            size, start = read_varint(value, start)
            tags.append(value[start:start + size].decode("utf-8"))
    return tags


def merge_summary(summaries):
    """Several serialized Summaries as one (their values in order); a tag used twice is refused, as TF does."""
    merged = b"".join(np.asarray(s, dtype=object).item() if isinstance(s, np.ndarray) else s for s in summaries)
    seen = set()
    for tag in _tags(merged):
        if tag in seen:
            raise ValueError(f"Duplicate tag {tag} found in summary inputs")
        seen.add(tag)
    return merged
