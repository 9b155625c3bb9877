"""``tf.math``: the elementwise math, reductions and scans under their ``tf.math.*`` names.

>>> import s2sgrad as tf
>>> tf.math.reduce_sum is tf.reduce_sum
True
"""
from .ops.array_ops import unsorted_segment_sum
from .ops.assert_ops import is_non_decreasing, is_strictly_increasing
from .ops.complex_ops import angle, conj, imag, real
from .ops.math_ops import (
                           abs,
                           acos,
                           add,
                           add_n,
                           asin,
                           asinh,
                           atan,
                           atan2,
                           ceil,
                           cos,
                           cosh,
                           divide,
                           divide_no_nan,
                           equal,
                           erf,
                           exp,
                           expm1,
                           floor,
                           floordiv,
                           floormod,
                           greater,
                           greater_equal,
                           is_finite,
                           is_inf,
                           is_nan,
                           less,
                           less_equal,
                           log,
                           log1p,
                           logical_and,
                           logical_not,
                           logical_or,
                           logical_xor,
                           maximum,
                           minimum,
                           mod,
                           multiply,
                           negative,
                           not_equal,
                           pow,
                           realdiv,
                           reciprocal,
                           round,
                           rsqrt,
                           scalar_mul,
                           sigmoid,
                           sign,
                           sin,
                           sinh,
                           sqrt,
                           square,
                           squared_difference,
                           subtract,
                           tan,
                           tanh,
                           truediv,
                           xlogy,
)
from .ops.nn_ops import l2_normalize, log_softmax, softmax, softplus, softsign
from .ops.reduce_ops import (
                           argmax,
                           argmin,
                           count_nonzero,
                           cumprod,
                           cumsum,
                           reduce_all,
                           reduce_any,
                           reduce_logsumexp,
                           reduce_max,
                           reduce_mean,
                           reduce_min,
                           reduce_prod,
                           reduce_std,
                           reduce_sum,
                           reduce_variance,
)
from .ops.segment_ops import (
                           segment_max,
                           segment_mean,
                           segment_min,
                           segment_prod,
                           segment_sum,
                           unsorted_segment_max,
                           unsorted_segment_mean,
                           unsorted_segment_min,
                           unsorted_segment_prod,
                           unsorted_segment_sqrt_n,
)
from .ops.selection_ops import in_top_k, top_k
from .tf1_api import missing_names as _missing_names

__all__ = ["abs", "acos", "add", "add_n", "argmax", "argmin", "asin", "asinh", "atan", "atan2", "ceil", "cos", "cosh",
           "count_nonzero", "cumprod", "cumsum", "divide", "divide_no_nan", "equal", "erf", "exp", "expm1", "floor",
           "floordiv", "floormod", "greater", "greater_equal", "is_finite", "is_inf", "is_nan", "l2_normalize", "less",
           "less_equal", "log", "log1p", "log_softmax", "logical_and", "logical_not", "logical_or", "logical_xor",
           "maximum", "minimum", "mod", "multiply", "negative", "not_equal", "pow", "realdiv", "reciprocal",
           "reduce_all", "reduce_any", "reduce_logsumexp", "reduce_max", "reduce_mean", "reduce_min", "reduce_prod",
           "reduce_std", "reduce_sum", "reduce_variance", "round", "rsqrt", "scalar_mul", "sigmoid", "sign", "sin",
           "sinh", "softmax", "softplus", "softsign", "sqrt", "square", "squared_difference", "subtract", "tan", "tanh",
           "truediv", "unsorted_segment_sum", "xlogy"]

# nnops (issue 14)
__all__ += ["in_top_k", "is_non_decreasing", "is_strictly_increasing", "segment_max", "segment_mean",
            "segment_min", "segment_prod", "segment_sum", "top_k", "unsorted_segment_max", "unsorted_segment_mean",
            "unsorted_segment_min", "unsorted_segment_prod", "unsorted_segment_sqrt_n"]
__all__ += ["angle", "conj", "imag", "real"]  # complex numbers (issue 16)

__getattr__ = _missing_names("math", __name__)
