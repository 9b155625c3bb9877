"""Run the benchmark suite: s2sgrad against hand-written NumPy (and peers when installed).

    python benchmarks/run.py              # all workloads, compile scaling, memory, the targets
    python benchmarks/run.py --loaded     # also MLP/CNN/RNN with two busy processes on the machine
    python benchmarks/run.py --corpus     # also the whole-program corpus, s2sgrad vs TensorFlow
    python benchmarks/run.py --report DIR # also DIR/results.json, DIR/*.png, DIR/report.html
    python benchmarks/run.py --compile-peers   # and tf1/jax compile times (slow)
    python benchmarks/run.py --quick      # fewer repeats;  --smoke: every code path once, tiny (CI)
    python benchmarks/run.py --only seed  # workloads whose name contains "seed"

NumPy and the s2sgrad variants of a workload are timed in one fresh process, in alternating
rounds; each peer (tf1, jax, torch, autograd) gets its own process, so their imports and thread
pools do not interfere; TensorFlow runs in the Python that has it (measure.tf_python). Times are
medians over repeats; ratios are against ``numpy``. ``numpy_1thread`` is the hand-written step with
one BLAS thread, ``s2sgrad_blas_default`` s2sgrad with S2SGRAD_BLAS_THREADS=off. "loaded" means two
other processes spin on the cores meanwhile (benchmarks/load.py; stopped after, also on Ctrl-C).
"""
from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
from dataclasses import dataclass, field

from corpus_bench import import_times, run_corpus
from load import busy_processes
from measure import PEERS, compile_time, measure, python_for

TARGETS = (("seed training step", 1.2), ("MLP 784-512-512-10 SGD step", 1.0),
           ("decorated function call (value and gradient)", 1.2))
MEMORY_TARGET = 1.1
MEMORY_FLOOR = 64 * 1024   # bytes


@dataclass
class Run:
    """Options of one run and the text it prints (kept for the HTML report)."""

    repeats: int
    steps: int = 0
    warm: float = 0.5
    peers: bool = True
    lines: list[str] = field(default_factory=list)

    def say(self, text: str = "") -> None:
        print(text, flush=True)
        self.lines.append(text)


def time_workload(run: Run, name: str, spec: dict) -> dict[str, dict]:
    ours = [impl for impl in spec["impls"] if impl not in PEERS]
    results = measure(name, ours, run.repeats, steps=run.steps, warm=run.warm)   # side by side
    for impl in spec["impls"]:
        if impl in PEERS and run.peers:
            python = python_for(impl)
            results.update(measure(name, [impl], run.repeats, steps=run.steps, warm=run.warm, python=python)
                           if python else {impl: {"error": "not installed"}})
    return results


def print_workload(run: Run, name: str, unit: str, condition: str, results: dict[str, dict]) -> None:
    scale = 1e6 if unit == "us" else 1e3
    base = results.get("numpy", {}).get("median")
    run.say(f"\n## {name}, {condition}  ({unit} per step, median of {run.repeats})")
    run.say(f"| implementation | {unit}/step | vs numpy | peak KiB | peak vs numpy |")
    run.say("|---|---|---|---|---|")
    base_peak = results.get("numpy", {}).get("peak_bytes")
    for impl, r in results.items():
        if "error" in r:
            run.say(f"| {impl} | - | {r['error']} | - | - |")
            continue
        ratio = f"{r['median'] / base:.2f}x" if base else "-"
        if impl in PEERS:   # tracemalloc sees NumPy's and Python's allocations, not a framework's own
            run.say(f"| {impl} | {r['median'] * scale:.3f} | {ratio} | n/a | n/a |")
            continue
        peak = f"{r['peak_bytes'] / base_peak:.2f}x" if base_peak else "-"
        run.say(f"| {impl} | {r['median'] * scale:.3f} | {ratio} | {r['peak_bytes'] / 2**10:.1f} | {peak} |")
    fwd, both = results.get("s2sgrad_forward", {}), results.get("s2sgrad_loss_and_grad", {})
    if "median" in fwd and "median" in both:
        run.say(f"gradient cost: loss+gradient / loss alone = {both['median'] / fwd['median']:.2f}x")


def workloads(run: Run, names: list[str], condition: str) -> dict[str, dict]:
    from workloads import WORKLOADS
    out = {}
    for name in names:
        spec = WORKLOADS[name]
        results = time_workload(run, name, spec)
        print_workload(run, name, spec["unit"], condition, results)
        out[name] = {"unit": spec["unit"], "results": results}
    return out


def targets(run: Run, quiet: dict[str, dict]) -> list[dict]:
    """The issue's steady-state targets, from the quiet run: time ratios and peak memory ratios."""
    checks = []
    for name, limit in TARGETS:
        r = quiet.get(name, {}).get("results", {})
        if "median" in r.get("s2sgrad", {}) and "median" in r.get("numpy", {}):
            checks.append({"what": f"{name}: time", "ratio": r["s2sgrad"]["median"] / r["numpy"]["median"],
                           "target": limit})
    small = []
    for name, entry in quiet.items():
        r = entry["results"]
        if "peak_bytes" not in r.get("numpy", {}) or "peak_bytes" not in r.get("s2sgrad", {}):
            continue
        if r["numpy"]["peak_bytes"] < MEMORY_FLOOR:   # a few Python objects: the ratio means nothing
            small.append(f"{name} ({r['s2sgrad']['peak_bytes']} vs {r['numpy']['peak_bytes']} bytes)")
            continue
        checks.append({"what": f"{name}: peak memory", "target": MEMORY_TARGET,
                       "ratio": r["s2sgrad"]["peak_bytes"] / r["numpy"]["peak_bytes"]})
    run.say("\n## steady-state targets (s2sgrad / hand-written NumPy, quiet run)")
    if small:
        run.say(f"- peak memory not compared, hand-written step under {MEMORY_FLOOR // 1024} KiB: " + "; ".join(small))
    for check in checks:
        check["met"] = check["ratio"] <= check["target"]
        run.say(f"- {check['what']}: {check['ratio']:.2f}x (target <= {check['target']}x) "
                f"{'met' if check['met'] else 'NOT met'}")
    return checks


def scaling(run: Run, sizes: tuple[int, ...], peers: bool) -> dict[str, dict[str, float]]:
    run.say("\n## program to first gradient, chain of N tanh layers (s, fresh process, after import)")
    times = {"s2sgrad": {str(n): compile_time("s2sgrad", n) for n in sizes}}
    if peers:
        for impl in ("tf1", "jax"):
            times[impl] = {str(n): compile_time(impl, n) for n in sizes}
    for impl, by_n in times.items():
        run.say(f"{impl}: " + ", ".join(f"N={n}: {t:.3f} s" for n, t in by_n.items()))
    s = times["s2sgrad"]
    run.say(f"scaling N={sizes[-1]} / N={sizes[-2]}: {s[str(sizes[-1])] / s[str(sizes[-2])]:.1f}")
    return times


def corpus(run: Run, names: list[str] | None, condition: str) -> dict[str, dict]:
    results = run_corpus(names, repeats=1)
    run.say(f"\n## whole programs (tests/corpus), {condition}: seconds, end to end in a fresh process")
    run.say("| program | s2sgrad wall | s2sgrad cpu | tf1 wall | tf1 cpu | s2sgrad/tf1 wall |")
    run.say("|---|---|---|---|---|---|")
    for program, runs in results.items():
        ours, theirs = runs.get("s2sgrad", {}), runs.get("tf1", {})
        cells = [f"{r['wall']:.2f} | {r['cpu']:.2f}" if "wall" in r else f"{r.get('error', '-')} | -"
                 for r in (ours, theirs)]
        ratio = f"{ours['wall'] / theirs['wall']:.2f}x" if "wall" in ours and "wall" in theirs else "-"
        run.say(f"| {program} | {cells[0]} | {cells[1]} | {ratio} |")
    return results


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="3 repeats instead of 7")
    parser.add_argument("--smoke", action="store_true", help="every code path once at tiny sizes (for CI)")
    parser.add_argument("--only", default="", help="run workloads whose name contains this text")
    parser.add_argument("--no-peers", action="store_true", help="skip tf1/jax/torch/autograd")
    parser.add_argument("--loaded", action="store_true",
                        help="also time MLP, CNN and RNN with two busy processes competing for the cores")
    parser.add_argument("--corpus", action="store_true", help="also run the whole-program corpus (minutes)")
    parser.add_argument("--report", metavar="DIR", help="write results.json, PNG charts and report.html here")
    parser.add_argument("--compile-peers", action="store_true",
                        help="also time tf1 and jax to the first gradient (about a minute per size)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.report:
        from report import pyplot
        pyplot()   # fail now, not after the benchmarks, when matplotlib is missing
    from workloads import THREADED, WORKLOADS
    run = Run(repeats=1 if args.smoke else 3 if args.quick else 7, steps=1 if args.smoke else 0,
              warm=0.0 if args.smoke else 0.5, peers=not args.no_peers)
    machine = (f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
               f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f} at start")
    run.say(f"# s2sgrad benchmarks  {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}  {machine}")
    run.say(f"# command: python benchmarks/run.py {' '.join(sys.argv[1:] if argv is None else argv)}".rstrip())
    results: dict = {"machine": machine, "date": time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime()),
                     "workloads": {}, "corpus": {}}
    selected = [name for name in WORKLOADS if args.only in name]
    programs = ["basic_operations"] if args.smoke else None
    results["workloads"]["quiet"] = workloads(run, selected, "quiet")
    results["targets"] = targets(run, results["workloads"]["quiet"])
    if args.corpus:
        results["imports"] = import_times(1 if args.smoke else 3)
        run.say("\nimport alone (wall s): " + ", ".join(f"{k} {v:.2f}" for k, v in results["imports"].items()))
        results["corpus"]["quiet"] = corpus(run, programs, "quiet")
    if args.loaded:
        with busy_processes(2):
            results["workloads"]["loaded"] = workloads(run, [n for n in THREADED if n in selected], "loaded")
            if args.corpus:
                results["corpus"]["loaded"] = corpus(run, programs, "loaded")
    if not args.only or "compile" in args.only:
        sizes = (10, 30) if args.smoke else (100, 300, 1000, 3000)
        results["compile"] = scaling(run, sizes, args.compile_peers)
    if args.report:
        from report import write_report
        run.say(f"\nreport: {write_report(_finite(results), args.report, chr(10).join(run.lines))}")
    return 0


def _finite(value: object) -> object:
    """``value`` with NaN replaced by None (JSON has no NaN)."""
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return None if isinstance(value, float) and math.isnan(value) else value


if __name__ == "__main__":
    sys.exit(main())
