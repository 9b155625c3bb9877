"""Whole programs: each program of the public-programs corpus (tests/corpus) run end to end - imports,
graph building, first compile, every step - under s2sgrad and, when a Python with it is found, under
TensorFlow (the way tests/corpus/record_tensorflow.py runs them). Wall time, and CPU time of the
process (user + system, all its threads), best of ``repeats`` runs.

s2sgrad's modules are compiled to bytecode first, as ``pip install`` compiles an installed package's
(TensorFlow's, NumPy's): an editable install under ``PYTHONDONTWRITEBYTECODE`` would otherwise compile
every module of s2sgrad at every import (0.7 s instead of 0.36 s for ``import s2sgrad`` here)."""
from __future__ import annotations

import compileall
import os
import resource
import subprocess
import sys
import tempfile
import time

from measure import ROOT, child_env, tf_python

sys.path.insert(0, os.path.join(ROOT, "tests"))
from corpus_programs import program_argv, program_names, program_path

RECORDER = os.path.join(ROOT, "tests", "corpus", "record_tensorflow.py")


def _timed(command: list[str], cwd: str) -> dict:
    """Wall and CPU seconds of one run of ``command`` (or its error)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=child_env())
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        return {"error": (result.stderr.strip().splitlines() or ["failed"])[-1][:120]}
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu}


def commands(name: str) -> dict[str, list[str]]:
    """How each runner starts the program ``name``: s2sgrad, and tf1 when TensorFlow is found."""
    path, argv = program_path(name), program_argv(name)
    runs = {"s2sgrad": [sys.executable, path, *argv]}
    python = tf_python()
    if python is not None:
        runs["tf1"] = [python, RECORDER, "--run", path, *argv]
    return runs


def _compile_s2sgrad() -> None:
    """Write the bytecode of s2sgrad's modules beside them, as an install would (untimed)."""
    compileall.compile_dir(os.path.join(ROOT, "s2sgrad"), quiet=1)


def run_corpus(names: list[str] | None = None, repeats: int = 1) -> dict[str, dict[str, dict]]:
    """program -> runner -> {'wall', 'cpu'} (best of ``repeats``, runners interleaved) or {'error'}."""
    _compile_s2sgrad()
    results: dict[str, dict[str, dict]] = {}
    with tempfile.TemporaryDirectory() as cwd:   # programs may write files (checkpoints, events)
        for name in names or program_names():
            runs = commands(name)
            samples: dict[str, list[dict]] = {runner: [] for runner in runs}
            for _ in range(repeats):
                for runner, command in runs.items():
                    samples[runner].append(_timed(command, cwd))
            results[name] = {runner: _best(s) for runner, s in samples.items()}
    return results


def _best(samples: list[dict]) -> dict:
    good = [s for s in samples if "error" not in s]
    return min(good, key=lambda s: s["wall"]) if good else samples[0]


def import_times(repeats: int = 3) -> dict[str, float]:
    """Wall seconds of ``import`` alone (best of ``repeats``): the floor under every program's time."""
    _compile_s2sgrad()
    runs = {"s2sgrad": [sys.executable, "-c", "import s2sgrad"]}
    python = tf_python()
    if python is not None:
        runs["tf1"] = [python, "-c", "import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()"]
    best: dict[str, float] = {}
    for runner, command in runs.items():
        timings = [_timed(command, ROOT) for _ in range(repeats)]
        walls = [t["wall"] for t in timings if "error" not in t]
        if walls:
            best[runner] = min(walls)
    return best
