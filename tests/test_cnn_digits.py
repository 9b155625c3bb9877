"""End to end: a LeNet-style CNN learns scikit-learn's 8x8 digits, following TensorFlow's own loss
curve for the same program and starting weights (``tests/data/cnn_digits/``), step by step."""
import json
import pathlib

import cnn_digits_program as program
import s2sgrad as tf

RECORDED = json.loads((pathlib.Path(__file__).parent / "data" / "cnn_digits" / "tf_curve.json").read_text())


def test_cnn_digits_classifier_follows_tensorflows_loss_curve(fresh_graph):
    curve, accuracy = program.train(tf)
    expected = RECORDED["curve"]
    assert len(curve) == program.STEPS // program.EVERY + 1 == len(expected)
    for ours, theirs in zip(curve, expected, strict=True):
        assert abs(ours - theirs) <= 2e-3 * theirs + 1e-5
    assert all(later < earlier for earlier, later in zip(curve, curve[1:], strict=False))
    assert curve[-1] < 0.02 * curve[0]
    assert abs(accuracy - RECORDED["accuracy"]) <= 3 / (1797 - program.TRAIN)
    assert accuracy > 0.85
