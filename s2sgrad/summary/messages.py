"""``tf.Summary`` (``tf.summary.Summary``) and ``tf.HistogramProto``: the Summary protocol buffer as
Python objects, for programs that build summaries by hand
(``tf.Summary(value=[tf.Summary.Value(tag="accuracy", simple_value=0.9)])``) or read what a summary
op returned (``tf.Summary.FromString(sess.run(merged))``). Serialized with the same wire-format
encoder as the summary ops; fields other than tag, simple_value, image and histo (audio, tensor,
metadata) are kept as their bytes, so a parsed Summary serializes back unchanged.
"""
from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..codegen.runtime_summary import delimited, double_field, float_field, int_field, read_varint

__all__ = ["Summary", "HistogramProto"]


def _fields(data: bytes) -> list[tuple[int, int, Any, bytes]]:
    """(field number, wire type, value, the field's own bytes) of a serialized message."""
    out, pos = [], 0
    while pos < len(data):
        start = pos
        key, pos = read_varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = read_varint(data, pos)
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
            value, pos = data[pos:pos + size], pos + size
        elif wire == 2:
            size, pos = read_varint(data, pos)
            value, pos = data[pos:pos + size], pos + size
        else:
            raise ValueError(f"unsupported protobuf wire type {wire} at byte {start}")
        if pos > len(data):
            raise ValueError("truncated protobuf message")
        out.append((number, wire, value, data[start:pos]))
    return out


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
        raise TypeError(f"{what} must be a number, got {value!r}")
    return float(value)


def _numbers(values: Any, what: str) -> list[float]:
    if isinstance(values, (str, bytes)) or not isinstance(values, (list, tuple, np.ndarray)):
        raise TypeError(f"{what} must be a list of numbers, got {values!r}")
    return [_number(v, what) for v in np.asarray(values, dtype=object).ravel()]


class HistogramProto:
    """min, max, num, sum, sum_squares, and the buckets: ``bucket[i]`` values below ``bucket_limit[i]``."""

    def __init__(self, min: float = 0.0, max: float = 0.0, num: float = 0.0, sum: float = 0.0,
                 sum_squares: float = 0.0, bucket_limit: Sequence[float] = (), bucket: Sequence[float] = ()) -> None:
        self.min, self.max, self.num = _number(min, "min"), _number(max, "max"), _number(num, "num")
        self.sum, self.sum_squares = _number(sum, "sum"), _number(sum_squares, "sum_squares")
        self.bucket_limit, self.bucket = _numbers(bucket_limit, "bucket_limit"), _numbers(bucket, "bucket")

    def SerializeToString(self) -> bytes:
        scalars = b"".join(double_field(i, v) for i, v in enumerate(
            (self.min, self.max, self.num, self.sum, self.sum_squares), start=1) if v)
        packed = b"".join(delimited(i, np.asarray(v, "<f8").tobytes()) for i, v in
                          ((6, self.bucket_limit), (7, self.bucket)) if v)
        return scalars + packed

    @classmethod
    def FromString(cls, data: bytes) -> HistogramProto:
        found: dict[str, Any] = {"bucket_limit": [], "bucket": []}
        names = {1: "min", 2: "max", 3: "num", 4: "sum", 5: "sum_squares"}
        for number, wire, value, _ in _fields(data):
            if number in names and wire == 1:
                found[names[number]] = struct.unpack("<d", value)[0]
            elif number in (6, 7):
                key = "bucket_limit" if number == 6 else "bucket"
                found[key] += np.frombuffer(value, "<f8").tolist() if wire == 2 else [struct.unpack("<d", value)[0]]
        return cls(**found)


class _Image:
    """``Summary.Image``: height, width, colorspace (channels) and the PNG bytes."""

    def __init__(self, height: int = 0, width: int = 0, colorspace: int = 0, encoded_image_string: bytes = b"") -> None:
        self.height, self.width, self.colorspace = int(height), int(width), int(colorspace)
        self.encoded_image_string = bytes(encoded_image_string)

    def SerializeToString(self) -> bytes:
        ints = b"".join(int_field(i, v) for i, v in enumerate((self.height, self.width, self.colorspace), 1) if v)
        return ints + (delimited(4, self.encoded_image_string) if self.encoded_image_string else b"")

    @classmethod
    def FromString(cls, data: bytes) -> _Image:
        found = {number: value for number, _, value, _ in _fields(data)}
        return cls(found.get(1, 0), found.get(2, 0), found.get(3, 0), found.get(4, b""))


class _Value:
    """``Summary.Value``: a tag and one of simple_value, image, histo (other kinds kept as bytes)."""

    def __init__(self, tag: str = "", simple_value: float | None = None, image: _Image | None = None,
                 histo: HistogramProto | None = None, node_name: str = "") -> None:
        if not isinstance(tag, str) or not isinstance(node_name, str):
            raise TypeError(f"Summary.Value tag and node_name must be strings, got {tag!r}, {node_name!r}")
        if image is not None and not isinstance(image, _Image):
            raise TypeError(f"Summary.Value image must be a tf.Summary.Image, got {image!r}")
        if histo is not None and not isinstance(histo, HistogramProto):
            raise TypeError(f"Summary.Value histo must be a tf.HistogramProto, got {histo!r}")
        if simple_value is not None and (isinstance(simple_value, bool) or not isinstance(
                simple_value, (int, float, np.number))):
            raise TypeError(f"simple_value must be a number, got {simple_value!r}")
        self.tag, self.node_name = tag, node_name
        self.simple_value = 0.0 if simple_value is None else float(np.float32(simple_value))
        self.image, self.histo = image, histo
        self._kind = "simple_value" if simple_value is not None else "image" if image else "histo" if histo else None
        self._other = b""

    def HasField(self, name: str) -> bool:
        return self._kind == name

    def SerializeToString(self) -> bytes:
        out = delimited(1, self.tag.encode("utf-8")) if self.tag else b""
        if self._kind == "simple_value":
            out += float_field(2, self.simple_value)
        elif self._kind == "image" and self.image is not None:
            out += delimited(4, self.image.SerializeToString())
        elif self._kind == "histo" and self.histo is not None:
            out += delimited(5, self.histo.SerializeToString())
        if self.node_name:
            out += delimited(7, self.node_name.encode("utf-8"))
        return out + self._other

    @classmethod
    def FromString(cls, data: bytes) -> _Value:
        value, other = cls(), b""
        for number, wire, raw, whole in _fields(data):
            if number == 1:
                value.tag = raw.decode("utf-8")
            elif number == 2 and wire == 5:
                value.simple_value, value._kind = struct.unpack("<f", raw)[0], "simple_value"
            elif number == 4:
                value.image, value._kind = _Image.FromString(raw), "image"
            elif number == 5:
                value.histo, value._kind = HistogramProto.FromString(raw), "histo"
            elif number == 7:
                value.node_name = raw.decode("utf-8")
            else:
                other += whole
        value._other = other
        return value


class _Values(list):
    """``summary.value``: a list with protobuf's ``add(**fields)``."""

    def add(self, **fields: Any) -> _Value:
        value = _Value(**fields)
        self.append(value)
        return value


class Summary:
    """A list of tagged values; what summary ops return, serialized."""

    Value = _Value
    Image = _Image

    def __init__(self, value: Sequence[_Value] = ()) -> None:
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"Summary(value=) takes a list of tf.Summary.Value, got {value!r}")
        self.value = _Values()
        for v in value:
            if not isinstance(v, _Value):
                raise TypeError(f"Summary values must be tf.Summary.Value, got {v!r}")
            self.value.append(v)

    def SerializeToString(self) -> bytes:
        return b"".join(delimited(1, v.SerializeToString()) for v in self.value)

    def ParseFromString(self, data: bytes) -> None:
        """Replace the values with those of the serialized Summary ``data``."""
        if hasattr(data, "item"):
            data = data.item()
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"a serialized Summary is bytes, got {type(data).__name__}")
        self.value = _Values(_Value.FromString(raw) for number, _, raw, _ in _fields(bytes(data)) if number == 1)

    @classmethod
    def FromString(cls, data: bytes) -> Summary:
        summary = cls()
        summary.ParseFromString(data)
        return summary

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Summary) and self.SerializeToString() == other.SerializeToString()

    __hash__ = None  # type: ignore[assignment]  # mutable, as protobuf messages

    def __repr__(self) -> str:
        return f"tf.Summary(value=[{', '.join(repr(v.tag) for v in self.value)}])"
