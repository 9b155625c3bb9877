"""Generated modules' ``rt.parse_example``: tf.train.Example records decoded from protobuf wire format.
NumPy only, as every runtime helper."""
from __future__ import annotations

import numpy as np


def _wire_varint(data, pos):
    """The varint at ``data[pos:]`` and the position after it."""
    result = shift = 0
    while True:
        if pos >= len(data) or shift > 63:
            raise ValueError("Can't parse serialized Example: bad varint")
        byte = data[pos]
        result |= (byte & 0x7F) << shift
        pos, shift = pos + 1, shift + 7
        if byte < 0x80:
            return result, pos


def _wire_fields(data):
    """(field number, payload) of each length-delimited field of a message; others (varint,
    fixed) as (number, int or bytes) too, so unpacked repeated values are read."""
    pos, end, out = 0, len(data), []
    while pos < end:
        key, pos = _wire_varint(data, pos)
        kind = key & 7
        if kind == 0:
            value, pos = _wire_varint(data, pos)
        elif kind == 2:
            size, pos = _wire_varint(data, pos)
            value, pos = data[pos:pos + size], pos + size
        elif kind in (1, 5):
            value, pos = data[pos:pos + (8 if kind == 1 else 4)], pos + (8 if kind == 1 else 4)
        else:
            raise ValueError(f"Can't parse serialized Example: wire type {kind}")
        if pos > end:
            raise ValueError("Can't parse serialized Example: truncated field")
        out.append((key >> 3, kind, value))
    return out


def _packed_varints(payload):
    """The int64 values of a packed varint field (vectorized over its bytes)."""
    b = np.frombuffer(payload, dtype=np.uint8)
    if not len(b):
        return np.zeros(0, np.int64)
    last = b < 0x80
    if not last[-1]:
        raise ValueError("Can't parse serialized Example: truncated packed int64 list")
    starts = np.concatenate(([0], np.flatnonzero(last)[:-1] + 1))
    group = np.concatenate(([0], np.cumsum(last[:-1])))
    shift = (np.arange(len(b)) - starts[group]) * 7
    if shift.max() > 63:
        raise ValueError("Can't parse serialized Example: varint longer than 10 bytes")
    terms = (b & 0x7F).astype(np.uint64) << shift.astype(np.uint64)
    return np.add.reduceat(terms, starts).view(np.int64)


def _feature_values(kind, payload):
    """A Feature's values as an array: kind 1 bytes, 2 float, 3 int64 (0: an empty Feature)."""
    items = _wire_fields(payload)
    if kind == 1:
        return np.array([v for n, w, v in items if n == 1 and w == 2] + [b""], dtype=object)[:-1]
    if kind == 2:
        parts = [np.frombuffer(v, "<f4") for n, w, v in items if n == 1 and w in (2, 5)]
        return np.concatenate(parts).astype(np.float32) if parts else np.zeros(0, np.float32)
    parts = [_packed_varints(v) if w == 2 else np.array([v], np.uint64).view(np.int64) for n, w, v in items
             if n == 1 and w in (0, 2)]
    return np.concatenate(parts) if parts else np.zeros(0, np.int64)


def _example_features(record):
    """An Example's features: name -> (kind, payload of the Feature's list)."""
    features = {}
    for n, w, message in _wire_fields(record):
        for m, _, entry in (_wire_fields(message) if n == 1 and w == 2 else ()):
            fields = {k: v for k, _, v in _wire_fields(entry)} if m == 1 else {}
            kinds = _wire_fields(fields.get(2, b""))
            kind, payload = (kinds[-1][0], kinds[-1][2]) if kinds else (0, b"")
            features[fields.get(1, b"").decode("utf-8")] = (kind, payload)
    return features


_EXAMPLE_KINDS = {"bytes": 1, "float": 2, "int64": 3}


def _example_value(features, key, kind, shape, default):
    """One dense feature of one example: its values in ``shape``, or ``default`` when missing."""
    found = features.get(key)
    if found is None:
        if default is None:
            raise ValueError(f"Feature: {key} (data type: {kind}) is required but could not be found.")
        return np.array(default, dtype=object if kind == "bytes" else None)
    values = _kind_values(key, kind, found)
    if values.size != int(np.prod(shape)):
        raise ValueError(f"Key: {key}.  Number of {kind} values != expected.  Values size: {values.size} "
                         f"but output shape: {list(shape)}")
    return values.reshape(shape)


def _kind_values(key, kind, found):
    if found[0] not in (0, _EXAMPLE_KINDS[kind]):
        names = {1: "string", 2: "float", 3: "int64"}
        raise ValueError(f"Feature: {key}. Data types don't match. Data type: {names[found[0]]} but expected "
                         f"type: {'string' if kind == 'bytes' else kind}")
    return _feature_values(_EXAMPLE_KINDS[kind], found[1] if found[0] else b"")


def _sequence_values(parsed, key, kind, shape, pad, dtype):
    """A FixedLenSequenceFeature of every example: [examples, longest, *shape], padded with ``pad``."""
    step = int(np.prod(shape))
    rows = []
    for f in parsed:
        values = _kind_values(key, kind, f[key]) if key in f else np.zeros(0, dtype)
        if step == 0 or values.size % step:
            raise ValueError(f"Key: {key}.  Number of {kind} values {values.size} is not a multiple of the "
                             f"element size {step} of shape {list(shape)}")
        rows.append(values.reshape((-1, *shape)))
    padded = np.full((len(rows), max([len(r) for r in rows] + [0]), *shape), pad, dtype=dtype)
    for i, r in enumerate(rows):
        padded[i, :len(r)] = r
    return padded


def parse_example(serialized, dense, sparse, sequence=()):
    """ParseExample: ``dense`` is ((key, kind, shape, default or None), ...), ``sparse`` ((key, kind), ...),
    ``sequence`` ((key, kind, shape, padding), ...); a scalar ``serialized`` is one Example, a vector a
    batch. Returns the dense values, the sequence values, then every sparse feature's indices, values
    and dense shape."""
    records = np.asarray(serialized, dtype=object)
    batch = records.reshape(-1)
    parsed = [_example_features(bytes(r)) for r in batch]
    dtypes = {"bytes": object, "float": np.float32, "int64": np.int64}
    out = []
    for key, kind, shape, default in dense:
        stacked = np.empty((len(parsed), *shape), dtype=dtypes[kind])
        for i, f in enumerate(parsed):
            stacked[i, ...] = _example_value(f, key, kind, shape, default)
        out.append(stacked.reshape(shape) if records.ndim == 0 else stacked)
    for key, kind, shape, pad in sequence:
        padded = _sequence_values(parsed, key, kind, shape, pad, dtypes[kind])
        out.append(padded[0] if records.ndim == 0 else padded)
    indices, values, shapes = [], [], []
    for key, kind in sparse:
        lists = [_kind_values(key, kind, f[key]) if key in f else np.zeros(0, dtypes[kind]) for f in parsed]
        lengths = np.array([len(v) for v in lists], dtype=np.int64)
        rows = np.repeat(np.arange(len(lists), dtype=np.int64), lengths)
        cols = np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        width = int(lengths.max()) if len(lengths) else 0
        if records.ndim == 0:
            indices.append(cols.reshape(-1, 1))
            shapes.append(np.array([width], dtype=np.int64))
        else:
            indices.append(np.stack([rows, cols], axis=1))
            shapes.append(np.array([len(lists), width], dtype=np.int64))
        values.append(np.concatenate(lists).astype(dtypes[kind]) if lists else np.zeros(0, dtypes[kind]))
    return out + indices + values + shapes
