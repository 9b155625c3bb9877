"""Einsum equations: parsing and validation, static output shapes, and the explicit form
(every ``...`` spelled out as letters) that gradient rules work with.

>>> str(parse("ij,jk", 2))
'ij,jk->ik'
"""
from __future__ import annotations

import dataclasses
import string
from collections import Counter
from collections.abc import Iterator, Sequence

from .shapes import Sizes, TensorShape
from .static import broadcast_shape

__all__ = ["Equation", "parse", "output_shape", "explicit"]

LETTERS = string.ascii_letters
ELLIPSIS = "..."


@dataclasses.dataclass(frozen=True)
class Equation:
    """Subscripts per operand and for the output; ``...`` stands for broadcast dimensions."""

    inputs: tuple[str, ...]
    output: str

    def __str__(self) -> str:
        return ",".join(self.inputs) + "->" + self.output

    def letters(self) -> set[str]:
        return set("".join(self.inputs + (self.output,)).replace(ELLIPSIS, ""))

    def fresh_letters(self) -> Iterator[str]:
        """Letters the equation does not use, in order."""
        used = self.letters()
        return (c for c in LETTERS if c not in used)


def parse(text: str, n_operands: int) -> Equation:
    """The equation in explicit form (``'ij,jk'`` means ``'ij,jk->ik'``, as in NumPy and TF);
    ValueError when it is malformed or does not fit ``n_operands``."""
    if not isinstance(text, str):
        raise TypeError(f"einsum equation must be a string, got {type(text).__name__}")
    compact = "".join(text.split())
    lhs, arrow, rhs = compact.partition("->")
    terms = tuple(lhs.split(","))
    if len(terms) != n_operands:
        raise ValueError(f"einsum equation {text!r} has {len(terms)} input subscripts, but {n_operands} "
                         f"operands were given")
    for term in terms + ((rhs,) if arrow else ()):
        _check_term(term, text)
    counts = Counter("".join(terms).replace(ELLIPSIS, ""))
    has_ellipsis = any(ELLIPSIS in t for t in terms)
    if not arrow:
        rhs = (ELLIPSIS if has_ellipsis else "") + "".join(sorted(c for c, k in counts.items() if k == 1))
    out = rhs.replace(ELLIPSIS, "")
    for c in out:
        if c not in counts:
            raise ValueError(f"output subscript {c!r} does not appear in the inputs of einsum equation {text!r}")
    repeated = sorted(c for c, k in Counter(out).items() if k > 1)
    if repeated:
        raise ValueError(f"output subscript {repeated[0]!r} appears more than once in einsum equation {text!r}")
    if ELLIPSIS in rhs and not has_ellipsis:
        raise ValueError(f"einsum equation {text!r} has '...' in the output but in no input")
    return Equation(terms, rhs)


def _check_term(term: str, text: str) -> None:
    if term.count(ELLIPSIS) > 1:
        raise ValueError(f"subscripts {term!r} of einsum equation {text!r} have more than one '...'")
    for c in term.replace(ELLIPSIS, ""):
        if c not in LETTERS:
            raise ValueError(f"invalid character {c!r} in einsum equation {text!r} (use letters, ',', '->' "
                             f"and '...')")


def _ellipsis_rank(term: str, rank: int, position: int, shape: TensorShape) -> int:
    n = rank - len(term.replace(ELLIPSIS, ""))
    if n < 0 or (n > 0 and ELLIPSIS not in term):
        need = len(term.replace(ELLIPSIS, ""))
        raise ValueError(f"einsum subscripts {term!r} need rank {need}{' or more' if ELLIPSIS in term else ''}, "
                         f"but operand {position} has shape {shape}")
    return n


def _labelled(term: str, dims: Sizes) -> tuple[list[tuple[str, int | None]], list[int | None]]:
    """Split ``dims`` into (letter, dim) pairs and the ellipsis dims (``_ellipsis_rank`` checked the rank)."""
    head, _, tail = term.partition(ELLIPSIS)
    n_ell = len(dims) - len(head) - len(tail)
    pairs = list(zip(head, dims[:len(head)], strict=True)) + list(zip(tail, dims[len(head) + n_ell:], strict=True))
    return pairs, list(dims[len(head):len(head) + n_ell])


def output_shape(eq: Equation, shapes: Sequence[TensorShape], broadcast: str = "") -> TensorShape:
    """The static output shape; ValueError when a letter's dimensions disagree. Letters in
    ``broadcast`` (spelled-out ``...`` dims) may also be 1 where others are not, as ``...``."""
    sizes: dict[str, int | None] = {}
    ellipses = []
    for i, (term, shape) in enumerate(zip(eq.inputs, shapes, strict=True)):
        if shape.sizes is None:
            ellipses.append(TensorShape(None if ELLIPSIS in term else []))
            for c in term.replace(ELLIPSIS, ""):
                sizes.setdefault(c, None)
            continue
        _ellipsis_rank(term, len(shape.sizes), i, shape)
        pairs, ell = _labelled(term, shape.sizes)
        for c, d in pairs:
            known = sizes.get(c)
            if c in broadcast and 1 in (known, d):
                sizes[c] = d if known == 1 else known
                continue
            if known is not None and d is not None and known != d:
                raise ValueError(f"Expected dimension {known} for subscript {c!r} of einsum, but operand {i} "
                                 f"(shape {shape}) has dimension {d}")
            sizes[c] = known if known is not None else d
        ellipses.append(TensorShape(ell))
    dims: list = [sizes[c] for c in eq.output.replace(ELLIPSIS, "")]
    if ELLIPSIS not in eq.output:
        return TensorShape(dims)
    ellipsis_sizes = broadcast_shape(*ellipses).sizes
    if ellipsis_sizes is None:
        return TensorShape(None)
    head = eq.output.index(ELLIPSIS)
    return TensorShape(dims[:head] + list(ellipsis_sizes) + dims[head:])


def explicit(eq: Equation, ranks: Sequence[int]) -> tuple[Equation, str]:
    """The same equation with each ``...`` replaced by letters (right-aligned, as broadcasting),
    and those letters (which keep broadcasting: a dimension 1 stretches to match)."""
    n_ell = [_ellipsis_rank(t, r, i, TensorShape([None] * r))
             for i, (t, r) in enumerate(zip(eq.inputs, ranks, strict=True))]
    width = max(n_ell, default=0)
    fresh = list(eq.fresh_letters())
    if width > len(fresh):
        raise ValueError(f"einsum equation {eq} has too many dimensions to name with letters")
    names = "".join(fresh[:width])

    def spell(term: str, n: int) -> str:
        return term.replace(ELLIPSIS, names[width - n:] if n else "")

    out = spell(eq.output, width) if ELLIPSIS in eq.output else eq.output
    return Equation(tuple(spell(t, n) for t, n in zip(eq.inputs, n_ell, strict=True)), out), names
