"""Readable, collision-free Python identifiers from user-chosen op names.

Whatever a user names an op or scope, the identifier is ASCII ``[a-z_][a-z0-9_]*``, never
a keyword, builtin or one of the generated module's own names, and never equal to
another identifier in the same module.
"""
from __future__ import annotations

import builtins
import keyword
import re

__all__ = ["identifier", "Namer", "INTERNAL_NAMES"]

INTERNAL_NAMES = frozenset({"np", "rt", "run", "_constants"})
_RESERVED = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins)) | INTERNAL_NAMES
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_INVALID = re.compile(r"[^a-z0-9_]+")
_GRADIENT_SCOPE = re.compile(r"^gradients(_\d+)?/")
_MAX_LEN = 40


def identifier(text: str) -> str:
    """``'layer1/MatMul_1'`` -> ``'layer1_mat_mul_1'``; always a safe identifier (maybe reserved)."""
    text = _CAMEL.sub("_", str(text)).lower()
    text = _INVALID.sub("_", text.replace("/", "_")).strip("_")
    text = re.sub(r"__+", "_", text)[:_MAX_LEN].rstrip("_")
    if not text:
        return "t"
    if text[0].isdigit():
        text = "t" + text
    return text


def op_identifier(op_name: str) -> str:
    """Identifier from the last two components of an op name: ``a/b/update_w/Mul`` -> ``update_w_mul``."""
    return identifier("/".join(_GRADIENT_SCOPE.sub("", op_name).split("/")[-2:]))


class Namer:
    """Hands out unique identifiers: ``w``, ``w_1``, ``w_2``..."""

    def __init__(self, taken: frozenset = frozenset()) -> None:
        self._used: set[str] = set(taken)

    def fresh(self, base: str) -> str:
        base = identifier(base)
        if base in _RESERVED:
            base += "_"
        name, i = base, 1
        while name in self._used:
            name = f"{base}_{i}"
            i += 1
        self._used.add(name)
        return name
