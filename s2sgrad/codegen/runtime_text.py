"""Generated modules' checks and prints (``rt.assert_that``, ``rt.print_v2``, ``rt.check_numerics``...):
TensorFlow's text for tensors. NumPy and the standard library only, as every runtime helper."""
from __future__ import annotations

import numpy as np


def tf_text(value):
    """One element as TensorFlow writes it: the shortest of 6 (float32) or 15 (float64)
    significant digits that reads back the same, else 9 or 17; bools as 1 and 0."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, (str, np.str_)):
        return str(value)
    if isinstance(value, (bool, np.bool_)):
        return "1" if value else "0"
    if isinstance(value, np.floating) and np.isfinite(value):
        short, long = (15, 17) if value.dtype == np.float64 else (6, 9)
        text = f"{float(value):.{short}g}"
        return text if value.dtype.type(text) == value else f"{float(value):.{long}g}"
    if isinstance(value, (float, np.floating)):
        return "nan" if value != value else "inf" if value > 0 else "-inf"
    return str(value)


def summarize(value, limit):
    """TF's ``SummarizeValue``: the first ``limit`` elements (all for -1) in nested brackets,
    ``...`` where elements were left out (what Assert and Print show)."""
    value = np.asarray(value)
    flat = value.reshape(-1)
    limit = flat.size if limit < 0 else min(limit, flat.size)
    if value.ndim == 0:
        return tf_text(flat[0]) if limit else ""
    out, taken = [], [0]

    def dim(d):
        last = d == value.ndim - 1
        for i in range(value.shape[d]):
            if taken[0] >= limit:
                if last and d != 0:
                    out.append("...")
                return
            if last:
                out.append((" " if i else "") + tf_text(flat[taken[0]]))
                taken[0] += 1
            else:
                out.append("[")
                dim(d + 1)
                out.append("]")

    dim(0)
    return "".join(out) + ("..." if flat.size > limit else "")


def assert_that(condition, data, summarize_limit):
    """``tf.Assert``: raise AssertionError with TF's message unless the scalar ``condition`` holds."""
    condition = np.asarray(condition)
    if condition.ndim:
        raise ValueError(f"In[0] should be a scalar: {list(condition.shape)}")
    if not condition:
        raise AssertionError("assertion failed: " + " ".join(f"[{summarize(d, summarize_limit)}]" for d in data))


def write_to(stream, text):
    """``text`` to ``"stdout"`` (Python's, so redirections apply) or ``"stderr"`` (file descriptor 2,
    where TensorFlow's kernels write too)."""
    if stream == "stdout":
        print(text, end="", flush=True)
        return
    print(end="", flush=True)  # what Python printed before comes first
    with open(2, "w", closefd=False) as err:
        err.write(text)


def print_tensors(value, message, data, summarize_limit):
    """``tf.Print``: write ``message`` and the summaries of ``data`` to stderr; ``value`` passes through."""
    write_to("stderr", message + "".join(f"[{summarize(d, summarize_limit)}]" for d in data) + "\n")
    return value


def _print_v2_text(value, edge, depth=0):
    """A tensor as ``tf.print`` writes it: NumPy-like rows, ``edge`` items at each end of a long axis."""
    value = np.asarray(value)
    if value.ndim == 0:
        item = value[()]
        return f'"{tf_text(item)}"' if isinstance(item, (bytes, str)) else tf_text(item)
    n = value.shape[0]
    cut = 0 <= edge and 2 * edge < n
    items = [_print_v2_text(value[i], edge, depth + 1) for i in (list(range(edge)) if cut else range(n))]
    tail = [_print_v2_text(value[i], edge, depth + 1) for i in range(n - edge, n)] if cut else []
    parts = items + (["..."] if cut else []) + tail
    joiner = " " if value.ndim == 1 else "\n" + " " * (depth + 1)
    return "[" + joiner.join(parts) + "]"


def print_v2(template, values, edge, stream):
    """``tf.print``: ``template`` with each ``{}`` replaced by a value's text, to ``stream``."""
    write_to(stream, template.format(*(_print_v2_text(v, edge) for v in values)))


def check_numerics(value, message):
    """``tf.debugging.check_numerics``: ``value``, or AssertionError when it holds NaN or Inf."""
    nan, inf = np.isnan(value).any(), np.isinf(value).any()
    if nan or inf:
        what = "Inf and NaN" if nan and inf else "NaN" if nan else "Inf"
        raise AssertionError(f"{message} : Tensor had {what} values")
    return value
