"""The decorator front door: derivatives of plain NumPy functions.

``s2sgrad.grad(f)`` traces ``f`` with values that record graph ops through NumPy's
``__array_ufunc__`` / ``__array_function__`` protocols (no import changes in ``f``), adds
the derivative with ``tf.gradients`` and compiles it to a NumPy module like ``Session``
does, once per argument signature.

>>> import numpy as np, s2sgrad
>>> df = s2sgrad.grad(lambda x: np.sum(np.sin(x) * x))
>>> df(np.zeros(2))
array([0., 0.])
"""
from . import (  # noqa: F401
           complex,
           construction,
           decompositions,
           fft,
           indexing,
           layout,
           linalg,
           methods,
           nan_functions,
           numeric,
           numpy_hooks,
           reductions,
           selection,
           shaping,
           sorting,
           ufuncs,
)
from .api import GradientFunction, grad, hessian, jacfwd, jacobian, jacrev, value_and_grad
from .registry import supported
from .traced import Traced, TracedValueError

methods.install()

__all__ = ["grad", "value_and_grad", "jacobian", "jacfwd", "jacrev", "hessian", "GradientFunction", "Traced",
           "TracedValueError", "supported"]
