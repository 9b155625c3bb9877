"""Write tests/data/layers_tf/expected.json: what TensorFlow gives for tests/layers_scenarios.py.

Run with TensorFlow 2.21 and tf_keras (tf.compat.v1.layers needs Keras 2), from the repository root:

    TF_USE_LEGACY_KERAS=1 /tmp/tfvenv/bin/python tests/data/layers_tf/record.py
"""
import json
import os
import pathlib
import sys

import tensorflow as tf_root

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests"))
from layers_scenarios import SCENARIOS  # noqa: E402

tf = tf_root.compat.v1
tf.disable_eager_execution()
assert os.environ.get("TF_USE_LEGACY_KERAS") == "1", "tf.compat.v1.layers needs TF_USE_LEGACY_KERAS=1 and tf_keras"

results = {}
for name, scenario in SCENARIOS.items():
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        results[name] = scenario(tf)
results["_recorded_with"] = f"tensorflow {tf_root.__version__}"
out = pathlib.Path(__file__).with_name("expected.json")
out.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", encoding="utf-8")
print("wrote", out)
