"""The decorator's linear algebra of complex matrices, in TensorFlow's convention (for a real loss
``L`` of ``z = x + iy`` the gradient is ``dL/dx + i dL/dy``): values against NumPy, gradients
against central differences of the real and imaginary parts (complex128), and against the
conjugate of autograd's where autograd 1.9 differentiates the function for complex inputs
(``AUTOGRAD`` says which; autograd's complex ``cholesky`` and ``pinv`` gradients disagree with finite
differences, and it has no ``matrix_power``, ``multi_dot``, ``qr``, ``eigvalsh``, ``vdot`` or matrix
``norm`` rule for ``ord`` 2, -2, 1, inf)."""
import numpy as np
import pytest

import s2sgrad
from test_decorator_complex import finite_differences

R = np.random.default_rng(11)


def _c(*shape):
    return R.uniform(-1.0, 1.0, shape) + 1j * R.uniform(-1.0, 1.0, shape)


A = _c(3, 3) + 3 * np.eye(3)              # well conditioned
AB = _c(2, 3, 3) + 3 * np.eye(3)          # a batch
B = _c(3, 2)
TALL = _c(4, 3)
WIDE = _c(2, 3)
HPD = A @ A.conj().T + np.eye(3)
WEIGHTS = R.uniform(-1.0, 1.0, (2, 6, 6)) # what a loss weighs the real and imaginary parts of a result with


def parts(xp, w):
    """A real loss of every real and imaginary part of ``w`` (up to 3-D, each side at most 6)."""
    w = xp.reshape(w, (1,) * (3 - xp.ndim(w)) + xp.shape(w))
    weights = WEIGHTS[:, :w.shape[-2], :w.shape[-1]]
    return xp.sum(xp.real(w) * weights[0] + xp.imag(w) * weights[1])


def herm(xp, z):
    """The Hermitian part: cholesky and eigh read one triangle, their gradients are the Hermitian ones."""
    return (z + xp.conj(xp.swapaxes(z, -1, -2))) / 2


def _qr_parts(xp, z):
    q, r = xp.linalg.qr(z)
    return parts(xp, q) + parts(xp, r * 0.5)


def _slogdet_both(xp, z):
    sign, log_abs = xp.linalg.slogdet(z)
    return parts(xp, sign * 2.0) + parts(xp, log_abs)


def _eigh_vectors(xp, z):
    e, v = xp.linalg.eigh(herm(xp, z) + xp.diag(xp.array([0.0, 3.0, 6.0])))
    return parts(xp, e) + xp.sum(xp.abs(v[:, 0]) * xp.abs(v[:, 2]))      # |v|: free of each column's phase


V3 = _c(3)
A4 = (_c(4, 4) + 3 * np.eye(4)).reshape(4, 2, 2)
A6 = (_c(6, 6) + 3 * np.eye(6)).reshape(2, 3, 6)
FUNCTIONS = {
    "inv": (lambda xp, z: parts(xp, xp.linalg.inv(z)), A),
    "inv_batch": (lambda xp, z: parts(xp, xp.linalg.inv(z)), AB),
    "det": (lambda xp, z: parts(xp, xp.linalg.det(z)), A),
    "det_batch": (lambda xp, z: parts(xp, xp.linalg.det(z)), AB),
    "slogdet": (lambda xp, z: parts(xp, xp.linalg.slogdet(z)[1]), A),
    "slogdet_sign": (_slogdet_both, A),
    "solve": (lambda xp, z: parts(xp, xp.linalg.solve(z, B)), A),
    "solve_rhs": (lambda xp, z: parts(xp, xp.linalg.solve(A, z)), B),
    "solve_vector": (lambda xp, z: parts(xp, xp.linalg.solve(z, V3)), A),
    "solve_real_matrix": (lambda xp, z: parts(xp, xp.linalg.solve(xp.real(A), z)), B),
    "cholesky": (lambda xp, z: parts(xp, xp.linalg.cholesky(herm(xp, z))), HPD),
    "cholesky_upper": (lambda xp, z: parts(xp, xp.linalg.cholesky(herm(xp, z), upper=True)), HPD),
    "eigh": (lambda xp, z: parts(xp, xp.linalg.eigh(herm(xp, z))[0]), HPD),
    "eigh_vectors": (_eigh_vectors, A),
    "eigvalsh": (lambda xp, z: parts(xp, xp.linalg.eigvalsh(herm(xp, z))), HPD),
    "svd": (lambda xp, z: parts(xp, xp.linalg.svd(z, compute_uv=False)), TALL),
    "svd_wide": (lambda xp, z: parts(xp, xp.linalg.svd(z, compute_uv=False)), WIDE),
    "qr": (_qr_parts, TALL),
    "qr_square": (_qr_parts, A),
    "qr_wide": (_qr_parts, WIDE),
    "pinv": (lambda xp, z: parts(xp, xp.linalg.pinv(z)), TALL),
    "pinv_wide": (lambda xp, z: parts(xp, xp.linalg.pinv(z)), WIDE),
    "matrix_power": (lambda xp, z: parts(xp, xp.linalg.matrix_power(z, 3)), A),
    "matrix_power_negative": (lambda xp, z: parts(xp, xp.linalg.matrix_power(z, -2)), A),
    "multi_dot": (lambda xp, z: parts(xp, xp.linalg.multi_dot([V3, z, B, WIDE])), A),
    "tensorinv": (lambda xp, z: parts(xp, xp.reshape(xp.linalg.tensorinv(z, ind=1), (2, 2, 4))), A4),
    "tensorsolve": (lambda xp, z: parts(xp, xp.linalg.tensorsolve(z, B.T)), A6),
    "tensorsolve_rhs": (lambda xp, z: parts(xp, xp.linalg.tensorsolve(A6, z)), B.T.copy()),
    "norm_fro": (lambda xp, z: xp.linalg.norm(z), A),
    "norm_nuc": (lambda xp, z: xp.linalg.norm(z, "nuc"), A),
    "norm_2": (lambda xp, z: xp.linalg.norm(z, 2), A),
    "norm_minus_2": (lambda xp, z: xp.linalg.norm(z, -2), A),
    "norm_1": (lambda xp, z: xp.linalg.norm(z, 1), A),
    "norm_inf": (lambda xp, z: xp.linalg.norm(z, np.inf), A),
    "norm_vector_3": (lambda xp, z: xp.linalg.norm(z[0], 3), A),
    "norm_axis": (lambda xp, z: xp.sum(xp.linalg.norm(z, axis=1)), A),
    "trace": (lambda xp, z: parts(xp, xp.trace(z @ z)), A),
    "dot": (lambda xp, z: parts(xp, xp.dot(z, B)), A),
    "vdot": (lambda xp, z: parts(xp, xp.vdot(z, A)), A),
    "matmul": (lambda xp, z: parts(xp, xp.matmul(z, xp.conj(z).T)), A),
    "tensordot": (lambda xp, z: parts(xp, xp.tensordot(z, B, 1)), A),
    "inner": (lambda xp, z: parts(xp, xp.inner(z, B.T)), A),
    "outer": (lambda xp, z: parts(xp, xp.outer(z[0], B[:, 0])), A),
    "einsum": (lambda xp, z: parts(xp, xp.einsum("ij,jk->ik", z, B)), A),
}
# autograd's complex rules that agree with finite differences (the others are wrong or missing for complex)
AUTOGRAD = {"inv", "inv_batch", "det", "det_batch", "slogdet", "solve", "solve_rhs", "solve_vector", "eigh",
            "eigh_vectors", "svd", "svd_wide", "norm_fro", "norm_nuc", "norm_vector_3",
            "norm_axis", "trace", "dot", "matmul", "tensordot", "inner", "outer", "einsum"}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_gradient_is_the_derivative(name):
    f, z = FUNCTIONS[name]
    value, g = s2sgrad.value_and_grad(lambda z: f(np, z))(z)
    np.testing.assert_allclose(value, f(np, z), rtol=1e-12, atol=1e-12)
    assert g.dtype == np.complex128 and g.shape == z.shape
    np.testing.assert_allclose(g, finite_differences(lambda z: f(np, z), z), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", sorted(AUTOGRAD))
def test_gradient_is_the_conjugate_of_autograds(name):
    autograd = pytest.importorskip("autograd")
    anp = pytest.importorskip("autograd.numpy")
    f, z = FUNCTIONS[name]
    ours = s2sgrad.grad(lambda z: f(np, z))(z)
    np.testing.assert_allclose(ours, np.conj(autograd.grad(lambda z: f(anp, z))(z)), rtol=1e-9, atol=1e-11)


def _outputs(z):
    sign, log_abs = np.linalg.slogdet(z)
    e, v = np.linalg.eigh(z)
    u, s, vh = np.linalg.svd(z)
    return [np.linalg.inv(z), np.linalg.det(z), sign, log_abs, e, v, u, s, vh, np.linalg.cholesky(z),
            np.linalg.cholesky(z, upper=True), *np.linalg.qr(z), np.linalg.pinv(z), np.linalg.norm(z, 2),
            np.linalg.norm(z, "nuc"), np.linalg.eigvalsh(z), np.linalg.multi_dot([z, z, z])]


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_values_and_dtypes_are_numpys(dtype):
    z = HPD.astype(dtype)
    (_, values), _ = s2sgrad.value_and_grad(lambda z: (np.real(np.sum(_outputs(z)[0])), _outputs(z)), has_aux=True)(z)
    expected = _outputs(z)
    assert [np.asarray(v).dtype for v in values] == [np.asarray(v).dtype for v in expected]
    for got, want in zip(values, expected, strict=True):
        np.testing.assert_allclose(got, want, rtol=2e-5 if dtype == np.complex64 else 1e-10, atol=1e-5)


def test_complex64_gradients_are_complex64():
    z = A.astype(np.complex64)
    g = s2sgrad.grad(lambda z: np.real(np.linalg.det(z)) + np.linalg.norm(np.linalg.inv(z), "nuc"))(z)
    assert g.dtype == np.complex64
    exact = finite_differences(lambda z: np.real(np.linalg.det(z)) + np.linalg.norm(np.linalg.inv(z), "nuc"), A)
    np.testing.assert_allclose(g, exact, rtol=2e-4, atol=2e-4)


def test_complex_spectral_norms_are_of_the_matrix_not_of_its_moduli():
    value = s2sgrad.value_and_grad(lambda z: np.linalg.norm(z, 2))(A)[0]
    np.testing.assert_allclose(value, np.linalg.svd(A, compute_uv=False)[0], rtol=1e-12)
    assert not np.isclose(value, np.linalg.norm(np.abs(A), 2))


def test_eig_of_a_complex_matrix_is_refused_by_name():
    with pytest.raises(NotImplementedError, match="numpy.linalg.eig of complex matrices"):
        s2sgrad.grad(lambda z: np.sum(np.abs(np.linalg.eig(z)[0])))(A)


def test_singular_vector_gradients_are_the_derivatives():
    loss = lambda z: np.sum(np.abs(np.linalg.svd(z)[0]) * [1.0, 2.0, 3.0])   # noqa: E731 - phase-free
    np.testing.assert_allclose(s2sgrad.grad(loss)(A), finite_differences(loss, A), rtol=1e-6, atol=1e-7)


def test_singular_vector_gradients_of_full_matrices_of_unequal_sizes_are_refused():
    wide = _c(2, 4)
    with pytest.raises(NotImplementedError, match="singular vectors.*2 x 4 matrix with full_matrices=True"):
        s2sgrad.grad(lambda z: np.sum(np.abs(np.linalg.svd(z)[2])))(wide)


def test_generated_code_reads_like_numpy():
    text = s2sgrad.grad(lambda z: np.real(np.linalg.det(z))).source(A)
    assert "np.linalg.det(z)" in text and "np.linalg.inv(np.conj(np.swapaxes(z, -1, -2)))" in text
