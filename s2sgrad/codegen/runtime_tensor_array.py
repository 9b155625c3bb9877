"""Generated modules' TensorArray helpers (``rt.ta_write``, ``rt.ta_stack``...): a TensorArray is a
Python list of arrays. NumPy only, as every runtime helper."""
from __future__ import annotations

import numpy as np


def step_grad(steps, index, g):
    """Zeros with one row per recorded iteration of ``steps`` and ``g`` in row ``index``. ``g`` None is
    no gradient (of a record an If left undefined): zeros shaped like the defined records."""
    if g is None:
        like = np.asarray(next((s for s in steps if s is not None), 0.0))  # a record may hold records
        return np.zeros((len(steps), *np.shape(like)), dtype=np.result_type(like))
    out = np.zeros((len(steps), *np.shape(g)), dtype=np.result_type(g))
    out[index] = g
    return out


def ta_write(ta, index, value, dynamic_size):
    """A TensorArray (a list) with element ``index`` set: a new list, as TF's TensorList."""
    index = int(index)
    if index < 0 or (index >= len(ta) and not dynamic_size):
        raise IndexError(f"Tried to write to index {index} but array is not resizeable and size is: {len(ta)}")
    out = list(ta) + [None] * (index + 1 - len(ta))
    out[index] = value
    return out


def ta_stack(ta, element_shape, dtype):
    """The elements stacked; unwritten ones are zeros when the element shape is known."""
    if any(e is None for e in ta):
        if element_shape is None:
            raise ValueError("Tried to stack elements of an empty list with non-fully-defined element_shape")
        ta = [np.zeros(element_shape, dtype) if e is None else e for e in ta]
    if not ta:
        return np.zeros((0, *(element_shape or ())), dtype)
    return np.stack(ta)


def ta_size(ta):
    return np.int32(len(ta))


def ta_scatter(ta, indices, value):
    out = list(ta)
    for i, row in zip(np.reshape(indices, -1), value, strict=True):
        if not 0 <= i < len(out):
            raise IndexError(f"Tried to write to index {i} but array size is: {len(out)}")
        out[int(i)] = row
    return out


def ta_concat(ta, element_shape, dtype):
    return np.concatenate(ta) if ta else np.zeros((0, *(element_shape or ())[1:]), dtype)


def ta_split(ta, value, lengths):
    lengths = [int(n) for n in np.reshape(lengths, -1)]
    if sum(lengths) != len(value):
        raise ValueError(f"Expected sum of lengths to be equal to values.shape[0], but sum of lengths is "
                         f"{sum(lengths)} and value's shape is: {list(np.shape(value))}")
    bounds = np.cumsum([0] + lengths)
    return [value[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


def ta_concat_grad(ta, g):
    """The gradient of a TensorArray concat, element by element (the elements must have one length)."""
    lengths = {len(e) for e in ta}
    if len(lengths) > 1:
        raise ValueError(f"the gradient of TensorArray.concat needs elements of one length, got {sorted(lengths)}")
    return np.reshape(g, (len(ta), lengths.pop() if lengths else 0, *np.shape(g)[1:]))
