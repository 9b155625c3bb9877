"""End to end: an LSTM reads scikit-learn's 8x8 digits row by row and learns to classify them.

The loss curve is TensorFlow's for the same program and starting weights (tests/data/rnn/), so
the curve is fixed and s2sgrad must follow it step by step.
"""
import pathlib

import numpy as np

import rnn_programs as rp
import s2sgrad as tf

RECORDED = np.load(pathlib.Path(__file__).parent / "data" / "rnn" / "tf_rnn.npz")


def test_lstm_digits_classifier_follows_tensorflows_loss_curve(fresh_graph):
    curve, accuracy = rp.digits_classifier(tf)
    expected = RECORDED["digits/curve"]
    assert len(curve) == rp.DIGITS_STEPS // rp.DIGITS_EVERY + 1
    np.testing.assert_allclose(curve, expected, rtol=5e-4)
    assert all(later < earlier for earlier, later in zip(curve, curve[1:], strict=False))
    assert curve[-1] < 0.1 * curve[0]
    assert abs(accuracy - float(RECORDED["digits/accuracy"])) <= 2 / (1797 - rp.DIGITS_TRAIN)
    assert accuracy > 0.75
