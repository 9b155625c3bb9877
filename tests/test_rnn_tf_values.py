"""Every program of rnn_programs.py against the numbers TensorFlow gave for it (tests/data/rnn/)."""
import json
import pathlib

import numpy as np
import pytest

import rnn_programs as rp
import s2sgrad as tf

RECORDED = np.load(pathlib.Path(__file__).parent / "data" / "rnn" / "tf_rnn.npz")


def _run(name):
    x, lengths, leaves, loss, variables = rp.build(tf, name)
    grads = tf.gradients(loss, variables + [x])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        rp.set_weights(tf, sess, variables)
        outputs, gradients = sess.run([leaves, grads], {x: rp.inputs(), lengths: rp.LENGTHS})
    return variables, outputs, gradients


@pytest.mark.parametrize("name", sorted(rp.PROGRAMS))
def test_variable_names_and_shapes_are_tensorflows(name, fresh_graph):
    variables = rp.build(tf, name)[-1]
    assert [[v.name, v.shape.as_list()] for v in variables] == json.loads(str(RECORDED[f"{name}/variables"]))
    assert tf.global_variables() == variables


@pytest.mark.parametrize("name", sorted(rp.PROGRAMS))
def test_outputs_and_gradients_are_tensorflows(name, fresh_graph):
    variables, outputs, gradients = _run(name)
    expected_outputs = sorted(k for k in RECORDED.files if k.startswith(f"{name}/output"))
    assert len(outputs) == len(expected_outputs)
    for i, got in enumerate(outputs):
        np.testing.assert_allclose(got, RECORDED[f"{name}/output{i}"], rtol=2e-5, atol=2e-6, err_msg=f"output {i}")
    assert len(gradients) == len(variables) + 1
    for i, got in enumerate(gradients):
        np.testing.assert_allclose(got, RECORDED[f"{name}/grad{i}"], rtol=1e-4, atol=1e-5,
                                   err_msg=f"gradient of {(variables + ['x'])[i]}")
