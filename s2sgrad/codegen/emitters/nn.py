"""Emitters for the neural-network primitives that are not elementwise (or need more than a template)."""
from __future__ import annotations

import ast
from collections.abc import Sequence

from ...primitives import nn
from ...primitives.common import normalize_axis
from ...primitives.core import Primitive
from ..program import Instr
from .common import Emitter, literal, np_attr, rt_call
from .template import template


def _emit_leaky_relu(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    """``np.maximum(x, alpha * x)`` for ``0 <= alpha <= 1`` (``minimum`` above 1): the same values
    as TF's select on ``x > 0``, several times faster than ``np.where``."""
    alpha = ins.attrs["alpha"]
    scaled = ast.BinOp(literal(alpha), ast.Mult(), args[0])
    if alpha < 0:
        positive = ast.Compare(args[0], [ast.Gt()], [ast.Constant(0)])
        return ast.Call(np_attr("where"), [positive, args[0], scaled], [])
    return ast.Call(np_attr("maximum" if alpha <= 1 else "minimum"), [args[0], scaled], [])


def _axis(ins: Instr) -> int:
    """The ``axis`` attr, made non-negative when the rank is known."""
    return normalize_axis(ins.attrs["axis"], ins.args[0].shape.rank)


def _helper_emitter(helper: str) -> Emitter:
    """``rt.<helper>(x, axis=...)``: the helper shows the stable form (shift by the maximum)."""
    def emit(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
        return rt_call(helper, [args[0]], [ast.keyword("axis", literal(_axis(ins)))])
    return emit


def _emit_xent(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    axis, rank = _axis(ins), ins.args[0].shape.rank
    last = axis == -1 or rank is not None and axis == rank - 1
    keywords = [] if last else [ast.keyword("axis", literal(axis))]
    return rt_call("softmax_xent", [args[0], args[1]], keywords)


def _emit_sparse_xent(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return rt_call("sparse_softmax_xent", [args[0], args[1]])


def _emit_bias_add(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
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


def _emit_top_k(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    k = ins.args[1].const
    return rt_call("top_k", [args[0], args[1] if k is None else literal(int(k)), literal(ins.attrs["index_type"])])


EMITTERS: dict[Primitive, Emitter] = {
    nn.LEAKY_RELU: _emit_leaky_relu,
    nn.SOFTMAX: _helper_emitter("softmax"),
    nn.LOG_SOFTMAX: _helper_emitter("log_softmax"),
    nn.SOFTMAX_CROSS_ENTROPY_WITH_LOGITS: _emit_xent,
    nn.SPARSE_SOFTMAX_CROSS_ENTROPY_WITH_LOGITS: _emit_sparse_xent,
    nn.BIAS_ADD: _emit_bias_add,
    nn.L2_LOSS: template("np.sum(np.square(x)) / 2"),
    nn.LRN: template("x / (bias + alpha * rt.window_sum(np.square(x), depth_radius)) ** beta"),
    nn.TOP_K: _emit_top_k,
    nn.IN_TOP_K: template("rt.in_top_k(x, y, z)"),
}
