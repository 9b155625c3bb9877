"""``tf.train.Example`` and its parts as small message classes that serialize to TensorFlow's bytes.

``SerializeToString()`` writes map entries in sorted key order: the bytes of TF's
``SerializeToString(deterministic=True)`` (TF's default order is its hash table's). ``FromString``
reads any valid encoding, packed or not. Fields: ``BytesList/FloatList/Int64List.value``,
``Feature`` (one of ``bytes_list``, ``float_list``, ``int64_list``), ``Features.feature`` (a dict),
``Example.features``, ``FeatureList.feature``, ``FeatureLists.feature_list``,
``SequenceExample.context`` / ``feature_lists``. Reading an unset kind of an empty ``Feature`` sets
that kind (protobuf sets it on the first write; programs write right after reading).
"""
from __future__ import annotations

import struct
from typing import Any, ClassVar

import numpy as np

from .. import wire
from ..errors import DataLossError

__all__ = ["BytesList", "FloatList", "Int64List", "Feature", "Features", "Example", "FeatureList",
           "FeatureLists", "SequenceExample"]


class _Message:
    """What every message here shares: parsing entry points, equality, text."""

    _fields: ClassVar[tuple[str, ...]] = ()

    def SerializeToString(self, deterministic: bool = True) -> bytes:
        return self._encode()

    def _encode(self) -> bytes:
        raise NotImplementedError

    def _decode(self, data: bytes) -> None:
        raise NotImplementedError

    @classmethod
    def FromString(cls, data: bytes) -> Any:
        """The message encoded by ``data`` (DataLossError when it is not a valid encoding)."""
        message = cls()
        message.ParseFromString(data)
        return message

    def ParseFromString(self, data: bytes) -> int:
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"{type(self).__name__}.ParseFromString expects bytes, got {type(data).__name__}")
        fresh = type(self)()
        try:
            fresh._decode(bytes(data))
        except (ValueError, struct.error, UnicodeDecodeError) as e:
            raise DataLossError(None, None, f"Error parsing message as tensorflow.{type(self).__name__}: {e}") from None
        self.__dict__.update(fresh.__dict__)
        return len(data)

    def ByteSize(self) -> int:
        return len(self._encode())

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._encode() == other._encode()

    __hash__ = None  # type: ignore[assignment]   # mutable, as protobuf messages

    def __repr__(self) -> str:
        parts = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({parts})"


class BytesList(_Message):
    _fields = ("value",)

    def __init__(self, value: Any = ()) -> None:
        self.value = [_as_bytes(v) for v in _items(value, "BytesList")]

    def _encode(self) -> bytes:
        return b"".join(wire.field_bytes(1, v) for v in self.value)

    def _decode(self, data: bytes) -> None:
        self.value = [v for n, _, v in wire.fields(data) if n == 1 and isinstance(v, bytes)]


class FloatList(_Message):
    _fields = ("value",)

    def __init__(self, value: Any = ()) -> None:
        self.value = [float(np.float32(_as_float(v))) for v in _items(value, "FloatList")]

    def _encode(self) -> bytes:
        return wire.field_bytes(1, wire.packed_floats(self.value)) if self.value else b""

    def _decode(self, data: bytes) -> None:
        out: list[float] = []
        for n, t, v in wire.fields(data):
            if n != 1:
                continue
            if isinstance(v, bytes):   # packed
                if len(v) % 4:
                    raise ValueError("packed float field of a length that is not a multiple of 4")
                out += np.frombuffer(v, dtype="<f4").astype(float).tolist()
            elif t == wire.FIXED32:
                out.append(struct.unpack("<f", struct.pack("<I", v))[0])
        self.value = out


class Int64List(_Message):
    _fields = ("value",)

    def __init__(self, value: Any = ()) -> None:
        self.value = [_as_int64(v) for v in _items(value, "Int64List")]

    def _encode(self) -> bytes:
        return wire.field_bytes(1, wire.packed_varints(self.value)) if self.value else b""

    def _decode(self, data: bytes) -> None:
        out: list[int] = []
        for n, _, v in wire.fields(data):
            if n == 1:
                values = wire.decode_packed_varints(v) if isinstance(v, bytes) else [v]
                out += [wire.to_signed64(x) for x in values]
        self.value = out


_KINDS = {"bytes_list": (1, BytesList), "float_list": (2, FloatList), "int64_list": (3, Int64List)}


class Feature(_Message):
    """One feature: exactly one of ``bytes_list``, ``float_list``, ``int64_list`` (or none)."""

    _fields = ("kind",)

    def __init__(self, bytes_list: BytesList | None = None, float_list: FloatList | None = None,
                 int64_list: Int64List | None = None) -> None:
        given = [(k, v) for k, v in (("bytes_list", bytes_list), ("float_list", float_list),
                                     ("int64_list", int64_list)) if v is not None]
        if len(given) > 1:
            raise ValueError(f"Feature takes one of bytes_list, float_list, int64_list, got {[k for k, _ in given]}")
        for k, v in given:
            if not isinstance(v, _KINDS[k][1]):
                raise TypeError(f"Feature.{k} must be a {_KINDS[k][1].__name__}, got {type(v).__name__}")
        self._kind: str | None = given[0][0] if given else None
        self._value: Any = given[0][1] if given else None

    def WhichOneof(self, oneof: str) -> str | None:
        if oneof != "kind":
            raise ValueError(f'Protocol message Feature has no "{oneof}" field.')
        return self._kind

    def HasField(self, name: str) -> bool:
        if name not in _KINDS and name != "kind":
            raise ValueError(f'Protocol message Feature has no "{name}" field.')
        return self._kind is not None if name == "kind" else self._kind == name

    def _get(self, kind: str) -> Any:
        if self._kind is None:
            self._kind, self._value = kind, _KINDS[kind][1]()
        return self._value if self._kind == kind else _KINDS[kind][1]()

    bytes_list = property(lambda self: self._get("bytes_list"))
    float_list = property(lambda self: self._get("float_list"))
    int64_list = property(lambda self: self._get("int64_list"))

    @property
    def kind(self) -> Any:
        return None if self._kind is None else (self._kind, self._value)

    def _encode(self) -> bytes:
        if self._kind is None:
            return b""
        return wire.field_bytes(_KINDS[self._kind][0], self._value._encode())

    def _decode(self, data: bytes) -> None:
        for n, _, v in wire.fields(data):
            for kind, (number, cls) in _KINDS.items():
                if n == number and isinstance(v, bytes):
                    self._kind, self._value = kind, cls.FromString(v)


class _FeatureMap(dict):
    """A map field: a missing key reads as a new entry, as protobuf's maps."""

    def __init__(self, value_class: type, items: Any = ()) -> None:
        super().__init__(items)
        self.value_class = value_class

    def __missing__(self, key: str) -> Any:
        value = self[key] = self.value_class()
        return value


def _encode_map(number: int, entries: dict) -> bytes:
    return b"".join(wire.field_bytes(number, wire.field_bytes(1, k.encode()) + wire.field_bytes(2, v._encode()))
                    for k, v in sorted(entries.items()))


def _decode_map(data: bytes, value_class: Any, target: dict) -> None:
    key, value = "", value_class()
    for n, _, v in wire.fields(data):
        if n == 1 and isinstance(v, bytes):
            key = v.decode("utf-8")
        elif n == 2 and isinstance(v, bytes):
            value = value_class.FromString(v)
    target[key] = value


class _MapMessage(_Message):
    """A message of one map field (number 1) from str to ``value_class`` messages."""

    value_class: ClassVar[Any]

    def _entries(self) -> dict:
        return getattr(self, self._fields[0])

    def _encode(self) -> bytes:
        return _encode_map(1, self._entries())

    def _decode(self, data: bytes) -> None:
        for n, _, v in wire.fields(data):
            if n == 1 and isinstance(v, bytes):
                _decode_map(v, self.value_class, self._entries())


class Features(_MapMessage):
    _fields = ("feature",)
    value_class = Feature

    def __init__(self, feature: dict | None = None) -> None:
        self.feature = _FeatureMap(Feature, _checked_map(feature, Feature, "Features.feature"))


class FeatureList(_Message):
    _fields = ("feature",)

    def __init__(self, feature: Any = ()) -> None:
        self.feature = list(_items(feature, "FeatureList", "feature"))
        for f in self.feature:
            if not isinstance(f, Feature):
                raise TypeError(f"FeatureList.feature holds Feature messages, got {type(f).__name__}")

    def _encode(self) -> bytes:
        return b"".join(wire.field_bytes(1, f._encode()) for f in self.feature)

    def _decode(self, data: bytes) -> None:
        self.feature = [Feature.FromString(v) for n, _, v in wire.fields(data) if n == 1 and isinstance(v, bytes)]


class FeatureLists(_MapMessage):
    _fields = ("feature_list",)
    value_class = FeatureList

    def __init__(self, feature_list: dict | None = None) -> None:
        self.feature_list = _FeatureMap(FeatureList, _checked_map(feature_list, FeatureList, "FeatureLists"))


class Example(_Message):
    """``Example(features=Features(feature={...}))``."""

    _fields = ("features",)

    def __init__(self, features: Features | None = None) -> None:
        if features is not None and not isinstance(features, Features):
            raise TypeError(f"Example.features must be a Features, got {type(features).__name__}")
        self._set = features is not None
        self.features = features if features is not None else Features()

    def _encode(self) -> bytes:
        if not self._set and not self.features.feature:
            return b""
        return wire.field_bytes(1, self.features._encode())

    def _decode(self, data: bytes) -> None:
        for n, _, v in wire.fields(data):
            if n == 1 and isinstance(v, bytes):
                self._set = True
                self.features = Features.FromString(v)


class SequenceExample(_Message):
    """``SequenceExample(context=Features(...), feature_lists=FeatureLists(...))``."""

    _fields = ("context", "feature_lists")

    def __init__(self, context: Features | None = None, feature_lists: FeatureLists | None = None) -> None:
        for name, value, cls in (("context", context, Features), ("feature_lists", feature_lists, FeatureLists)):
            if value is not None and not isinstance(value, cls):
                raise TypeError(f"SequenceExample.{name} must be a {cls.__name__}, got {type(value).__name__}")
        self._given = (context is not None, feature_lists is not None)
        self.context = context if context is not None else Features()
        self.feature_lists = feature_lists if feature_lists is not None else FeatureLists()

    def _encode(self) -> bytes:
        out = b""
        if self._given[0] or self.context.feature:
            out += wire.field_bytes(1, self.context._encode())
        if self._given[1] or self.feature_lists.feature_list:
            out += wire.field_bytes(2, self.feature_lists._encode())
        return out

    def _decode(self, data: bytes) -> None:
        given = list(self._given)
        for n, _, v in wire.fields(data):
            if n == 1 and isinstance(v, bytes):
                self.context, given[0] = Features.FromString(v), True
            elif n == 2 and isinstance(v, bytes):
                self.feature_lists, given[1] = FeatureLists.FromString(v), True
        self._given = (given[0], given[1])


def _checked_map(entries: dict | None, value_class: type, what: str) -> dict:
    if entries is None:
        return {}
    if not isinstance(entries, dict):
        raise TypeError(f"{what} must be a dict, got {type(entries).__name__}")
    for k, v in entries.items():
        if not isinstance(k, str) or not isinstance(v, value_class):
            raise TypeError(f"{what} maps str to {value_class.__name__}, got {k!r}: {type(v).__name__}")
    return entries


def _items(value: Any, message: str, field: str = "value") -> Any:
    """A repeated field's values: a list, tuple, NumPy array or other non-text iterable (None: none)."""
    if value is None:
        return ()
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__") or hasattr(value, "op"):
        raise TypeError(f"{message}.{field} must be a list of values, got {type(value).__name__}: {value!r}")
    return value


def _as_float(v: Any) -> float:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise TypeError(f"{v!r} has type {type(v).__name__}, but expected one of: int, float")
    return float(v)


def _as_bytes(v: Any) -> bytes:
    if isinstance(v, str):
        return v.encode("utf-8")
    if isinstance(v, (bytes, bytearray, np.bytes_)):
        return bytes(v)
    raise TypeError(f"{v!r} has type {type(v).__name__}, but expected one of: bytes")


def _as_int64(v: Any) -> int:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{v!r} has type {type(v).__name__}, but expected one of: int")
    if not -2 ** 63 <= int(v) < 2 ** 63:
        raise ValueError(f"Value out of range: {v}")
    return int(v)
