"""The checkpoint file format: CRC-32C, protobuf wire format, tables, tensor bundles; TF's files read
with TF's values, s2sgrad's files read by an independent reader and identical to TF's bytes."""
from __future__ import annotations

import os

import numpy as np
import pytest

from s2sgrad import crc32c, errors
from s2sgrad import dtypes as dt
from s2sgrad.checkpoint import wire
from s2sgrad.checkpoint.bundle import BundleReader, write_bundle
from s2sgrad.checkpoint.table import TableError, build_table, read_table
from tests import checkpoint_spec_reader as spec

DATA = os.path.join(os.path.dirname(__file__), "data", "checkpoints")
TF_CHECKPOINTS = ["dtypes.ckpt-7", "adam.ckpt-5", "sharded.ckpt-2", "many.ckpt-1"]


def tf_values(name: str) -> dict[str, np.ndarray]:
    """What TF's session held for the checkpoint ``name`` (see data/checkpoints/README.md)."""
    if name.startswith("many"):
        return {f"v{i:04d}_" + "abcdefghij" * 30: np.float32(np.float32(i) / 7) for i in range(900)}
    with np.load(os.path.join(DATA, name.split(".")[0] + ".npz")) as f:
        return {k.replace("|", "/"): f[k] for k in f}


# -- CRC-32C -------------------------------------------------------------------------------------

@pytest.mark.parametrize("data, expected", [   # RFC 3720 B.4 test vectors, and the classic check value
    (bytes(32), 0x8A9136AA), (b"\xff" * 32, 0x62A8AB43), (bytes(range(32)), 0x46DD794E),
    (bytes(range(31, -1, -1)), 0x113FDB5C), (b"123456789", 0xE3069283), (b"", 0)])
def test_crc32c_known_values(data, expected):
    assert crc32c.value(data) == expected


@pytest.mark.parametrize("n", [1, 255, 256, 257, 1000, 4096, 4099, 65536 + 7, 300_001])
def test_crc32c_vectorized_path_equals_the_bitwise_definition(n):
    data = np.random.default_rng(n).integers(0, 256, n, dtype=np.uint8).tobytes()
    if n < 5000:
        expected = spec.crc32c(data)
    else:   # the bitwise loop is slow: extend over 200-byte pieces instead (each takes the plain byte loop)
        expected = 0
        for i in range(0, n, 200):
            expected = crc32c.extend(expected, data[i:i + 200])
    assert crc32c.value(data) == expected
    assert crc32c.extend(crc32c.value(data[:n // 3]), data[n // 3:]) == expected


def test_crc32c_mask_round_trips_and_changes_the_value():
    for crc in [0, 1, 0xFFFFFFFF, 0x8A9136AA]:
        assert crc32c.unmask(crc32c.mask(crc)) == crc and crc32c.mask(crc) != crc
        assert spec.unmask(crc32c.mask(crc)) == crc


# -- protobuf wire format --------------------------------------------------------------------------

def test_wire_round_trip_and_values():
    msg = wire.encode([(1, 150), (2, b"hi"), (6, wire.Fixed32(0xDEADBEEF)), (4, -1 & (2 ** 64 - 1))])
    assert msg[:3] == b"\x08\x96\x01"
    fields = wire.decode(msg)
    assert fields == {1: [150], 2: [b"hi"], 6: [0xDEADBEEF], 4: [2 ** 64 - 1]}
    assert wire.signed64(fields[4][0]) == -1
    assert wire.put_varint(-2) == b"\xfe" + b"\xff" * 8 + b"\x01"


@pytest.mark.parametrize("bad", [b"\x08", b"\x12\x05ab", b"\x0d\x01", b"\x0b", b"\x00\x01", b"\x08" + b"\xff" * 11])
def test_wire_malformed_messages_raise(bad):
    with pytest.raises(wire.WireError):
        wire.decode(bad)


# -- tables ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("count", [0, 1, 17, 2000])
def test_table_round_trip_through_the_independent_reader(count, monkeypatch):
    monkeypatch.setattr("s2sgrad.checkpoint.table.BLOCK_SIZE", 4096)   # many blocks
    entries = [(f"key{i:05d}/{'x' * (i % 7)}".encode(), os.urandom(i % 50)) for i in range(count)]
    data = build_table(entries)
    assert list(read_table(data)) == entries
    if count:
        assert spec.table(data) == entries


def test_table_refuses_unsorted_keys():
    with pytest.raises(ValueError, match="sorted"):
        build_table([(b"b", b""), (b"a", b"")])


def test_table_damage_is_reported():
    data = build_table([(b"a", b"1"), (b"b", b"2")])
    for bad, message in [(data[:-1], "magic"), (data[:10], "too short"),
                         (bytes([data[0] ^ 1]) + data[1:], "checksum")]:
        with pytest.raises(TableError, match=message):
            list(read_table(bad))


# -- bundles: TensorFlow's files -------------------------------------------------------------------

@pytest.mark.parametrize("name", TF_CHECKPOINTS)
def test_tensorflow_checkpoints_read_with_tensorflows_values(name):
    reader = BundleReader(os.path.join(DATA, name))
    independent = spec.read(os.path.join(DATA, name))
    expected = tf_values(name)
    assert sorted(reader.entries) == sorted(expected) == sorted(independent)
    for key, want in expected.items():
        got = reader.read(key)
        assert got.tolist() == independent[key].tolist(), key
        got = got.astype(bytes) if got.dtype == object else got
        assert got.dtype == np.asarray(want).dtype and got.shape == np.shape(want), key
        assert np.array_equal(got, want), key


@pytest.mark.parametrize("name", TF_CHECKPOINTS)
def test_s2sgrad_rewrites_tensorflows_checkpoints_byte_for_byte(name, tmp_path):
    reader = BundleReader(os.path.join(DATA, name))
    prefix = str(tmp_path / "copy")
    write_bundle(prefix, {key: (e.dtype, reader.read(key)) for key, e in reader.entries.items()})
    for suffix in [".index", ".data-00000-of-00001"]:
        with open(prefix + suffix, "rb") as ours, open(os.path.join(DATA, name + suffix), "rb") as tfs:
            assert ours.read() == tfs.read(), suffix


def test_many_names_make_a_multi_block_index():
    with open(os.path.join(DATA, "many.ckpt-1.index"), "rb") as f:
        data = f.read()
    footer = data[-48:]
    _, i = spec.varint(footer, 0)
    _, i = spec.varint(footer, i)
    offset, i = spec.varint(footer, i)
    size, _ = spec.varint(footer, i)
    assert len(spec.block(data, offset, size)) >= 2


# -- bundles: s2sgrad's files through the independent reader ----------------------------------------

def every_dtype_values() -> dict[str, tuple[dt.DType, np.ndarray]]:
    rng = np.random.default_rng(5)
    out = {}
    kinds = ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
             "uint64", "complex64", "complex128", "bool"]
    for kind in kinds:
        for rank in range(5):
            value = rng.standard_normal([2, 3, 1, 4][:rank]) * 1000
            if kind.startswith("complex"):
                value = value + 1j * rng.standard_normal(np.shape(value))
            value = value > 0 if kind == "bool" else value.astype(kind)
            out[f"{kind}/rank{rank}"] = (dt.as_dtype(kind), value)
    out["float32/empty"] = (dt.float32, np.zeros([0, 5], np.float32))
    strings = np.empty([2, 2], object)
    strings[:] = [[b"", b"\x00\xff"], ["caf\u00e9".encode(), b"z" * 300]]
    out["string/rank2"] = (dt.string, strings)
    out["string/rank0"] = (dt.string, np.array(b"scalar", dtype=object))
    out["extremes"] = (dt.float64, np.array([np.inf, -np.inf, np.nan, -0.0, 5e-324]))
    return out


def test_s2sgrad_bundles_read_by_the_independent_reader(tmp_path):
    values = every_dtype_values()
    prefix = str(tmp_path / "all")
    write_bundle(prefix, values)
    parsed = spec.read(prefix)
    assert sorted(parsed) == sorted(values)
    for key, (dtype, want) in values.items():
        got = parsed[key]
        assert got.shape == want.shape, key
        if dtype is dt.string:
            assert got.tolist() == want.tolist(), key
        else:
            assert got.dtype.newbyteorder("=") == want.dtype and got.tobytes() == want.tobytes(), key
    ours = BundleReader(prefix)
    for key, (_, want) in values.items():
        assert ours.read(key).tolist() == want.tolist() or np.array_equal(ours.read(key), want, equal_nan=True)


def test_missing_index_and_missing_key_are_not_found(tmp_path):
    with pytest.raises(errors.NotFoundError, match="Failed to find any matching files for .*nothing"):
        BundleReader(str(tmp_path / "nothing"))
    write_bundle(str(tmp_path / "one"), {"a": (dt.float32, np.ones(2, np.float32))})
    with pytest.raises(errors.NotFoundError, match="Key b not found in checkpoint"):
        BundleReader(str(tmp_path / "one")).read("b")


def test_a_partitioned_variable_entry_is_refused_by_name(tmp_path):
    entry = wire.encode([(1, 1), (2, wire.encode([(2, wire.encode([(1, 4)]))])), (7, b"")])
    header = wire.encode([(1, 1), (3, wire.encode([(1, 1)]))])
    with open(tmp_path / "p.index", "wb") as f:
        f.write(build_table([(b"", header), (b"part", entry)]))
    with pytest.raises(errors.UnimplementedError, match="part .*partitioned"):
        BundleReader(str(tmp_path / "p")).read("part")
