"""Emitters of matrix functions and decompositions: NumPy's ``np.linalg``, with a runtime helper
where TensorFlow's convention differs (a triangular solve, an SVD returning ``v``, band parts)."""
from __future__ import annotations

import ast
from collections.abc import Sequence

from ...primitives import matrix as P
from ...primitives.core import Primitive
from ..program import Instr
from .common import Emitter, literal, np_attr, rt_call


def _linalg(name: str) -> ast.expr:
    return ast.Attribute(np_attr("linalg"), name, ast.Load())


def _adjoint(expr: ast.expr, ins: Instr) -> ast.expr:
    """The matrix argument, swapped (and conjugated, if complex) when the op reads its adjoint."""
    if not ins.attrs.get("adjoint"):
        return expr
    swapped = ast.Call(np_attr("swapaxes"), [expr, ast.Constant(-1), ast.Constant(-2)], [])
    return ast.Call(np_attr("conj"), [swapped], []) if ins.args[0].dtype.is_complex else swapped


def _band_counts(ins: Instr, args: Sequence[ast.expr]) -> list[ast.expr]:
    """A band's counts: the op's second and third inputs when the graph computes them, else its attributes."""
    if len(ins.args) == 3:
        return [args[1], args[2]]
    return [literal(int(ins.attrs["num_lower"])), literal(int(ins.attrs["num_upper"]))]


def _call(name: str) -> Emitter:
    return lambda ins, args: ast.Call(_linalg(name), [_adjoint(args[0], ins), *args[1:]], [])


def _qr(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    mode = "complete" if ins.attrs["full_matrices"] else "reduced"
    return ast.Call(_linalg("qr"), [args[0]], [ast.keyword("mode", literal(mode))])


EMITTERS: dict[Primitive, Emitter] = {
    P.MATRIX_INVERSE: _call("inv"),
    P.MATRIX_DETERMINANT: _call("det"),
    P.LOG_MATRIX_DETERMINANT: lambda ins, args: ast.Call(ast.Name("tuple", ast.Load()),
                                                         [ast.Call(_linalg("slogdet"), [args[0]], [])], []),
    P.CHOLESKY: _call("cholesky"),
    P.MATRIX_SOLVE: _call("solve"),
    P.MATRIX_TRIANGULAR_SOLVE: lambda ins, args: rt_call("triangular_solve", [
        args[0], args[1], literal(bool(ins.attrs["lower"])), literal(bool(ins.attrs["adjoint"]))]),
    P.SELF_ADJOINT_EIG: lambda ins, args: rt_call("upper_eigh", [args[0]]) if ins.attrs.get("upper") else ast.Call(
        ast.Name("tuple", ast.Load()), [ast.Call(_linalg("eigh"), [args[0]], [])], []),
    P.SVD: lambda ins, args: rt_call("svd", [args[0], literal(bool(ins.attrs["full_matrices"]))]),
    P.QR: _qr,
    P.MATRIX_DIAG: lambda ins, args: rt_call("matrix_diag", [args[0]]),
    P.MATRIX_DIAG_PART: lambda ins, args: ast.Call(np_attr("diagonal"), [args[0]], [
        ast.keyword("axis1", literal(-2)), ast.keyword("axis2", literal(-1))]),
    P.MATRIX_SET_DIAG: lambda ins, args: rt_call("matrix_set_diag", [args[0], args[1]]),
    P.MATRIX_BAND_PART: lambda ins, args: rt_call("band_part", [args[0], *_band_counts(ins, args)]),
}
