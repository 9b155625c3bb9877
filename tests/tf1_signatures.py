"""TensorFlow's signatures as recorded by tools/tf1_names.py, and s2sgrad's in the same text form."""
from __future__ import annotations

import re

from tools.tf1_names import SIGNATURES_FILE, parameters

_NAME_DEFAULT = re.compile(r"\bname=[^,]*")


def _read() -> dict[str, str]:
    with open(SIGNATURES_FILE, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if not line.startswith("#")]
    return dict(rows)


TF_SIGNATURES = _read()


def signature_text(value: object) -> str:
    """``a, b=None, name=...``: parameters as tools/tf1_names.py writes them, the ``name`` default
    left out (TF defaults it to the op's name, s2sgrad to None; both name the op alike)."""
    return normalized(parameters(value) or "")


def normalized(text: str) -> str:
    return _NAME_DEFAULT.sub("name=...", text)
