"""``tf.debugging``: the finiteness tests, ``check_numerics``, ``Assert`` and the ``assert_*`` family."""
from typing import Any

from .ops.assert_ops import (
    Assert,
    assert_equal,
    assert_greater,
    assert_greater_equal,
    assert_integer,
    assert_less,
    assert_less_equal,
    assert_near,
    assert_negative,
    assert_non_negative,
    assert_non_positive,
    assert_none_equal,
    assert_positive,
    assert_rank,
    assert_rank_at_least,
    assert_rank_in,
    assert_scalar,
    assert_type,
    is_non_decreasing,
    is_numeric_tensor,
    is_strictly_increasing,
)
from .ops.math_ops import is_finite, is_inf, is_nan
from .ops.print_ops import check_numerics
from .ssa.graph import Tensor
from .tf1_api import missing_names as _missing_names

__all__ = ["Assert", "assert_all_finite", "assert_equal", "assert_greater", "assert_greater_equal", "assert_integer",
           "assert_less", "assert_less_equal", "assert_near", "assert_negative", "assert_non_negative",
           "assert_non_positive", "assert_none_equal", "assert_positive", "assert_rank", "assert_rank_at_least",
           "assert_rank_in", "assert_scalar", "assert_type", "check_numerics", "is_finite", "is_inf", "is_nan",
           "is_non_decreasing", "is_numeric_tensor", "is_strictly_increasing"]


def assert_all_finite(t: Any = None, msg: Any = None, name: str | None = None, x: Any = None,
                      message: Any = None) -> Tensor:
    """``check_numerics(t, msg)`` under TF-1.x's ``tf.debugging.assert_all_finite`` name (``x`` and
    ``message`` are its newer spellings of ``t`` and ``msg``).

    >>> # logits = tf.debugging.assert_all_finite(logits, "logits")
    """
    tensor = t if x is None else x
    text = msg if message is None else message
    if tensor is None or text is None:
        raise ValueError("assert_all_finite needs a tensor (t or x) and a message (msg or message)")
    return check_numerics(tensor, text, name=name)


__getattr__ = _missing_names("debugging", __name__)
