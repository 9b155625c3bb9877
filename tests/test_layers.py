"""tf.layers: a small model with fixed weights checked by hand, gradients against finite differences
(float64), reuse and its errors (texts as TensorFlow 2.21's compat.v1 gives them), collections,
batch normalization's updates in a training loop, dropout's statistics."""
import numpy as np
import pytest

import s2sgrad as tf


@pytest.fixture(autouse=True)
def fresh_graph():
    with tf.Graph().as_default() as g:
        yield g


def run(fetches, feed=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed)


def test_two_layer_model_by_hand():
    """x = [1, 2]; hidden = relu(x W1 + b1) with W1 = [[1, -1, 0.5], [0.5, 1, -2]], b1 = [0, 0.5, 1]:
    x W1 = [2, 1, -3.5] -> + b1 = [2, 1.5, -2.5] -> relu = [2, 1.5, 0]; out = hidden . [1, 2, 3] + 0.25
    = 2 + 3 + 0 + 0.25 = 5.25."""
    x = tf.constant([[1.0, 2.0]])
    hidden = tf.layers.dense(x, 3, activation=tf.nn.relu,
                             kernel_initializer=tf.constant_initializer([[1.0, -1.0, 0.5], [0.5, 1.0, -2.0]]),
                             bias_initializer=tf.constant_initializer([0.0, 0.5, 1.0]))
    out = tf.layers.dense(hidden, 1, kernel_initializer=tf.constant_initializer([1.0, 2.0, 3.0]),
                          bias_initializer=tf.constant_initializer(0.25))
    (w1,) = [v for v in tf.trainable_variables() if v.name == "dense/kernel:0"]
    grad_w1 = tf.gradients(out, w1)[0]
    h, y, g = run([hidden, out, grad_w1])
    np.testing.assert_array_equal(h, [[2.0, 1.5, 0.0]])
    assert y[0, 0] == 5.25
    # d out / d W1[i, j] = x[i] * [unit j active] * W2[j]: units 0 and 1 are active
    np.testing.assert_array_equal(g, [[1.0, 2.0, 0.0], [2.0, 4.0, 0.0]])


def numeric_gradient(f, x, eps=1e-6):
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[i] = eps
        grad[i] = (f(x + step) - f(x - step)) / (2 * eps)
    return grad


@pytest.mark.parametrize("build", [
    lambda x: tf.layers.dense(tf.layers.flatten(x), 3, activation=tf.nn.tanh),
    lambda x: tf.layers.conv2d(x, 2, 2, padding="same", activation=tf.nn.sigmoid),
    lambda x: tf.layers.max_pooling2d(tf.layers.conv2d_transpose(x, 2, 2, strides=2), 2, 1),
    lambda x: tf.layers.batch_normalization(tf.layers.separable_conv2d(x, 2, 2), training=True),
], ids=["dense", "conv2d", "conv2d_transpose+pool", "separable+batch_norm"])
def test_layer_gradients_match_finite_differences(build):
    value = np.random.default_rng(0).standard_normal((2, 3, 3, 2))
    x = tf.placeholder(tf.float64, [2, 3, 3, 2])
    y = build(x)
    loss = tf.reduce_sum(tf.sin(y) * tf.cos(y * 0.5 + 1.0))
    params = tf.trainable_variables()
    grads = tf.gradients(loss, [x, *params])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got = sess.run(grads, {x: value})
        np.testing.assert_allclose(got[0], numeric_gradient(lambda v: sess.run(loss, {x: v}), value), rtol=1e-5,
                                   atol=1e-7)
        for param, grad in zip(params, got[1:], strict=True):
            start = sess.run(param)

            def loss_at(p, param=param):
                param.load(p, sess)
                return sess.run(loss, {x: value})
            np.testing.assert_allclose(grad, numeric_gradient(loss_at, start), rtol=1e-5, atol=1e-7)
            param.load(start, sess)


def test_reuse_errors_and_sharing():
    x = tf.placeholder(tf.float32, [None, 4])
    tf.layers.dense(x, 3)
    with pytest.raises(ValueError, match=r"^Variable dense/kernel already exists, disallowed\. Did you mean to set "
                                         r"reuse=True or reuse=tf\.AUTO_REUSE in VarScope\?$"):
        tf.layers.dense(x, 3, name="dense")
    with pytest.raises(ValueError, match=r"^Variable nope/kernel does not exist, or was not created with "
                                         r"tf\.get_variable\(\)\. Did you mean to set reuse=tf\.AUTO_REUSE in "
                                         r"VarScope\?$"):
        tf.layers.dense(x, 3, name="nope", reuse=True)
    shared = tf.layers.dense(x, 3, name="dense", reuse=True)
    # as in TF, the failed tries opened name scope dense_1
    assert shared.name == "dense_2/BiasAdd:0" and len(tf.global_variables()) == 2
    with tf.variable_scope("tower", reuse=tf.AUTO_REUSE):
        a = tf.layers.conv1d(tf.placeholder(tf.float32, [None, 5, 2]), 4, 3, name="c")
    with tf.variable_scope("tower", reuse=tf.AUTO_REUSE):
        b = tf.layers.conv1d(tf.placeholder(tf.float32, [None, 5, 2]), 4, 3, name="c")
    assert [v.name for v in tf.global_variables()][2:] == ["tower/c/kernel:0", "tower/c/bias:0"]
    assert a.shape.as_list() == b.shape.as_list() == [None, 3, 4]


def test_input_errors_are_tensorflows():
    with pytest.raises(ValueError, match=r'^Input 0 of layer "dense" is incompatible with the layer: expected '
                                         r'min_ndim=2, found ndim=1\. Full shape received: \(2,\)$'):
        tf.layers.dense(tf.constant([1.0, 2.0]), 3)
    with pytest.raises(ValueError, match=r"^The last dimension of the inputs to a Dense layer should be defined\. "
                                         r"Found None\. Full input shape received: \(2, None\)$"):
        tf.layers.dense(tf.placeholder(tf.float32, [2, None]), 3)
    layer = tf.layers.Dense(2)
    layer(tf.placeholder(tf.float32, [None, 3]))
    with pytest.raises(ValueError, match=r"expected axis -1 of input shape to have value 3, but received input with "
                                         r"shape \(None, 4\)$"):
        layer(tf.placeholder(tf.float32, [None, 4]))
    with pytest.raises(ValueError, match="The `kernel_size` argument must be a tuple of 2 integers"):
        tf.layers.Conv2D(3, (1, 2, 3))
    with pytest.raises(ValueError, match="The `padding` argument must be"):
        tf.layers.Conv2D(3, 2, padding="causal")
    with pytest.raises(NotImplementedError, match="renorm"):
        tf.layers.BatchNormalization(renorm=True)
    with pytest.raises(ValueError, match="fused=True only support 4D"):
        tf.layers.batch_normalization(tf.zeros([2, 3]), fused=True)


def test_layer_objects_expose_their_weights_losses_and_scope():
    layer = tf.layers.Dense(2, kernel_regularizer=tf.contrib.layers.l1_regularizer(0.5), name="dd")
    with pytest.raises(ValueError, match="has not been used yet"):
        _ = layer.scope_name
    layer(tf.ones([1, 3]))
    layer(tf.ones([1, 3]))
    assert layer.scope_name == "dd" and layer.built and layer.dtype == "float32"
    assert [v.name for v in layer.weights] == ["dd/kernel:0", "dd/bias:0"] and layer.non_trainable_weights == []
    assert layer.losses == tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
    assert [t.name for t in layer.losses] == ["dd/kernel/Regularizer/l1_regularizer:0"]
    kernel, loss = run([layer.kernel, layer.losses[0]])
    assert loss == pytest.approx(0.5 * np.abs(kernel).sum())
    with tf.variable_scope("outer", initializer=tf.ones_initializer()):
        inner = tf.layers.Dense(1)
        inner(tf.ones([1, 2]))
    np.testing.assert_array_equal(run(inner.kernel), [[1.0], [1.0]])


def test_batch_normalization_training_loop_moves_the_statistics():
    """Three training steps with momentum 0.5 on a fixed batch: moving_mean = m (1 - 0.5 ** 3)."""
    batch = np.array([[1.0, 10.0], [3.0, 20.0], [5.0, 60.0]], np.float32)
    x = tf.placeholder(tf.float32, [None, 2])
    training = tf.placeholder_with_default(False, [])
    y = tf.layers.batch_normalization(x, momentum=0.5, training=training)
    loss = tf.reduce_sum(tf.square(y - 1.0))
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    moving_mean, moving_variance = [v for v in tf.global_variables() if "moving" in v.name]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(step, {x: batch, training: True})
        mean, variance = sess.run([moving_mean, moving_variance])
        inferred = sess.run(y, {x: batch})
        gamma, beta = sess.run(tf.trainable_variables())
    decay = 1 - 0.5 ** 3
    np.testing.assert_allclose(mean, batch.mean(0) * decay, rtol=1e-6)
    np.testing.assert_allclose(variance, 1 + (batch.var(0) - 1) * decay, rtol=1e-6)
    np.testing.assert_allclose(inferred, (batch - mean) / np.sqrt(variance + 1e-3) * gamma + beta, rtol=1e-5)


def test_dropout_layer_statistics_and_switch():
    x = tf.ones([400, 100])
    training = tf.placeholder(tf.bool, [])
    y = tf.layers.dropout(x, rate=0.3, training=training, seed=3)
    on, off = run([y, y], {training: True}), run(y, {training: False})
    kept = on[0] > 0
    assert abs(kept.mean() - 0.7) < 0.01 and np.allclose(on[0][kept], 1 / 0.7)
    np.testing.assert_array_equal(off, np.ones((400, 100)))
    assert tf.layers.dropout(x, rate=0.0, training=True).op.type == "Identity"


def test_flatten_shapes():
    assert tf.layers.flatten(tf.placeholder(tf.float32, [None, 2, 3, 4])).shape.as_list() == [None, 24]
    assert tf.layers.flatten(tf.placeholder(tf.float32, [5, None, 3])).shape.as_list() == [5, None]
    unknown = tf.placeholder(tf.float32, [None, None, 3])
    flat = tf.layers.flatten(unknown)
    assert flat.shape.as_list() == [None, None]
    assert run(flat, {unknown: np.zeros((2, 4, 3))}).shape == (2, 12)


def test_a_custom_layer_subclass_and_compat_v1_spelling():
    """Names as TensorFlow gives them for the same subclass."""
    class Scale(tf.compat.v1.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight("w", [input_shape[-1]], initializer=tf.constant_initializer(2.0))

        def call(self, inputs):
            return inputs * self.w

    layer = Scale(name="scale")
    y = layer(tf.ones([2, 3]))
    again = layer(tf.ones([2, 3]))
    assert [v.name for v in layer.variables] == ["scale/w:0"] and (y.name, again.name) == ("scale/mul:0",
                                                                                            "scale/mul_1:0")
    np.testing.assert_array_equal(run(y), 2.0 * np.ones((2, 3)))
    assert tf.compat.v1.layers.Dense is tf.layers.Dense
