"""The decorator's ``np.fft``: complex arguments checked directly (central differences of the real
and the imaginary parts, TF's convention ``dL/dx + i dL/dy``) and against autograd, whose gradient is
the conjugate (``ours == conj(autograd)``) where autograd's rule is right. autograd's rules are wrong
for ``rfft`` with an ``n`` other than the input's length, for ``rfft``/``irfft`` with
``norm="forward"``, and refuse odd lengths; there only finite differences check ours (the tests
below show autograd's difference, so they fail when autograd changes)."""
import numpy as np
import pytest

import s2sgrad
from test_decorator_complex import finite_differences

R = np.random.default_rng(160)


def c(*shape):
    return R.standard_normal(shape) + 1j * R.standard_normal(shape)


def spectrum_loss(y, xp=np):
    """A real function of ``y`` that sees every element's both parts, nonlinearly."""
    w = np.cos(np.arange(y.size).reshape(y.shape)) + 1.5
    return xp.sum(xp.real(y) * w + xp.imag(y) * (2.0 - w)) + 0.1 * xp.sum(xp.abs(y) ** 2)


# name -> (transform(fft_module, x), argument); autograd agrees with these
AGREED = {
    "fft": (lambda f, x: f.fft(x), c(6)),
    "fft_pad": (lambda f, x: f.fft(x, n=8), c(2, 5)),
    "fft_crop_axis_ortho": (lambda f, x: f.fft(x, n=3, axis=0, norm="ortho"), c(5, 2)),
    "fft_forward": (lambda f, x: f.fft(x, norm="forward"), c(4)),
    "ifft": (lambda f, x: f.ifft(x, axis=1), c(2, 5, 3)),
    "ifft_pad_forward": (lambda f, x: f.ifft(x, n=7, norm="forward"), c(3, 4)),
    "fft2_s": (lambda f, x: f.fft2(x, s=(3, 5)), c(2, 4, 4)),
    "ifft2": (lambda f, x: f.ifft2(x, norm="ortho"), c(3, 4)),
    "fftn_axes": (lambda f, x: f.fftn(x, axes=(0, 2)), c(2, 3, 4)),
    "ifftn_s_axes": (lambda f, x: f.ifftn(x, s=(4, 2), axes=(2, 1)), c(2, 3, 4)),
    "fft_of_reals": (lambda f, x: f.fft(x), R.standard_normal((3, 4))),
    "rfft": (lambda f, x: f.rfft(x), R.standard_normal((3, 6))),
    "rfft_ortho_axis": (lambda f, x: f.rfft(x, axis=0, norm="ortho"), R.standard_normal((4, 3))),
    "rfft2": (lambda f, x: f.rfft2(x), R.standard_normal((3, 4))),
    "rfftn": (lambda f, x: f.rfftn(x, axes=(0, 1, 2)), R.standard_normal((2, 3, 4))),
    "irfft": (lambda f, x: f.irfft(x), c(3, 5)),
    "irfft_pad_ortho": (lambda f, x: f.irfft(x, n=12, norm="ortho"), c(5)),
    "irfft_crop": (lambda f, x: f.irfft(x, n=4, axis=0), c(5, 2)),
    "irfft2": (lambda f, x: f.irfft2(x), c(3, 4)),
    "irfftn": (lambda f, x: f.irfftn(x, s=(3, 6), axes=(0, 1)), c(2, 4)),
    "irfft_of_reals": (lambda f, x: f.irfft(x), R.standard_normal(5)),
}
# autograd is wrong or refuses here (the comment says which); finite differences check ours
AUTOGRAD_WRONG = {
    "rfft_pad": (lambda f, x: f.rfft(x, n=9), R.standard_normal((2, 6))),          # pads/crops: wrong values
    "rfft_crop": (lambda f, x: f.rfft(x, n=4), R.standard_normal(6)),
    "rfft_forward": (lambda f, x: f.rfft(x, norm="forward"), R.standard_normal(6)),   # ignores norm
    "irfft_forward": (lambda f, x: f.irfft(x, norm="forward"), c(2, 4)),
    "rfftn_s_forward": (lambda f, x: f.rfftn(x, s=(3, 6), axes=(1, 2), norm="forward"), R.standard_normal((2, 4, 5))),
    "irfft2_forward": (lambda f, x: f.irfft2(x, norm="forward"), c(3, 4)),
}
AUTOGRAD_REFUSES = {                                                                  # odd lengths: NotImplementedError
    "rfft_odd": (lambda f, x: f.rfft(x), R.standard_normal(7)),
    "rfft2_odd": (lambda f, x: f.rfft2(x), R.standard_normal((3, 5))),
    "irfft_odd": (lambda f, x: f.irfft(x, n=9), c(5)),
    "irfftn_odd": (lambda f, x: f.irfftn(x, s=(3, 7), axes=(1, 2)), c(2, 4, 4)),
}
ALL = {**AGREED, **AUTOGRAD_WRONG, **AUTOGRAD_REFUSES}


def _loss(name):
    transform = ALL[name][0]
    return lambda x: spectrum_loss(transform(np.fft, x))


def _numeric(f, x):
    if np.iscomplexobj(x):
        return finite_differences(f, x)
    steps = np.eye(x.size).reshape((x.size,) + x.shape) * 1e-6
    return np.array([(f(x + d) - f(x - d)) / 2e-6 for d in steps]).reshape(x.shape)


@pytest.mark.parametrize("name", sorted(ALL))
def test_value_and_gradient_match_numpy_and_finite_differences(name):
    x = ALL[name][1]
    value, g = s2sgrad.value_and_grad(_loss(name))(x)
    np.testing.assert_allclose(value, _loss(name)(x), rtol=1e-12)
    assert g.dtype == x.dtype and g.shape == x.shape
    np.testing.assert_allclose(g, _numeric(_loss(name), x), rtol=1e-6, atol=1e-7)


def _autograd(name):
    autograd = pytest.importorskip("autograd")
    anp = pytest.importorskip("autograd.numpy")
    transform, x = ALL[name]
    return autograd.grad(lambda v: spectrum_loss(transform(anp.fft, v), anp))(x)


@pytest.mark.parametrize("name", sorted(AGREED))
def test_the_gradient_is_autograds_conjugate(name):
    expected = np.conj(_autograd(name))
    np.testing.assert_allclose(s2sgrad.grad(_loss(name))(AGREED[name][1]), expected, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("name", sorted(AUTOGRAD_WRONG))
def test_where_autograds_rule_is_wrong(name):
    ours = s2sgrad.grad(_loss(name))(AUTOGRAD_WRONG[name][1])
    assert np.max(np.abs(ours - np.conj(_autograd(name)))) > 1e-3


@pytest.mark.parametrize("name", sorted(AUTOGRAD_REFUSES))
def test_where_autograd_refuses_odd_lengths(name):
    with pytest.raises(NotImplementedError):
        _autograd(name)


def test_second_order():
    """The Hessian of ``|rfft(x, n=9)|^2``-style losses: the adjoints' adjoints, checked along a direction."""
    def f(x):
        return np.sum(np.abs(np.fft.rfft(x, n=9)) ** 3) + np.sum(np.fft.irfft(np.fft.fft(x) ** 2, n=7))

    x, v, d = R.standard_normal(6), R.standard_normal(6), R.standard_normal(6)
    first = s2sgrad.grad(f)
    hv = s2sgrad.grad(lambda x: np.sum(first(x) * v))(x)
    numeric = (np.sum(first(x + 1e-5 * d) * v) - np.sum(first(x - 1e-5 * d) * v)) / 2e-5
    np.testing.assert_allclose(np.sum(hv * d), numeric, rtol=1e-5)


def test_single_precision_stays_single():
    x = R.standard_normal((2, 8)).astype(np.float32)
    g = s2sgrad.grad(lambda x: np.sum(np.abs(np.fft.rfft(x)) ** 2))(x)
    assert g.dtype == np.float32
    z = x.astype(np.complex64)
    gz = s2sgrad.grad(lambda z: np.sum(np.abs(np.fft.fft(z)) ** 2))(z)
    assert gz.dtype == np.complex64
    np.testing.assert_allclose(gz, 2 * 8 * z, rtol=1e-4)   # |F z|^2 = n |z|^2 (Parseval): d = 2 n z


def test_fftshift_of_complex_values():
    x = c(2, 5)
    f = lambda z: spectrum_loss(np.fft.ifftshift(np.fft.fftshift(np.fft.fft(z), axes=1) * 2.0))  # noqa: E731
    np.testing.assert_allclose(s2sgrad.grad(f)(x), finite_differences(f, x), rtol=1e-6, atol=1e-7)


def test_the_generated_code_reads_like_numpy():
    g = s2sgrad.grad(lambda x: np.sum(np.abs(np.fft.rfft(x, n=8, axis=0)) ** 2))
    text = g.source(R.standard_normal((6, 3)))
    assert "rfft = np.fft.rfft(x, n=8, axis=0)" in text
    assert "np.array([[1.0], [0.5], [0.5], [0.5], [1.0]], dtype=np.complex128)" in text  # the Hermitian weights
    assert "np.fft.irfft(g_rfft * hermitian_weights, axis=0, norm='forward')[:6]" in text


def test_bad_arguments_are_clear_errors():
    x = R.standard_normal(4)
    with pytest.raises(ValueError, match="Invalid norm value 'unitary'"):
        s2sgrad.grad(lambda x: np.sum(np.abs(np.fft.fft(x, norm="unitary"))))(x)
    with pytest.raises(TypeError, match="np.fft.rfft needs a real array"):
        s2sgrad.grad(lambda z: np.sum(np.abs(np.fft.rfft(z))))(x + 1j)
    with pytest.raises(NotImplementedError, match="out=.*fft_decorator.py"):
        s2sgrad.grad(lambda x: np.sum(np.abs(np.fft.fft(x, out=np.zeros(4, complex)))))(x)
    with pytest.raises(NotImplementedError, match="repeated axes"):
        s2sgrad.grad(lambda x: np.sum(np.abs(np.fft.fftn(x, axes=(0, 0)))))(x)
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        s2sgrad.grad(lambda x: np.sum(np.abs(np.fft.fft(x, n=0))))(x)
    with pytest.raises(ValueError, match="out of range"):
        s2sgrad.grad(lambda x: np.sum(np.abs(np.fft.fft(x, axis=1))))(x)
