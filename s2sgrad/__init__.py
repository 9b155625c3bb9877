"""s2sgrad: a source-to-source gradient compiler for TF-1.x-style programs and NumPy functions.

``import s2sgrad as tf`` gives the TF-v1 graph API; every ``Session.run`` compiles the
needed slice of the graph into a readable NumPy module (see ``s2sgrad.source``).
"""
import sys as _sys

from .codegen.compiler import show_numpy_warnings  # importing it silences FP warnings in generated code
from .tf1_api import missing_names as _missing_names
from . import dtypes, errors
from .dtypes import (DType, as_dtype, bool, complex64, complex128, double, float16, float32, float64, half,
                     int8, int16, int32, int64, string, uint8, uint16, uint32, uint64)
from .ssa.graph import (Graph, Operation, Tensor, control_dependencies, get_default_graph, name_scope,
                    reset_default_graph)
from .dimension import Dimension, dimension_value
from .shapes import TensorShape, dimension_at_index, disable_v2_tensorshape, enable_v2_tensorshape
from .ops import overloads as _overloads  # noqa: F401 - operators on Tensor
from .ops.array_ops import (expand_dims, fill, gather, identity, identity_n, ones, ones_like, rank,
                            reshape, shape, size, split, squeeze, stack, stop_gradient, transpose,
                            unsorted_segment_sum, unstack, where, where_v2, zeros, zeros_like)
from .ops.complex_ops import angle, complex, conj, imag, real
from .ops.fft_ops import fft, fft2d, fft3d, ifft, ifft2d, ifft3d
from .ops.control_flow import group, no_op, tuple
from .ops.convert import constant, convert_to_tensor
from .ops.creation import eye, linspace, placeholder, placeholder_with_default, range
from .ops.indexed_slices import IndexedSlices, IndexedSlicesValue
from .ops.initializers import (constant_initializer, glorot_normal_initializer, glorot_uniform_initializer,
                               ones_initializer, orthogonal_initializer, random_normal_initializer,
                               random_uniform_initializer, truncated_normal_initializer,
                               uniform_unit_scaling_initializer, variance_scaling_initializer, zeros_initializer)
from .ops.indexing_ops import boolean_mask, gather_nd, one_hot, scatter_nd, slice
from .ops.layout_ops import broadcast_to, pad, reverse, reverse_v2, tile
from .ops.linalg_ops import einsum, tensordot
from .train.moving_averages import moving_average_variables
from .ops.clip_ops import clip_by_average_norm, clip_by_global_norm, clip_by_norm, clip_by_value, global_norm
from .ops.math_ops import (abs, acos, add, add_n, asin, asinh, atan, atan2, cast, ceil, cos, cosh, div,
                           div_no_nan, divide, equal, erf, exp, expm1, floor, floor_div, floordiv, floormod,
                           greater, greater_equal, is_finite,
                           is_inf, is_nan, less, less_equal, log, log1p, logical_and, logical_not, logical_or,
                           logical_xor, matmul, maximum, minimum, mod, multiply, negative, not_equal, pow,
                           realdiv, reciprocal, round, rsqrt, scalar_mul, sigmoid, sign, sin, sinh, sqrt, square,
                           squared_difference, subtract, tan, tanh, to_double, to_float, to_int32, to_int64,
                           truediv)
from .ops.random_ops import random_normal, random_uniform, set_random_seed, truncated_normal
from .ops.reduce_ops import (argmax, argmin, count_nonzero, cumprod, cumsum, reduce_all, reduce_any,
                             reduce_logsumexp, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum)
from .ops.cond_ops import case, cond
from .ops.matrix_ops import (cholesky, matrix_band_part, matrix_determinant, matrix_diag, matrix_diag_part,
                             matrix_inverse, matrix_set_diag, matrix_solve, matrix_triangular_solve, qr,
                             self_adjoint_eig, self_adjoint_eigvals, svd, trace)
from .ops.functional_ops import foldl, foldr, map_fn, scan
from .ops.loop_ops import while_loop
from .ops.tensor_array_ops import TensorArray
from .ops.variables import (AUTO_REUSE, Variable, VariableScope, assign, assign_add, assign_sub, get_local_variable,
                            get_variable, get_variable_scope, global_variables, global_variables_initializer,
                            initialize_all_variables, local_variables, local_variables_initializer, model_variables,
                            no_regularizer, trainable_variables, variable_scope, variables_initializer)
from .autodiff.backprop import gradients
from .autodiff.registry import NoGradient, NotDifferentiable, RegisterGradient
from .autodiff.walk import AggregationMethod, UnconnectedGradients
from .autodiff.derivatives import hessians
from .autodiff.custom_gradient import custom_gradient
from .session import InteractiveSession, Session, get_default_session
from . import compat, contrib, debugging, initializers, linalg, losses, manip, math, metrics, nn, random, train
from . import image
from . import signal, spectral
from . import layers
from . import summary
from .summary import HistogramProto, SessionLog, Summary
from .graph_keys import GraphKeys, add_to_collection, add_to_collections, get_collection, get_collection_ref, is_tensor
from .execution_mode import (disable_eager_execution, disable_tensor_equality, disable_v2_behavior,
                             enable_eager_execution, enable_tensor_equality, enable_v2_behavior, executing_eagerly,
                             executing_eagerly_outside_functions)
from .legacy import (all_variables, arg_max, arg_min, concat, concat_v2, initialize_local_variables,
                     initialize_variables, lin_space, mul, neg, pack, select, sub, unpack)
from .linalg import matrix_transpose

# nnops (issue 14): segment reductions, checks and prints
from .ops.segment_ops import (segment_max, segment_mean, segment_min, segment_prod, segment_sum, unsorted_segment_max,
                              unsorted_segment_mean, unsorted_segment_min, unsorted_segment_prod,
                              unsorted_segment_sqrt_n)
from .ops.assert_ops import (Assert, assert_equal, assert_greater, assert_greater_equal, assert_integer, assert_less,
                             assert_less_equal, assert_near, assert_negative, assert_non_negative, assert_non_positive,
                             assert_none_equal, assert_positive, assert_rank, assert_rank_at_least, assert_rank_in,
                             assert_scalar, assert_type, is_non_decreasing, is_numeric_tensor,
                             is_strictly_increasing)
from .ops.print_ops import Print, add_check_numerics_ops, check_numerics
from .ops.print_ops import print_v2 as print  # TF's name: tf.print shadows the builtin here, as in TF

# compat-platform (issue 12): devices (recorded, not placed), session config, program scaffolding
from .ssa.graph import colocate_with, device
from .platform.devices import DeviceSpec
from .platform.config import ConfigProto, GPUOptions, GraphOptions, OptimizerOptions, RunMetadata, RunOptions
from .platform import app, flags, gfile, resource_loader
from .platform import tf_logging as logging
from .platform.tf_logging import get_logger
from . import io

# tf.data (issue 15): input pipelines, TFRecord files, tf.train.Example parsing
from . import data, python_io
from .ops.parsing_ops import (FixedLenFeature, FixedLenSequenceFeature, SparseTensor, VarLenFeature, parse_example,
                              parse_single_example)

# s2sgrad's own: see the generated code, differentiate plain NumPy functions, ship the result
from .inspection import dot, ir, source
from .tracing import TracedValueError, grad, hessian, jacfwd, jacobian, jacrev, value_and_grad
from .tf1_api import UnsupportedTensorFlowName
from .explain import explain
from .export import export
from .view_page import view
from ._version import __version__ as __version__  # re-exported (`as` itself: not one of the API names)


no_gradient, OpError = NoGradient, errors.OpError  # TF's second names for them
compat.v1 = _sys.modules[__name__]  # tf.compat.v1 is tf: s2sgrad's top level is TF-1.x's API
_sys.modules[compat.__name__ + ".v1"] = compat.v1
newaxis = None
# the public names: what `from s2sgrad import *` gives (and what ruff checks the imports against)
__all__ = ["FixedLenFeature", "FixedLenSequenceFeature", "SparseTensor", "VarLenFeature", "data",
           "parse_example", "parse_single_example", "python_io"]  # tf.data (issue 15)
__all__ += ["HistogramProto", "SessionLog", "Summary", "summary"]  # tf.summary (issue 15)
__all__ += ["dot", "view"]  # pictures and the page of a program (issue 17)
__all__ += ["angle", "complex", "conj", "imag", "real"]  # complex numbers (issue 16)
__all__ += ["fft", "fft2d", "fft3d", "ifft", "ifft2d", "ifft3d", "signal", "spectral"]  # Fourier transforms (issue 16)
__all__ += ["AUTO_REUSE", "AggregationMethod", "ConfigProto", "DType", "DeviceSpec", "Dimension", "GPUOptions", "Graph",
           "GraphKeys", "GraphOptions", "IndexedSlices", "IndexedSlicesValue", "InteractiveSession", "NoGradient",
           "NotDifferentiable", "OpError", "Operation", "OptimizerOptions", "RegisterGradient", "RunMetadata",
           "RunOptions", "Session", "Tensor", "TensorShape", "UnconnectedGradients", "Variable", "abs", "acos", "add",
           "add_n", "add_to_collection", "add_to_collections", "all_variables", "app", "arg_max", "arg_min", "argmax",
           "argmin", "as_dtype", "asin", "asinh", "assign", "assign_add", "assign_sub", "atan", "atan2", "bool",
           "boolean_mask", "broadcast_to", "cast", "ceil",
           "clip_by_average_norm", "clip_by_global_norm", "clip_by_norm", "clip_by_value", "global_norm",
           "moving_average_variables",
           "colocate_with", "compat", "complex128",
           "complex64", "concat", "concat_v2", "constant", "constant_initializer", "contrib", "control_dependencies",
           "convert_to_tensor", "cos", "cosh", "count_nonzero", "cumprod", "cumsum", "custom_gradient", "debugging",
           "device", "dimension_at_index", "dimension_value", "disable_eager_execution", "disable_tensor_equality",
           "disable_v2_behavior", "disable_v2_tensorshape", "div", "div_no_nan", "divide", "double", "dtypes", "einsum",
           "enable_eager_execution", "enable_tensor_equality", "enable_v2_behavior", "enable_v2_tensorshape", "equal",
           "erf", "errors", "executing_eagerly", "executing_eagerly_outside_functions", "exp", "expand_dims", "explain",
           "expm1", "export", "eye", "fill", "flags", "float16", "float32", "float64", "floor", "floor_div", "floordiv",
           "floormod", "gather", "gather_nd", "get_collection", "get_default_graph", "get_default_session",
           "get_logger", "get_variable", "get_variable_scope", "gfile", "global_variables",
           "global_variables_initializer", "glorot_normal_initializer", "glorot_uniform_initializer", "grad",
           "gradients", "greater", "greater_equal", "group", "half", "hessian", "hessians", "identity", "identity_n",
           "image",
           "initialize_all_variables", "initialize_local_variables", "initialize_variables", "initializers", "int16",
           "int32", "int64", "int8", "io", "ir", "is_finite", "is_inf", "is_nan", "is_tensor", "jacfwd",
           "jacobian", "jacrev", "less",
           "less_equal", "lin_space", "linalg", "linspace", "local_variables", "local_variables_initializer", "log",
           "log1p", "logging", "logical_and", "logical_not", "logical_or", "logical_xor", "losses", "manip", "math",
           "metrics",
           "matmul", "matrix_transpose", "maximum", "minimum", "mod", "mul", "multiply", "name_scope", "neg",
           "negative", "newaxis", "nn", "no_gradient", "no_op", "not_equal", "one_hot", "ones", "ones_initializer",
           "ones_like", "pack", "pad", "placeholder", "placeholder_with_default", "pow", "random", "random_normal",
           "random_normal_initializer", "random_uniform", "random_uniform_initializer", "range", "rank", "realdiv",
           "reciprocal", "reduce_all", "reduce_any", "reduce_logsumexp", "reduce_max", "reduce_mean", "reduce_min",
           "reduce_prod", "reduce_sum", "reset_default_graph", "reshape", "resource_loader", "reverse", "reverse_v2",
           "round", "rsqrt", "scalar_mul", "scatter_nd", "select", "set_random_seed", "shape", "show_numpy_warnings",
           "sigmoid", "sign", "sin", "sinh", "size", "slice", "source", "split", "sqrt", "square", "squared_difference",
           "squeeze", "stack", "stop_gradient", "string", "sub", "subtract", "tan", "tanh", "tensordot", "tile",
           "to_double", "to_float", "to_int32", "to_int64", "train", "trainable_variables", "transpose", "truediv",
           "truncated_normal", "truncated_normal_initializer", "tuple", "uint16", "uint32", "uint64", "uint8", "unpack",
           "unsorted_segment_sum", "unstack", "value_and_grad", "variable_scope", "variables_initializer",
           "cond", "case", "while_loop", "TensorArray", "map_fn", "scan", "foldl", "foldr",
           "cholesky", "matrix_band_part", "matrix_determinant", "matrix_diag", "matrix_diag_part", "matrix_inverse",
           "matrix_set_diag", "matrix_solve", "matrix_triangular_solve", "qr", "self_adjoint_eig",
           "self_adjoint_eigvals", "svd", "trace",
           "variance_scaling_initializer", "where", "where_v2", "zeros", "zeros_initializer", "zeros_like"]
# issue 14 (layers): variable scopes, initializers, collections, tf.layers
__all__ += ["VariableScope", "get_collection_ref", "get_local_variable", "layers", "model_variables", "no_regularizer",
            "orthogonal_initializer", "uniform_unit_scaling_initializer"]

__all__ += ["Assert", "Print", "add_check_numerics_ops", "assert_equal", "assert_greater", "assert_greater_equal",
            "assert_integer", "assert_less", "assert_less_equal", "assert_near", "assert_negative",
            "assert_non_negative", "assert_non_positive", "assert_none_equal", "assert_positive", "assert_rank",
            "assert_rank_at_least", "assert_rank_in", "assert_scalar", "assert_type", "check_numerics",
            "is_non_decreasing", "is_numeric_tensor", "is_strictly_increasing", "print",
            "segment_max", "segment_mean", "segment_min", "segment_prod", "segment_sum", "unsorted_segment_max",
            "unsorted_segment_mean", "unsorted_segment_min", "unsorted_segment_prod", "unsorted_segment_sqrt_n"]

# s2sgrad's own error classes (TF's are in tf.errors): a NumPy function's value needed while tracing,
# a TF-1.x name s2sgrad lacks
__all__ += ["TracedValueError", "UnsupportedTensorFlowName"]

__getattr__ = _missing_names("", __name__)


def __dir__() -> list[str]:
    """What ``dir(tf)`` and tab completion list: TF's names and s2sgrad's documented additions, not
    the package's internal modules (which stay importable)."""
    return sorted(__all__)
