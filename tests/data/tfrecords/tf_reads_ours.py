"""One-off check that TensorFlow reads s2sgrad's TFRecord files and Examples (outside CI):

    python tests/data/tfrecords/tf_reads_ours.py write /tmp/ours          # s2sgrad writes
    /tmp/tfvenv/bin/python tests/data/tfrecords/tf_reads_ours.py read /tmp/ours   # TensorFlow reads, checks

The records are make_tfrecords.py's, built with s2sgrad's tf.train.Example; "read" parses every file
(plain, GZIP, ZLIB) with tf.data.TFRecordDataset + tf.io.parse_single_example and checks the values
and that each record's bytes equal TensorFlow's deterministic serialization of the parsed Example.
"""
import os
import sys

COMPRESSIONS = {"plain.tfrecord": None, "gzip.tfrecord": "GZIP", "zlib.tfrecord": "ZLIB"}


def build(tf, i):
    feature = {
        "id": tf.train.Feature(int64_list=tf.train.Int64List(value=[i])),
        "floats": tf.train.Feature(float_list=tf.train.FloatList(value=[i + 0.5, -i, i / 3])),
        "ints": tf.train.Feature(int64_list=tf.train.Int64List(value=[i * 1000 - 2 + k for k in range(i)])),
        "name": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"record-%d" % i])),
        "big": tf.train.Feature(int64_list=tf.train.Int64List(value=[2 ** 40 + i, -(2 ** 62)])),
    }
    return tf.train.Example(features=tf.train.Features(feature=feature))


def write(directory):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
    import s2sgrad as tf
    os.makedirs(directory, exist_ok=True)
    for name, compression in COMPRESSIONS.items():
        with tf.io.TFRecordWriter(os.path.join(directory, name), options=compression) as writer:
            for i in range(5):
                writer.write(build(tf, i).SerializeToString())


def read(directory):
    import numpy as np
    import tensorflow as tf
    for name, compression in COMPRESSIONS.items():
        path = os.path.join(directory, name)
        records = list(tf.data.TFRecordDataset(path, compression_type=compression).as_numpy_iterator())
        assert len(records) == 5, (name, len(records))
        for i, record in enumerate(records):
            assert tf.train.Example.FromString(record).SerializeToString(deterministic=True) == record
            parsed = tf.io.parse_single_example(record, {
                "id": tf.io.FixedLenFeature([], tf.int64), "floats": tf.io.FixedLenFeature([3], tf.float32),
                "ints": tf.io.VarLenFeature(tf.int64), "name": tf.io.FixedLenFeature([], tf.string),
                "big": tf.io.FixedLenFeature([2], tf.int64)})
            assert parsed["id"].numpy() == i
            np.testing.assert_array_equal(parsed["floats"].numpy(), np.float32([i + 0.5, -i, i / 3]))
            np.testing.assert_array_equal(parsed["ints"].values.numpy(), [i * 1000 - 2 + k for k in range(i)])
            assert parsed["name"].numpy() == b"record-%d" % i
            np.testing.assert_array_equal(parsed["big"].numpy(), [2 ** 40 + i, -(2 ** 62)])
        print(name, "ok")


if __name__ == "__main__":
    {"write": write, "read": read}[sys.argv[1]](sys.argv[2])
