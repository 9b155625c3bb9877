"""tf.cond, tf.case, tf.while_loop, tf.TensorArray, map_fn/scan/foldl/foldr: values against NumPy,
gradients against finite differences (float64), TF's errors, and the generated blocks."""
import re

import numpy as np
import pytest

import s2sgrad as tf


def _fd(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[idx] = eps
        g[idx] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


@pytest.fixture
def graph():
    with tf.Graph().as_default() as g:
        yield g


# -- cond ---------------------------------------------------------------------------------------------

def _piecewise(graph):
    x = tf.placeholder(tf.float64, [3])
    w = tf.Variable(np.array([1.0, 2.0, 3.0]))
    y = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.reduce_sum(tf.sin(x) * w), lambda: tf.reduce_sum(x * x))
    return x, w, y


@pytest.mark.parametrize("xv", [[1.0, 2.0, 3.0], [-1.0, -2.0, 0.5]])
def test_cond_values_and_gradients_follow_the_taken_branch(graph, xv):
    x, w, y = _piecewise(graph)
    gx, gw = tf.gradients(y, [x, w])
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    xv = np.array(xv)
    wv = np.array([1.0, 2.0, 3.0])

    def f(xv, wv):
        return np.sum(np.sin(xv) * wv) if xv.sum() > 0 else np.sum(xv * xv)

    value, dx, dw = sess.run([y, gx, gw], {x: xv})
    assert value == pytest.approx(f(xv, wv))
    np.testing.assert_allclose(dx, _fd(lambda v: f(v, wv), xv), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dw, _fd(lambda v: f(xv, v), wv), rtol=1e-6, atol=1e-8)


def test_cond_second_derivative(graph):
    x = tf.placeholder(tf.float64, [])
    y = tf.cond(x > 0, lambda: x * x * x, lambda: tf.sin(x))
    (g,) = tf.gradients(y, x)
    (h,) = tf.gradients(g, x)
    sess = tf.Session()
    assert sess.run(h, {x: 2.0}) == pytest.approx(12.0)
    assert sess.run(h, {x: -1.0}) == pytest.approx(-np.sin(-1.0))


def test_cond_nested_structures_and_captured_placeholders(graph):
    a = tf.placeholder(tf.float32, [])
    b = tf.placeholder(tf.float32, [])
    out = tf.cond(a < b, lambda: {"s": a + b, "p": (a * b, a)}, lambda: {"s": a - b, "p": (a / b, b)})
    sess = tf.Session()
    r = sess.run(out, {a: 2.0, b: 4.0})
    assert r["s"] == 6.0 and r["p"] == (8.0, 2.0)
    r = sess.run(out, {a: 4.0, b: 2.0})
    assert r["s"] == 2.0 and r["p"] == (2.0, 2.0)


def test_only_the_taken_branch_assigns(graph):
    v = tf.Variable(0.0)
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: tf.assign(v, 1.0), lambda: tf.assign_add(v, 10.0))
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    sess.run(r, {p: False})
    assert sess.run(v) == 10.0
    sess.run(r, {p: True})
    assert sess.run(v) == 1.0


def test_nested_cond(graph):
    x = tf.placeholder(tf.float64, [])
    y = tf.cond(x > 0, lambda: tf.cond(x > 1, lambda: x * 3.0, lambda: x * 2.0), lambda: -x)
    (g,) = tf.gradients(y, x)
    sess = tf.Session()
    assert [sess.run([y, g], {x: v}) for v in (2.0, 0.5, -1.0)] == [[6.0, 3.0], [1.0, 2.0], [1.0, -1.0]]


def test_case_picks_the_first_true_predicate_else_default(graph):
    x = tf.placeholder(tf.int32, [])
    y = tf.case([(x < 0, lambda: tf.constant(-1)), (x < 10, lambda: tf.constant(1))], default=lambda: tf.constant(99))
    sess = tf.Session()
    assert [sess.run(y, {x: v}) for v in (-5, 5, 50)] == [-1, 1, 99]


def test_exclusive_case_fails_a_run_with_two_true_predicates(graph):
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.case([(x < 1.0, lambda: x * 10.0), (x < 2.0, lambda: x * 20.0)], default=lambda: x, exclusive=True)
    (g,) = tf.gradients(y, x)
    sess = tf.Session()
    assert sess.run([y, g], {x: 1.5}) == [30.0, 20.0]
    assert sess.run([y, g], {x: 5.0}) == [5.0, 1.0]
    # TensorFlow's message: the predicates' names, then which of them were true
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "assertion failed: [Input error: exclusive=True: more than 1 conditions (Less:0, Less_1:0) evaluated "
            "as True:] [1 1]")):
        sess.run(y, {x: 0.5})


def test_cond_errors_are_tensorflows(graph):
    x = tf.constant(1.0)
    with pytest.raises(TypeError, match="pred must not be a Python bool"):
        tf.cond(True, lambda: x, lambda: x)
    with pytest.raises(TypeError, match="must have the same number, type, and overall structure"):
        tf.cond(x > 0, lambda: x, lambda: tf.cast(x, tf.int32))
    with pytest.raises(TypeError, match="must have the same number, type, and overall structure"):
        tf.cond(x > 0, lambda: (x, x), lambda: x)
    inner = []
    tf.cond(x > 0, lambda: inner.append(x * 2.0) or inner[0], lambda: x)
    with pytest.raises(ValueError, match="inside a branch or loop body"):
        inner[0] + 1.0


def test_cond_source_is_an_if_block(graph):
    x = tf.placeholder(tf.float32, [3], name="x")
    y = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.sqrt(x) * 2.0, lambda: tf.zeros_like(x) - x)
    text = tf.Session().source(y, {x: [1.0, 2.0, 3.0]})
    body = text[text.index("def run"):]
    assert "    if greater:" in body and "    else:" in body
    assert "np.sqrt(x) * 2.0" in body and "0.0 - x" in body


# -- while_loop ---------------------------------------------------------------------------------------

def test_while_loop_data_dependent_trip_count(graph):
    x = tf.placeholder(tf.float32, [3])
    i, acc = tf.while_loop(lambda i, acc: tf.reduce_sum(acc) < 100.0, lambda i, acc: (i + 1, acc * 2.0 + x), [0, x])
    sess = tf.Session()
    n, out = sess.run([i, acc], {x: [1.0, 2.0, 3.0]})
    ref = np.array([1.0, 2.0, 3.0])
    k = 0
    while ref.sum() < 100:
        ref, k = ref * 2 + np.array([1.0, 2.0, 3.0]), k + 1
    assert n == k
    np.testing.assert_allclose(out, ref)


def test_while_loop_single_var_and_maximum_iterations(graph):
    r = tf.while_loop(lambda i: i < 10, lambda i: i + 1, [0], maximum_iterations=3)
    assert tf.Session().run(r) == 3
    (s,) = tf.while_loop(lambda i: i < 10, lambda i: [i + 2], [0], return_same_structure=True)
    assert tf.Session().run(s) == 10


def test_while_loop_gradient_matches_finite_differences(graph):
    x = tf.placeholder(tf.float64, [3])
    w = tf.Variable(np.array([0.5, 0.2, 0.1]))
    _, h = tf.while_loop(lambda i, h: i < 4, lambda i, h: (i + 1, tf.tanh(h * w + x)), [0, tf.zeros([3], tf.float64)])
    loss = tf.reduce_sum(h * h)
    gx, gw = tf.gradients(loss, [x, w])
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    xv, wv = np.array([0.3, -0.2, 0.8]), np.array([0.5, 0.2, 0.1])

    def f(xv, wv):
        h = np.zeros(3)
        for _ in range(4):
            h = np.tanh(h * wv + xv)
        return np.sum(h * h)

    dx, dw = sess.run([gx, gw], {x: xv})
    np.testing.assert_allclose(dx, _fd(lambda v: f(v, wv), xv), rtol=1e-6)
    np.testing.assert_allclose(dw, _fd(lambda v: f(xv, v), wv), rtol=1e-6)


def test_while_loop_errors_are_tensorflows(graph):
    x = tf.constant(1.0)
    with pytest.raises(ValueError, match="with shape \\(\\), but has shape \\(2,\\) after one iteration"):
        tf.while_loop(lambda v: v < 10, lambda v: tf.stack([v, v]), [x])
    with pytest.raises(TypeError, match="enters the loop with type <dtype: 'float32'> but has type <dtype: 'int32'>"):
        tf.while_loop(lambda v: v < 10, lambda v: tf.cast(v, tf.int32), [x])
    with pytest.raises(ValueError, match="don't have the same nested structure"):
        tf.while_loop(lambda v, w: v < 10, lambda v, w: (v,), [x, x])


def test_shape_invariants_let_a_shape_grow(graph):
    start = tf.constant([1.0])
    out = tf.while_loop(lambda v: tf.size(v) < 4, lambda v: tf.concat([v, v * 2.0], 0), [start],
                        shape_invariants=[tf.TensorShape([None])])
    np.testing.assert_allclose(tf.Session().run(out), [1.0, 2.0, 2.0, 4.0])


def test_back_prop_false_gives_no_gradient(graph):
    x = tf.placeholder(tf.float64, [])
    y = tf.while_loop(lambda v: v < 10.0, lambda v: v * 2.0, [x], back_prop=False)
    assert tf.gradients(y, x) == [None]


def test_loop_source_is_a_while_block_and_a_reversed_for(graph):
    x = tf.placeholder(tf.float64, [3], name="x")
    _, h = tf.while_loop(lambda i, h: i < 4, lambda i, h: (i + 1, tf.tanh(h + x)), [0, x])
    (g,) = tf.gradients(tf.reduce_sum(h), x)
    text = tf.Session().source(g, {x: [1.0, 2.0, 3.0]})
    body = text[text.index("def run"):]
    assert "    while i < 4:" in body
    assert "        h = np.tanh(h + x)" in body
    assert "tanh_steps.append(h)" in body
    assert "    for k in reversed(range(trips)):" in body
    assert "tanh = tanh_steps[k]" in body


# -- TensorArray and the functional ops -----------------------------------------------------------------

def test_tensor_array_rnn_gradient(graph):
    T, B, D, H = 5, 2, 3, 4
    rng = np.random.default_rng(0)
    X = rng.standard_normal((T, B, D))
    U0, W0 = rng.standard_normal((D, H)) * 0.3, rng.standard_normal((H, H)) * 0.3
    x = tf.placeholder(tf.float64, [T, B, D])
    U, W = tf.Variable(U0), tf.Variable(W0)
    xs = tf.TensorArray(tf.float64, size=T).unstack(x)

    def body(t, h, out):
        h = tf.tanh(tf.matmul(xs.read(t), U) + tf.matmul(h, W))
        return t + 1, h, out.write(t, h)

    _, hT, outs = tf.while_loop(lambda t, h, out: t < T, body,
                                [0, tf.zeros([B, H], tf.float64), tf.TensorArray(tf.float64, size=T)])
    loss = tf.reduce_sum(hT * hT) + tf.reduce_sum(outs.stack() ** 2)
    grads = tf.gradients(loss, [U, W, x])
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())

    def f(U0, W0, X):
        h, s = np.zeros((B, H)), 0.0
        for t in range(T):
            h = np.tanh(X[t] @ U0 + h @ W0)
            s += np.sum(h ** 2)
        return np.sum(h * h) + s

    gu, gw, gx = sess.run(grads, {x: X})
    np.testing.assert_allclose(gu, _fd(lambda a: f(a, W0, X), U0), rtol=1e-5, atol=1e-8)
    np.testing.assert_allclose(gw, _fd(lambda a: f(U0, a, X), W0), rtol=1e-5, atol=1e-8)
    np.testing.assert_allclose(gx, _fd(lambda a: f(U0, W0, a), X), rtol=1e-5, atol=1e-8)


def test_tensor_array_methods(graph):
    ta = tf.TensorArray(tf.float32, size=3).unstack(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    dyn = tf.TensorArray(tf.float32, size=0, dynamic_size=True).write(0, 1.0).write(1, 2.0)
    zeros = tf.TensorArray(tf.float32, size=2, element_shape=[3]).stack()
    split = tf.TensorArray(tf.float32, size=3).split([1.0, 2.0, 3.0, 4.0, 5.0], [2, 2, 1])
    sess = tf.Session()
    read, gathered, size = sess.run([ta.read(1), ta.gather([2, 0]), ta.size()])
    assert read.tolist() == [3.0, 4.0] and gathered.tolist() == [[5.0, 6.0], [1.0, 2.0]] and size == 3
    assert sess.run(dyn.stack()).tolist() == [1.0, 2.0] and sess.run(dyn.size()) == 2
    assert sess.run(zeros).tolist() == [[0.0] * 3] * 2
    assert sess.run(split.concat()).tolist() == [1.0, 2.0, 3.0, 4.0, 5.0]
    assert sess.run(split.read(2)).tolist() == [5.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="not resizeable"):
        sess.run(tf.TensorArray(tf.float32, size=2).write(5, 1.0).stack())


def test_map_fn_scan_foldl_foldr_values_and_gradients(graph):
    x = tf.placeholder(tf.float64, [4, 2])
    sq = tf.map_fn(lambda r: tf.reduce_sum(r * r), x)
    cs = tf.scan(lambda a, r: a + r, x)
    cp = tf.scan(lambda a, r: a * r, x, initializer=tf.ones([2], tf.float64), reverse=True)
    fl = tf.foldl(lambda a, r: a * 2.0 + r, x)
    fr = tf.foldr(lambda a, r: a * 2.0 + r, x, initializer=tf.zeros([2], tf.float64))
    (g,) = tf.gradients(tf.reduce_sum(sq) + tf.reduce_sum(cp) + tf.reduce_sum(fl * fr), x)
    X = np.arange(8.0).reshape(4, 2) / 10 + 0.5

    def folds(X):
        a = X[0].copy()
        for row in X[1:]:
            a = a * 2 + row
        b = np.zeros(2)
        for row in X[::-1]:
            b = b * 2 + row
        return a, b

    def f(X):
        a, b = folds(X)
        return np.sum(X * X) + np.cumprod(X[::-1], 0).sum() + np.sum(a * b)

    r = tf.Session().run([sq, cs, cp, fl, fr, g], {x: X})
    np.testing.assert_allclose(r[0], (X * X).sum(1))
    np.testing.assert_allclose(r[1], np.cumsum(X, 0))
    np.testing.assert_allclose(r[2], np.cumprod(X[::-1], 0)[::-1])
    np.testing.assert_allclose(r[3], folds(X)[0])
    np.testing.assert_allclose(r[4], folds(X)[1])
    np.testing.assert_allclose(r[5], _fd(f, X), rtol=1e-6)


def test_while_loop_second_derivative(graph):
    x = tf.placeholder(tf.float64, [])
    _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, tf.sin(y) * x), [0, x])
    (g,) = tf.gradients(y, x)
    (h,) = tf.gradients(g, x)

    def f(x):
        y = x
        for _ in range(3):
            y = np.sin(y) * x
        return y

    xv, e = 0.7, 1e-4
    value, dy, d2y = tf.Session().run([y, g, h], {x: xv})
    assert value == pytest.approx(f(xv))
    assert dy == pytest.approx((f(xv + e) - f(xv - e)) / (2 * e), rel=1e-6)
    assert d2y == pytest.approx((f(xv + e) - 2 * f(xv) + f(xv - e)) / e ** 2, rel=1e-5)


def _nested_program(x):
    """Loops in loops (the inner trip count depends on the outer variable), a cond in a loop, a
    loop in a branch."""
    def outer_body(i, acc):
        def inner_body(j, a):
            return j + 1, tf.cond(tf.reduce_sum(a) > 1.0, lambda: a * 0.5, lambda: tf.sin(a) + x)
        _, inner = tf.while_loop(lambda j, a: j < i + 1, inner_body, [0, acc])
        return i + 1, inner

    _, y = tf.while_loop(lambda i, acc: i < 3, outer_body, [0, x])
    return tf.cond(tf.reduce_sum(x) > 0,
                   lambda: tf.while_loop(lambda k, v: k < 2, lambda k, v: (k + 1, v * v + x), [0, y])[1],
                   lambda: y)


def _nested_reference(xv):
    acc = xv.copy()
    for i in range(3):
        for _ in range(i + 1):
            acc = acc * 0.5 if acc.sum() > 1 else np.sin(acc) + xv
    if xv.sum() > 0:
        for _ in range(2):
            acc = acc * acc + xv
    return acc


@pytest.mark.parametrize("xv", [[0.3, 0.4], [-0.3, 0.1]])
def test_nested_loops_and_branches(graph, xv):
    x = tf.placeholder(tf.float64, [2])
    loss = tf.reduce_sum(_nested_program(x) ** 2)
    (g,) = tf.gradients(loss, x)
    xv = np.array(xv)
    value, dx = tf.Session().run([loss, g], {x: xv})
    assert value == pytest.approx(np.sum(_nested_reference(xv) ** 2))
    np.testing.assert_allclose(dx, _fd(lambda v: np.sum(_nested_reference(v) ** 2), xv), rtol=1e-5)


def test_stop_gradient_inside_a_loop_body(graph):
    x = tf.placeholder(tf.float64, [])
    _, v = tf.while_loop(lambda k, v: k < 2, lambda k, v: (k + 1, v * tf.stop_gradient(v)), [0, x])
    (g,) = tf.gradients(v, x)
    # v1 = x * c0 (c0 = x held), v2 = v1 * c1 (c1 = v1 held): dv2/dx = c0 * c1 = x * x^2
    assert tf.Session().run(g, {x: 1.5}) == pytest.approx(1.5 ** 3)


def test_minimize_a_loss_computed_in_a_loop_and_a_failed_run_changes_nothing(graph):
    w = tf.Variable(np.array([0.5, -0.3]))
    n = tf.placeholder(tf.int32, [])
    idx = tf.placeholder(tf.int32, [])
    _, h = tf.while_loop(lambda i, h: i < n, lambda i, h: (i + 1, tf.tanh(h + w)), [0, tf.zeros([2], tf.float64)])
    loss = tf.reduce_sum((h - 0.25) ** 2) + tf.gather(w, idx) * 0.0
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    for _ in range(5):
        sess.run(train, {n: 3, idx: 0})

    def f(wv):
        h = np.zeros(2)
        for _ in range(3):
            h = np.tanh(h + wv)
        return np.sum((h - 0.25) ** 2)

    expected = np.array([0.5, -0.3])
    for _ in range(5):
        expected = expected - 0.5 * _fd(f, expected)
    before = sess.run(w)
    np.testing.assert_allclose(before, expected, rtol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError):
        sess.run(train, {n: 3, idx: 7})
    np.testing.assert_array_equal(sess.run(w), before)


def test_unconnected_and_integer_loop_variables(graph):
    x = tf.placeholder(tf.float64, [])
    unused = tf.placeholder(tf.float64, [])
    i, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x), [0, x])
    gx, gu = tf.gradients(y, [x, unused])
    assert gu is None
    assert tf.gradients(tf.cast(i, tf.float64), x) == [None]
    (zero,) = tf.gradients(y, unused, unconnected_gradients="zero")
    sess = tf.Session()
    assert sess.run(gx, {x: 2.0}) == pytest.approx(4 * 2.0 ** 3)
    assert sess.run(zero, {x: 2.0, unused: 1.0}) == 0.0


def test_hessians_through_cond_and_while(graph):
    x = tf.placeholder(tf.float64, [2])
    _, y = tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, tf.sin(y) * x), [0, x])
    f = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.reduce_sum(y * y), lambda: tf.reduce_sum(y))
    (hess,) = tf.hessians(f, x)

    def ref(v):
        y = v
        for _ in range(2):
            y = np.sin(y) * v
        return np.sum(y * y) if v.sum() > 0 else np.sum(y)

    xv = np.array([0.4, 0.7])
    expected = np.array([_fd(lambda v, k=k: _fd(ref, v, 1e-5)[k], xv, 1e-4) for k in range(2)])
    np.testing.assert_allclose(tf.Session().run(hess, {x: xv}), expected, rtol=1e-4, atol=1e-6)


def test_explain_follows_paths_into_branches_and_loops(graph):
    x = tf.placeholder(tf.float64, [3], name="x")
    u = tf.placeholder(tf.float64, [3], name="u")
    z = tf.placeholder(tf.float64, [3], name="z")
    _, h = tf.while_loop(lambda i, h: i < 4, lambda i, h: (i + 1, tf.tanh(h + x) + tf.sign(z)), [0, x])
    y = tf.cond(tf.reduce_sum(h) > 0, lambda: h * 2.0, lambda: tf.stop_gradient(u))
    report = tf.explain(y, [x, u, z])
    assert [e.status for e in report] == ["connected", "unconnected", "zero"]
    assert report[1].reasons[0].kind == "stop_gradient" and report[1].reasons[0].op.name == "cond/StopGradient"
    assert report[2].reasons[0].op.name == "while/Sign"
