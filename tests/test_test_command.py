"""The README's test command (what .ci/run runs) ends with pytest's summary line.

With ``addopts = "-q"`` in the project's pytest settings, ``python -m pytest -q`` is ``-qq``,
which prints no "N passed" line at all; this runs the command as written, with the project's
own configuration, on a small test file, and reads its last line.
"""
import os
import re
import shlex
import subprocess
import sys

from conftest import ROOT, checkout_env


def _readme_test_command():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        commands = [part.strip() for line in f for part in line.split("&&") if "-m pytest" in part]
    assert len(commands) == 1, commands
    return shlex.split(commands[0])


def test_ci_runs_the_readme_command():
    with open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8") as f:
        last = [line.strip() for line in f if line.strip() and not line.startswith("#")][-1]
    assert shlex.split(last) == _readme_test_command()


def test_the_readme_test_command_prints_the_summary_line(tmp_path):
    command = _readme_test_command()
    assert command[:3] == ["python", "-m", "pytest"]
    (tmp_path / "test_small.py").write_text("def test_one():\n    assert 1 + 1 == 2\n\n\n"
                                            "def test_two():\n    assert 'a' * 2 == 'aa'\n")
    result = subprocess.run([sys.executable, *command[1:], "-p", "no:cacheprovider", "--rootdir", ROOT,
                             "-c", os.path.join(ROOT, "pyproject.toml"), str(tmp_path / "test_small.py")],
                            capture_output=True, text=True, timeout=300, env=checkout_env(), cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    last = result.stdout.rstrip().splitlines()[-1]
    assert re.fullmatch(r"2 passed in [0-9.]+s( \(.*\))?", last), result.stdout
