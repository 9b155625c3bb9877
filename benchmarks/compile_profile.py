"""Where compile time goes: program -> first gradient of the N-layer tanh chain, stage by stage.

    python benchmarks/compile_profile.py                 # N = 300, 1000, 3000; median of 3 runs each
    python benchmarks/compile_profile.py --sizes 3000 --repeats 5
    python benchmarks/compile_profile.py --cpu           # CPU time, steadier than wall time on a busy machine
    python benchmarks/compile_profile.py --cprofile 3000 # the hottest functions of one whole run
    python benchmarks/compile_profile.py --opcodes --sizes 300 --repeats 1   # bytecodes: a count load does not move

Each run (after an untimed reset of the default graph and ``gc.collect()`` of the previous runs' graphs) builds
a fresh graph (``x = tanh(x * w_k + 0.1)``, 3 ops a layer, a float64 vector of 16) and calls the pipeline's stages one
after the other, as ``Session.run`` does on its first call: trace (recording the forward ops),
gradients (``tf.gradients``), plan (the graph slice), lower, each pass of ``codegen.stages.PASSES``,
emit (names, fusion, printing the text), Python's ``compile()``, ``exec`` of the module, and the
first call. The last column, session, is the same program through ``Session.run`` in one go (trace
and gradients included), and hit calls counts the functions a second ``Session.run`` of it calls
outside the generated module: finding the compiled step again costs the same at every N (a cache hit
never walks the graph). The last line, reference, times ``compile()`` of a fixed 6,000-statement
function: the machine's speed at the time (one day it ran the same code 25% slower than the day
before), with the session's time in units of it, to compare runs made on different days or machines.
``--opcodes`` counts the Python bytecodes each stage executes instead of timing it (a trace function
per opcode: slow, but the same count on a busy machine as on an idle one, so two versions of the
code can be compared where timings swing by 30%); work in C (``compile()``, NumPy) is not counted.
"""
from __future__ import annotations

import argparse
import cProfile
import functools
import gc
import os
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np

import s2sgrad as tf
from s2sgrad import pipeline
from s2sgrad.codegen import runtime
from s2sgrad.codegen.build import _title
from s2sgrad.codegen.compiler import GENERATED_PREFIX
from s2sgrad.codegen.emit import emit_module
from s2sgrad.codegen.lower import lower
from s2sgrad.codegen.stages import PASSES
from s2sgrad.gcpause import gc_paused

clock = time.perf_counter  # --cpu: time.process_time
STAGES = ["trace", "gradients", "plan", "lower", *[p.__name__ for p in PASSES], "emit", "compile()", "exec",
          "first call"]


def chain(n: int) -> tuple[Any, Any, np.ndarray]:
    """The N-layer chain in a fresh default graph: (x placeholder, last layer, x's value)."""
    tf.reset_default_graph()
    ws = np.linspace(0.5, 1.5, n)
    x = tf.placeholder(tf.float64, [16])
    h = x
    for k in range(n):
        h = tf.tanh(h * ws[k] + 0.1)
    return x, h, np.linspace(-1, 1, 16)


def _collect_previous() -> None:
    """Untimed: the previous run's graph (still the default one) made garbage and collected, so that
    no collection during this run's trace pays for it (a fresh process has no such graph)."""
    tf.reset_default_graph()
    gc.collect()


def stage_times(n: int) -> dict[str, float]:
    """Seconds per stage for one compile of the N-layer chain's gradient."""
    times: dict[str, float] = {}
    _collect_previous()

    def timed(stage: str, work: Callable[[], Any]) -> Any:
        t0 = clock()
        result = work()
        times[stage] = clock() - t0
        return result

    x, h, x0 = timed("trace", lambda: chain(n))
    g = timed("gradients", lambda: tf.gradients(tf.reduce_sum(h), x)[0])
    p = timed("plan", lambda: pipeline.plan(x.graph, g, [x]))
    specs = p.feed_specs([x0])
    with gc_paused():  # as build_module runs them
        prog = timed("lower", lambda: lower(p.ops, p.structure.tensors, specs, {}, []))
        for run_pass in PASSES:
            timed(run_pass.__name__, functools.partial(run_pass, prog))
        module = timed("emit", lambda: emit_module(prog, _title(p.structure.tensors, specs, prog, "run")))
    code = timed("compile()", lambda: compile(module.source, "<compile_profile>", "exec"))
    namespace: dict[str, Any] = {"np": np, "rt": runtime, "_constants": dict(module.constants)}
    timed("exec", lambda: exec(code, namespace))
    timed("first call", lambda: namespace["run"](x0))
    return times


def session_times(n: int) -> tuple[float, int]:
    """(program -> first gradient through Session.run in seconds, the Python calls a second,
    cached Session.run makes outside the generated module)."""
    _collect_previous()
    t0 = clock()
    x, h, x0 = chain(n)
    g = tf.gradients(tf.reduce_sum(h), x)[0]
    sess = tf.Session()
    sess.run(g, {x: x0})
    first = clock() - t0
    return first, glue_calls(lambda: sess.run(g, {x: x0}))


def glue_calls(work: Callable[[], Any]) -> int:
    """How many Python and C functions ``work`` calls outside generated modules (which make one
    NumPy call per statement): what a cached ``Session.run`` costs beyond the module itself."""
    count = 0

    def count_calls(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call") and not frame.f_code.co_filename.startswith(GENERATED_PREFIX):
            count += 1

    sys.setprofile(count_calls)
    try:
        work()
    finally:
        sys.setprofile(None)
    return count


def report(sizes: list[int], repeats: int) -> None:
    width = max(len(s) for s in STAGES)
    rows: dict[int, dict[str, float]] = {}
    session_times(2)   # untimed: the process's first compile and first cache hit do one-time work (imports)
    for n in sizes:
        runs = [stage_times(n) for _ in range(repeats)]
        sessions = [session_times(n) for _ in range(repeats)]
        rows[n] = {s: statistics.median(r[s] for r in runs) for s in STAGES}
        rows[n]["total"] = sum(rows[n][s] for s in STAGES)
        rows[n]["session"] = statistics.median(s[0] for s in sessions)
        rows[n]["hit calls"] = statistics.median(s[1] for s in sessions)
    kind = "millions of Python bytecodes" if clock is _COUNT else \
        ("CPU seconds" if clock is time.process_time else "wall seconds")
    print(f"# {kind} per stage, N-layer tanh chain to its first gradient (median of {repeats})")
    print(f"{'stage':<{width}}" + "".join(f"{'N=' + str(n):>10}" for n in sizes) + "   share at N=" + str(sizes[-1]))
    last = rows[sizes[-1]]
    for stage in [*STAGES, "total", "session"]:
        share = f"{100 * last[stage] / last['total']:5.1f} %" if stage in STAGES else ""
        print(f"{stage:<{width}}" + "".join(f"{rows[n][stage]:>10.4f}" for n in sizes) + "   " + share)
    print(f"{'hit calls':<{width}}" + "".join(f"{rows[n]['hit calls']:>10.0f}" for n in sizes)
          + "   (functions a cache hit calls outside the generated module)")
    if len(sizes) > 1:
        lo, hi = sizes[0], sizes[-1]
        print(f"session N={hi} / N={lo}: {rows[hi]['session'] / rows[lo]['session']:.1f} (linear: {hi / lo:.0f})")
    if clock is _COUNT:
        return   # (the reference is a compile(): no bytecodes)
    reference = statistics.median(machine_reference() for _ in range(repeats))
    print(f"{'reference':<{width}}{reference:>10.4f}   (compile() of a fixed {REFERENCE_STATEMENTS:,}-statement "
          f"function: this machine's speed now; session N={sizes[-1]} / reference: "
          f"{rows[sizes[-1]]['session'] / reference:.1f})")


REFERENCE_STATEMENTS = 6000


def machine_reference() -> float:
    """Seconds to ``compile()`` a fixed function of statements like the chain's: the machine's speed at the
    time, so that runs made on different days (or machines) can be compared."""
    body = "".join(f"    v{i} = v{i - 1} * (1 - v{i - 1} * v{i - 1}) * 0.5  # grad of Mul  chain.py:6\n"
                   for i in range(1, REFERENCE_STATEMENTS))
    source = f"def run(v0):\n{body}    return v{REFERENCE_STATEMENTS - 1}\n"
    t0 = clock()
    compile(source, "<reference>", "exec")
    return clock() - t0


class _Bytecodes:
    """The Python bytecodes executed since ``start()``, in millions (``sys.settrace`` with per-opcode events)."""

    def __init__(self) -> None:
        self.count = 0

    def start(self) -> None:
        def on_opcode(frame: Any, event: str, arg: Any) -> Any:
            if event == "opcode":
                self.count += 1
            return on_opcode

        def on_call(frame: Any, event: str, arg: Any) -> Any:
            frame.f_trace_opcodes = True
            return on_opcode
        sys.settrace(on_call)

    def read(self) -> float:
        return self.count / 1e6


_BYTECODES = _Bytecodes()
_COUNT = _BYTECODES.read   # the clock of --opcodes (one bound method, to recognise it)


def profile(n: int, top: int) -> None:
    """cProfile of one whole program -> first gradient run, hottest functions by own time."""
    tf.reset_default_graph()
    prof = cProfile.Profile()
    prof.enable()
    session_times(n)
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[300, 1000, 3000], help="chain lengths N")
    parser.add_argument("--repeats", type=int, default=3, help="runs per size (medians are reported)")
    parser.add_argument("--cpu", action="store_true", help="CPU time of this process instead of wall time")
    parser.add_argument("--opcodes", action="store_true", help="count Python bytecodes per stage instead of time")
    parser.add_argument("--cprofile", type=int, metavar="N", help="profile one run of size N instead")
    parser.add_argument("--top", type=int, default=30, help="functions shown by --cprofile")
    args = parser.parse_args()
    global clock
    clock = time.process_time if args.cpu else time.perf_counter
    if args.opcodes:
        clock = _COUNT
        _BYTECODES.start()
    if args.cprofile:
        profile(args.cprofile, args.top)
    else:
        report(args.sizes, args.repeats)


if __name__ == "__main__":
    main()
