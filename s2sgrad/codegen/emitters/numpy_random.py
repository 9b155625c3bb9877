"""Emitters of the NumPy stream draws: ``rng.uniform(size=(3, 4))``, ``np.random.normal(0.0, 2.0)``,
``np.random.default_rng(42)``, ``np.random.seed(0)``."""
from __future__ import annotations

import ast
from collections.abc import Sequence

from ...primitives import numpy_random as P
from ...primitives.core import Primitive
from ..program import Instr
from .common import LOAD, Emitter, literal, np_attr


def _call(receiver: ast.expr, method: str, call: Sequence[tuple], args: Sequence[ast.expr]) -> ast.expr:
    """``receiver.method(...)``; ``call`` lists (keyword or None, ('in', i) | ('lit', value))."""
    positional, keywords = [], []
    for keyword, (kind, value) in call:
        expr = args[value] if kind == "in" else literal(value)
        if keyword is None:
            positional.append(expr)
        else:
            keywords.append(ast.keyword(keyword, expr))
    return ast.Call(ast.Attribute(receiver, method, LOAD), positional, keywords)


def _draw(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    attrs = ins.attrs
    if attrs["stream"]:
        return _call(args[0], attrs["method"], attrs["call"], args)
    return _call(np_attr("random"), attrs["method"], attrs["call"], args)


def _generator(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return _call(np_attr("random"), ins.attrs["kind"], ins.attrs["call"], args)


def _seed(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return _call(np_attr("random"), "seed", ins.attrs["call"], args)


EMITTERS: dict[Primitive, Emitter] = {
    P.NUMPY_RANDOM: _draw,
    P.NUMPY_GENERATOR: _generator,
    P.NUMPY_SEED: _seed,
}
