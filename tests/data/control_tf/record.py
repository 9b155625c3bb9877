"""Record TensorFlow's values for tests/test_control_second_order.py (run with TF, not part of the suite).

    /tmp/tfvenv/bin/python tests/data/control_tf/record.py   # writes tests/data/control_tf/reference.json
"""
import json
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from programs import INPUTS, PROGRAMS

v1 = tf.compat.v1
v1.disable_eager_execution()


def record(name, program, value):
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float64, [2])
        y = tf.reduce_sum(program(v1, x))
        g = tf.gradients(y, x)[0]
        h = tf.gradients(tf.reduce_sum(g), x)[0]
        hess = tf.hessians(y, x)[0]
        with v1.Session(graph=graph) as s:
            out = s.run([y, g, h, hess], {x: np.array(value)})
    return {"x": value, "y": float(out[0]), "g": out[1].tolist(), "h": out[2].tolist(), "hessian": out[3].tolist()}


cases = {name: [record(name, p, v) for v in INPUTS[name]] for name, p in PROGRAMS.items()}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference.json"), "w") as f:
    json.dump({"tensorflow": tf.__version__, "cases": cases}, f, indent=1)
    f.write("\n")
