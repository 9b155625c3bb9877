"""TensorFlow's V2 checkpoint ("tensor bundle"): ``<prefix>.index`` and ``<prefix>.data-00000-of-00001``.

The index is a table (``table.py``) whose empty key holds a BundleHeaderProto (``num_shards`` = 1,
``endianness`` = 2, ``version`` = 3: VersionDef ``producer`` = 1) and whose other keys, the tensor
names, hold BundleEntryProtos: ``dtype`` = 1 (TF's DataType number), ``shape`` = 2
(TensorShapeProto: repeated ``dim`` = 2, each ``size`` = 1), ``shard_id`` = 3, ``offset`` = 4,
``size`` = 5, ``crc32c`` = 6 (fixed32, masked), ``slices`` = 7. A data shard holds the tensors'
bytes back to back: numbers little-endian in C order; strings as the varint length of each
element, the masked CRC-32C of those lengths (each as a uint32), then the elements' bytes. An
entry's CRC covers its bytes as stored (for strings: the lengths as uint32s, then the rest).
"""
from __future__ import annotations

import dataclasses
import errno
import os
import struct
import uuid

import numpy as np

from .. import crc32c, errors
from .. import dtypes as _dt
from .table import TableError, build_table, read_table
from .wire import Fixed32, WireError, decode, encode, get_varint, put_varint, signed64

__all__ = ["Entry", "index_path", "data_path", "write_bundle", "BundleReader"]

_PRODUCER = 1
_LITTLE_ENDIAN = 0


def index_path(prefix: str) -> str:
    return prefix + ".index"


def data_path(prefix: str, shard: int = 0, num_shards: int = 1) -> str:
    return f"{prefix}.data-{shard:05d}-of-{num_shards:05d}"


@dataclasses.dataclass(frozen=True)
class Entry:
    """Where a tensor is stored and what it is."""

    dtype: _dt.DType
    shape: tuple[int, ...]
    shard_id: int
    offset: int
    size: int
    crc: int       # unmasked
    sliced: bool   # a partitioned variable's full entry (its slices are stored under other keys)


# -- writing -------------------------------------------------------------------------------------

def _tensor_bytes(value: np.ndarray, dtype: _dt.DType) -> tuple[bytes, int]:
    """The bytes stored for ``value`` and their CRC."""
    if dtype is _dt.string:
        items = [x if isinstance(x, bytes) else str(x).encode() for x in value.reshape(-1)]
        lengths = b"".join(put_varint(len(x)) for x in items)
        crc = crc32c.value(struct.pack(f"<{len(items)}I", *[len(x) for x in items]))
        length_crc = struct.pack("<I", crc32c.mask(crc))
        body = b"".join(items)
        return lengths + length_crc + body, crc32c.extend(crc32c.extend(crc, length_crc), body)
    raw = np.ascontiguousarray(value, dtype=dtype.np.newbyteorder("<")).tobytes()
    return raw, crc32c.value(raw)


def _entry_proto(dtype: _dt.DType, shape: tuple[int, ...], offset: int, size: int, crc: int) -> bytes:
    shape_proto = encode([(2, encode([(1, d)] if d else [])) for d in shape])  # proto3 leaves out zeros
    fields: list[tuple[int, int | bytes]] = [(1, dtype.as_datatype_enum), (2, shape_proto)]
    fields += [(n, v) for n, v in ((4, offset), (5, size)) if v]
    return encode(fields + [(6, Fixed32(crc32c.mask(crc)))])


def write_bundle(prefix: str, tensors: dict[str, tuple[_dt.DType, np.ndarray]]) -> None:
    """Write ``tensors`` (name -> (dtype, value)) as the checkpoint ``prefix``.

    Both files are written under temporary names, flushed to disk, then renamed into place (data
    first, index last), so a crash leaves any previous checkpoint files at ``prefix`` whole."""
    data = bytearray()
    entries = []
    for name in sorted(tensors):
        dtype, value = tensors[name]
        raw, crc = _tensor_bytes(np.asarray(value), dtype)
        entries.append((name.encode(), _entry_proto(dtype, np.shape(value), len(data), len(raw), crc)))
        data += raw
    header = encode([(1, 1), (3, encode([(1, _PRODUCER)]))])
    index = build_table([(b"", header)] + entries)
    final = [(data_path(prefix), bytes(data)), (index_path(prefix), index)]
    temps = [f"{path}.tempstate{uuid.uuid4().hex}" for path, _ in final]
    try:
        for temp, (_, contents) in zip(temps, final, strict=True):
            _write_synced(temp, contents)
        for temp, (path, _) in zip(temps, final, strict=True):
            os.replace(temp, path)
    except OSError as e:
        raise _write_error(e, prefix) from None
    finally:
        for temp in temps:
            if os.path.exists(temp):
                os.remove(temp)


def _write_error(e: OSError, prefix: str) -> errors.OpError:
    """TF's error for a failed checkpoint write (a full disk is ResourceExhaustedError)."""
    kind = {errno.ENOSPC: errors.ResourceExhaustedError, errno.EDQUOT: errors.ResourceExhaustedError,
            errno.EACCES: errors.PermissionDeniedError, errno.EROFS: errors.PermissionDeniedError,
            errno.ENOENT: errors.NotFoundError}.get(e.errno or 0, errors.UnknownError)
    return kind(None, None, f"Failed to write checkpoint {prefix}: {e.strerror or e} (any previous checkpoint "
                            "there is unchanged)")


def _write_synced(path: str, contents: bytes) -> None:
    with open(path, "wb") as f:
        f.write(contents)
        f.flush()
        os.fsync(f.fileno())


# -- reading -------------------------------------------------------------------------------------

def _data_loss(path: str, detail: str) -> errors.DataLossError:
    return errors.DataLossError(None, None, f"Unable to read checkpoint file {path}: {detail}")


class BundleReader:
    """The entries of the checkpoint ``prefix``, and their values (checked against their CRCs)."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        path = index_path(prefix)
        try:
            with open(path, "rb") as f:
                raw = f.read()
        except FileNotFoundError:
            raise errors.NotFoundError(None, None, f"Unsuccessful TensorSliceReader constructor: Failed to find "
                                       f"any matching files for {prefix}") from None
        except IsADirectoryError:
            raise errors.NotFoundError(None, None, f"{path} is a directory, not a checkpoint index") from None
        try:
            items = list(read_table(raw))
            if not items or items[0][0] != b"":
                raise _data_loss(path, "the index has no header entry")
            self.num_shards = self._header(decode(items[0][1]), path)
            self.entries = {key.decode(): self._entry(key.decode(), decode(val), path) for key, val in items[1:]}
        except (TableError, WireError, UnicodeDecodeError) as e:
            raise _data_loss(path, str(e)) from None

    def _header(self, fields: dict, path: str) -> int:
        if fields.get(2, [_LITTLE_ENDIAN])[-1] != _LITTLE_ENDIAN:
            raise errors.UnimplementedError(None, None, f"{path}: big-endian checkpoints are not supported")
        version = decode(fields[3][-1]) if 3 in fields else {}
        if version.get(2, [0])[-1] > _PRODUCER:
            raise errors.InvalidArgumentError(None, None, f"{path}: the checkpoint needs a newer reader "
                                              f"(min_consumer {version[2][-1]})")
        shards = signed64(fields.get(1, [0])[-1])
        if shards < 1:
            raise _data_loss(path, f"bad number of shards {shards}")
        return shards

    def _entry(self, name: str, fields: dict, path: str) -> Entry:
        try:
            dtype = _dt.as_dtype(fields.get(1, [0])[-1])
        except (TypeError, ValueError, KeyError):
            raise errors.UnimplementedError(None, None, f"{path}: tensor {name} has a dtype s2sgrad does not "
                                            f"support (DataType {fields.get(1, [0])[-1]})") from None
        shape_fields = decode(fields[2][-1]) if 2 in fields else {}
        if shape_fields.get(3, [0])[-1]:
            raise _data_loss(path, f"tensor {name} has an unknown rank")
        shape = tuple(signed64(decode(d).get(1, [0])[-1]) for d in shape_fields.get(2, []))
        if any(d < 0 for d in shape):
            raise _data_loss(path, f"tensor {name} has a bad shape {list(shape)}")
        entry = Entry(dtype, shape, signed64(fields.get(3, [0])[-1]), signed64(fields.get(4, [0])[-1]),
                      signed64(fields.get(5, [0])[-1]), crc32c.unmask(fields.get(6, [0])[-1]), 7 in fields)
        if not 0 <= entry.shard_id < self.num_shards or entry.offset < 0 or entry.size < 0:
            raise _data_loss(path, f"tensor {name} has a bad location")
        return entry

    def read(self, name: str) -> np.ndarray:
        """The value of tensor ``name`` (NotFoundError when there is none; DataLossError when damaged)."""
        entry = self.entries.get(name)
        if entry is None:
            raise errors.NotFoundError(None, None, f"Key {name} not found in checkpoint")
        if entry.sliced:
            raise errors.UnimplementedError(None, None, f"{name} in {self.prefix} is a partitioned variable "
                                            "(saved as slices), which s2sgrad does not support")
        path = data_path(self.prefix, entry.shard_id, self.num_shards)
        try:
            with open(path, "rb") as f:
                f.seek(entry.offset)
                raw = f.read(entry.size)
        except FileNotFoundError:
            raise errors.NotFoundError(None, None, f"{path} (the data of {self.prefix}) not found") from None
        if len(raw) != entry.size:
            raise _data_loss(path, f"tensor {name} is truncated ({len(raw)} of {entry.size} bytes)")
        if entry.dtype is _dt.string:
            return self._strings(raw, entry, name, path)
        count = int(np.prod(entry.shape, dtype=np.int64))
        if entry.size != count * entry.dtype.np.itemsize:
            raise _data_loss(path, f"tensor {name} has {entry.size} bytes for shape {list(entry.shape)}")
        if crc32c.value(raw) != entry.crc:
            raise _data_loss(path, f"checksum mismatch for tensor {name}")
        value = np.frombuffer(raw, dtype=entry.dtype.np.newbyteorder("<")).astype(entry.dtype.np)
        return value.reshape(entry.shape)

    @staticmethod
    def _strings(raw: bytes, entry: Entry, name: str, path: str) -> np.ndarray:
        count = int(np.prod(entry.shape, dtype=np.int64))
        lengths, pos = [], 0
        try:
            for _ in range(count):
                n, pos = get_varint(raw, pos)
                lengths.append(n)
        except WireError:
            raise _data_loss(path, f"bad string lengths for tensor {name}") from None
        as_uint32 = struct.pack(f"<{count}I", *[n & 0xFFFFFFFF for n in lengths])
        crc = crc32c.value(as_uint32)
        length_crc = raw[pos:pos + 4]
        if len(length_crc) < 4 or crc32c.unmask(struct.unpack("<I", length_crc)[0]) != crc \
                or pos + 4 + sum(lengths) != len(raw):
            raise _data_loss(path, f"bad string lengths for tensor {name}")
        body = raw[pos + 4:]
        if crc32c.extend(crc32c.extend(crc, length_crc), body) != entry.crc:
            raise _data_loss(path, f"checksum mismatch for tensor {name}")
        ends = np.cumsum(lengths, dtype=np.int64)
        items = [body[e - n:e] for e, n in zip(ends.tolist(), lengths, strict=True)]
        out = np.empty(count, dtype=object)
        out[:] = items
        return out.reshape(entry.shape)
