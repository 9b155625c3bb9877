"""More layout functions on traced values, written with the traced NumPy functions themselves:
rot90, rollaxis, vsplit/hsplit/dsplit, row_stack, kron, select, gradient, fft.fftshift/ifftshift
and the ``astype`` function. Each one is the composition NumPy documents, so its gradient is
the composition's."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .convert import as_traced, cast_traced, contains_traced
from .reductions import normalize_axes
from .registry import FUNCTIONS, implements
from .traced import Traced

__all__: list[str] = []


@implements(np.rot90)
def _rot90(m_: Any, k: int = 1, axes: Sequence[int] = (0, 1)) -> Traced:
    x = as_traced(m_)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    first, second = normalize_axes(axes[0], x.ndim)[0], normalize_axes(axes[1], x.ndim)[0]
    if first == second:
        raise ValueError("Axes must be different.")
    k = int(k) % 4
    if k == 0:
        return x
    if k == 2:
        return np.flip(np.flip(x, first), second)  # type: ignore[return-value]  # dispatches to the traced flip
    order = list(range(x.ndim))
    order[first], order[second] = order[second], order[first]
    if k == 1:
        return np.transpose(np.flip(x, second), order)  # type: ignore[return-value]
    return np.flip(np.transpose(x, order), second)  # type: ignore[return-value]


@implements(np.rollaxis)
def _rollaxis(a_: Any, axis: int, start: int = 0) -> Traced:
    x = as_traced(a_)
    n = x.ndim
    (axis,) = normalize_axes(axis, n)
    start = int(start) + n if int(start) < 0 else int(start)
    if not 0 <= start <= n:
        raise getattr(np, "exceptions", np).AxisError(
            f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in")
    start -= axis < start
    if axis == start:
        return x
    order = [i for i in range(n) if i != axis]
    order.insert(start, axis)
    return np.transpose(x, order)  # type: ignore[return-value]


def _split_along(name: str, axis_of: Any, min_ndim: int) -> Any:
    def split(ary: Any, indices_or_sections: Any) -> list:
        x = as_traced(ary)
        if x.ndim < min_ndim:
            raise ValueError(f"{name} only works on arrays of {min_ndim} or more dimensions")
        return np.split(x, indices_or_sections, axis=axis_of(x.ndim))
    return split


implements(np.vsplit)(_split_along("vsplit", lambda n: 0, 2))
implements(np.hsplit)(_split_along("hsplit", lambda n: 0 if n == 1 else 1, 1))
implements(np.dsplit)(_split_along("dsplit", lambda n: 2, 3))

if hasattr(np, "row_stack"):  # deprecated in NumPy 2.0, gone later
    implements(np.row_stack)(lambda tup, **kwargs: np.vstack(tup, **kwargs))


@implements(np.kron)
def _kron(a_: Any, b: Any) -> Traced:
    """Every product ``a[i] * b[j]`` at block position ``i``, offset ``j``: interleaved axes, one reshape."""
    x, y = as_traced(a_), as_traced(b)
    n = max(x.ndim, y.ndim)
    xs, ys = (1,) * (n - x.ndim) + x.shape, (1,) * (n - y.ndim) + y.shape
    left = np.reshape(x, [d for size in xs for d in (size, 1)])
    right = np.reshape(y, [d for size in ys for d in (1, size)])
    return np.reshape(left * right, [p * q for p, q in zip(xs, ys, strict=True)])  # type: ignore[return-value]


@implements(np.select)
def _select(condlist: Sequence[Any], choicelist: Sequence[Any], default: Any = 0) -> Traced:
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if not condlist:
        raise ValueError("select with an empty condition list is not possible")
    result = default
    for condition, choice in reversed(list(zip(condlist, choicelist, strict=True))):
        result = np.where(condition, choice, result)
    return as_traced(result)


def _spacings(varargs: tuple, axes: tuple, shape: tuple) -> list[np.ndarray]:
    """The distances between neighbours along each axis (scalars or coordinate arrays, as NumPy takes them)."""
    if not varargs:
        varargs = (1.0,)
    if len(varargs) == 1 and np.ndim(varargs[0]) == 0:
        varargs = varargs * len(axes)
    if len(varargs) != len(axes):
        raise TypeError("invalid number of arguments")
    out = []
    for spacing, ax in zip(varargs, axes, strict=True):
        if contains_traced(spacing):
            raise TypeError("numpy.gradient takes constant spacings; differentiate the function values instead")
        spacing = np.asarray(spacing, dtype=np.float64)
        if spacing.ndim == 0:
            out.append(np.full(shape[ax] - 1, float(spacing)))
        elif spacing.shape == (shape[ax],):
            out.append(np.diff(spacing))
        else:
            raise ValueError("when 1d, distances must match the length of the corresponding dimension")
    return out


def _along(values: np.ndarray, ax: int, ndim: int) -> Traced:
    return as_traced(np.reshape(values, [-1 if i == ax else 1 for i in range(ndim)]))


def _derivative(f: Traced, ax: int, dx: np.ndarray, edge_order: int) -> Traced:
    """Second-order central differences inside, one-sided differences of ``edge_order`` at the ends."""
    n = f.ndim

    def part(start: Any, stop: Any) -> Traced:
        return f[(slice(None),) * ax + (slice(start, stop),)]

    left, right = dx[:-1], dx[1:]
    inner = (part(None, -2) * _along(-right / (left * (left + right)), ax, n)
             + part(1, -1) * _along((right - left) / (left * right), ax, n)
             + part(2, None) * _along(left / (right * (left + right)), ax, n))
    if edge_order == 1:
        first = (part(1, 2) - part(0, 1)) / dx[0]
        last = (part(-1, None) - part(-2, -1)) / dx[-1]
    else:
        d1, d2 = dx[0], dx[1]
        first = (part(0, 1) * -(2 * d1 + d2) / (d1 * (d1 + d2)) + part(1, 2) * (d1 + d2) / (d1 * d2)
                 - part(2, 3) * d1 / (d2 * (d1 + d2)))
        d1, d2 = dx[-2], dx[-1]
        last = (part(-3, -2) * d2 / (d1 * (d1 + d2)) - part(-2, -1) * (d1 + d2) / (d1 * d2)
                + part(-1, None) * (2 * d2 + d1) / (d2 * (d1 + d2)))
    return np.concatenate([first, inner, last], axis=ax)  # type: ignore[return-value]


@implements(np.gradient)
def _gradient(f: Any, *varargs: Any, axis: Any = None, edge_order: int = 1) -> Any:
    x = as_traced(f)
    if x.dtype.kind != "f":
        x = cast_traced(x, np.dtype(np.float64))
    axes = tuple(range(x.ndim)) if axis is None else tuple(normalize_axes(ax, x.ndim)[0] for ax in np.atleast_1d(axis))
    if edge_order not in (1, 2):
        raise ValueError("'edge_order' greater than 2 not supported")
    if any(x.shape[ax] < edge_order + 1 for ax in axes):
        raise ValueError("Shape of array too small to calculate a numerical gradient, "
                         "at least (edge_order + 1) elements are required.")
    dxs = _spacings(varargs, axes, x.shape)
    outs = [_derivative(x, ax, dx.astype(x.dtype), edge_order) for ax, dx in zip(axes, dxs, strict=True)]
    return outs[0] if len(outs) == 1 else tuple(outs)


def _shift(sign: int) -> Any:
    def shift(x: Any, axes: Any = None) -> Traced:
        v = as_traced(x)
        axes = tuple(range(v.ndim)) if axes is None else tuple(np.atleast_1d(axes).tolist())
        return np.roll(v, [sign * (v.shape[ax] // 2) for ax in axes], axes)  # type: ignore[return-value]
    return shift


implements(np.fft.fftshift)(_shift(1))
implements(np.fft.ifftshift)(_shift(-1))


def _astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Traced:
    return cast_traced(as_traced(x), np.dtype(dtype))


if hasattr(np, "astype"):  # NumPy 2.1 and later
    implements(np.astype)(_astype)


@implements(np.result_type)
def _result_type(*arrays_and_dtypes: Any) -> np.dtype:
    """NumPy's answer for the traced values' dtypes (a weak one counts as a Python scalar of its kind)."""
    return np.result_type(*(v if not isinstance(v, Traced) else v.dtype.type(0).item() if v.weak else v.dtype
                            for v in arrays_and_dtypes))


Traced.ptp = lambda self, *args, **kwargs: FUNCTIONS[np.ptp](self, *args, **kwargs)  # type: ignore[attr-defined]  # as autograd's arrays have it
