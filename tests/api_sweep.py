"""A table of valid calls for every public function, and bad values to put in each argument.

``valid_call(qualname, fn)`` gives keyword arguments that work; ``bad_values()`` the values a
sweep substitutes for one argument at a time. ``is_clear(e)`` says whether an exception is a
deliberate, typed s2sgrad error (raised by a ``raise`` statement in s2sgrad or in code it
generated) rather than an incidental NumPy/Python failure from deep inside the package.
"""
from __future__ import annotations

import inspect
import linecache
import os
import tempfile
import traceback
from collections.abc import Callable
from typing import Any

import numpy as np

import s2sgrad as tf

PACKAGE = os.path.dirname(tf.__file__) + os.sep
CLEAR_TYPES = (TypeError, ValueError, KeyError, NotImplementedError, tf.errors.OpError)
_RAW_MESSAGES = ("has no attribute", "object is not iterable", "not subscriptable", "unsupported operand",
                 "cannot be interpreted as an integer", "not supported between instances", "object is not callable",
                 "truth value of an array", "inhomogeneous", "invalid literal for int", "unhashable type")

# Functions that take no user data or whose arguments are not user-facing values.
NOT_SWEPT = {"tf.Graph", "tf.Operation", "tf.Tensor", "tf.Session", "tf.InteractiveSession", "tf.get_default_graph",
             "tf.get_default_session", "tf.reset_default_graph", "tf.no_op", "tf.global_variables_initializer",
             "tf.initialize_all_variables", "tf.local_variables_initializer", "tf.get_variable_scope",
             "tf.AggregationMethod", "losses.Reduction", "train.Optimizer", "tf.RegisterGradient",
             "tf.NoGradient", "tf.no_gradient", "tf.NotDifferentiable", "tf.control_dependencies", "tf.name_scope",
             "tf.variable_scope", "tf.set_random_seed", "tf.show_numpy_warnings", "tf.custom_gradient",
             "losses.get_losses", "losses.get_regularization_losses", "losses.get_total_loss",
             "tf.global_variables", "tf.local_variables", "tf.trainable_variables", "tf.DType",
             "tf.enable_v2_tensorshape", "tf.disable_v2_tensorshape",  # flip a process-wide switch
             "tf.UnconnectedGradients",  # an Enum: calling it with a bad value is Python's own error
             "tf.OpError", "tf.executing_eagerly", "tf.disable_eager_execution", "tf.disable_v2_behavior",
             "tf.enable_eager_execution", "tf.enable_v2_behavior", "tf.executing_eagerly_outside_functions",
             "tf.disable_tensor_equality", "tf.enable_tensor_equality",  # errors, and switches taking no data
             "tf.GraphKeys", "tf.get_collection", "tf.add_to_collection", "tf.add_to_collections", "tf.is_tensor",
             "train.global_step",  # collections take any key and value, is_tensor any object, as in TF
             "train.NanLossDuringTrainingError", "tf.TracedValueError", "tf.UnsupportedTensorFlowName",  # exceptions
             "tf.get_collection_ref", "tf.no_regularizer", "tf.VariableScope"}  # the same; scopes make VariableScopes
# Parameters that are accepted for TF compatibility and ignored, or that only choose names.
IGNORED = {"name", "use_locking", "colocate_gradients_with_ops", "gate_gradients", "caching_device", "config",
           "target", "validate_indices", "partition_strategy", "use_resource", "synchronization", "aggregation",
           "constraint", "import_scope", "variable_def", "a_is_sparse", "b_is_sparse", "collections",
           "loss_collection", "scope", "optimize", "values", "kwargs", "_sentinel", "expected_shape",
           "regularizer", "trainable", "names", "module", "qualname", "type", "start", "boundary", "conjugate",
           "data_format"}
# Flags are read for their truth value, as in Python and TF: any object is a valid flag.
FLAGS = {"keepdims", "keep_dims", "transpose_a", "transpose_b", "adjoint_a", "adjoint_b", "exclusive", "reverse",
         "centered", "use_nesterov", "preserve_result", "enabled", "verify_shape", "validate_shape", "trainable"}


class Context:
    """Fresh, valid values in the current default graph."""

    def __init__(self) -> None:
        self.m23 = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3) / 7 + 0.1, name="m23")
        self.m32 = tf.constant(np.ones((3, 2), np.float32), name="m32")
        self.v3 = tf.constant([0.5, 1.5, 2.5], name="v3")
        self.i2 = tf.constant([1, 0], name="i2")
        self.b23 = tf.constant([[True, False, True], [False, True, True]], name="b23")
        self.var = tf.Variable(np.ones((2, 3), np.float32), name="var")
        self.loss = tf.reduce_sum(self.var * self.m23, name="loss")


def _checkpoint(c: Context) -> str:
    """The prefix of a checkpoint of ``c.var`` (saved in the current, scratch, directory)."""
    with tf.Session() as sess:
        sess.run(c.var.initializer)
        return tf.train.Saver([c.var]).save(sess, os.path.join("ckpt", "model"))


def _float_tensor(c: Context) -> Any:
    return c.m23


# parameter name -> maker of a valid value
VALID: dict[str, Callable[[Context], Any]] = {
    **dict.fromkeys(["x", "y", "a", "input", "input_", "tensor", "input_tensor", "features", "logits", "value",
                     "params", "t", "data", "predictions", "labels", "multi_class_labels", "onehot_labels",
                     "losses", "initial_value", "ys", "real", "imag"], _float_tensor),
    "b": lambda c: c.m32, "inputs": lambda c: [c.m23, c.m23], "tensors": lambda c: [c.m23, c.m23],
    "axis": lambda c: 1, "dtype": lambda c: tf.float32, "shape": lambda c: [2, 3], "perm": lambda c: [1, 0],
    "keepdims": lambda c: True, "keep_dims": lambda c: None, "indices": lambda c: c.i2, "depth": lambda c: 3,
    "condition": lambda c: c.b23, "mask": lambda c: c.b23, "segment_ids": lambda c: c.i2, "num_segments": lambda c: 2,
    "multiples": lambda c: [1, 2], "begin": lambda c: [0, 1], "size": lambda c: [1, 2], "dims": lambda c: [2, 3],
    "paddings": lambda c: [[1, 0], [0, 2]], "num_or_size_splits": lambda c: 3, "axes": lambda c: 1,
    "equation": lambda c: "ij,jk->ik", "num_rows": lambda c: 3, "num_columns": lambda c: 2,
    "batch_shape": lambda c: [2], "start": lambda c: 0.0, "stop": lambda c: 1.0, "num": lambda c: 5,
    "limit": lambda c: 5, "delta": lambda c: 1, "mean": lambda c: 0.0, "stddev": lambda c: 1.0, "seed": lambda c: 1,
    "minval": lambda c: 0.0, "maxval": lambda c: 1.0, "ref": lambda c: c.var, "xs": lambda c: [c.var],
    "grad_ys": lambda c: None, "stop_gradients": lambda c: None, "unconnected_gradients": lambda c: "none",
    "aggregation_method": lambda c: None, "fetches": lambda c: c.loss, "feed_list": lambda c: None,
    "feed_dict": lambda c: None, "graph": lambda c: tf.get_default_graph(), "learning_rate": lambda c: 0.1,
    "momentum": lambda c: 0.9, "decay": lambda c: 0.9, "epsilon": lambda c: 1e-7, "beta1": lambda c: 0.9,
    "beta2": lambda c: 0.999, "initial_accumulator_value": lambda c: 0.1, "centered": lambda c: False,
    "use_nesterov": lambda c: False, "bias": lambda c: c.v3, "biases": lambda c: c.v3,
    "weights": lambda c: c.m32, "rate": lambda c: 0.5, "keep_prob": lambda c: None, "noise_shape": lambda c: None,
    "alpha": lambda c: 0.2, "dim": lambda c: None, "out_type": lambda c: tf.int32, "output_type": lambda c: tf.int64,
    "exclusive": lambda c: False, "reverse": lambda c: False, "transpose_a": lambda c: False,
    "transpose_b": lambda c: False, "adjoint_a": lambda c: False, "adjoint_b": lambda c: False,
    "clip_value_min": lambda c: 0.2, "clip_value_max": lambda c: 0.5, "scalar": lambda c: 2.0,
    "on_value": lambda c: None, "off_value": lambda c: None, "mode": lambda c: "CONSTANT",
    "constant_values": lambda c: 0, "reduction_indices": lambda c: None, "dimension": lambda c: None,
    "batch_dims": lambda c: 0, "squeeze_dims": lambda c: None, "label_smoothing": lambda c: 0,
    "reduction": lambda c: tf.losses.Reduction.SUM_BY_NONZERO_WEIGHTS, "shift": lambda c: None,
    "ids": lambda c: c.i2, "max_norm": lambda c: None, "updates": lambda c: c.v3[:2], "loss": lambda c: c.loss,
    "var_list": lambda c: [c.var], "scale": lambda c: 1.0, "distribution": lambda c: "truncated_normal",
    "dense_shape": lambda c: None, "preferred_dtype": lambda c: None, "dtype_hint": lambda c: None,
    "value_index": lambda c: 0, "np_type": lambda c: np.float32,
    "wrt": lambda c: 0, "preserve_result": lambda c: False, "f": lambda c: (lambda x: np.sum(x ** 2)),
    "enabled": lambda c: False, "op_type": lambda c: "Mul", "control_inputs": lambda c: None,
    "clip_norm": lambda c: 1.0, "t_list": lambda c: [c.m23, c.v3], "use_norm": lambda c: None,
    "global_step": lambda c: tf.train.get_or_create_global_step(),
    "global_step_tensor": lambda c: tf.train.get_or_create_global_step(), "decay_steps": lambda c: 10,
    "decay_rate": lambda c: 0.5, "first_decay_steps": lambda c: 10,
}

def _images(c: Context) -> Any:
    return tf.ones([2, 6, 6, 3])


def _kernel(c: Context) -> Any:
    return tf.ones([3, 3, 3, 4])


_SAME = {"strides": [1, 1, 1, 1], "padding": "SAME"}
_POOL = {"ksize": [1, 2, 2, 1], "strides": [1, 2, 2, 1], "padding": "VALID"}
# the convolution and pooling family (tests/cases_conv.py has their values)
_CONV_OVERRIDES: dict[str, dict[str, Any]] = {
    "nn.conv2d": {"input": _images, "filter": _kernel, **_SAME},
    "nn.conv3d": {"input": lambda c: tf.ones([1, 4, 4, 4, 2]), "filter": lambda c: tf.ones([2, 2, 2, 2, 3]),
                  "strides": [1, 1, 1, 1, 1], "padding": "SAME"},
    "nn.conv1d": {"input": None, "value": lambda c: tf.ones([2, 6, 3]), "filters": lambda c: tf.ones([3, 3, 4]),
                  "stride": 1, "padding": "SAME"},
    "nn.convolution": {"input": _images, "filter": _kernel, "padding": "VALID", "dilation_rate": [2, 2]},
    "nn.conv2d_backprop_input": {"input_sizes": [2, 6, 6, 3], "filter": _kernel,
                                 "out_backprop": lambda c: tf.ones([2, 6, 6, 4]), **_SAME},
    "nn.conv2d_backprop_filter": {"input": _images, "filter_sizes": [3, 3, 3, 4],
                                  "out_backprop": lambda c: tf.ones([2, 6, 6, 4]), **_SAME},
    "nn.conv2d_transpose": {"input": None, "value": lambda c: tf.ones([2, 3, 3, 4]), "filter": _kernel,
                            "output_shape": [2, 6, 6, 3], "strides": [1, 2, 2, 1]},
    "nn.depthwise_conv2d": {"input": _images, "filter": lambda c: tf.ones([3, 3, 3, 2]), **_SAME, "rate": [1, 2]},
    "nn.depthwise_conv2d_native": {"input": _images, "filter": lambda c: tf.ones([3, 3, 3, 2]), **_SAME},
    "nn.separable_conv2d": {"input": _images, "depthwise_filter": lambda c: tf.ones([3, 3, 3, 2]),
                            "pointwise_filter": lambda c: tf.ones([1, 1, 6, 5]), **_SAME, "rate": None},
    "nn.atrous_conv2d": {"value": _images, "filters": _kernel, "rate": 2, "padding": "SAME"},
    "nn.max_pool": {"input": None, "value": _images, **_POOL},
    "nn.avg_pool": {"input": None, "value": _images, **_POOL},
    "nn.max_pool_with_argmax": {"input": _images, **_POOL},
    "nn.max_pool1d": {"input": lambda c: tf.ones([2, 6, 3]), "ksize": 2, "strides": 2, "padding": "SAME"},
    "nn.avg_pool1d": {"input": lambda c: tf.ones([2, 6, 3]), "ksize": 2, "strides": 2, "padding": "SAME"},
    "nn.max_pool3d": {"input": lambda c: tf.ones([1, 4, 4, 4, 2]), "ksize": 2, "strides": 2, "padding": "SAME"},
    "nn.avg_pool3d": {"input": lambda c: tf.ones([1, 4, 4, 4, 2]), "ksize": 2, "strides": 2, "padding": "SAME"},
    "nn.pool": {"input": _images, "window_shape": [2, 2], "pooling_type": "MAX", "padding": "SAME",
                "strides": [2, 2]},
}

# Per function: arguments that differ from the table (makers or plain values).
def _square(c: Context) -> Any:
    """A symmetric positive definite 3x3 float32 matrix (every square-matrix op takes it)."""
    return tf.matmul(c.m23, c.m23, transpose_a=True) + tf.eye(3)


OVERRIDES: dict[str, dict[str, Any]] = {
    **{f"tf.{name}": {"input": _square, "tensor": _square, "matrix": _square} for name in (
        "cholesky", "matrix_determinant", "matrix_inverse", "self_adjoint_eig", "self_adjoint_eigvals", "inv", "det",
        "slogdet", "logdet", "eigh", "eigvalsh", "trace")},
    **{f"tf.{name}": {"matrix": _square, "rhs": lambda c: c.m32} for name in (
        "matrix_solve", "matrix_triangular_solve", "solve", "triangular_solve")},
    **{f"tf.{name}": {"input": _square, "diagonal": lambda c: c.v3} for name in ("matrix_set_diag", "set_diag")},
    **{f"tf.{name}": {"num_lower": 1, "num_upper": -1} for name in ("matrix_band_part", "band_part")},
    "tf.matrix_diag": {"diagonal": lambda c: c.v3}, "tf.diag": {"diagonal": lambda c: c.v3},
    "tf.cond": {"pred": lambda c: c.v3[0] > 0, "true_fn": lambda c: lambda: c.v3, "false_fn": lambda c: lambda: -c.v3},
    "tf.case": {"pred_fn_pairs": lambda c: [(c.v3[0] > 0, lambda: c.v3)], "default": lambda c: lambda: -c.v3},
    "tf.while_loop": {"cond": lambda c: lambda *loop_vars: tf.constant(False), "body": lambda c: lambda *v: v,
                      "loop_vars": lambda c: [0, c.v3]},
    "tf.map_fn": {"fn": lambda c: lambda r: r * 2.0, "elems": lambda c: c.m23},
    "tf.scan": {"fn": lambda c: lambda a, r: a + r, "elems": lambda c: c.m23},
    "tf.foldl": {"fn": lambda c: lambda a, r: a + r, "elems": lambda c: c.m23},
    "tf.foldr": {"fn": lambda c: lambda a, r: a + r, "elems": lambda c: c.m23},
    "tf.TensorArray": {"dtype": tf.float32, "size": 3},
    "tf.parse_example": {"serialized": lambda c: tf.constant([b""]),
                         "features": lambda c: {"a": tf.FixedLenFeature([2], tf.int64, default_value=[1, 2])}},
    "tf.parse_single_example": {"serialized": lambda c: tf.constant(b""),
                                "features": lambda c: {"a": tf.VarLenFeature(tf.float32)}},
    "tf.SparseTensor": {"indices": lambda c: tf.constant([[0]], tf.int64), "values": lambda c: c.v3[:1],
                        "dense_shape": lambda c: tf.constant([3], tf.int64)},
    "train.Example": {"features": lambda c: tf.train.Features()},
    "train.BytesList": {"value": [b"a", b"b"]}, "train.FloatList": {"value": [0.5, 2.0]},
    "train.Int64List": {"value": [1, -2]},
    "tf.concat": {"values": lambda c: [c.m23, c.m23]}, "tf.concat_v2": {"values": lambda c: [c.m23, c.m23]},
    "tf.select": {"t": lambda c: c.m23, "e": lambda c: c.m23},
    "tf.arg_max": {"dimension": 1}, "tf.arg_min": {"dimension": 1}, "tf.stack": {"values": lambda c: [c.m23, c.m23]},
    "tf.add_n": {"inputs": lambda c: [c.m23, c.m23]}, "tf.group": {},
    "tf.identity_n": {"input": lambda c: [c.m23, c.v3]},
    "tf.unstack": {"value": lambda c: c.m23, "num": None}, "tf.split": {"value": lambda c: c.m23},
    "tf.squeeze": {"input": lambda c: c.m23[:, None], "axis": 1},
    "tf.variance_scaling_initializer": {"mode": "fan_in"},
    "tf.matmul": {"a": lambda c: c.m23, "b": lambda c: c.m32}, "tf.tensordot": {"b": lambda c: c.m32},
    "tf.einsum": {"inputs": None}, "tf.transpose": {"a": lambda c: c.m23},
    "tf.matrix_transpose": {"a": lambda c: c.m23}, "linalg.matrix_transpose": {"a": lambda c: c.m23},
    "linalg.adjoint": {"matrix": lambda c: c.m23},
    "tf.scatter_nd": {"indices": lambda c: tf.constant([[1], [0]]), "shape": [3]},
    "tf.gather_nd": {"indices": lambda c: tf.constant([[1], [0]])},
    "tf.one_hot": {"indices": lambda c: c.i2}, "tf.fill": {"value": 1.5},
    "tf.export": {"fetches": lambda c: c.m23, "path": lambda c: os.path.join(tempfile.mkdtemp(), "step.py"),
                  "session": lambda c: tf.Session()},
    "tf.logical_and": {"x": lambda c: c.b23, "y": lambda c: c.b23},
    "tf.logical_or": {"x": lambda c: c.b23, "y": lambda c: c.b23},
    "tf.logical_xor": {"x": lambda c: c.b23, "y": lambda c: c.b23},
    "tf.logical_not": {"x": lambda c: c.b23}, "tf.reduce_all": {"input_tensor": lambda c: c.b23},
    "tf.reduce_any": {"input_tensor": lambda c: c.b23}, "tf.where": {"x": lambda c: c.m23, "y": lambda c: c.m23},
    "tf.where_v2": {"x": lambda c: c.m23, "y": lambda c: c.m23},
    "tf.range": {"start": 0, "limit": 5, "delta": 1, "dtype": None},
    "tf.linspace": {"start": 0.0, "stop": 1.0, "num": 5, "axis": 0},
    "tf.slice": {"input_": lambda c: c.m23}, "tf.pad": {"tensor": lambda c: c.m23},
    "tf.boolean_mask": {"tensor": lambda c: c.m23, "mask": lambda c: c.b23, "axis": None},
    "tf.cumsum": {"axis": 1}, "tf.cumprod": {"axis": 1},
    "tf.device": {"device_name_or_function": "/cpu:0"}, "tf.colocate_with": {"op": lambda c: c.m23},
    "tf.reverse": {"axis": [1]}, "tf.reverse_v2": {"axis": [1]},
    "tf.unsorted_segment_sum": {"data": lambda c: c.m23}, "math.unsorted_segment_sum": {"data": lambda c: c.m23},
    "tf.placeholder_with_default": {"shape": [2, 3]}, "tf.placeholder": {"shape": [None, 3]},
    "tf.constant": {"value": [[1.0, 2.0]], "shape": None, "dtype": None},
    "tf.convert_to_tensor": {"value": [1.0, 2.0], "dtype": None},
    "tf.Variable": {"initial_value": lambda c: np.ones((2, 3), np.float32), "shape": None, "dtype": None},
    "tf.get_variable": {"name": "gv", "shape": [2, 3], "initializer": None},
    "tf.get_local_variable": {"name": "lv", "shape": [2, 3], "initializer": None},
    "tf.gradients": {"ys": lambda c: c.loss}, "tf.hessians": {"ys": lambda c: tf.reduce_sum(c.var ** 3)},
    "tf.explain": {"ys": lambda c: c.loss},
    "tf.assign": {"value": lambda c: c.m23}, "tf.assign_add": {"value": lambda c: c.m23},
    "tf.assign_sub": {"value": lambda c: c.m23}, "tf.variables_initializer": {},
    "tf.as_dtype": {"value": "float32"}, "tf.TensorShape": {"dims": [2, None]}, "tf.Dimension": {"value": 3},
    "tf.dimension_at_index": {"shape": [2, 3], "index": 1},
    "tf.IndexedSlices": {"values": lambda c: c.m23, "indices": lambda c: c.i2},
    "tf.IndexedSlicesValue": {"values": np.ones((2, 3)), "indices": np.array([1, 0]), "dense_shape": [2, 3]},
    "tf.UnconnectedGradients": {"value": "zero"},
    "tf.eye": {"dtype": tf.float32}, "tf.tuple": {},
    "nn.moments": {"axes": [0]}, "nn.bias_add": {"value": lambda c: c.m23},
    "nn.xw_plus_b": {"x": lambda c: c.m23, "weights": lambda c: c.m32, "biases": lambda c: tf.ones([2])},
    "nn.embedding_lookup": {"params": lambda c: c.m23},
    "nn.sparse_softmax_cross_entropy_with_logits": {"labels": lambda c: c.i2},
    "losses.sparse_softmax_cross_entropy": {"labels": lambda c: c.i2, "weights": 1.0},
    "losses.mean_squared_error": {"weights": 1.0}, "losses.absolute_difference": {"weights": 1.0},
    "losses.sigmoid_cross_entropy": {"weights": 1.0}, "losses.softmax_cross_entropy": {"weights": 1.0},
    "losses.compute_weighted_loss": {"weights": 1.0}, "losses.add_loss": {},
    "losses.huber_loss": {"weights": 1.0}, "losses.log_loss": {"weights": 1.0}, "losses.hinge_loss": {"weights": 1.0},
    "losses.cosine_distance": {"weights": 1.0}, "losses.mean_pairwise_squared_error": {"weights": 1.0},
    **{f"metrics.{name}": {"weights": 1.0} for name in tf.metrics.__all__},
    "metrics.mean": {"values": lambda c: c.m23, "weights": 1.0},
    "metrics.mean_iou": {"labels": lambda c: c.i2, "predictions": lambda c: c.i2, "num_classes": 2, "weights": 1.0},
    "metrics.auc": {"predictions": lambda c: tf.constant([[0.1, 0.5, 0.9], [0.3, 0.2, 1.0]]), "weights": 1.0},
    "train.piecewise_constant": {"x": lambda c: tf.constant(3), "boundaries": [2], "values": [0.1, 0.2]},
    "math.reduce_std": {}, "math.reduce_variance": {},
    "train.get_global_step": {}, "train.get_or_create_global_step": {},
    "tf.source": {"fetches": lambda c: c.loss}, "tf.ir": {"fetches": lambda c: c.loss},
    "tf.dot": {"fetches": lambda c: c.loss}, "tf.view": {"target": lambda c: c.loss},
    "tf.grad": {}, "tf.value_and_grad": {}, "tf.jacobian": {"f": lambda c: (lambda x: x ** 2)}, "tf.hessian": {},
    "tf.random_normal": {"shape": [2, 3]}, "tf.random_uniform": {"shape": [2, 3]},
    "tf.truncated_normal": {"shape": [2, 3]}, "nn.dropout": {"x": lambda c: c.m23},
    **_CONV_OVERRIDES,
    **{f"nn.{rnn}": {"cell": lambda c: tf.nn.rnn_cell.GRUCell(2), "inputs": inputs, "dtype": tf.float32,
                     "sequence_length": lambda c: tf.constant([3, 1]), "initial_state": None}
       for rnn, inputs in [("static_rnn", lambda c: [c.m23, c.m23, c.m23]), ("dynamic_rnn", lambda c: c.m23[:, None])]},
    **{f"nn.{rnn}": {"cell_fw": lambda c: tf.nn.rnn_cell.GRUCell(2), "cell_bw": lambda c: tf.nn.rnn_cell.GRUCell(3),
                     "inputs": inputs, "dtype": tf.float32, "sequence_length": lambda c: tf.constant([3, 1])}
       for rnn, inputs in [("static_bidirectional_rnn", lambda c: [c.m23, c.m23, c.m23]),
                           ("bidirectional_dynamic_rnn", lambda c: c.m23[:, None])]},
    **{f"train.{name}": {"filepattern" if "Reader" in name else "ckpt_dir_or_file": lambda c: _checkpoint(c)}
       for name in ["CheckpointReader", "NewCheckpointReader", "load_checkpoint", "list_variables"]},
    "train.init_from_checkpoint": {"ckpt_dir_or_file": lambda c: _checkpoint(c),
                                   "assignment_map": lambda c: {"var": "var"}},
    "train.checkpoint_exists": {"checkpoint_prefix": lambda c: _checkpoint(c)},
    "train.remove_checkpoint": {"checkpoint_prefix": lambda c: _checkpoint(c)},
    "train.get_checkpoint_mtimes": {"checkpoint_prefixes": lambda c: [_checkpoint(c)]},
    "train.get_checkpoint_state": {"checkpoint_dir": lambda c: os.path.dirname(_checkpoint(c))},
    "train.latest_checkpoint": {"checkpoint_dir": lambda c: os.path.dirname(_checkpoint(c))},
    "train.update_checkpoint_state": {"save_dir": lambda c: os.path.dirname(_checkpoint(c)),
                                      "model_checkpoint_path": lambda c: _checkpoint(c)},
    "train.generate_checkpoint_state_proto": {"save_dir": lambda c: os.path.dirname(_checkpoint(c)),
                                              "model_checkpoint_path": lambda c: _checkpoint(c)},
}
# Monitored sessions and their hooks (issue 15); a MonitoredTrainingSession needs the global step.
OVERRIDES.update({
    "train.MonitoredTrainingSession": {
        "checkpoint_dir": lambda c: (tf.train.get_or_create_global_step(), tempfile.mkdtemp())[1],
        "hooks": lambda c: [tf.train.StopAtStepHook(num_steps=1)], "save_checkpoint_steps": 5,
        "save_summaries_steps": 10, "log_step_count_steps": 100, "master": None, "scaffold": lambda c: None},
    "train.StopAtStepHook": {"num_steps": 3, "last_step": None},
    "train.CheckpointSaverHook": {"checkpoint_dir": lambda c: tempfile.mkdtemp(), "save_steps": 2},
    "train.SummarySaverHook": {"save_steps": 2, "output_dir": lambda c: tempfile.mkdtemp(),
                               "summary_op": lambda c: tf.summary.scalar("loss", c.loss)},
    "train.LoggingTensorHook": {"tensors": lambda c: {"loss": c.loss}, "every_n_iter": 2},
    "train.NanTensorHook": {"loss_tensor": lambda c: c.loss}, "train.FinalOpsHook": {"final_ops": lambda c: c.loss},
    "train.FeedFnHook": {"feed_fn": lambda c: dict}, "train.SecondOrStepTimer": {"every_steps": 3},
    "train.SessionRunContext": {"original_args": lambda c: tf.train.SessionRunArgs(c.loss),
                                  "session": lambda c: _session(c)},
    "train.SessionRunValues": {"results": lambda c: 1.0, "options": lambda c: None, "run_metadata": lambda c: None},
    "summary.scalar": {"name": "loss", "tensor": lambda c: c.loss, "family": "train"},
    "summary.histogram": {"name": "weights", "values": lambda c: c.m23, "family": "train"},
    "summary.image": {"name": "images", "tensor": lambda c: tf.ones([2, 4, 5, 3]), "max_outputs": 2},
    "summary.audio": {"name": "clips", "tensor": lambda c: c.m23, "sample_rate": 8000, "max_outputs": 2},
    "summary.text": {"name": "note", "tensor": lambda c: tf.constant(["a", "b"])},
    "summary.merge": {"inputs": lambda c: [tf.summary.scalar("a", c.loss), tf.summary.histogram("b", c.m23)]},
    "summary.merge_all": {"key": lambda c: (tf.summary.scalar("a", c.loss), "summaries")[1]},
    "summary.FileWriter": {"logdir": lambda c: tempfile.mkdtemp(), "graph": lambda c: tf.get_default_graph(),
                           "max_queue": 3, "flush_secs": 10, "filename_suffix": ".run"},
    "summary.SessionLog": {"status": 1, "checkpoint_path": "model.ckpt", "msg": "started"},
    "tf.Summary": {"value": lambda c: [tf.Summary.Value(tag="a", simple_value=1.0)]},
    "tf.HistogramProto": {"min": -1.0, "max": 2.0, "num": 2.0, "sum": 1.0, "sum_squares": 5.0,
                          "bucket_limit": [0.0, 2.5], "bucket": [1.0, 1.0]},
})
# nnops (issue 14): normalization, sampled losses, top_k, segment reductions, checks and prints
_CLASSES = lambda c: tf.constant([[1], [2]], tf.int64)  # noqa: E731
_SAMPLED_LOSS = {"weights": lambda c: tf.ones([5, 3]), "biases": lambda c: tf.zeros([5]), "labels": _CLASSES,
                 "inputs": lambda c: c.m23, "num_sampled": 2, "num_classes": 5}
_SAMPLER = {"true_classes": _CLASSES, "num_true": 1, "num_sampled": 2, "unique": True, "range_max": 5}
OVERRIDES.update({
    "tf.assert_integer": {"x": lambda c: c.i2}, "tf.assert_scalar": {"tensor": lambda c: tf.constant(1.0)},
    "tf.assert_rank": {"rank": 2}, "tf.assert_rank_at_least": {"rank": 1}, "tf.assert_rank_in": {"ranks": [1, 2]},
    "tf.assert_type": {"tf_type": tf.float32}, "tf.check_numerics": {"message": "checked"},
    "nn.batch_norm_with_global_normalization": {"m": 0.0, "v": 1.0, "beta": 0.0, "gamma": 1.0,
                                                "variance_epsilon": 1e-3, "scale_after_normalization": True,
                                                "input": None, "mean": None, "variance": None},
    "nn.batch_normalization": {"mean": 0.0, "variance": 1.0, "offset": 0.0, "scale": 1.0, "variance_epsilon": 1e-3},
    "tf.assert_less": {"y": lambda c: c.m23 + 1.0}, "tf.assert_none_equal": {"y": lambda c: c.m23 + 1.0},
    "tf.assert_greater": {"x": lambda c: c.m23 + 1.0}, "tf.assert_negative": {"x": lambda c: -c.m23},
    "tf.assert_non_positive": {"x": lambda c: -c.m23},
    "nn.fused_batch_norm": {"x": lambda c: tf.ones([2, 2, 2, 3]), "scale": lambda c: c.v3, "offset": lambda c: c.v3},
    "nn.in_top_k": {"targets": lambda c: c.i2, "k": 1},
    "nn.compute_accidental_hits": {"true_classes": _CLASSES, "num_true": 1,
                                   "sampled_candidates": lambda c: tf.constant([1, 3], tf.int64)},
    "nn.log_uniform_candidate_sampler": _SAMPLER, "nn.uniform_candidate_sampler": _SAMPLER,
    "nn.nce_loss": _SAMPLED_LOSS, "nn.sampled_softmax_loss": _SAMPLED_LOSS,
    "nn.weighted_cross_entropy_with_logits": {"pos_weight": 2.0},
    "nn.weighted_moments": {"axes": [0], "frequency_weights": lambda c: c.m23},
    "nn.local_response_normalization": {"input": lambda c: tf.ones([1, 2, 2, 3]), "bias": 1.0},
    "nn.lrn": {"input": lambda c: tf.ones([1, 2, 2, 3]), "bias": 1.0},
})
# Functions whose only argument is a list of tensors/ops, or that take positional-only values.
POSITIONAL = {"tf.group": lambda c: [c.m23.op, c.v3.op], "tf.einsum": lambda c: ["ij,jk->ik", c.m23, c.m32],
              "tf.tuple": lambda c: [[c.m23, c.v3]], "tf.variables_initializer": lambda c: [[c.var]]}


def bad_values(c: Context) -> dict[str, Any]:
    """Values that are wrong for most arguments, by kind."""
    other = tf.Graph()
    with other.as_default():
        foreign = tf.constant([1.0, 2.0], name="foreign")
    return {"None": None, "str": "bad", "object": object(), "negative": -7, "large": 99, "fraction": 2.5,
            "nan": float("nan"), "repeated": [0, 0], "negative_dims": [-2, 3], "ragged": [[1, 2], [3]],
            "dict": {"a": 1}, "op": c.m23.op, "string_tensor": tf.constant(["a", "b"]),
            "vector5": tf.ones([5]), "int_tensor": tf.ones([2, 3], tf.int32), "foreign": foreign,
            "array": np.ones((4, 5)), "bool": True, "function": print,
            "unknown_shape": tf.placeholder(tf.float32, name="unknown")}


def public_functions() -> list[tuple[str, Callable]]:
    out, seen = [], set()
    for prefix, module in [("tf", tf), ("nn", tf.nn), ("train", tf.train), ("losses", tf.losses),
                           ("math", tf.math), ("linalg", tf.linalg), ("metrics", tf.metrics), ("summary", tf.summary)]:
        names = getattr(module, "__all__", None) if module is not tf else None
        # A function under its own name first, so that old aliases (tf.pack for tf.stack) are not swept again
        for name in sorted(names or dir(module), key=lambda n: (getattr(getattr(module, n), "__name__", n) != n, n)):
            fn = getattr(module, name)
            qualname = f"{prefix}.{name}"
            if name.startswith("_") or not callable(fn) or inspect.ismodule(fn) or qualname in NOT_SWEPT:
                continue
            if not getattr(fn, "__module__", "").startswith("s2sgrad") or id(fn) in seen:
                continue
            seen.add(id(fn))
            out.append((qualname, fn))
    return out


def _session(c: Context) -> Any:
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    return sess


# Methods of the objects users hold: (object's method from a Context, valid keyword arguments).
METHODS: dict[str, tuple[Callable[[Context], Callable], dict[str, Any]]] = {
    "Optimizer.minimize": (lambda c: tf.train.AdamOptimizer(0.1).minimize,
                           {"loss": lambda c: c.loss, "global_step": lambda c: tf.train.get_or_create_global_step(),
                            "var_list": lambda c: [c.var], "grad_loss": lambda c: None}),
    "Optimizer.compute_gradients": (lambda c: tf.train.MomentumOptimizer(0.1, 0.9).compute_gradients,
                                    {"loss": lambda c: c.loss, "var_list": lambda c: [c.var]}),
    "Optimizer.apply_gradients": (lambda c: tf.train.RMSPropOptimizer(0.1).apply_gradients,
                                  {"grads_and_vars": lambda c: [(c.m23, c.var)], "global_step": lambda c: None}),
    "Variable.assign": (lambda c: c.var.assign, {"value": lambda c: c.m23}),
    "Variable.assign_add": (lambda c: c.var.assign_add, {"delta": lambda c: c.m23}),
    "Tensor.__getitem__": (lambda c: c.m23.__getitem__, {"key": lambda c: (1, slice(0, 2))}),
    "Tensor.__add__": (lambda c: c.m23.__add__, {"other": lambda c: c.v3}),
    "Tensor.__matmul__": (lambda c: c.m23.__matmul__, {"other": lambda c: c.m32}),
    "Tensor.set_shape": (lambda c: tf.placeholder(tf.float32).set_shape, {"shape": lambda c: [2, 3]}),
    "Tensor.eval": (lambda c: c.m23.eval, {"feed_dict": lambda c: None, "session": _session}),
    "Session.run": (lambda c: _session(c).run, {"fetches": lambda c: c.loss, "feed_dict": lambda c: None}),
    "Session.make_callable": (lambda c: _session(c).make_callable,
                              {"fetches": lambda c: c.loss, "feed_list": lambda c: None}),
    "Graph.get_tensor_by_name": (lambda c: tf.get_default_graph().get_tensor_by_name, {"name": lambda c: "m23:0"}),
    "Graph.get_operation_by_name": (lambda c: tf.get_default_graph().get_operation_by_name,
                                    {"name": lambda c: "m23"}),
    "Graph.as_graph_element": (lambda c: tf.get_default_graph().as_graph_element, {"obj": lambda c: "m23:0"}),
    "Graph.control_dependencies": (lambda c: tf.get_default_graph().control_dependencies,
                                   {"control_inputs": lambda c: [c.m23]}),
    "Saver.save": (lambda c: tf.train.Saver().save,
                   {"sess": _session, "save_path": lambda c: "ckpt/model", "global_step": lambda c: None,
                    "latest_filename": lambda c: None}),
    "Saver.restore": (lambda c: tf.train.Saver().restore, {"sess": _session, "save_path": _checkpoint}),
}


def method_call(qualname: str, c: Context) -> tuple[Callable, dict, list[str]]:
    """A bound method, keyword arguments that work, and the names of its swept arguments."""
    make, valid = METHODS[qualname]
    kwargs = {k: maker(c) for k, maker in valid.items()}
    return make(c), kwargs, list(kwargs)


def valid_call(qualname: str, fn: Callable, c: Context) -> tuple[list, dict, list[str]]:
    """(positional args, keyword args, names of the sweepable arguments) of a call that works."""
    if qualname in POSITIONAL:
        return POSITIONAL[qualname](c), {}, []
    overrides = OVERRIDES.get(qualname.replace("math.", "tf.").replace("linalg.", "tf."), {})
    overrides = {**overrides, **OVERRIDES.get(qualname, {})}
    kwargs: dict[str, Any] = {}
    swept = []
    for p in inspect.signature(fn).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.name in IGNORED and p.name not in overrides:
            continue
        if p.name in overrides:
            maker = overrides[p.name]
            if maker is None:
                continue
            kwargs[p.name] = maker(c) if callable(maker) and not isinstance(maker, type) else maker
        elif p.default is not p.empty and p.name not in VALID:
            continue
        elif p.name in VALID:
            kwargs[p.name] = VALID[p.name](c)
        else:
            raise KeyError(f"{qualname}: no valid value for required parameter {p.name!r}")
        swept.append(p.name)
    return [], kwargs, swept


def raise_site(e: BaseException) -> tuple[str, int, str]:
    """(file, line, source text) of the innermost frame of ``e``'s traceback."""
    tb = traceback.extract_tb(e.__traceback__)
    if not tb:
        return "?", 0, ""
    frame = tb[-1]
    return frame.filename, frame.lineno, (linecache.getline(frame.filename, frame.lineno) or "").strip()


def is_clear(e: BaseException) -> bool:
    """A typed error that s2sgrad raised on purpose, with a message written for people."""
    if not isinstance(e, CLEAR_TYPES):
        return False
    filename, _, text = raise_site(e)
    deliberate = (filename.startswith(PACKAGE) and text.startswith("raise")) or filename.startswith("<s2sgrad")
    return deliberate and not any(m in str(e) for m in _RAW_MESSAGES)


def describe(e: BaseException) -> str:
    filename, line, text = raise_site(e)
    return f"{type(e).__name__} at {os.path.relpath(filename, PACKAGE)}:{line} `{text}`: {str(e)[:200]}"
