"""A LeNet-style CNN on scikit-learn's 8x8 digits, written once against the TF-1 API: the test
runs it with ``s2sgrad`` and ``tests/data/cnn_digits/record.py`` ran it with TensorFlow.

conv 3x3x8 SAME + relu + max_pool 2x2, conv 3x3x16 SAME + relu + max_pool 2x2, dense 64 -> 10;
softmax cross-entropy; Adam. The starting weights come from a fixed NumPy generator, so both
libraries start from the same point and the loss curve is TensorFlow's.
"""
from __future__ import annotations

import numpy as np

TRAIN, STEPS, EVERY = 512, 60, 5


def data() -> tuple:
    from sklearn.datasets import load_digits
    digits = load_digits()
    images = (digits.images / 16.0).astype(np.float32)[..., None]  # [n, 8, 8, 1]
    return images[:TRAIN], digits.target[:TRAIN], images[TRAIN:], digits.target[TRAIN:]


def _weights() -> dict:
    rng = np.random.default_rng(5)

    def he(*shape: int) -> np.ndarray:
        fan_in = int(np.prod(shape[:-1]))
        return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)

    return {"conv1/kernel": he(3, 3, 1, 8), "conv1/bias": np.zeros(8, np.float32),
            "conv2/kernel": he(3, 3, 8, 16), "conv2/bias": np.zeros(16, np.float32),
            "dense/kernel": he(64, 10), "dense/bias": np.zeros(10, np.float32)}


def train(tf) -> tuple[list[float], float]:
    """Train for STEPS Adam steps on the first TRAIN digits; returns (the loss every EVERY steps and
    at the end, the held-out accuracy)."""
    train_x, train_y, test_x, test_y = data()
    start = _weights()
    images = tf.placeholder(tf.float32, [None, 8, 8, 1], name="images")
    labels = tf.placeholder(tf.int64, [None], name="labels")
    v = {name: tf.Variable(value, name=name.replace("/", "_")) for name, value in start.items()}
    h = tf.nn.relu(tf.nn.conv2d(images, v["conv1/kernel"], [1, 1, 1, 1], "SAME") + v["conv1/bias"])
    h = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    h = tf.nn.relu(tf.nn.conv2d(h, v["conv2/kernel"], [1, 1, 1, 1], "SAME") + v["conv2/bias"])
    h = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    logits = tf.matmul(tf.reshape(h, [-1, 64]), v["dense/kernel"]) + v["dense/bias"]
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    step = tf.train.AdamOptimizer(0.01).minimize(loss)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), labels), tf.float32))
    curve = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(STEPS):
            _, value = sess.run([step, loss], {images: train_x, labels: train_y})
            if i % EVERY == 0:
                curve.append(float(value))
        curve.append(float(sess.run(loss, {images: train_x, labels: train_y})))
        held_out = float(sess.run(accuracy, {images: test_x, labels: test_y}))
    return curve, held_out
