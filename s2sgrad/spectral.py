"""``tf.spectral``: TF 1.x's first name for ``tf.signal``'s Fourier transforms (the same functions)."""
from .ops.fft_ops import fft, fft2d, fft3d, ifft, ifft2d, ifft3d, irfft, irfft2d, irfft3d, rfft, rfft2d, rfft3d
from .tf1_api import missing_names as _missing_names

__all__ = ["fft", "fft2d", "fft3d", "ifft", "ifft2d", "ifft3d", "irfft", "irfft2d", "irfft3d", "rfft", "rfft2d",
           "rfft3d"]


__getattr__ = _missing_names("spectral", __name__)
