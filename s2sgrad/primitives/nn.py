"""Neural-network primitives: activations with their fused gradient ops, softmax, the fused
cross-entropies, bias_add, l2_loss, LRN, top_k and in_top_k.

Each activation ``F`` has a gradient op ``FGrad(g, y_or_x)`` computing what TensorFlow's
kernel computes (``ReluGrad``: ``g * (y > 0)``, so the gradient at 0 is 0), and each
``FGrad`` has TensorFlow's second-order rule. The cross-entropies return the loss and its
gradient ``softmax - labels`` from one pass, as TF's fused kernels do.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import dtypes as _dt
from ..shapes import TensorShape
from .common import normalize_axis
from .core import Primitive, constant_value, define, same_dtype
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


def activation(name: str, expr: str, grad_expr: str, real: bool = False) -> tuple[Primitive, Primitive]:
    """``name`` and its gradient op ``<name>Grad(g, features)``, computed by the NumPy expressions
    ``expr`` (empty: codegen has an emitter for it) and ``grad_expr``, which names ``g`` as ``x``
    and the features as ``y``. Attrs (LeakyRelu's ``alpha``) are shared by both ops."""
    grad_name = name + "Grad"
    forward = define(name, _activation_infer(name, real), expr=expr)
    # not ``ufunc``: a uniform ``g`` written as a Python scalar would make ``1.0 * (y > 0)`` float64
    return forward, define(grad_name, _grad_op_infer(grad_name), expr=grad_expr)


RELU, RELU_GRAD = activation("Relu", "np.maximum(x, 0)", "x * (y > 0)", real=True)
RELU6, RELU6_GRAD = activation("Relu6", "np.clip(x, 0, 6)", "x * ((y > 0) & (y < 6))", real=True)
LEAKY_RELU, LEAKY_RELU_GRAD = activation("LeakyRelu", "", "np.where(y > 0, x, alpha * x)")
ELU, ELU_GRAD = activation("Elu", "np.where(x < 0, np.expm1(x), x)", "x * (np.minimum(y, 0) + 1)")
SELU, SELU_GRAD = activation("Selu", f"np.where(x < 0, {SELU_SCALE_ALPHA!r} * np.expm1(x), {SELU_SCALE!r} * x)",
                             f"np.where(y < 0, x * (y + {SELU_SCALE_ALPHA!r}), x * {SELU_SCALE!r})")
SOFTPLUS, SOFTPLUS_GRAD = activation("Softplus", "np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))",
                                     "x / (np.exp(-y) + 1)")
SOFTSIGN, SOFTSIGN_GRAD = activation("Softsign", "x / (1 + np.abs(x))", "x / np.square(1 + np.abs(y))")


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


SOFTMAX = define("Softmax", _softmax_infer("Softmax"))
LOG_SOFTMAX = define("LogSoftmax", _softmax_infer("LogSoftmax"))


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
    return TensorShape(None) if shape.sizes is None else TensorShape(shape.sizes[:-1])


SOFTMAX_CROSS_ENTROPY_WITH_LOGITS = define("SoftmaxCrossEntropyWithLogits", _xent_infer,
                                           default_name="softmax_cross_entropy_with_logits")
SPARSE_SOFTMAX_CROSS_ENTROPY_WITH_LOGITS = define("SparseSoftmaxCrossEntropyWithLogits", _sparse_xent_infer)


def _sigmoid_xent_infer(inputs: Sequence[Any], attrs: dict) -> list:
    logits, labels = inputs
    return [(logits.dtype, _paired_shape("SigmoidCrossEntropyWithLogits", logits, labels))]


SIGMOID_CROSS_ENTROPY_WITH_LOGITS = define("SigmoidCrossEntropyWithLogits", _sigmoid_xent_infer,
                                           expr="np.maximum(x, 0) - x * y + np.log1p(np.exp(-np.abs(x)))",
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


BIAS_ADD = define("BiasAdd", _bias_add_infer)


def _l2_loss_infer(inputs: Sequence[Any], attrs: dict) -> list:
    _float_input("L2Loss", inputs[0], "t")
    return [(inputs[0].dtype, TensorShape([]))]


L2_LOSS = define("L2Loss", _l2_loss_infer)


# -- local response normalization, top_k, in_top_k ------------------------------------------------------

def _lrn_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    _float_input("LRN", x, "input")
    if x.shape.rank not in (None, 4):
        raise ValueError(f"Shape must be rank 4 but is rank {x.shape.rank} for 'LRN' (input)")
    if attrs["depth_radius"] < 0:
        raise ValueError(f"depth_radius must be >= 0, got {attrs['depth_radius']}")
    return [(x.dtype, x.shape)]


LRN = define("LRN", _lrn_infer)


def _top_k_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x, k = inputs
    if x.dtype.name == "string" or x.dtype.is_bool or x.dtype.is_complex:
        raise TypeError(f"Value passed to parameter 'input' has DataType {x.dtype.name} not allowed for TopKV2")
    if not k.dtype.is_integer or k.shape.rank not in (None, 0):
        raise TypeError(f"k must be an integer scalar, got {k.dtype.name} {k.shape}")
    if x.shape.rank == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0 for 'TopKV2' (input)")
    known = constant_value(k)
    n = None if known is None else int(known)
    if n is not None and n < 0:
        raise ValueError(f"Need k >= 0, got {n}")
    sizes = x.shape.sizes
    if sizes is None:
        return [(x.dtype, TensorShape(None)), (attrs["index_type"], TensorShape(None))]
    if n is not None and sizes[-1] is not None and sizes[-1] < n:
        raise ValueError(f"input must have last dimension >= k = {n} but is {sizes[-1]} for 'TopKV2'")
    out = TensorShape([*sizes[:-1], n])
    return [(x.dtype, out), (attrs["index_type"], out)]


TOP_K = define("TopKV2", _top_k_infer)


def _in_top_k_infer(inputs: Sequence[Any], attrs: dict) -> list:
    predictions, targets, k = inputs
    if predictions.dtype.name != "float32":
        raise TypeError(f"Value passed to parameter 'predictions' has DataType {predictions.dtype.name} not allowed "
                        f"for InTopKV2 (expects float32)")
    if not targets.dtype.is_integer or not k.dtype.is_integer:
        raise TypeError("targets and k of in_top_k must be integers")
    if predictions.shape.rank not in (None, 2):
        raise ValueError(f"Shape must be rank 2 but is rank {predictions.shape.rank} for 'InTopKV2' (predictions)")
    if targets.shape.rank not in (None, 1):
        raise ValueError(f"Shape must be rank 1 but is rank {targets.shape.rank} for 'InTopKV2' (targets)")
    batch = TensorShape(None if predictions.shape.sizes is None else predictions.shape.sizes[:1])
    if not batch.is_compatible_with(targets.shape):
        raise ValueError(f"predictions {predictions.shape} and targets {targets.shape} must have the same batch size")
    return [(_dt.bool, batch.merge_with(targets.shape) if targets.shape.rank is not None else batch)]


IN_TOP_K = define("InTopKV2", _in_top_k_infer, differentiable=False)
