"""tf.train optimizers: a few steps of each against TF's update formulas written out in NumPy,
slot and non-slot variables, global_step, var_list/trainable, sparse gradients, errors."""
import numpy as np
import pytest

import s2sgrad as tf

W0 = np.array([[0.5, -1.5, 2.0], [1.0, 0.25, -0.75]])
GRADS = [np.array([[0.3, -1.2, 0.7], [2.0, -0.1, 0.05]]), np.array([[-0.4, 0.9, 1.1], [0.0, 0.6, -2.5]]),
         np.array([[1.5, 0.2, -0.3], [-0.7, -0.8, 0.9]])]


def run_steps(make_optimizer, dtype, grads=GRADS, **minimize):
    """Minimize ``sum(w * x)`` (so the gradient is exactly the fed ``x``) for one step per gradient;
    returns the optimizer, the session (open) and w after each step."""
    w = tf.Variable(W0.astype(dtype), name="w")
    x = tf.placeholder(tf.as_dtype(dtype), W0.shape)
    opt = make_optimizer()
    train = opt.minimize(tf.reduce_sum(w * x), **minimize)
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    history = []
    for g in grads:
        sess.run(train, {x: g.astype(dtype)})
        history.append(sess.run(w))
    return opt, sess, w, history


def expected(update, dtype, state):
    """Apply ``update(w, g, state, t)`` (NumPy, in ``dtype``) for each gradient."""
    w, out = W0.astype(dtype), []
    for t, g in enumerate(GRADS, start=1):
        w = update(w, g.astype(dtype), state, t)
        out.append(w)
    return out


def hyper(value, dtype):
    """A Python float hyper-parameter as TF uses it: a float32 tensor cast to the variable's dtype."""
    return dtype(np.float32(value))


def assert_history(got, want, dtype):
    rtol = 1e-6 if dtype is np.float32 else 1e-13
    for g, e in zip(got, want, strict=True):
        assert g.dtype == dtype
        np.testing.assert_allclose(g, e, rtol=rtol, atol=rtol)


DTYPES = [np.float32, np.float64]


@pytest.mark.parametrize("dtype", DTYPES)
def test_gradient_descent(dtype):
    _, _, _, got = run_steps(lambda: tf.train.GradientDescentOptimizer(0.1), dtype)
    assert_history(got, expected(lambda w, g, s, t: w - g * hyper(0.1, dtype), dtype, {}), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("nesterov", [False, True])
def test_momentum(dtype, nesterov):
    opt, sess, w, got = run_steps(lambda: tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=nesterov), dtype)
    lr, mu = hyper(0.1, dtype), hyper(0.9, dtype)

    def update(w, g, s, t):
        s["accum"] = s.get("accum", np.zeros_like(w)) * mu + g
        return w - (g * lr + s["accum"] * mu * lr if nesterov else s["accum"] * lr)

    state = {}
    assert_history(got, expected(update, dtype, state), dtype)
    np.testing.assert_allclose(sess.run(opt.get_slot(w, "momentum")), state["accum"], rtol=1e-6)
    assert opt.get_slot(w, "momentum").name == "w/Momentum:0"
    assert opt.get_slot_names() == ["momentum"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_adam(dtype):
    opt, sess, w, got = run_steps(lambda: tf.train.AdamOptimizer(0.01), dtype)
    lr, b1, b2, eps = (hyper(h, dtype) for h in (0.01, 0.9, 0.999, 1e-8))
    powers = {"b1": np.float32(0.9), "b2": np.float32(0.999)}   # float32 variables, as in TF1

    def update(w, g, s, t):
        lr_t = lr * np.sqrt(1 - dtype(powers["b2"])) / (1 - dtype(powers["b1"]))
        s["m"] = s.get("m", np.zeros_like(w)) + (g - s.get("m", 0)) * (1 - b1)
        s["v"] = s.get("v", np.zeros_like(w)) + (g * g - s.get("v", 0)) * (1 - b2)
        powers["b1"], powers["b2"] = powers["b1"] * np.float32(0.9), powers["b2"] * np.float32(0.999)
        return w - s["m"] * lr_t / (np.sqrt(s["v"]) + eps)

    state = {}
    assert_history(got, expected(update, dtype, state), dtype)
    m_slot, v_slot = opt.get_slot(w, "m"), opt.get_slot(w, "v")
    assert (m_slot.name, v_slot.name) == ("w/Adam:0", "w/Adam_1:0")
    np.testing.assert_allclose(sess.run(m_slot), state["m"], rtol=1e-6)
    np.testing.assert_allclose(sess.run(v_slot), state["v"], rtol=1e-6)
    beta1_power, beta2_power = opt._get_beta_accumulators()
    assert (beta1_power.name, beta2_power.name) == ("beta1_power:0", "beta2_power:0")
    assert beta1_power.dtype == tf.float32 and not beta1_power.trainable
    assert sess.run(beta1_power) == powers["b1"] and sess.run(beta2_power) == powers["b2"]
    assert sorted(v.name for v in opt.variables()) == ["beta1_power:0", "beta2_power:0", "w/Adam:0", "w/Adam_1:0"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_adagrad(dtype):
    opt, sess, w, got = run_steps(lambda: tf.train.AdagradOptimizer(0.5), dtype)
    lr = hyper(0.5, dtype)

    def update(w, g, s, t):
        s["acc"] = s.get("acc", np.full_like(w, 0.1)) + g * g
        return w - g * lr * (1 / np.sqrt(s["acc"]))

    state = {}
    assert_history(got, expected(update, dtype, state), dtype)
    accumulator = opt.get_slot(w, "accumulator")
    assert accumulator.name == "w/Adagrad:0"
    np.testing.assert_allclose(sess.run(accumulator), state["acc"], rtol=1e-6)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("centered", [False, True])
@pytest.mark.parametrize("momentum", [0.0, 0.5])
def test_rmsprop(dtype, centered, momentum):
    def make():
        return tf.train.RMSPropOptimizer(0.01, decay=0.9, momentum=momentum, epsilon=1e-6, centered=centered)

    opt, sess, w, got = run_steps(make, dtype)
    lr, decay, mu, eps = (hyper(h, dtype) for h in (0.01, 0.9, momentum, 1e-6))

    def update(w, g, s, t):
        s["ms"] = s.get("ms", np.ones_like(w)) + (g * g - s.get("ms", 1)) * (1 - decay)
        denominator = s["ms"]
        if centered:
            s["mg"] = s.get("mg", np.zeros_like(w)) + (g - s.get("mg", 0)) * (1 - decay)
            denominator = s["ms"] - s["mg"] * s["mg"]
        s["mom"] = s.get("mom", np.zeros_like(w)) * mu + g * lr / np.sqrt(denominator + eps)
        return w - s["mom"]

    state = {}
    assert_history(got, expected(update, dtype, state), dtype)
    names = ["w/RMSProp:0", "w/RMSProp_1:0"] + (["w/RMSProp_2:0"] if centered else [])
    slots = ["rms"] + (["mg"] if centered else []) + ["momentum"]
    assert [opt.get_slot(w, s).name for s in slots] == names
    np.testing.assert_allclose(sess.run(opt.get_slot(w, "rms")), state["ms"], rtol=1e-6)


def test_rmsprop_rms_slot_starts_at_ones_and_slots_are_initialised_with_the_others():
    w = tf.Variable(np.zeros((2, 2), np.float32))
    opt = tf.train.RMSPropOptimizer(0.1)
    opt.minimize(tf.reduce_sum(w))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(opt.get_slot(w, "rms")), np.ones((2, 2), np.float32))
        np.testing.assert_array_equal(sess.run(opt.get_slot(w, "momentum")), np.zeros((2, 2), np.float32))
    assert all(not s.trainable for s in opt.variables())
    assert set(opt.variables()) <= set(tf.global_variables())
    assert tf.trainable_variables() == [w]


# -- the protocol ----------------------------------------------------------------------------------

def test_global_step_counts_steps_and_train_op_is_an_operation():
    step = tf.train.get_or_create_global_step()
    assert step is tf.train.get_or_create_global_step() and step.dtype == tf.int64
    opt, sess, _, _ = run_steps(lambda: tf.train.AdamOptimizer(0.1), np.float32, global_step=step)
    assert sess.run(step) == len(GRADS)


def test_without_global_step_the_train_op_is_named_after_the_optimizer():
    w = tf.Variable([1.0, 2.0])
    train = tf.train.MomentumOptimizer(0.1, 0.9).minimize(tf.reduce_sum(w * w))
    assert isinstance(train, tf.Operation) and train.name == "Momentum"
    named = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(w), name="my_step")
    assert named.name == "my_step"


def test_run_returns_the_pre_update_loss():
    w = tf.Variable(3.0)
    loss = w * w
    train = tf.train.GradientDescentOptimizer(0.25).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run([train, loss])[1] == np.float32(9.0)
        assert sess.run(w) == np.float32(1.5)


def test_var_list_and_trainable_false_are_respected():
    a = tf.Variable(1.0, name="a")
    b = tf.Variable(1.0, name="b")
    frozen = tf.Variable(1.0, name="frozen", trainable=False)
    loss = a * b * frozen
    only_a = tf.train.GradientDescentOptimizer(0.5).minimize(loss, var_list=[a])
    default = tf.train.AdamOptimizer(0.5).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(only_a)
        assert sess.run([a, b, frozen]) == [0.5, 1.0, 1.0]
        sess.run(default)
        values = sess.run([a, b, frozen])
        assert values[0] != 0.5 and values[1] != 1.0 and values[2] == 1.0


def test_compute_gradients_pairs_and_unconnected_variables_are_skipped():
    a = tf.Variable(2.0, name="a")
    unused = tf.Variable(5.0, name="unused")
    opt = tf.train.GradientDescentOptimizer(1.0)
    pairs = opt.compute_gradients(a * a)
    assert [var for _, var in pairs] == [a, unused] and pairs[1][0] is None
    train = opt.apply_gradients(pairs)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        assert sess.run([a, unused]) == [-2.0, 5.0]


def test_learning_rate_may_be_a_fed_tensor():
    w = tf.Variable(1.0)
    lr = tf.placeholder(tf.float32, [])
    train = tf.train.MomentumOptimizer(lr, 0.5).minimize(w * 4.0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, {lr: 0.25})
        sess.run(train, {lr: 0.5})
        assert sess.run(w) == np.float32(1.0 - 0.25 * 4.0 - 0.5 * (4.0 * 0.5 + 4.0))


@pytest.mark.parametrize("make", [lambda: tf.train.GradientDescentOptimizer(0.1),
                                  lambda: tf.train.MomentumOptimizer(0.1, 0.9),
                                  lambda: tf.train.AdamOptimizer(0.1),
                                  lambda: tf.train.AdagradOptimizer(0.1),
                                  lambda: tf.train.RMSPropOptimizer(0.1, momentum=0.5, centered=True)])
def test_indexed_slices_gradients_match_the_dense_update(make):
    table = np.arange(12, dtype=np.float32).reshape(4, 3) / 10
    rows, weights = np.array([0, 2, 0]), np.array([[1.0], [-2.0], [0.5]], np.float32)
    dense_weights = np.zeros((4, 1), np.float32)
    np.add.at(dense_weights, rows, weights)
    results = []
    for sparse in (True, False):
        tf.reset_default_graph()
        w = tf.Variable(table)
        if sparse:
            loss = tf.reduce_sum(tf.gather(w, rows) * weights)
            assert isinstance(tf.gradients(loss, w)[0], tf.IndexedSlices)
        else:
            loss = tf.reduce_sum(w * dense_weights)
        train = make().minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(3):
                sess.run(train)
            results.append(sess.run(w))
    np.testing.assert_allclose(results[0], results[1], rtol=1e-6)


# What TF 2.21 (compat.v1) gives for embedding rows trained by each optimizer on the batches of ids below:
# its sparse kernels leave the rows a step does not touch alone (value and slots), so Momentum and
# RMSProp differ from their dense update as soon as the touched rows change from step to step.
SPARSE_ROWS_BATCHES = ([0, 1, 1], [2, 3], [0, 4], [5, 5, 5])
SPARSE_ROWS_TF = {
    "momentum": (lambda: tf.train.MomentumOptimizer(0.5, 0.9),
        [[1.9, 1.8099999], [1.8000001, 1.7], [1.0, 1.0],
         [1.0, 1.0], [1.0, 1.0], [1.0, 0.8]]),
    "nesterov": (lambda: tf.train.MomentumOptimizer(0.5, 0.9, use_nesterov=True),
        [[1.0, 1.0], [3.24, 2.9599998], [1.5400001, 1.45],
         [1.3599999, 1.27], [1.1799999, 1.09], [1.0, 0.5299999]]),
    "rmsprop": (lambda: tf.train.RMSPropOptimizer(0.05, momentum=0.5),
        [[0.205975, 0.2919737], [0.3153499, 0.407884], [0.458722, 0.55],
         [0.64074, 0.7310086], [0.8208969, 0.9105176], [1.0, 1.0689913]]),
    "centered": (lambda: tf.train.RMSPropOptimizer(0.05, momentum=0.5, centered=True),
        [[0.2114345, 0.296418], [0.3185478, 0.4104865], [0.4591312, 0.5502519],
         [0.640876, 0.7310685], [0.8209152, 0.9105199], [1.0, 1.0689316]]),
    "adagrad": (lambda: tf.train.AdagradOptimizer(0.5),
        [[0.7174447, 0.796118], [0.6975763, 0.7968414], [0.8834938, 0.9767313],
         [1.0649905, 1.1423259], [1.1922323, 1.1672612], [1.0, 0.6576741]]),
    "adam": (lambda: tf.train.AdamOptimizer(0.1),
        [[0.3137931, 0.4134644], [0.4612287, 0.5612286], [0.5790533, 0.6790534],
         [0.7790534, 0.8790534], [0.9162084, 1.0162083], [1.0, 1.0418874]]),
}


@pytest.mark.parametrize("name", sorted(SPARSE_ROWS_TF))
def test_indexed_slices_updates_leave_untouched_rows_alone_as_tf(name):
    make, expected_rows = SPARSE_ROWS_TF[name]
    table = tf.Variable(np.arange(12, dtype=np.float32).reshape(6, 2) / 10)
    ids = tf.placeholder(tf.int32, [None])
    loss = tf.reduce_sum(tf.square(tf.nn.embedding_lookup(table, ids) - 1.0))
    train = make().minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for batch in SPARSE_ROWS_BATCHES:
            sess.run(train, {ids: batch})
        np.testing.assert_allclose(sess.run(table), expected_rows, rtol=1e-6)


# -- errors -------------------------------------------------------------------------------------------

def test_no_gradients_for_any_variable():
    w = tf.Variable(1.0)
    loss = tf.stop_gradient(w) * 2.0
    with pytest.raises(ValueError, match="No gradients provided for any variable"):
        tf.train.AdamOptimizer().minimize(loss)
    with pytest.raises(ValueError, match="No gradients provided for any variable"):
        tf.train.GradientDescentOptimizer(0.1).apply_gradients([(None, w)])
    with pytest.raises(ValueError, match="No variables provided"):
        tf.train.GradientDescentOptimizer(0.1).apply_gradients([])


def test_bad_arguments():
    w = tf.Variable([1.0, 2.0])
    loss = tf.reduce_sum(w)
    with pytest.raises(ValueError, match="initial_accumulator_value must be positive"):
        tf.train.AdagradOptimizer(0.1, initial_accumulator_value=0.0)
    with pytest.raises(ValueError, match="learning_rate must not be None"):
        tf.train.GradientDescentOptimizer(None)
    with pytest.raises(TypeError, match="momentum must be a number"):
        tf.train.MomentumOptimizer(0.1, "fast")
    with pytest.raises(ValueError, match="learning_rate must be a scalar"):
        tf.train.GradientDescentOptimizer(tf.constant([0.1, 0.2])).minimize(loss)
    with pytest.raises(ValueError, match="gate_gradients must be one of"):
        tf.train.AdamOptimizer().minimize(loss, gate_gradients=7)
    with pytest.raises(NotImplementedError, match="unsupported type"):
        tf.train.AdamOptimizer().minimize(loss, var_list=[w.value()])
    with pytest.raises(ValueError, match="Invalid type int32"):
        tf.train.AdamOptimizer().minimize(tf.constant(3), var_list=[w])
    with pytest.raises(TypeError, match="gradient of dtype float64 for variable"):
        tf.train.AdamOptimizer().apply_gradients([(tf.constant([1.0, 2.0], tf.float64), w)])
    with pytest.raises(TypeError, match="Gradient must be a Tensor"):
        tf.train.AdamOptimizer().apply_gradients([("grad", w)])
