"""Every tf.train optimizer for several dense and sparse (IndexedSlices, repeated indices) steps against
the values TensorFlow computed for the same program (tests/train_programs.py, recorded in
tests/data/train_tf/optimizers.json): the variable after each step, slot names and values, the
variables created and the global step."""
import numpy as np
import pytest

import s2sgrad as tf
from train_programs import optimizer_case
from train_tf_data import assert_close, assert_matches, load

RECORDED = load("optimizers")


@pytest.mark.parametrize("kind", ["dense", "sparse"])
@pytest.mark.parametrize("case", sorted(RECORDED))
def test_matches_tensorflow(case, kind):
    assert_matches(optimizer_case(tf, RECORDED[case]["expr"], kind == "sparse"), RECORDED[case][kind],
                   rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("case", sorted(RECORDED))
def test_float64_follows_the_float32_recording(case):
    got = optimizer_case(tf, RECORDED[case]["expr"], False, np.float64)
    assert got["dtype"] == "float64"
    assert_close(got["history"], RECORDED[case]["dense"]["history"], rtol=2e-4, atol=1e-5)


def test_every_optimizer_is_recorded():
    names = {expr.split("(")[0].split(".")[-1] for expr in (c["expr"] for c in RECORDED.values())}
    assert names == {n for n in tf.train.__all__ if n.endswith("Optimizer") and n != "Optimizer"}
