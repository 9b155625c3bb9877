"""The table of how much of TensorFlow 1.x's API s2sgrad has, per namespace.

    python tools/coverage_table.py                            # print the table
    python tools/coverage_table.py --write docs/comparison.md  # replace the marked section

The names are ``s2sgrad/data/tf1_names.txt`` (written by ``tools/tf1_names.py``); a name is
supported when ``import s2sgrad as tf`` resolves it. ``tests/test_tf1_coverage.py`` fails when
the committed table is stale.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout's s2sgrad
import s2sgrad
from s2sgrad.tf1_api import tf1_names

BEGIN = "<!-- coverage table: written by tools/coverage_table.py, do not edit by hand -->"
END = "<!-- end of coverage table -->"


def supported(name: str) -> bool:
    """Whether ``tf.<name>`` resolves in s2sgrad (``name`` as in the list: ``"nn.relu"``, ``"nn."``)."""
    value = s2sgrad
    for part in name.rstrip(".").split("."):
        try:
            value = getattr(value, part)
        except AttributeError:
            return False
    return True


def counts() -> dict[str, tuple[int, int]]:
    """{"tf.nn": (supported, total), ...}: the names (not namespaces) under each top-level namespace."""
    out: dict[str, list[int]] = {}
    for name in tf1_names():
        if name.endswith("."):
            continue
        head, dot, _ = name.partition(".")
        row = out.setdefault("tf." + head if dot else "tf", [0, 0])
        row[0] += supported(name)
        row[1] += 1
    return {key: (done, total) for key, (done, total) in out.items()}


def table() -> str:
    """The markdown table, one row per namespace (``tf`` first, then by name) and a total."""
    rows = counts()
    lines = ["| namespace | supported | TF-1.x names | share |", "|---|---:|---:|---:|"]
    for key in sorted(rows, key=lambda k: (k != "tf", k)):
        done, total = rows[key]
        lines.append(f"| `{key}{'' if key == 'tf' else '.*'}` | {done} | {total} | {100 * done // total}% |")
    done, total = (sum(column) for column in zip(*rows.values(), strict=True))
    lines.append(f"| all | {done} | {total} | {100 * done // total}% |")
    return "\n".join(lines)


def with_table(text: str, path: str) -> str:
    """``text`` with the section between the markers replaced by the current table."""
    begin, end = text.find(BEGIN), text.find(END)
    if begin < 0 or end < begin:
        raise ValueError(f"{path} has no coverage section: add the lines {BEGIN!r} and {END!r}")
    return text[:begin] + BEGIN + "\n" + table() + "\n" + text[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", metavar="MARKDOWN", help="replace the marked section of this file")
    args = parser.parse_args(argv)
    if not args.write:
        print(table())
        return 0
    with open(args.write, encoding="utf-8") as f:
        text = f.read()
    with open(args.write, "w", encoding="utf-8") as f:
        f.write(with_table(text, args.write))
    return 0


if __name__ == "__main__":
    sys.exit(main())
