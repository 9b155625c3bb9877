"""The linter (ruff) and the type checker (mypy) pass over the code, with pyproject.toml's settings.

Both come with the ``test`` extra (``pip install -e ".[test]"``). mypy keeps its cache in the
repository's ``.mypy_cache`` (git-ignored), so a repeated run checks only what changed.
"""
from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
LINTED = ["s2sgrad", "tests", "tools", "benchmarks", "examples"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True)


def test_ruff_is_clean() -> None:
    result = _run("ruff", "check", "--no-fix", "--output-format", "concise", *LINTED)
    assert result.returncode == 0, f"ruff check {' '.join(LINTED)}:\n{result.stdout}{result.stderr}"


def test_mypy_is_clean() -> None:
    result = _run("mypy")  # the package and the settings come from [tool.mypy]
    assert result.returncode == 0, f"mypy:\n{result.stdout}{result.stderr}"
