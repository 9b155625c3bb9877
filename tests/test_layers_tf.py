"""tf.layers programs (tests/layers_scenarios.py) give what TensorFlow gives: the same variable and
op names, shapes, collection sizes, and values and gradients from fixed initial weights (recorded
from TensorFlow 2.21 in tests/data/layers_tf/expected.json; see its README)."""
import json
import pathlib

import numpy as np
import pytest

import s2sgrad as tf
from layers_scenarios import SCENARIOS

EXPECTED = json.loads((pathlib.Path(__file__).parent / "data" / "layers_tf" / "expected.json").read_text())


def compare(ours, theirs, where):
    if isinstance(theirs, dict):
        assert sorted(ours) == sorted(theirs), where
        for key in theirs:
            compare(ours[key], theirs[key], f"{where}.{key}")
    elif isinstance(theirs, list) and (not theirs or isinstance(theirs[0], (str, list)) and _strings(theirs)):
        assert ours == theirs, where
    elif isinstance(theirs, list) and _ragged(theirs):
        assert len(ours) == len(theirs), where
        for i, (mine, other) in enumerate(zip(ours, theirs, strict=True)):
            compare(mine, other, f"{where}[{i}]")
    elif isinstance(theirs, (list, float)) and not isinstance(theirs, bool):
        np.testing.assert_allclose(np.asarray(ours, dtype=np.float64), np.asarray(theirs, dtype=np.float64),
                                   rtol=2e-5, atol=2e-5, err_msg=where)
    else:
        assert ours == theirs, where


def _strings(items):
    return all(isinstance(i, str) or isinstance(i, list) and _strings(i) for i in items)


def _ragged(items):
    try:
        np.asarray(items, dtype=np.float64)
        return False
    except ValueError:
        return True


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_matches_tensorflow(name):
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        ours = SCENARIOS[name](tf)
    compare(ours, EXPECTED[name], name)
