"""Record TensorFlow's numbers for the tf.train / tf.losses / tf.metrics tests (with a TensorFlow venv,
never in CI): runs the programs of tests/train_programs.py with ``tf.compat.v1`` and writes
optimizers.json, schedules.json, averages.json, losses.json, metrics.json, clipping.json,
pipeline.json and sparse_pipeline.json next to this file (only the named ones when given:
``record.py losses metrics``).

    /tmp/tfvenv/bin/python tests/data/train_tf/record.py
"""
from __future__ import annotations

import json
import os
import sys

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
import train_programs as p  # noqa: E402 - tests/ is put on the path just above

tf1 = tf.compat.v1
tf1.disable_eager_execution()


def optimizers() -> dict:
    return {case: {"expr": expr, "dense": p.optimizer_case(tf1, expr, False),
                   "sparse": p.optimizer_case(tf1, expr, True)}
            for case, expr in p.OPTIMIZERS.items()}


def losses() -> dict:
    inputs = p.loss_inputs()
    return {"inputs": {k: v.tolist() for k, v in inputs.items()},
            "cases": {"|".join(key): p.loss_case(tf1, inputs, *key) for key in p.loss_keys()}}


def metrics() -> dict:
    batches = p.metric_batches()
    return {"batches": [{k: v.tolist() for k, v in b.items()} for b in batches],
            "cases": {case: p.metric_case(tf1, expr, batches) for case, expr in p.METRICS.items()}}


RECORDINGS = {
    "optimizers": optimizers,
    "schedules": lambda: {case: p.schedule_case(tf1, expr) for case, expr in p.SCHEDULES.items()},
    "averages": lambda: dict({case: p.averages_case(tf1, case) for case in p.AVERAGES},
                             tensors=p.tensor_averages(tf1)),
    "losses": losses,
    "metrics": metrics,
    "clipping": lambda: p.clipping(tf1),
    "pipeline": lambda: p.pipeline(tf1),
    "sparse_pipeline": lambda: p.sparse_pipeline(tf1),
}


def main() -> None:
    for name in sys.argv[1:] or RECORDINGS:
        with open(os.path.join(HERE, name + ".json"), "w", encoding="utf-8") as f:
            json.dump(RECORDINGS[name](), f, indent=1, sort_keys=True)
            f.write("\n")
        print("wrote", name)


if __name__ == "__main__":
    main()
