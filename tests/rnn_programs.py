"""RNN programs written once against the TF-1.x API, run by s2sgrad's tests and by TensorFlow.

``tests/data/rnn/record_tf.py`` runs each program in TensorFlow and stores its variable names, outputs
and gradients in ``tests/data/rnn/tf_rnn.npz``; tests/test_rnn_tf_values.py runs the same program in
s2sgrad and compares. Each program takes ``(tf, x, lengths)`` (``x`` a ``[batch, time, depth]``
placeholder, ``lengths`` an int32 ``[batch]`` placeholder) and returns a nested structure of tensors.
Weights come from ``weight(name, shape)``: a function of the variable's name only, so both sides set
the same values without sharing a random generator.
"""
from __future__ import annotations

import zlib

import numpy as np

BATCH, TIME, DEPTH = 3, 5, 4
LENGTHS = np.array([5, 2, 0], np.int32)


def inputs(dtype=np.float32) -> np.ndarray:
    return np.random.RandomState(7).uniform(-1, 1, (BATCH, TIME, DEPTH)).astype(dtype)


def weight(name: str, shape, dtype=np.float32) -> np.ndarray:
    """The value every test gives the variable ``name`` (``rnn/basic_lstm_cell/kernel:0``)."""
    rng = np.random.RandomState(zlib.crc32(name.split(":")[0].encode()))
    return rng.uniform(-0.6, 0.6, tuple(shape)).astype(dtype)


def cotangent(index: int, shape, dtype=np.float32) -> np.ndarray:
    """The weights of output leaf ``index`` in the scalar loss whose gradients are compared."""
    return np.random.RandomState(100 + index).uniform(-1, 1, tuple(shape)).astype(dtype)


def _steps(tf, x):
    return tf.unstack(x, axis=1)


def basic_rnn_static(tf, x, lengths):
    return tf.nn.static_rnn(tf.nn.rnn_cell.BasicRNNCell(5), _steps(tf, x), dtype=x.dtype)


def basic_rnn_relu_static(tf, x, lengths):
    return tf.nn.static_rnn(tf.nn.rnn_cell.BasicRNNCell(5, activation=tf.nn.relu), _steps(tf, x), dtype=x.dtype)


def basic_lstm_static(tf, x, lengths):
    return tf.nn.static_rnn(tf.nn.rnn_cell.BasicLSTMCell(5, forget_bias=0.5), _steps(tf, x), dtype=x.dtype)


def basic_lstm_concat_state_lengths(tf, x, lengths):
    cell = tf.nn.rnn_cell.BasicLSTMCell(5, state_is_tuple=False)
    return tf.nn.static_rnn(cell, _steps(tf, x), dtype=x.dtype, sequence_length=lengths)


def lstm_peepholes_projection(tf, x, lengths):
    cell = tf.nn.rnn_cell.LSTMCell(5, use_peepholes=True, num_proj=3, cell_clip=0.6, proj_clip=0.4, forget_bias=0.7)
    return tf.nn.static_rnn(cell, _steps(tf, x), dtype=x.dtype)


def lstm_dynamic_lengths(tf, x, lengths):
    return tf.nn.dynamic_rnn(tf.nn.rnn_cell.LSTMCell(5), x, sequence_length=lengths, dtype=x.dtype)


def lstm_concat_state_dynamic(tf, x, lengths):
    cell = tf.nn.rnn_cell.LSTMCell(4, num_proj=2, use_peepholes=True, state_is_tuple=False)
    return tf.nn.dynamic_rnn(cell, x, dtype=x.dtype, scope="encoder")


def gru_static_lengths(tf, x, lengths):
    return tf.nn.static_rnn(tf.nn.rnn_cell.GRUCell(5), _steps(tf, x), dtype=x.dtype, sequence_length=lengths)


def gru_dynamic_all_shorter(tf, x, lengths):
    """Every sequence ends before the last step (TF stops its loop at the longest)."""
    return tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(3), x, sequence_length=tf.minimum(lengths, 3), dtype=x.dtype)


def gru_time_major_initial_state(tf, x, lengths):
    cell = tf.nn.rnn_cell.GRUCell(3)
    start = cell.zero_state(BATCH, x.dtype) + 0.3
    return tf.nn.dynamic_rnn(cell, tf.transpose(x, [1, 0, 2]), initial_state=start, time_major=True)


def multi_dynamic_lengths(tf, x, lengths):
    cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicLSTMCell(5), tf.nn.rnn_cell.GRUCell(4)])
    return tf.nn.dynamic_rnn(cell, x, sequence_length=lengths, dtype=x.dtype)


def multi_concat_state_static(tf, x, lengths):
    cells = [tf.nn.rnn_cell.BasicRNNCell(3), tf.nn.rnn_cell.BasicRNNCell(4)]
    return tf.nn.static_rnn(tf.nn.rnn_cell.MultiRNNCell(cells, state_is_tuple=False), _steps(tf, x), dtype=x.dtype)


def residual_and_dropout_static(tf, x, lengths):
    rc = tf.nn.rnn_cell
    cells = [rc.ResidualWrapper(rc.BasicRNNCell(DEPTH)), rc.DropoutWrapper(rc.GRUCell(3), output_keep_prob=1.0)]
    return tf.nn.static_rnn(rc.MultiRNNCell(cells), _steps(tf, x), dtype=x.dtype)


def bidirectional_static_lengths(tf, x, lengths):
    rc = tf.nn.rnn_cell
    return tf.nn.static_bidirectional_rnn(rc.BasicLSTMCell(4), rc.GRUCell(3), _steps(tf, x), dtype=x.dtype,
                                          sequence_length=lengths)


def bidirectional_dynamic_lengths(tf, x, lengths):
    rc = tf.nn.rnn_cell
    return tf.nn.bidirectional_dynamic_rnn(rc.LSTMCell(4, use_peepholes=True), rc.BasicRNNCell(3), x,
                                           sequence_length=lengths, dtype=x.dtype)


def bidirectional_dynamic_time_major(tf, x, lengths):
    rc = tf.nn.rnn_cell
    return tf.nn.bidirectional_dynamic_rnn(rc.GRUCell(3), rc.GRUCell(2), tf.transpose(x, [1, 0, 2]),
                                           dtype=x.dtype, time_major=True, scope="birnn")


def cell_called_directly(tf, x, lengths):
    cell = tf.nn.rnn_cell.BasicLSTMCell(3, name="my_lstm")
    state = cell.zero_state(BATCH, x.dtype)
    out = []
    with tf.variable_scope("decoder"):
        for step in _steps(tf, x)[:3]:
            output, state = cell(step, state)
            out.append(output)
    return out, state


PROGRAMS = {f.__name__: f for f in [
    basic_rnn_static, basic_rnn_relu_static, basic_lstm_static, basic_lstm_concat_state_lengths,
    lstm_peepholes_projection, lstm_dynamic_lengths, lstm_concat_state_dynamic, gru_static_lengths,
    gru_dynamic_all_shorter, gru_time_major_initial_state, multi_dynamic_lengths, multi_concat_state_static,
    residual_and_dropout_static, bidirectional_static_lengths, bidirectional_dynamic_lengths,
    bidirectional_dynamic_time_major, cell_called_directly]}


def flat(structure) -> list:
    """The tensors of a nested result, depth first (tuples, lists, namedtuples)."""
    if isinstance(structure, (tuple, list)):
        return [leaf for item in structure for leaf in flat(item)]
    return [structure]


def build(tf, name: str, dtype=None):
    """Record program ``name``; returns (x, lengths, output leaves, loss, variables)."""
    dtype = dtype or tf.float32
    x = tf.placeholder(dtype, [BATCH, TIME, DEPTH], name="x")
    lengths = tf.placeholder(tf.int32, [BATCH], name="lengths")
    leaves = flat(PROGRAMS[name](tf, x, lengths))
    np_dtype = np.float64 if dtype == tf.float64 else np.float32
    loss = tf.add_n([tf.reduce_sum(leaf * cotangent(i, leaf.shape.as_list(), np_dtype))
                     for i, leaf in enumerate(leaves)])
    return x, lengths, leaves, loss, tf.trainable_variables()


def set_weights(tf, sess, variables, dtype=np.float32) -> None:
    for v in variables:
        v.load(weight(v.name, v.shape.as_list(), dtype), sess)


# -- an LSTM classifier on scikit-learn's digits: each 8x8 image read row by row ---------------------

DIGITS_TRAIN, DIGITS_STEPS, DIGITS_EVERY = 600, 40, 5


def digits_data():
    from sklearn.datasets import load_digits
    digits = load_digits()
    images = (digits.images / 16.0).astype(np.float32)  # [n, 8 rows, 8 columns]
    return images[:DIGITS_TRAIN], digits.target[:DIGITS_TRAIN], images[DIGITS_TRAIN:], digits.target[DIGITS_TRAIN:]


def digits_classifier(tf):
    """Train for DIGITS_STEPS Adam steps; returns (the loss every DIGITS_EVERY steps, held-out accuracy)."""
    train_x, train_y, test_x, test_y = digits_data()
    images = tf.placeholder(tf.float32, [None, 8, 8], name="images")
    labels = tf.placeholder(tf.int64, [None], name="labels")
    cell = tf.nn.rnn_cell.LSTMCell(32)
    _, state = tf.nn.dynamic_rnn(cell, images, dtype=tf.float32)
    with tf.variable_scope("classifier"):
        w = tf.get_variable("w", [32, 10])
        b = tf.get_variable("b", [10], initializer=tf.zeros_initializer())
    logits = tf.matmul(state.h, w) + b
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    train = tf.train.AdamOptimizer(0.02).minimize(loss)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), labels), tf.float32))
    curve = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        set_weights(tf, sess, tf.trainable_variables())
        for step in range(DIGITS_STEPS):
            _, value = sess.run([train, loss], {images: train_x, labels: train_y})
            if step % DIGITS_EVERY == 0:
                curve.append(float(value))
        curve.append(float(sess.run(loss, {images: train_x, labels: train_y})))
        held_out = float(sess.run(accuracy, {images: test_x, labels: test_y}))
    return curve, held_out
