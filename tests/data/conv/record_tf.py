"""Record TensorFlow's static shapes and errors for the conv/pool cases of tests/test_conv.py.

Run with the TF venv: /tmp/tfvenv/bin/python tests/data/conv/record_tf.py > tests/data/conv/tf_shapes.json
"""
import json

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

CASES = [
    # (id, function name, input shape, filter shape or ksize, kwargs)
    ("conv2d_same", "conv2d", [2, 7, 8, 3], [3, 3, 3, 4], {"strides": [1, 1, 1, 1], "padding": "SAME"}),
    ("conv2d_same_stride2", "conv2d", [2, 7, 8, 3], [3, 2, 3, 4], {"strides": [1, 2, 3, 1], "padding": "SAME"}),
    ("conv2d_valid_stride2", "conv2d", [2, 7, 8, 3], [3, 2, 3, 4], {"strides": [1, 2, 2, 1], "padding": "VALID"}),
    ("conv2d_valid_dilated", "conv2d", [2, 9, 8, 3], [3, 2, 3, 4],
     {"strides": [1, 1, 1, 1], "padding": "VALID", "dilations": [1, 2, 3, 1]}),
    ("conv2d_explicit", "conv2d", [2, 7, 8, 3], [3, 3, 3, 4],
     {"strides": [1, 2, 1, 1], "padding": [[0, 0], [2, 1], [0, 3], [0, 0]]}),
    ("conv2d_nchw_valid", "conv2d", [2, 3, 7, 8], [3, 3, 3, 4],
     {"strides": [1, 1, 2, 2], "padding": "VALID", "data_format": "NCHW"}),
    ("conv1d_same", "conv1d", [2, 9, 3], [3, 3, 4], {"stride": 2, "padding": "SAME"}),
    ("conv3d_same", "conv3d", [1, 5, 6, 7, 2], [2, 3, 2, 2, 3], {"strides": [1, 2, 1, 3, 1], "padding": "SAME"}),
    ("depthwise_same", "depthwise_conv2d", [2, 7, 8, 3], [3, 3, 3, 2], {"strides": [1, 2, 2, 1], "padding": "SAME"}),
    ("max_pool_same", "max_pool", [2, 7, 8, 3], [1, 3, 3, 1], {"strides": [1, 2, 2, 1], "padding": "SAME"}),
    ("max_pool_valid", "max_pool", [2, 7, 8, 3], [1, 3, 2, 1], {"strides": [1, 2, 3, 1], "padding": "VALID"}),
    ("avg_pool_same", "avg_pool", [2, 7, 8, 3], [1, 2, 3, 1], {"strides": [1, 3, 2, 1], "padding": "SAME"}),
    # errors
    ("conv2d_rank3_input", "conv2d", [7, 8, 3], [3, 3, 3, 4], {"strides": [1, 1, 1, 1], "padding": "SAME"}),
    ("conv2d_depth_mismatch", "conv2d", [2, 7, 8, 3], [3, 3, 5, 4], {"strides": [1, 1, 1, 1], "padding": "SAME"}),
    ("conv2d_bad_padding", "conv2d", [2, 7, 8, 3], [3, 3, 3, 4], {"strides": [1, 1, 1, 1], "padding": "FULL"}),
    ("conv2d_bad_strides", "conv2d", [2, 7, 8, 3], [3, 3, 3, 4], {"strides": [1, 1, 1], "padding": "SAME"}),
    ("conv2d_batch_stride", "conv2d", [2, 7, 8, 3], [3, 3, 3, 4], {"strides": [2, 1, 1, 1], "padding": "SAME"}),
    ("conv2d_filter_too_big", "conv2d", [2, 2, 8, 3], [3, 3, 3, 4], {"strides": [1, 1, 1, 1], "padding": "VALID"}),
    ("max_pool_bad_ksize", "max_pool", [2, 7, 8, 3], [1, 3, 3], {"strides": [1, 2, 2, 1], "padding": "SAME"}),
]


def main():
    out = {}
    for case_id, fname, in_shape, second, kwargs in CASES:
        graph = tf.Graph()
        with graph.as_default():
            x = tf.placeholder(tf.float32, in_shape)
            fn = getattr(tf.nn, fname)
            try:
                if "pool" in fname:
                    y = fn(x, second, **kwargs)
                else:
                    y = fn(x, tf.constant(np.zeros(second, np.float32)), **kwargs)
                out[case_id] = {"shape": y.shape.as_list(), "op": y.op.type, "name": y.op.name}
            except Exception as e:
                out[case_id] = {"error": type(e).__name__, "message": str(e).splitlines()[0][:300]}
    print(json.dumps(out, indent=1, sort_keys=True))


main()
