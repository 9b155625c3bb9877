"""Every complete program in README.md and docs/*.md runs, and prints what the docs say it prints.

Conventions for fenced blocks in the docs:

- ```python                a complete program: run as ``example.py`` in a fresh directory.
- ```python output         (or ``text output``) the exact stdout of the program just before it.
- ```console               ``$ s2sgrad ...`` / ``$ python ...`` commands, each followed by its exact
                           stdout; run in order in a directory holding a copy of ``examples/``.
- anything else            (``python fragment``, ``text``, ``bash``...) is not run.

``S2SGRAD_UPDATE_DOCS=1 python -m pytest tests/test_docs.py`` rewrites the expected outputs in
place from what the programs print now (review the diff).
"""
import glob
import math
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

from conftest import EXAMPLES, ROOT, checkout_env

DOCS = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
UPDATE = os.environ.get("S2SGRAD_UPDATE_DOCS") == "1"
_FENCE = re.compile(r"^```(.*)$")


class Block:
    def __init__(self, info, lines, start):
        self.words = info.split()
        self.lines = lines
        self.start = start          # index of the first content line in the file

    @property
    def text(self):
        return "".join(line + "\n" for line in self.lines)

    @property
    def kind(self):
        if not self.words:
            return "other"
        if "output" in self.words[1:]:
            return "output"
        if self.words == ["python"]:
            return "program"
        return "console" if self.words == ["console"] else "other"


def blocks(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    found, i = [], 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if match:
            end = lines.index("```", i + 1)
            found.append(Block(match.group(1), lines[i + 1:end], i + 1))
            i = end
        i += 1
    return found


def run(argv, cwd):
    result = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=checkout_env(), cwd=cwd)
    return result


def normalized(text):
    return "\n".join(line.rstrip() for line in text.strip("\n").split("\n"))


def console_commands(block):
    """[(command line, expected output lines, index of the first output line in block.lines)]."""
    commands = []
    for i, line in enumerate(block.lines):
        if line.startswith("$ "):
            commands.append((line[2:], [], i + 1))
        elif commands:
            commands[-1][1].append(line)
    return commands


def argv_of(command):
    words = shlex.split(command)
    if words[0] == "s2sgrad":
        return [sys.executable, "-m", "s2sgrad", *words[1:]]
    if words[0] == "python":
        return [sys.executable, *words[1:]]
    raise AssertionError(f"docs may only run s2sgrad and python commands, not {command!r}")


@pytest.mark.parametrize("path", DOCS, ids=[os.path.basename(p) for p in DOCS])
def test_doc_programs_run_and_print_what_the_doc_says(path, tmp_path):
    found = blocks(path)
    replacements, problems = [], []
    for n, block in enumerate(found):
        if block.kind == "program":
            workdir = tmp_path / f"program_{n}"
            workdir.mkdir()
            (workdir / "example.py").write_text(block.text)
            result = run([sys.executable, "example.py"], workdir)
            if result.returncode != 0:
                problems.append(f"{os.path.basename(path)}:{block.start}: program failed:\n{result.stderr}")
                continue
            following = found[n + 1] if n + 1 < len(found) else None
            if following is not None and following.kind == "output":
                _compare(path, following, 0, len(following.lines), result.stdout, replacements, problems)
        elif block.kind == "console":
            workdir = tmp_path / f"console_{n}"
            shutil.copytree(EXAMPLES, workdir / "examples")
            commands = console_commands(block)
            for k, (command, _expected, first) in enumerate(commands):
                result = run(argv_of(command), workdir)
                end = commands[k + 1][2] - 1 if k + 1 < len(commands) else len(block.lines)
                _compare(path, block, first, end, result.stdout, replacements, problems)
    if UPDATE and replacements:
        _rewrite(path, replacements)
    assert not problems, "\n\n".join(problems)


FLOAT = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?\d+[eE][-+]?\d+")
FLOAT_RTOL = 1e-6   # float32 results may differ in their last digit with the BLAS kernels of another CPU


def same_output(expected, printed):
    """The same text, where decimal numbers may differ by FLOAT_RTOL (integers and words exactly)."""
    expected, printed = normalized(expected), normalized(printed)
    if expected == printed:
        return True
    if FLOAT.split(expected) != FLOAT.split(printed):
        return False
    pairs = zip(FLOAT.findall(expected), FLOAT.findall(printed), strict=True)
    return all(math.isclose(float(a), float(b), rel_tol=FLOAT_RTOL, abs_tol=1e-12) for a, b in pairs)


def test_outputs_compare_decimals_to_a_relative_tolerance_and_the_rest_exactly():
    assert same_output("0 1.5558207\n4 0.72345906", "0 1.5558206\n4 0.7234591  ")
    assert same_output("x 1e-08", "x 1.0000001e-08")
    assert not same_output("0 1.5558207", "0 1.5558307")      # beyond float32's last digits
    assert not same_output("0 1.5558207", "1 1.5558207")      # integers exactly (steps, line numbers)
    assert not same_output("loss 1.5", "cost 1.5")
    assert not same_output("[1.5, 2.5]", "[1.5, 2.5, 3.5]")


def _compare(path, block, first, end, stdout, replacements, problems):
    expected = "\n".join(block.lines[first:end])
    if same_output(expected, stdout):
        return
    replacements.append((block.start + first, block.start + end, normalized(stdout).split("\n")))
    if not UPDATE:
        problems.append(f"{os.path.basename(path)}:{block.start + first + 1}: output differs.\n"
                        f"--- documented\n{normalized(expected)}\n--- printed\n{normalized(stdout)}")


def _rewrite(path, replacements):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for start, end, new in sorted(replacements, reverse=True):
        lines[start:end] = new
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def test_docs_exist_and_link_each_other():
    names = {os.path.basename(p) for p in DOCS[1:]}
    assert {"tutorial.md", "decorator.md", "cli.md", "comparison.md", "design.md"} <= names
    for path in DOCS[1:]:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for target in re.findall(r"\]\(([^)#]+\.(?:md|py))(?:#[^)]*)?\)", text):
            assert os.path.exists(os.path.join(os.path.dirname(path), target)), f"{path}: broken link {target}"
