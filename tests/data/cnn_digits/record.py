"""Record TensorFlow's loss curve and held-out accuracy for tests/cnn_digits_program.py.

Run once, outside CI, in a virtual environment with tensorflow-cpu and scikit-learn:
    /tmp/tfvenv/bin/python tests/data/cnn_digits/record.py
It writes tests/data/cnn_digits/tf_curve.json next to this file.
"""
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE.parent.parent))

import tensorflow.compat.v1 as tf  # noqa: E402

import cnn_digits_program as program  # noqa: E402

tf.disable_eager_execution()
curve, accuracy = program.train(tf)
(HERE / "tf_curve.json").write_text(json.dumps({"tensorflow": tf.__version__, "curve": curve,
                                                "accuracy": accuracy}, indent=1) + "\n")
print(curve, accuracy)
