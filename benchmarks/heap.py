"""Freed memory kept between steps (``S2SGRAD_HEAP``, s2sgrad/heap.py) against glibc's defaults.

    python benchmarks/heap.py            # MLP, CNN and while_loop RNN steps, 3 processes per setting
    python benchmarks/heap.py --smoke    # one tiny round (CI)

Each round runs a workload's hand-written NumPy step and s2sgrad's in one fresh process (alternating
rounds inside it, as benchmarks/run.py does), once with ``S2SGRAD_HEAP=keep`` (the default) and once
with ``off``, the two settings alternating process by process. The setting is process-wide, so the
hand-written step in the same process gets it too once s2sgrad has made its first step. Prints ms per
step and minor page faults per step (the pages the allocator had given back to the system and that
the step wrote afresh): medians over the processes.
"""
from __future__ import annotations

import argparse
import statistics
import sys

from measure import measure

WORKLOADS = ("MLP 784-512-512-10 SGD step", "CNN (2 conv + 2 maxpool + dense) SGD step",
             "RNN BPTT while_loop (T=50) SGD step")
IMPLS = ["numpy", "s2sgrad"]
SETTINGS = ("keep", "off")


def compare(workload: str, processes: int, repeats: int, steps: int) -> dict[str, dict[str, dict]]:
    """setting -> impl -> {'ms': median ms/step, 'faults': median faults/step} over ``processes`` runs."""
    runs: dict[str, list[dict]] = {setting: [] for setting in SETTINGS}
    for _ in range(processes):
        for setting in SETTINGS:
            runs[setting].append(measure(workload, IMPLS, repeats, steps=steps, warm=0.0 if steps else 0.5,
                                         env={"S2SGRAD_HEAP": setting}))
    out: dict[str, dict[str, dict]] = {}
    for setting, results in runs.items():
        failed = [r[impl]["error"] for r in results for impl in IMPLS if "error" in r[impl]]
        if failed:
            raise RuntimeError(f"{workload} with S2SGRAD_HEAP={setting}: {failed[0]}")
        out[setting] = {impl: {"ms": statistics.median(r[impl]["median"] for r in results) * 1e3,
                               "faults": statistics.median(r[impl]["faults"] for r in results)}
                        for impl in IMPLS}
    return out


def table(workload: str, result: dict[str, dict[str, dict]]) -> str:
    lines = [f"## {workload}", "| S2SGRAD_HEAP | numpy ms | s2sgrad ms | numpy faults/step | s2sgrad faults/step |",
             "|---|---|---|---|---|"]
    for setting, impls in result.items():
        lines.append(f"| {setting} | {impls['numpy']['ms']:.2f} | {impls['s2sgrad']['ms']:.2f} | "
                     f"{impls['numpy']['faults']:.0f} | {impls['s2sgrad']['faults']:.0f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=3, help="processes per setting (default 3)")
    parser.add_argument("--only", default="", help="workloads whose name contains this text")
    parser.add_argument("--smoke", action="store_true", help="one process, one step per round (for CI)")
    args = parser.parse_args(argv)
    if args.processes < 1:
        parser.error(f"--processes must be at least 1, got {args.processes}")
    for workload in WORKLOADS:
        if args.only in workload:
            result = compare(workload, 1 if args.smoke else args.processes, 1 if args.smoke else 7,
                             1 if args.smoke else 0)
            print(table(workload, result), end="\n\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
