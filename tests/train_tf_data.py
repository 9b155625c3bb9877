"""TensorFlow's numbers for the tf.train / tf.losses / tf.metrics tests, recorded by
tests/data/train_tf/record.py (see tests/data/train_tf/README.md)."""
from __future__ import annotations

import json
import os

import numpy as np

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "train_tf")


def load(name: str) -> dict:
    with open(os.path.join(DATA, name + ".json"), encoding="utf-8") as f:
        return json.load(f)


def assert_close(got, want, rtol=2e-6, atol=1e-7) -> None:
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64), rtol=rtol, atol=atol)
