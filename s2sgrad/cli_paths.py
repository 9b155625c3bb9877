"""The path arguments of the ``s2sgrad`` command, checked before the script runs: why each
cannot be used (a usage error, exit status 2), or None."""
from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Sequence

from .script_run import STDIN

__all__ = ["path_problem"]


def path_problem(ns: argparse.Namespace, outputs: Sequence[tuple[str, str, bool]]) -> str | None:
    """Why the script (``ns.script`` or ``ns.module``) or an output path cannot be used, or None.
    ``outputs`` lists (namespace attribute, option, whether it names a directory) per output."""
    problem = _script_problem(ns.script) if ns.module is None else _module_problem(ns.module)
    if problem:
        return problem
    seen: dict[str, str] = {}
    for dest, option, is_dir in outputs:
        path = getattr(ns, dest)
        if path is None:
            continue
        problem = _output_problem(path, is_dir)
        real = os.path.realpath(path) if path else ""
        if not problem and ns.module is None and ns.script != STDIN and real == os.path.realpath(ns.script):
            problem = "is the script itself"
        if not problem and real in seen:
            problem = f"is also the path of {seen[real]}"
        if problem:
            return f"{option} {path!r}: {problem}"
        seen[real] = option
    return None


def _script_problem(script: str) -> str | None:
    """Why ``script`` (a file, or ``-`` for standard input) cannot be run."""
    if script == STDIN:
        return None
    if os.path.isdir(script):
        return f"can't open file {script!r}: is a directory"
    if not os.path.exists(script):
        return f"can't open file {script!r}: no such file"
    if not os.access(script, os.R_OK):
        return f"can't open file {script!r}: permission denied"
    return None


def _module_problem(name: str) -> str | None:
    """Why ``-m name`` cannot run, found as ``python -m`` finds it (the current directory first)."""
    saved_path = list(sys.path)
    sys.path.insert(0, os.getcwd())
    try:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations is not None:   # a package: its __main__
            spec = importlib.util.find_spec(name + ".__main__")
            if spec is None:
                return f"-m {name!r}: a package with no __main__ module"
    except (ImportError, ValueError) as e:
        return f"-m {name!r}: {e}"
    finally:
        sys.path[:] = saved_path
    return None if spec is not None else f"-m {name!r}: no module named {name!r}"


def _output_problem(path: str, is_dir: bool) -> str | None:
    """Why ``path`` cannot be written (a file, or with ``is_dir`` a directory made with its parents)."""
    if not path:
        return "empty path"
    if os.path.exists(path):
        if os.path.isdir(path) != is_dir:
            return "exists and is not a directory" if is_dir else "is a directory"
        if not os.access(path, os.W_OK):
            return "permission denied"
        return None
    parent = os.path.dirname(os.path.abspath(path))
    if not is_dir and not os.path.isdir(parent):
        return f"no such directory {os.path.dirname(path)!r}"
    while not os.path.exists(parent):   # -o makes missing parents: the nearest existing one must do
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent):
        return f"{parent!r} is not a directory"
    if not os.access(parent, os.W_OK):
        return f"permission denied in {parent!r}"
    return None
