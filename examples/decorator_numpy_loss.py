"""Decorator: gradients of a plain NumPy loss, and the NumPy code s2sgrad wrote for them.

``s2sgrad.grad(loss, wrt=(0, 1))`` traces ``loss`` (ordinary NumPy: ``@``, ``np.tanh``,
``np.mean``, a helper function) at the arguments' shapes and dtypes, compiles the gradient
into a module, and caches it per signature. ``.source(*args)`` shows that module.

    python examples/decorator_numpy_loss.py
"""
import numpy as np

import s2sgrad


def predict(w, b, x):
    return np.tanh(x @ w + b)


def loss(w, b, x, y):
    err = predict(w, b, x) - y
    return np.mean(err ** 2) + 1e-3 * np.sum(w * w)


grad_loss = s2sgrad.grad(loss, wrt=(0, 1))

rng = np.random.default_rng(0)
x = rng.normal(size=(32, 3))
y = np.sin(x[:, :1])
w = 0.1 * rng.normal(size=(3, 1))
b = np.zeros(1)

print(f"loss before: {loss(w, b, x, y):.6f}")
for _ in range(200):
    gw, gb = grad_loss(w, b, x, y)
    w, b = w - 0.2 * gw, b - 0.2 * gb
print(f"loss after:  {loss(w, b, x, y):.6f}")

# The gradient agrees with central finite differences (float64 throughout, as in NumPy).
gw, gb = grad_loss(w, b, x, y)
eps, direction = 1e-6, rng.normal(size=w.shape)
numeric = (loss(w + eps * direction, b, x, y) - loss(w - eps * direction, b, x, y)) / (2 * eps)
print("finite differences agree:", np.isclose(numeric, np.sum(gw * direction), rtol=1e-6))

print()
print(grad_loss.source(w, b, x, y))
