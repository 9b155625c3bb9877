"""TFRecord files and tf.train.Example: TensorFlow's files read back, s2sgrad's files checked by an
independent reader written here from the format's description, Example bytes equal TensorFlow's
deterministic serialization, parse_example's values, corruption reported as DataLossError."""
import gzip
import json
import os
import shutil
import struct
import zlib

import numpy as np
import pytest

import s2sgrad as tf
from conftest import DATA
from test_data_pipeline import elements as read

HERE = os.path.join(DATA, "tfrecords")
FILES = {"plain.tfrecord": None, "gzip.tfrecord": "GZIP", "zlib.tfrecord": "ZLIB"}


def expected(i):
    """Record i as tests/data/tfrecords/make_tfrecords.py describes it."""
    return {"id": [i], "floats": np.float32([i + 0.5, -i, i / 3]).tolist(),
            "ints": [i * 1000 - 2 + k for k in range(i)], "name": [b"record-%d" % i],
            "big": [2 ** 40 + i, -(2 ** 62)]}


def build(i):
    e = expected(i)
    feature = {"id": tf.train.Feature(int64_list=tf.train.Int64List(value=e["id"])),
               "floats": tf.train.Feature(float_list=tf.train.FloatList(value=[i + 0.5, -i, i / 3])),
               "ints": tf.train.Feature(int64_list=tf.train.Int64List(value=e["ints"])),
               "name": tf.train.Feature(bytes_list=tf.train.BytesList(value=e["name"])),
               "big": tf.train.Feature(int64_list=tf.train.Int64List(value=e["big"]))}
    return tf.train.Example(features=tf.train.Features(feature=feature))


def values_of(example):
    out = {}
    for key, feature in example.features.feature.items():
        kind = feature.WhichOneof("kind")
        out[key] = list(getattr(feature, kind).value)
    return out


# -- an independent reader, from the format's description ---------------------------------------

def _crc32c_bitwise(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def _masked(data):
    crc = _crc32c_bitwise(data)
    return ((crc >> 15 | crc << 17) + 0xA282EAD8) & 0xFFFFFFFF


def independent_records(raw):
    out, pos = [], 0
    while pos < len(raw):
        length, length_crc = struct.unpack_from("<QI", raw, pos)
        assert length_crc == _masked(raw[pos:pos + 8])
        data = raw[pos + 12:pos + 12 + length]
        (data_crc,) = struct.unpack_from("<I", raw, pos + 12 + length)
        assert data_crc == _masked(data)
        out.append(data)
        pos += 16 + length
    return out


# -- files TensorFlow wrote ------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(FILES))
def test_tensorflow_files_read_with_the_same_values(name):
    records = list(tf.python_io.tf_record_iterator(os.path.join(HERE, name), options=FILES[name]))
    assert len(records) == 5
    for i, record in enumerate(records):
        assert values_of(tf.train.Example.FromString(record)) == expected(i)


def test_example_bytes_equal_tensorflows_deterministic_serialization():
    with open(os.path.join(HERE, "examples.json")) as f:
        tf_bytes = [bytes.fromhex(h) for h in json.load(f)]
    for i, b in enumerate(tf_bytes):
        assert build(i).SerializeToString() == b
        assert tf.train.Example.FromString(b) == build(i)


@pytest.mark.parametrize("name", sorted(FILES))
def test_tfrecord_dataset_parses_tensorflows_files(name):
    ds = tf.data.TFRecordDataset(os.path.join(HERE, name), compression_type=FILES[name] or "")
    spec = {"id": tf.io.FixedLenFeature([], tf.int64), "floats": tf.io.FixedLenFeature([3], tf.float32),
            "ints": tf.io.VarLenFeature(tf.int64), "name": tf.io.FixedLenFeature([], tf.string),
            "big": tf.io.FixedLenFeature([2], tf.int64), "missing": tf.io.FixedLenFeature([2], tf.float32, [7, 8])}
    nxt = ds.map(lambda r: tf.io.parse_single_example(r, spec)).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        for i in range(5):
            got = sess.run(nxt)
            e = expected(i)
            assert got["id"] == i and got["id"].dtype == np.int64
            np.testing.assert_array_equal(got["floats"], np.float32(e["floats"]))
            assert got["floats"].dtype == np.float32
            assert got["name"] == e["name"][0]
            assert got["big"].tolist() == e["big"]
            assert got["missing"].tolist() == [7.0, 8.0]
            assert got["ints"].values.tolist() == e["ints"]
            assert got["ints"].indices.tolist() == [[k] for k in range(i)]
            assert got["ints"].dense_shape.tolist() == [i]
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(nxt)


def test_parse_example_of_a_batch():
    serialized = tf.placeholder(tf.string, [None])
    parsed = tf.io.parse_example(serialized, {"ints": tf.io.VarLenFeature(tf.int64),
                                              "floats": tf.io.FixedLenFeature([3], tf.float32)})
    assert parsed["floats"].shape.as_list() == [None, 3]
    records = [build(i).SerializeToString() for i in range(4)]
    with tf.Session() as sess:
        got = sess.run(parsed, {serialized: records})
    np.testing.assert_array_equal(got["floats"], np.float32([expected(i)["floats"] for i in range(4)]))
    rows = [(i, k) for i in range(4) for k in range(i)]
    assert got["ints"].indices.tolist() == [list(r) for r in rows]
    assert got["ints"].values.tolist() == [v for i in range(4) for v in expected(i)["ints"]]
    assert got["ints"].dense_shape.tolist() == [4, 3]


def test_parse_errors_name_the_feature():
    record = build(2).SerializeToString()
    cases = [({"nope": tf.io.FixedLenFeature([], tf.int64)}, "nope.*required"),
             ({"floats": tf.io.FixedLenFeature([2], tf.float32)}, "floats.*Values size: 3"),
             ({"floats": tf.io.FixedLenFeature([3], tf.int64)}, "floats.*Data types don't match")]
    with tf.Session() as sess:
        for spec, message in cases:
            with pytest.raises(tf.errors.InvalidArgumentError, match=message):
                sess.run(tf.io.parse_single_example(tf.constant(record), spec))
        with pytest.raises(tf.errors.InvalidArgumentError, match="Can't parse"):
            sess.run(tf.io.parse_single_example(tf.constant(b"\x0a\xff"), {"a": tf.io.VarLenFeature(tf.int64)}))
    with pytest.raises(ValueError, match="dtype"):
        tf.io.parse_single_example(tf.constant(record), {"a": tf.io.FixedLenFeature([], tf.int32)})
    with pytest.raises(ValueError, match="allow_missing"):
        tf.io.parse_single_example(tf.constant(record), {"a": tf.io.FixedLenSequenceFeature([], tf.int64)})


def test_fixed_len_sequence_features_pad_to_the_longest():
    serialized = tf.placeholder(tf.string, [None])
    spec = {"ints": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True, default_value=-1),
            "floats": tf.io.FixedLenSequenceFeature([3], tf.float32, allow_missing=True)}
    parsed = tf.io.parse_example(serialized, spec)
    assert parsed["ints"].shape.as_list() == [None, None] and parsed["floats"].shape.as_list() == [None, None, 3]
    one = tf.io.parse_single_example(serialized[2], spec)
    with tf.Session() as sess:
        got = sess.run(parsed, {serialized: [build(i).SerializeToString() for i in range(4)]})
        single = sess.run(one, {serialized: [build(i).SerializeToString() for i in range(4)]})
    assert got["ints"].tolist() == [[-1, -1, -1], [998, -1, -1], [1998, 1999, -1], [2998, 2999, 3000]]
    np.testing.assert_array_equal(got["floats"][:, 0], np.float32([expected(i)["floats"] for i in range(4)]))
    assert got["floats"].shape == (4, 1, 3)
    assert single["ints"].tolist() == [1998, 1999]
    bad = tf.io.parse_single_example(tf.constant(build(2).SerializeToString()),
                                     {"ints": tf.io.FixedLenSequenceFeature([3], tf.int64, allow_missing=True)})
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match="not a multiple"):
        sess.run(bad)


def test_parse_shows_in_the_generated_source():
    s = tf.placeholder(tf.string, [])
    out = tf.parse_single_example(s, {"id": tf.FixedLenFeature([], tf.int64)})["id"]
    with tf.Session() as sess:
        assert "rt.parse_example(" in sess.source(out, {s: build(0).SerializeToString()})


# -- files s2sgrad writes ---------------------------------------------------------------------------

@pytest.mark.parametrize("compression", [None, "GZIP", "ZLIB"])
def test_written_files_read_by_an_independent_reader(tmp_path, compression):
    path = str(tmp_path / "out.tfrecord")
    records = [build(i).SerializeToString() for i in range(5)] + [b"", b"x" * 1000]
    with tf.io.TFRecordWriter(path, options=tf.io.TFRecordOptions(compression)) as writer:
        for r in records:
            writer.write(r)
    with open(path, "rb") as f:
        raw = f.read()
    if compression == "GZIP":
        raw = gzip.decompress(raw)
    elif compression == "ZLIB":
        raw = zlib.decompress(raw)
    assert independent_records(raw) == records
    assert list(tf.python_io.tf_record_iterator(path, compression)) == records


def test_tfrecord_dataset_of_several_files_and_a_filename_placeholder(tmp_path):
    paths = []
    for n in range(2):
        paths.append(str(tmp_path / f"f{n}.tfrecord"))
        with tf.python_io.TFRecordWriter(paths[-1]) as w:
            for k in range(3):
                w.write(b"%d-%d" % (n, k))
    names = tf.placeholder(tf.string, [None])
    it = tf.data.TFRecordDataset(names).make_initializable_iterator()
    nxt = it.get_next()
    with tf.Session() as sess:
        sess.run(it.initializer, {names: paths})
        got = []
        while True:
            try:
                got.append(sess.run(nxt))
            except tf.errors.OutOfRangeError:
                break
    assert got == [b"0-0", b"0-1", b"0-2", b"1-0", b"1-1", b"1-2"]



@pytest.mark.parametrize("offset", [0, 5, 9, 13, 20, -1])
def test_a_flipped_byte_is_data_loss_naming_the_file(tmp_path, offset):
    path = str(tmp_path / "bad.tfrecord")
    shutil.copy(os.path.join(HERE, "plain.tfrecord"), path)
    with open(path, "r+b") as f:
        raw = bytearray(f.read())
        raw[offset] ^= 0x40
        f.seek(0)
        f.write(raw)
    with pytest.raises(tf.errors.DataLossError, match="bad.tfrecord"):
        list(tf.python_io.tf_record_iterator(path))
    nxt = tf.data.TFRecordDataset(path).make_one_shot_iterator().get_next()
    with tf.Session() as sess, pytest.raises(tf.errors.DataLossError, match="bad.tfrecord"):
        for _ in range(6):
            sess.run(nxt)


@pytest.mark.parametrize("name", sorted(FILES))
def test_a_truncated_file_is_data_loss(tmp_path, name):
    path = str(tmp_path / name)
    with open(os.path.join(HERE, name), "rb") as f:
        raw = f.read()
    with open(path, "wb") as f:
        f.write(raw[:-7])
    with pytest.raises(tf.errors.DataLossError, match=name):
        list(tf.python_io.tf_record_iterator(path, FILES[name]))


def test_missing_file_is_not_found(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="nothing.tfrecord"):
        list(tf.python_io.tf_record_iterator(str(tmp_path / "nothing.tfrecord")))


def test_example_messages_behave_like_protobufs():
    ex = tf.train.Example()
    assert ex.SerializeToString() == b""
    ex.features.feature["z"].int64_list.value.append(3)
    ex.features.feature["a"].float_list.value.extend([0.1])
    again = tf.train.Example.FromString(ex.SerializeToString())
    assert again == ex and again.features.feature["a"].float_list.value == [float(np.float32(0.1))]
    assert again.features.feature["z"].HasField("int64_list")
    assert not again.features.feature["z"].HasField("float_list")
    with pytest.raises(TypeError):
        tf.train.Int64List(value=[1.5])
    with pytest.raises(ValueError, match="one of"):
        tf.train.Feature(int64_list=tf.train.Int64List(), float_list=tf.train.FloatList())
    with pytest.raises(tf.errors.DataLossError):
        tf.train.Example.FromString(b"\x0a\x05\x01")
    seq = tf.train.SequenceExample(feature_lists=tf.train.FeatureLists(feature_list={
        "t": tf.train.FeatureList(feature=[tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 2]))])}))
    assert tf.train.SequenceExample.FromString(seq.SerializeToString()) == seq


def test_wire_crc_matches_the_independent_bitwise_crc():
    from s2sgrad import wire
    rng = np.random.default_rng(0)
    for n in (0, 1, 7, 100):
        data = rng.integers(0, 256, n, dtype=np.uint8).tobytes()
        assert wire.crc32c(data) == _crc32c_bitwise(data)
        assert wire.masked_crc32c(data) == _masked(data)
        assert wire.unmask_crc32c(wire.masked_crc32c(data)) == wire.crc32c(data)
    assert wire.crc32c(b"123456789") == 0xE3069283   # the standard check value


def test_text_line_and_fixed_length_record_datasets(tmp_path):
    text = tmp_path / "lines.txt"
    text.write_bytes(b"first\nsecond\r\n\nlast")
    fixed = tmp_path / "fixed.bin"
    fixed.write_bytes(b"HD" + b"aaabbbccc" + b"F")

    assert read(tf.data.TextLineDataset(str(text))) == [b"first", b"second", b"", b"last"]
    assert read(tf.data.FixedLengthRecordDataset(str(fixed), 3, header_bytes=2, footer_bytes=1)) == \
        [b"aaa", b"bbb", b"ccc"]
    with pytest.raises(tf.errors.DataLossError, match="multiple of record_bytes"):
        read(tf.data.FixedLengthRecordDataset(str(fixed), 4, header_bytes=2, footer_bytes=1))
