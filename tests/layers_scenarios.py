"""tf.layers programs run alike by TensorFlow (tests/data/layers_tf/record.py writes what they give)
and by s2sgrad (tests/test_layers_tf.py compares). Each scenario takes the ``tf`` module (TF's
compat.v1 or s2sgrad), builds a graph in a fresh Graph and returns a JSON-able dict: variable and
op names, shapes, collection sizes, and values fetched with fixed (constant) initial weights."""
import inspect

import numpy as np

RNG = np.random.default_rng(14)
X4 = RNG.standard_normal((2, 5, 6, 3)).astype(np.float32)   # NHWC images
X3 = RNG.standard_normal((2, 7, 3)).astype(np.float32)      # NWC sequences
X2 = RNG.standard_normal((4, 3)).astype(np.float32)


def init(shape, seed):
    """Fixed weights of ``shape``: what both sides load through constant_initializer."""
    return np.random.default_rng(seed).uniform(-1, 1, size=shape).astype(np.float32)


def names(variables):
    return [v.name for v in variables]


def fetch(tf, tensors, feed=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return [np.asarray(v, dtype=np.float64).tolist() for v in sess.run(list(tensors), feed)]


def dense_names(tf):
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y1 = tf.layers.dense(x, 4)
    y2 = tf.layers.dense(y1, 2, activation=tf.nn.relu)
    with tf.variable_scope("foo"):
        y3 = tf.layers.dense(x, 3, name="d")
    with tf.variable_scope("foo", reuse=True):
        y4 = tf.layers.dense(x, 3, name="d")
    layer = tf.layers.Dense(5, name="shared")
    y5, y6 = layer(x), layer.apply(x)
    frozen = tf.layers.Dense(2, trainable=False, name="frozen")
    frozen(x)
    x3 = tf.placeholder(tf.float32, [None, 2, 3])
    y7 = tf.layers.dense(x3, 4)
    return {"global": names(tf.global_variables()), "trainable": names(tf.trainable_variables()),
            "outputs": [t.name for t in (y1, y2, y3, y4, y5, y6, y7)], "rank3_shape": y7.shape.as_list(),
            "layer": [layer.kernel.name, layer.bias.name, names(layer.variables), names(layer.trainable_weights)],
            "frozen": [names(frozen.trainable_weights), names(frozen.non_trainable_weights)]}


def dense_values(tf):
    x = tf.constant(X2)
    w, b = init([3, 2], 1), init([2], 2)
    y = tf.layers.dense(x, 2, activation=tf.nn.tanh, kernel_initializer=tf.constant_initializer(w),
                        bias_initializer=tf.constant_initializer(b),
                        kernel_regularizer=lambda w: 0.1 * tf.nn.l2_loss(w), name="d")
    loss = tf.reduce_sum(y * y)
    kernel, = [v for v in tf.global_variables() if v.name == "d/kernel:0"]
    grads = tf.gradients(loss, [x, kernel])
    reg = tf.losses.get_regularization_loss()
    return {"values": fetch(tf, [y, *grads, reg]),
            "regularization": [t.name for t in tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)]}


def conv_layers(tf):
    x4, x3 = tf.constant(X4), tf.constant(X3)
    outputs = [
        tf.layers.conv2d(x4, 4, 3, kernel_initializer=tf.constant_initializer(init([3, 3, 3, 4], 3)),
                         bias_initializer=tf.constant_initializer(init([4], 4))),
        tf.layers.conv2d(x4, 2, [2, 3], strides=2, padding="same", activation=tf.nn.relu,
                         kernel_initializer=tf.constant_initializer(init([2, 3, 3, 2], 5))),
        tf.layers.conv1d(x3, 2, 3, padding="same", kernel_initializer=tf.constant_initializer(init([3, 3, 2], 6))),
        tf.layers.conv1d(x3, 2, 2, dilation_rate=2, kernel_initializer=tf.constant_initializer(init([2, 3, 2], 7))),
        tf.layers.conv1d(x3, 2, 3, padding="causal", kernel_initializer=tf.constant_initializer(init([3, 3, 2], 13))),
        tf.layers.conv2d_transpose(x4, 2, 3, strides=2, padding="same",
                                   kernel_initializer=tf.constant_initializer(init([3, 3, 2, 3], 8)),
                                   bias_initializer=tf.constant_initializer(init([2], 9))),
        tf.layers.conv2d_transpose(x4, 2, [2, 3], strides=(2, 1),
                                   kernel_initializer=tf.constant_initializer(init([2, 3, 2, 3], 10))),
        tf.layers.separable_conv2d(x4, 4, 3, depth_multiplier=2, padding="same",
                                   depthwise_initializer=tf.constant_initializer(init([3, 3, 3, 2], 11)),
                                   pointwise_initializer=tf.constant_initializer(init([1, 1, 6, 4], 12))),
    ]
    loss = tf.add_n([tf.reduce_sum(y * y) for y in outputs])
    grad_x4, grad_x3 = tf.gradients(loss, [x4, x3])
    return {"variables": names(tf.global_variables()), "shapes": [v.shape.as_list() for v in tf.global_variables()],
            "output_shapes": [y.shape.as_list() for y in outputs],
            "values": fetch(tf, [*outputs, grad_x4, grad_x3])}


def pooling_layers(tf):
    x4, x3 = tf.constant(X4), tf.constant(X3)
    outputs = [tf.layers.max_pooling2d(x4, 2, 2), tf.layers.average_pooling2d(x4, [2, 3], [1, 2], padding="same"),
               tf.layers.max_pooling1d(x3, 3, 2, padding="same"), tf.layers.average_pooling1d(x3, 2, 1),
               tf.layers.flatten(x4), tf.layers.Flatten(data_format="channels_first")(x4)]
    loss = tf.add_n([tf.reduce_sum(y * y) for y in outputs])
    return {"shapes": [y.shape.as_list() for y in outputs],
            "values": fetch(tf, [*outputs, *tf.gradients(loss, [x4, x3])])}


def batch_norm(tf):
    x4 = tf.constant(X4 * 2.0 + 1.0)
    x2 = tf.constant(X2 * 3.0 - 1.0)
    training = tf.placeholder(tf.bool, [], name="training")
    outputs = [tf.layers.batch_normalization(x4, training=True, momentum=0.9, epsilon=0.01),
               tf.layers.batch_normalization(x4, training=True, fused=False, momentum=0.9, epsilon=0.01),
               tf.layers.batch_normalization(x2, training=training, momentum=0.5,
                                             gamma_initializer=tf.constant_initializer([1.5, 0.5, 2.0]),
                                             beta_initializer=tf.constant_initializer([0.1, 0.2, 0.3])),
               tf.layers.batch_normalization(x4, axis=1, center=False, training=True),
               tf.layers.batch_normalization(x2, training=False, moving_mean_initializer=tf.constant_initializer(0.5),
                                             moving_variance_initializer=tf.constant_initializer(2.0))]
    updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    loss = tf.add_n([tf.reduce_sum(y * y * y) for y in outputs])
    grads = tf.gradients(loss, [x4, x2])
    moving = [v for v in tf.global_variables() if "moving" in v.name]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run(outputs + grads, {training: True})
        sess.run(updates, {training: True})
        after_training = sess.run(moving)
        sess.run(updates, {training: False})
        after_inference = sess.run(moving)
        inferred = sess.run(outputs[2], {training: False})
    as_lists = [np.asarray(v, dtype=np.float64).tolist() for v in first + after_training + after_inference]
    return {"variables": names(tf.global_variables()), "trainable": names(tf.trainable_variables()),
            "shapes": [v.shape.as_list() for v in tf.global_variables()], "n_updates": len(updates),
            "values": as_lists + [np.asarray(inferred, dtype=np.float64).tolist()]}


def dropout_layers(tf):
    x = tf.constant(np.ones((200, 50), np.float32))
    training = tf.placeholder(tf.bool, [])
    kept, off = tf.layers.dropout(x, 0.4, training=True), tf.layers.dropout(x, 0.4)
    switched = tf.layers.dropout(x, 0.4, training=training)
    with tf.Session() as sess:
        values = sess.run([kept, off, switched], {training: True})
        inference = sess.run(switched, {training: False})
    return {"kept_fraction": round(float((values[0] > 0).mean()), 1), "kept_value": float(values[0].max()),
            "off_is_identity": bool((values[1] == 1).all()),
            "switched_fraction": round(float((values[2] > 0).mean()), 1),
            "inference_is_identity": bool((inference == 1).all())}


LAYER_NAMES = ["dense", "dropout", "flatten", "batch_normalization", "conv1d", "conv2d", "conv2d_transpose",
               "separable_conv2d", "max_pooling1d", "max_pooling2d", "average_pooling1d", "average_pooling2d", "Dense",
               "Dropout", "Flatten", "BatchNormalization", "Conv1D", "Conv2D", "Conv2DTranspose", "SeparableConv2D",
               "MaxPooling1D", "MaxPooling2D", "AveragePooling1D", "AveragePooling2D", "Layer"]


def signature(value):
    """``[[parameter, default], ...]``: defaults that are plain values as their repr, others as "..."."""
    params = inspect.signature(value).parameters.values()
    plain = (type(None), bool, int, float, str, tuple)
    return [[p.name, "" if p.default is p.empty else repr(p.default) if isinstance(p.default, plain) else "..."]
            for p in params]


def signatures(tf):
    return {name: signature(getattr(tf.layers, name)) for name in LAYER_NAMES}


SCENARIOS = {f.__name__: f for f in (dense_names, dense_values, conv_layers, pooling_layers, batch_norm,
                                     dropout_layers, signatures)}
