"""Matrix functions and decompositions beyond the op table: TF's names, decompositions that
reconstruct their input, run-time errors, and the decorator's ``np.linalg`` functions
(gradients against finite differences; symmetric inputs where the function reads one triangle)."""
import numpy as np
import pytest

import s2sgrad
import s2sgrad as tf

A = np.array([[3.0, 1.2, 0.0], [1.0, 4.0, 1.3], [0.1, 1.0, 5.0]])
B = np.array([1.0, 2.0, 3.0])


def _fd(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[idx] = eps
        g[idx] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


def test_tf1_names_are_the_same_functions():
    assert tf.linalg.inv is tf.matrix_inverse and tf.linalg.det is tf.matrix_determinant
    assert tf.linalg.eigh is tf.self_adjoint_eig and tf.linalg.band_part is tf.matrix_band_part
    assert tf.linalg.solve is tf.matrix_solve and tf.linalg.triangular_solve is tf.matrix_triangular_solve


def test_decompositions_reconstruct_their_input():
    with tf.Graph().as_default():
        x = tf.constant(np.random.default_rng(0).standard_normal((2, 4, 3)))
        s, u, v = tf.linalg.svd(x)
        q, r = tf.linalg.qr(x)
        spd = tf.matmul(x, x, transpose_a=True) + 3 * tf.eye(3, dtype=tf.float64)
        chol = tf.cholesky(spd)
        e, w = tf.linalg.eigh(spd)
        sess = tf.Session()
        xv, usv, qr_, ll, wew, rv = sess.run([x, tf.matmul(u * s[:, None, :], v, transpose_b=True), tf.matmul(q, r),
                                              tf.matmul(chol, chol, transpose_b=True),
                                              tf.matmul(w * e[:, None, :], w, transpose_b=True), r])
    np.testing.assert_allclose(usv, xv, atol=1e-12)
    np.testing.assert_allclose(qr_, xv, atol=1e-12)
    np.testing.assert_allclose(wew, ll, atol=1e-10)
    assert np.allclose(np.tril(rv, -1), 0)


def test_errors_name_the_op():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3"):
            tf.linalg.inv(tf.zeros([2, 3]))
        with pytest.raises(TypeError, match="not allowed for MatrixInverse"):
            tf.linalg.inv(tf.zeros([2, 2], tf.int32))
        not_pd = tf.cholesky(tf.constant([[1.0, 2.0], [2.0, 1.0]]))
        with pytest.raises(tf.errors.InvalidArgumentError, match="Cholesky"):
            tf.Session().run(not_pd)
        with pytest.raises(TypeError, match="num_lower must be an integer scalar, got Const.* float32"):
            tf.linalg.band_part(tf.zeros([2, 2]), 1.0, 0)
        with pytest.raises(TypeError, match="num_upper must be an integer, got True"):
            tf.linalg.band_part(tf.zeros([2, 2]), 0, True)
        with pytest.raises(TypeError, match="num_upper must be an integer scalar, got Placeholder.* shape \\(2,\\)"):
            tf.linalg.band_part(tf.zeros([2, 2]), 0, tf.placeholder(tf.int32, [2]))


def _band(x, lower, upper):
    rows, cols = np.arange(x.shape[-2])[:, None], np.arange(x.shape[-1])
    return x * (((rows - cols <= lower) | (lower < 0)) & ((cols - rows <= upper) | (upper < 0)))


@pytest.mark.parametrize("lower, upper", [(1, -1), (-5, 0), (0, 2), (2, 1)])
def test_band_part_counts_as_tensors(lower, upper):
    """Any negative count keeps the whole triangle (TF); counts may be NumPy ints, constant tensors or
    computed by the graph (fed here), and the gradient is the band of the incoming gradient."""
    x = np.arange(24.0).reshape(2, 3, 4)
    with tf.Graph().as_default():
        lo, up = tf.placeholder(tf.int32, []), tf.placeholder(tf.int64, [])
        v = tf.Variable(x)
        unknown = tf.placeholder(tf.float64, None)   # sizes known only when it is fed
        static = tf.linalg.band_part(v, np.int64(lower), tf.constant(upper, tf.int64))
        fed = tf.linalg.band_part(v, lo, up)
        grad = tf.gradients(tf.reduce_sum(fed * fed), v)[0]
        fed_unknown = tf.linalg.band_part(unknown, lo, up)
        grad_unknown = tf.gradients(tf.reduce_sum(fed_unknown * fed_unknown), unknown)[0]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            got = sess.run([static, fed, grad, fed_unknown, grad_unknown], {lo: lower, up: upper, unknown: x})
    for value in got[:2] + got[3:4]:
        np.testing.assert_array_equal(value, _band(x, lower, upper))
    np.testing.assert_array_equal(got[2], 2 * _band(x, lower, upper))
    np.testing.assert_array_equal(got[4], 2 * _band(x, lower, upper))


# TF 2.21 (tf.compat.v1, sess.run) on a 3x4 matrix: counts up to the number of rows / columns are fine, a
# larger one fails when the op runs (not when it is built) with these messages, num_lower checked first.
@pytest.mark.parametrize("lower, upper, message", [
    (4, 0, "num_lower must be negative or less or equal to number of rows (3) got: 4"),
    (0, 5, "num_upper must be negative or less or equal to number of columns (4) got: 5"),
    (-1, 5, "num_upper must be negative or less or equal to number of columns (4) got: 5"),
    (7, 9, "num_lower must be negative or less or equal to number of rows (3) got: 7")])
def test_band_part_counts_beyond_the_matrix_fail_at_run_time(lower, upper, message):
    x = np.arange(12.0).reshape(3, 4)
    with tf.Graph().as_default():
        v = tf.Variable(x)
        unknown = tf.placeholder(tf.float64, None)
        lo, up = tf.placeholder(tf.int64, []), tf.placeholder(tf.int32, [])
        banded = tf.linalg.band_part(v, lower, upper)
        step = tf.assign_add(v, banded)
        fed_step = tf.assign_add(v, tf.linalg.band_part(v, lo, up))   # counts computed by the graph
        whole = tf.linalg.band_part(v, 3, 4)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            np.testing.assert_array_equal(sess.run(whole), x)
            counts = {lo: lower, up: upper}
            for fetch, feeds in ((step, None), (tf.linalg.band_part(unknown, lower, upper), {unknown: x}),
                                 (fed_step, counts), (tf.linalg.band_part(unknown, lo, up), {unknown: x, **counts})):
                with pytest.raises(tf.errors.InvalidArgumentError) as info:
                    sess.run(fetch, feeds)
                assert message in str(info.value)
            np.testing.assert_array_equal(sess.run(v), x)   # the failed step left the variable as it was


FUNCTIONS = {
    "inv": lambda x: np.sum(np.linalg.inv(x) ** 2),
    "det": np.linalg.det,
    "slogdet": lambda x: np.linalg.slogdet(x)[1],
    "solve_vector": lambda x: np.sum(np.linalg.solve(x, B) ** 2),
    "solve_matrix": lambda x: np.sum(np.linalg.solve(x, x.T @ x)),
    "cholesky": lambda x: np.sum(np.linalg.cholesky((x + x.T) / 2)),
    "eigh": lambda x: np.sum(np.linalg.eigh((x + x.T) / 2)[0] ** 2),
    "eigvalsh": lambda x: np.sum(np.linalg.eigvalsh((x + x.T) / 2) * np.arange(3.0)),
    "svd_values": lambda x: np.sum(np.linalg.svd(x, compute_uv=False) ** 3),
    "qr": lambda x: np.sum(np.abs(np.linalg.qr(x)[1])),
    "pinv": lambda x: np.sum(np.linalg.pinv(x[:, :2])),
    "matrix_power": lambda x: np.sum(np.linalg.matrix_power(x, 3)) + np.sum(np.linalg.matrix_power(x, -1)),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_decorated_linalg(name):
    f = FUNCTIONS[name]
    value, grad = s2sgrad.value_and_grad(f)(A)
    assert value == pytest.approx(f(A), rel=1e-12)
    np.testing.assert_allclose(grad, _fd(f, A), rtol=1e-6, atol=1e-8)


def test_decorated_svd_returns_numpys_triple():
    def reconstruct(x):
        u, s, vt = np.linalg.svd(x, full_matrices=False)
        return np.sum((u * s) @ vt)

    value, grad = s2sgrad.value_and_grad(lambda x: np.sum(np.linalg.svd(x)[1]))(A)
    assert value == pytest.approx(np.linalg.svd(A)[1].sum())
    np.testing.assert_allclose(grad, np.linalg.svd(A)[0] @ np.linalg.svd(A)[2], atol=1e-12)   # d sum(s) = U V^T
    np.testing.assert_allclose(s2sgrad.grad(reconstruct)(A), np.ones_like(A), atol=1e-12)   # through u, s and vt
