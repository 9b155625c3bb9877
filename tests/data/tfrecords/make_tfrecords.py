"""Writes this directory's TFRecord files with TensorFlow (run once, outside CI):

    /tmp/tfvenv/bin/python tests/data/tfrecords/make_tfrecords.py

Record i (i = 0..4) is an Example with features
  "id":     int64_list [i]
  "floats": float_list [i + 0.5, -i, i / 3]              (3 values, float32)
  "ints":   int64_list [i * 1000 - 2, ..., i values]    (i values: VarLen, record 0 has none)
  "name":   bytes_list [b"record-<i>"]
  "big":    int64_list [2**40 + i, -(2**62)]
examples.json holds each record's TensorFlow serialization (SerializeToString(deterministic=True), hex).
"""
import json
import os

import tensorflow as tf
from tf_reads_ours import build  # the same records, built by either library

HERE = os.path.dirname(os.path.abspath(__file__))

records = [build(tf, i) for i in range(5)]
for name, options in (("plain.tfrecord", None), ("gzip.tfrecord", "GZIP"), ("zlib.tfrecord", "ZLIB")):
    with tf.io.TFRecordWriter(os.path.join(HERE, name), options=options) as writer:
        for r in records:
            writer.write(r.SerializeToString())
with open(os.path.join(HERE, "examples.json"), "w") as f:
    json.dump([r.SerializeToString(deterministic=True).hex() for r in records], f, indent=1)
    f.write("\n")
