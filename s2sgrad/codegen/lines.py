"""Generated text within ``MAX_LINE`` columns: statement comments, ``def run``, the docstring, ``del``.

Statements themselves are broken by ``printer.print_lines`` (inside brackets, same tree).
"""
from __future__ import annotations

import textwrap

__all__ = ["COMMENT_COLUMN", "MAX_LINE", "dels", "signature", "with_comment", "wrapped_title"]

MAX_LINE = 99          # generated lines stay within this width
COMMENT_COLUMN = 44    # where a statement's trailing ``# op  file:line`` comment starts


def with_comment(code: list[str], comment: str, indent: str) -> list[str]:
    """A one-line statement with its comment at the comment column when that fits in
    ``MAX_LINE``, else the comment on its own line above the statement."""
    if not comment:
        return code
    if len(code) == 1:
        line = f"{code[0].ljust(COMMENT_COLUMN - len(indent))}  # {comment}"
        if len(indent) + len(line) <= MAX_LINE:
            return [line]
    return [f"# {comment}", *code]


def signature(params: list[str]) -> list[str]:
    """``def run(a, b, ...):``, parameters packed into lines within ``MAX_LINE``."""
    lines, current = [], "def run("
    for k, name in enumerate(params):
        piece = name + ("):" if k == len(params) - 1 else ",")
        if not current.endswith("(") and len(current) + 1 + len(piece) > MAX_LINE:
            lines.append(current)
            current = " " * len("def run(")
        current += ("" if current.endswith("(") or current.isspace() else " ") + piece
    return lines + [current if params else "def run():"]


def wrapped_title(title: str) -> str:
    """The docstring with lines longer than ``MAX_LINE`` broken at spaces (``feeds:`` lists...),
    continuation lines indented past their label."""
    lines = []
    for line in title.split("\n"):
        indent = " " * (len(line) - len(line.split(":", 1)[-1].lstrip()) if ":" in line[:12] else 4)
        lines.append(textwrap.fill(line, MAX_LINE - 3, subsequent_indent=indent, break_long_words=False,
                                   break_on_hyphens=False) if len(line) > MAX_LINE - 3 else line)
    return "\n".join(lines)


def dels(names: list[str]) -> list[str]:
    """``del a, b, c`` statements, as many as needed to keep lines within ``MAX_LINE``."""
    lines = ["del"]
    for name in names:
        if len(lines[-1]) > 3 and 4 + len(lines[-1]) + 2 + len(name) > MAX_LINE:
            lines.append("del")
        lines[-1] += (" " if len(lines[-1]) == 3 else ", ") + name
    return lines
