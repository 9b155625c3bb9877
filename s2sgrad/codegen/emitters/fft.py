"""Emitters of the Fourier transforms, written as one would by hand: ``np.fft.rfft(x, n=8, axis=0)``,
``np.fft.fft2(x)``, ``np.fft.ifftn(x, s=(4, 4), axes=(0, 2), norm="ortho")``; arguments equal to
NumPy's defaults are left out."""
from __future__ import annotations

import ast
from collections.abc import Sequence

from ...primitives import fft as P
from ...primitives.core import Primitive
from ..program import Instr
from .common import LOAD, Emitter, literal, np_attr


def _fft_attr(name: str) -> ast.expr:
    return ast.Attribute(np_attr("fft"), name, LOAD)


def _from_end(axes: Sequence[int], rank: int | None) -> list[int | None]:
    """Each axis as a negative position (None where the rank is unknown and the axis is not negative)."""
    return [a - rank if a >= 0 and rank is not None else (a if a < 0 else None) for a in axes]


def _default_lengths(kind: str, ins: Instr) -> bool:
    """Whether ``lengths`` are what NumPy would take without ``n``/``s``."""
    lengths = ins.attrs["lengths"]
    if lengths is None:
        return True
    x = ins.args[0]
    if x.shape.rank is None:
        return False
    sizes = [x.shape.as_list()[a] for a in P.transformed_axes(ins.attrs["axes"], x.shape.rank)]
    if kind == "irfft" and sizes[-1] is not None:
        sizes[-1] = 2 * (sizes[-1] - 1)
    return list(lengths) == sizes


def _emitter(kind: str) -> Emitter:
    def emit(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
        axes = ins.attrs["axes"]
        from_end = _from_end(axes, ins.args[0].shape.rank)
        innermost = from_end == list(range(-len(axes), 0))
        lengths = None if _default_lengths(kind, ins) else tuple(ins.attrs["lengths"])
        keywords = []
        if len(axes) == 1:
            name = kind
            if lengths is not None:
                keywords.append(ast.keyword("n", literal(lengths[0])))
            if not innermost:
                keywords.append(ast.keyword("axis", literal(axes[0])))
        else:
            name = kind + ("2" if innermost and len(axes) == 2 else "n")
            if lengths is not None:
                keywords.append(ast.keyword("s", literal(lengths)))
            if not innermost or (lengths is not None and name.endswith("n")):  # NumPy 2 wants axes with s
                keywords.append(ast.keyword("axes", literal(tuple(axes))))
        if ins.attrs["norm"] != "backward":
            keywords.append(ast.keyword("norm", literal(ins.attrs["norm"])))
        return ast.Call(_fft_attr(name), [args[0]], keywords)
    return emit


EMITTERS: dict[Primitive, Emitter] = {
    P.FFT: _emitter("fft"),
    P.IFFT: _emitter("ifft"),
    P.RFFT: _emitter("rfft"),
    P.IRFFT: _emitter("irfft"),
}
