"""``tf.signal``: the Fourier transforms over the innermost 1, 2 or 3 axes (``tf.signal.fft``,
``tf.signal.rfft2d(x, fft_length=[8, 8])``...) and ``fftshift``/``ifftshift`` (of static shapes).
TF 1.x had the transforms as ``tf.spectral`` too."""
from .ops.fft_ops import (
                          fft,
                          fft2d,
                          fft3d,
                          fftshift,
                          ifft,
                          ifft2d,
                          ifft3d,
                          ifftshift,
                          irfft,
                          irfft2d,
                          irfft3d,
                          rfft,
                          rfft2d,
                          rfft3d,
)
from .tf1_api import missing_names as _missing_names

__all__ = ["fft", "fft2d", "fft3d", "fftshift", "ifft", "ifft2d", "ifft3d", "ifftshift", "irfft", "irfft2d",
           "irfft3d", "rfft", "rfft2d", "rfft3d"]


__getattr__ = _missing_names("signal", __name__)
