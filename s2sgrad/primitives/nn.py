"""Neural-network primitives: activations with their fused gradient ops, softmax, the fused
cross-entropies, bias_add and l2_loss.

Each activation ``F`` has a gradient op ``FGrad(g, y_or_x)`` computing what TensorFlow's
kernel computes (``ReluGrad``: ``g * (y > 0)``, so the gradient at 0 is 0), and each
``FGrad`` has TensorFlow's second-order rule. The cross-entropies return the loss and its
gradient ``softmax - labels`` from one pass, as TF's fused kernels do.
"""
from __future__ import annotations

import ast
from typing import Any, Sequence

from ..ops import array_ops as a
from ..ops import math_ops as m
from ..ops import reduce_ops as r
from ..ops.convert import record1
from ..shapes import TensorShape
from ..static import constant_value
from .common import normalize_axis, rt_call
from .core import define, literal, np_attr, only_needed, same_dtype, template
from .math import unbroadcast
from .reduce import reduced_shape

SELU_SCALE = 1.0507009873554804934193349852946
SELU_SCALE_ALPHA = 1.7580993408473768599402175208123   # scale * alpha


def _float_input(op: str, x: Any, what: str = "features") -> None:
    if not x.dtype.is_floating:
        raise TypeError(f"Value passed to parameter '{what}' has DataType {x.dtype.name} not allowed for {op} "
                        f"(expects a float tensor)")


def _activation_infer(name: str, real: bool = False) -> Any:
    """Float inputs (``real``: integers too, as TF's Relu and Relu6 allow)."""
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        x = inputs[0]
        if not (real and x.dtype.is_integer):
            _float_input(name, x)
        return [(x.dtype, x.shape)]
    return infer


def _grad_op_infer(name: str) -> Any:
    """``FGrad(gradients, features)``: same dtype and shape for both."""
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        g, y = inputs
        dtype = same_dtype([g, y], f"{name} inputs")
        if not g.shape.is_compatible_with(y.shape):
            raise ValueError(f"Shapes {g.shape} and {y.shape} are incompatible")
        return [(dtype, g.shape.merge_with(y.shape))]
    return infer


def activation(name: str, expr: Any, grad_expr: str, grad_grad: Any, reads: str = "y", real: bool = False) -> None:
    """``name`` and its gradient op ``<name>Grad(g, features)``, where ``features`` is the
    activation's output (``reads="y"``) or input (``"x"``). ``expr`` is a template (or an
    emitter); ``grad_expr`` names ``g`` as ``x`` and the features as ``y``. Attrs (LeakyRelu's
    ``alpha``) are shared by both ops."""
    grad_name = name + "Grad"

    def grad(op: Any, g: Any) -> list:
        features = op.outputs[0] if reads == "y" else op.inputs[0]
        return [_grad_op(grad_name, g, features, op)]

    define(name, _activation_infer(name, real), template(expr) if isinstance(expr, str) else expr, grad)
    # not ``ufunc``: a uniform ``g`` written as a Python scalar would make ``1.0 * (y > 0)`` float64
    define(grad_name, _grad_op_infer(grad_name), template(grad_expr), grad_grad)


def _grad_op(op_type: str, g: Any, features: Any, like: Any) -> Any:
    """``op_type(g, features)`` with the ``alpha`` attr of op ``like``, if it has one."""
    attrs = {"alpha": like.attrs["alpha"]} if "alpha" in like.attrs else {}
    return record1(op_type, [g, features], attrs, op_type)


def _emit_leaky_relu(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    """``np.maximum(x, alpha * x)`` for ``0 <= alpha <= 1`` (``minimum`` above 1): the same values
    as TF's select on ``x > 0``, several times faster than ``np.where``."""
    alpha = ins.attrs["alpha"]
    scaled = ast.BinOp(literal(alpha), ast.Mult(), args[0])
    if alpha < 0:
        positive = ast.Compare(args[0], [ast.Gt()], [ast.Constant(0)])
        return ast.Call(np_attr("where"), [positive, args[0], scaled], [])
    return ast.Call(np_attr("maximum" if alpha <= 1 else "minimum"), [args[0], scaled], [])


def _masked_grad_grad(op: Any, gg: Any) -> list:
    """``g * mask(features)`` is linear in ``g`` and flat in the features."""
    features = op.inputs[1]
    return only_needed(op, lambda: _grad_op(op.type, gg, features, op), lambda: a.zeros_like(features))


def _select_grad_grad(op: Any, gg: Any) -> list:
    """Elu/Selu gradients are linear in ``g``; their derivative in ``y`` is ``g`` where ``y < 0``."""
    g, y = op.inputs
    return only_needed(op, lambda: _grad_op(op.type, gg, y, op), lambda: a.where(y < 0.0, gg * g, a.zeros_like(y)))


def _softplus_grad_grad(op: Any, gg: Any) -> list:
    g, x = op.inputs
    return only_needed(op, lambda: _grad_op(op.type, gg, x, op), lambda: gg * g / (m.exp(-x) + 2.0 + m.exp(x)))


def _softsign_grad_grad(op: Any, gg: Any) -> list:
    g, x = op.inputs

    def grad_x() -> Any:
        denominator = 1.0 + m.abs(x)
        return -2.0 * gg * g * m.sign(x) / (denominator * denominator * denominator)

    return only_needed(op, lambda: _grad_op(op.type, gg, x, op), grad_x)


activation("Relu", "np.maximum(x, 0)", "x * (y > 0)", _masked_grad_grad, real=True)
activation("Relu6", "np.clip(x, 0, 6)", "x * ((y > 0) & (y < 6))", _masked_grad_grad, real=True)
activation("LeakyRelu", _emit_leaky_relu, "np.where(y > 0, x, alpha * x)", _masked_grad_grad,
           reads="x")
activation("Elu", "np.where(x < 0, np.expm1(x), x)", "x * (np.minimum(y, 0) + 1)", _select_grad_grad)
activation("Selu", f"np.where(x < 0, {SELU_SCALE_ALPHA!r} * np.expm1(x), {SELU_SCALE!r} * x)",
           f"np.where(y < 0, x * (y + {SELU_SCALE_ALPHA!r}), x * {SELU_SCALE!r})", _select_grad_grad)
activation("Softplus", "np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))", "x / (np.exp(-y) + 1)",
           _softplus_grad_grad, reads="x")
activation("Softsign", "x / (1 + np.abs(x))", "x / np.square(1 + np.abs(y))", _softsign_grad_grad, reads="x")


# -- softmax ----------------------------------------------------------------------------------------

def _softmax_infer(name: str) -> Any:
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        x = inputs[0]
        _float_input(name, x, "logits")
        if x.shape.rank == 0:
            raise ValueError(f"{name} needs logits of rank >= 1, got a scalar")
        normalize_axis(attrs["axis"], x.shape.rank, name)
        return [(x.dtype, x.shape)]
    return infer


def _axis(ins: Any) -> int:
    """The ``axis`` attr, made non-negative when the rank is known."""
    return normalize_axis(ins.attrs["axis"], ins.args[0].shape.rank)


def _helper_emitter(helper: str) -> Any:
    """``rt.<helper>(x, axis=...)``: the helper shows the stable form (shift by the maximum)."""
    def emit(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
        return rt_call(helper, [args[0]], [ast.keyword("axis", literal(_axis(ins)))])
    return emit


def _softmax_grad(op: Any, g: Any) -> list:
    y, axis = op.outputs[0], op.attrs["axis"]
    return [(g - r.reduce_sum(g * y, axis, keepdims=True)) * y]


def _log_softmax_grad(op: Any, g: Any) -> list:
    axis = op.attrs["axis"]
    return [g - r.reduce_sum(g, axis, keepdims=True) * m.exp(op.outputs[0])]


define("Softmax", _softmax_infer("Softmax"), _helper_emitter("softmax"), _softmax_grad)
define("LogSoftmax", _softmax_infer("LogSoftmax"), _helper_emitter("log_softmax"), _log_softmax_grad)


def _softmax_along(logits: Any, axis: int, log: bool = False) -> Any:
    return record1("LogSoftmax" if log else "Softmax", [logits], {"axis": axis})


# -- fused cross-entropies: (loss, backprop) along an axis (sparse: the last) ------------------------

def _paired_shape(op: str, logits: Any, labels: Any) -> TensorShape:
    """The shape of float ``logits`` and ``labels`` of the same dtype and shape."""
    _float_input(op, logits, "logits")
    same_dtype([logits, labels], "logits and labels")
    if not logits.shape.is_compatible_with(labels.shape):
        raise ValueError(f"logits and labels must have the same shape ({logits.shape} vs {labels.shape})")
    return logits.shape.merge_with(labels.shape)


def _xent_infer(inputs: Sequence[Any], attrs: dict) -> list:
    logits, labels = inputs
    shape = _paired_shape("SoftmaxCrossEntropyWithLogits", logits, labels)
    if shape.rank == 0:
        raise ValueError("logits and labels must have rank >= 1, got scalars")
    return [(logits.dtype, reduced_shape(shape, (attrs["axis"],), False)), (logits.dtype, shape)]


def _sparse_xent_infer(inputs: Sequence[Any], attrs: dict) -> list:
    logits, labels = inputs
    _float_input("SparseSoftmaxCrossEntropyWithLogits", logits, "logits")
    if not labels.dtype.is_integer:
        raise TypeError(f"labels must be int32 or int64 class indices, got {labels.dtype.name}")
    if logits.shape.rank == 0:
        raise ValueError("logits must have rank >= 1, got a scalar")
    batch = _drop_last(logits.shape)
    if not batch.is_compatible_with(labels.shape):
        raise ValueError(f"Shape mismatch: The shape of labels (received {labels.shape}) should equal the shape "
                         f"of logits except for the last dimension (received {logits.shape}).")
    return [(logits.dtype, batch.merge_with(labels.shape)), (logits.dtype, logits.shape)]


def _drop_last(shape: TensorShape) -> TensorShape:
    return TensorShape(None) if shape.rank is None else TensorShape(shape.sizes[:-1])


def _emit_xent(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    axis, rank = _axis(ins), ins.args[0].shape.rank
    last = axis == -1 or rank is not None and axis == rank - 1
    keywords = [] if last else [ast.keyword("axis", literal(axis))]
    return rt_call("softmax_xent", [args[0], args[1]], keywords)


def _emit_sparse_xent(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    return rt_call("sparse_softmax_xent", [args[0], args[1]])


def _is_zero(t: Any) -> bool:
    if t.op.type == "ZerosLike":
        return True
    value = constant_value(t)
    return value is not None and not value.any()


def _xent_logits_grad(op: Any, g_loss: Any, g_backprop: Any, axis: int = -1) -> Any:
    """``g_loss * backprop``, plus, for second order, the softmax Jacobian applied to ``g_backprop``."""
    grad = a.expand_dims(g_loss, axis) * op.outputs[1]
    if not _is_zero(g_backprop):
        softmax = _softmax_along(op.inputs[0], axis)
        grad = grad + (g_backprop - r.reduce_sum(g_backprop * softmax, axis, keepdims=True)) * softmax
    return grad


def _xent_grad(op: Any, g_loss: Any, g_backprop: Any) -> list:
    """As TF, plus ``-g_backprop`` for the labels (``backprop = softmax - labels``), a term TF's
    rule omits, so mixed second derivatives in logits and labels are right."""
    axis = op.attrs["axis"]

    def labels_grad() -> Any:
        grad = a.expand_dims(g_loss, axis) * -_softmax_along(op.inputs[0], axis, log=True)
        return grad if _is_zero(g_backprop) else grad - g_backprop

    return only_needed(op, lambda: _xent_logits_grad(op, g_loss, g_backprop, axis), labels_grad)


define("SoftmaxCrossEntropyWithLogits", _xent_infer, _emit_xent, _xent_grad,
       default_name="softmax_cross_entropy_with_logits")
define("SparseSoftmaxCrossEntropyWithLogits", _sparse_xent_infer, _emit_sparse_xent,
       lambda op, g_loss, g_backprop: [_xent_logits_grad(op, g_loss, g_backprop), None])


def _sigmoid_xent_infer(inputs: Sequence[Any], attrs: dict) -> list:
    logits, labels = inputs
    return [(logits.dtype, _paired_shape("SigmoidCrossEntropyWithLogits", logits, labels))]


def _sigmoid_xent_grad(op: Any, g: Any) -> list:
    """TF's formula selects on ``x >= 0``; its derivative is ``sigmoid(x) - z`` everywhere, even at 0."""
    x, z = op.inputs
    return only_needed(op, lambda: g * (m.sigmoid(x) - z), lambda: -g * x)


define("SigmoidCrossEntropyWithLogits", _sigmoid_xent_infer,
       template("np.maximum(x, 0) - x * y + np.log1p(np.exp(-np.abs(x)))"), _sigmoid_xent_grad,
       default_name="logistic_loss")


# -- bias_add, l2_loss ------------------------------------------------------------------------------

def _bias_add_infer(inputs: Sequence[Any], attrs: dict) -> list:
    value, bias = inputs
    dtype = same_dtype([value, bias], "value and bias")
    if bias.shape.rank not in (None, 1):
        raise ValueError(f"Shape must be rank 1 but is rank {bias.shape.rank} (bias)")
    rank = value.shape.rank
    if rank is None:
        return [(dtype, value.shape)]
    if rank < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {rank} (value)")
    channel = rank - 1 if attrs["data_format"] == "NHWC" else 1
    dims = list(value.shape.sizes)
    c = bias.shape.sizes[0] if bias.shape.rank == 1 else None
    if dims[channel] is not None and c is not None and dims[channel] != c:
        raise ValueError(f"Dimensions must be equal, but are {dims[channel]} and {c}")
    dims[channel] = dims[channel] if dims[channel] is not None else c
    return [(dtype, TensorShape(dims))]


def _emit_bias_add(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    if ins.attrs["data_format"] == "NHWC":
        return ast.BinOp(args[0], ast.Add(), args[1])
    rank = ins.args[0].shape.rank
    if rank is not None:
        column: ast.expr = literal((-1,) + (1,) * (rank - 2))
    else:  # (-1,) + (1,) * (np.ndim(value) - 2)
        ones = ast.BinOp(literal((1,)), ast.Mult(), ast.BinOp(ast.Call(np_attr("ndim"), [args[0]], []),
                                                              ast.Sub(), ast.Constant(2)))
        column = ast.BinOp(literal((-1,)), ast.Add(), ones)
    return ast.BinOp(args[0], ast.Add(), ast.Call(np_attr("reshape"), [args[1], column], []))


def _bias_add_grad(op: Any, g: Any) -> list:
    value, bias = op.inputs
    if op.attrs["data_format"] == "NHWC":
        return only_needed(op, lambda: g, lambda: unbroadcast(g, bias))
    rank = value.shape.rank
    if rank is None:
        raise ValueError(f"the gradient of bias_add with data_format NCHW needs the rank of {value.name}")
    return only_needed(op, lambda: g, lambda: r.reduce_sum(g, [0] + list(range(2, rank))))


define("BiasAdd", _bias_add_infer, _emit_bias_add, _bias_add_grad)


def _l2_loss_infer(inputs: Sequence[Any], attrs: dict) -> list:
    _float_input("L2Loss", inputs[0], "t")
    return [(inputs[0].dtype, TensorShape([]))]


define("L2Loss", _l2_loss_infer, template("np.sum(np.square(x)) / 2"), lambda op, g: [op.inputs[0] * g])
