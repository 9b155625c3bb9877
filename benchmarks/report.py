"""``run.py --report DIR``: the results as DIR/results.json, one PNG chart per workload (and for the
compile scaling, log-log, and the whole-program corpus), and DIR/report.html with the charts embedded
(one self-contained file). Charts need matplotlib: ``pip install s2sgrad[bench]``."""
from __future__ import annotations

import base64
import html
import importlib
import json
import math
import os
import re
import sys
from typing import Any

BENCH_EXTRA = "pip install s2sgrad[bench]"
COLORS = {"s2sgrad": "#1f77b4", "numpy": "#7f7f7f", "numpy_1thread": "#bcbcbc", "tf1": "#ff7f0e",
          "s2sgrad_blas_default": "#aec7e8", "s2sgrad_forward": "#2ca02c", "s2sgrad_loss_and_grad": "#98df8a",
          "jax": "#9467bd", "torch": "#d62728", "autograd": "#8c564b"}


def pyplot() -> Any:
    """matplotlib's pyplot on the file-only Agg backend, or an ImportError naming the extra."""
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ImportError:
        raise ImportError(f"run.py --report draws its charts with matplotlib: {BENCH_EXTRA}") from None
    matplotlib.use("Agg")
    return importlib.import_module("matplotlib.pyplot")


WIDE_GROUPS = 4   # more groups than this in one chart: horizontal bars


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60]


def _bars(plt: Any, title: str, unit: str, groups: dict[str, dict[str, float]], path: str) -> None:
    """A bar chart: one group of bars per condition or program, one bar per implementation.

    Up to ``WIDE_GROUPS`` groups stand side by side; more (the corpus's programs) are laid out as
    horizontal bars, one row per group, so that every label stays readable.
    """
    impls = sorted({impl for values in groups.values() for impl in values}, key=_impl_order)
    horizontal = len(groups) > WIDE_GROUPS
    size = (7.5, 1.2 + 0.32 * len(groups) * max(len(impls), 1) / 2) if horizontal else (7.5, 3.6)
    fig, ax = plt.subplots(figsize=size, dpi=80)
    width = 0.8 / max(len(impls), 1)
    for i, impl in enumerate(impls):
        xs = [g + i * width for g in range(len(groups))]
        ys = [values.get(impl, math.nan) for values in groups.values()]
        draw = ax.barh if horizontal else ax.bar
        bars = draw(xs, ys, width, label=impl, color=COLORS.get(impl))
        ax.bar_label(bars, fmt="%.3g", fontsize=7, padding=2)
    ticks = [g + width * (len(impls) - 1) / 2 for g in range(len(groups))]
    if horizontal:
        ax.set_yticks(ticks, list(groups), fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel(unit)
        ax.margins(x=0.12)
    else:
        ax.set_xticks(ticks, list(groups))
        ax.set_ylabel(unit)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, ncol=2, loc="lower right" if horizontal else "best")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _impl_order(impl: str) -> tuple:
    return ({"s2sgrad": 0, "numpy": 1, "numpy_1thread": 2}.get(impl, 3), impl)


def _scaling(plt: Any, compile_times: dict[str, dict[str, float]], path: str) -> None:
    fig, ax = plt.subplots(figsize=(5.5, 3.6), dpi=80)
    for impl, times in compile_times.items():
        points = sorted((int(n), t) for n, t in times.items() if not math.isnan(t))
        if points:
            ax.loglog(*zip(*points, strict=True), marker="o", label=impl, color=COLORS.get(impl))
    ax.set_xlabel("N (layers in the tanh chain)")
    ax.set_ylabel("seconds to first gradient")
    ax.set_title("program to first gradient (fresh process, after import)", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def charts(results: dict, directory: str) -> list[tuple[str, str]]:
    """Draw every chart into ``directory``: [(title, png file name)]."""
    plt = pyplot()
    made = []
    by_workload: dict[str, dict[str, dict[str, float]]] = {}
    units: dict[str, str] = {}
    for condition, workloads in results.get("workloads", {}).items():
        for title, entry in workloads.items():
            scale = 1e6 if entry["unit"] == "us" else 1e3
            units[title] = f"{entry['unit']} per step (median)"
            by_workload.setdefault(title, {})[condition] = {
                impl: r["median"] * scale for impl, r in entry["results"].items() if "median" in r}
    for title, groups in by_workload.items():
        name = f"{slug(title)}.png"
        _bars(plt, title, units[title], groups, os.path.join(directory, name))
        made.append((title, name))
    for condition, programs in results.get("corpus", {}).items():
        for measure in ("wall", "cpu"):
            title = f"whole programs (tests/corpus), {measure} time, {condition} machine"
            groups = {program: {runner: r[measure] for runner, r in runs.items() if measure in r}
                      for program, runs in programs.items()}
            name = f"corpus-{measure}-{condition}.png"
            _bars(plt, title, "seconds per program", groups, os.path.join(directory, name))
            made.append((title, name))
    if results.get("compile"):
        _scaling(plt, results["compile"], os.path.join(directory, "compile-scaling.png"))
        made.append(("compile scaling", "compile-scaling.png"))
    return made


def write_report(results: dict, directory: str, text: str) -> str:
    """results.json, the PNGs and report.html (PNGs inlined, the run's text output below them)."""
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "results.json"), "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    figures = []
    for title, name in charts(results, directory):
        with open(os.path.join(directory, name), "rb") as f:
            data = base64.b64encode(f.read()).decode()
        figures.append(f'<figure><img alt="{html.escape(title)}" src="data:image/png;base64,{data}">'
                       f"<figcaption>{html.escape(title)}</figcaption></figure>")
    page = ("<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>s2sgrad benchmarks</title>"
            "<style>body{font-family:sans-serif;max-width:60em;margin:auto}figure{display:inline-block;margin:.5em}"
            "figcaption{font-size:small;text-align:center}pre{background:#f4f4f4;padding:1em;overflow:auto}</style>"
            f"</head><body><h1>s2sgrad benchmarks</h1><p>{html.escape(results.get('machine', ''))}</p>"
            + "\n".join(figures) + f"<h2>Numbers</h2><pre>{html.escape(text)}</pre></body></html>\n")
    path = os.path.join(directory, "report.html")
    with open(path, "w") as f:
        f.write(page)
    return path


def markdown(results: dict, charts_dir: str = "benchmarks") -> dict[str, str]:
    """The tables docs/benchmarks.md shows, from a results.json: {'threads', 'targets', 'corpus', 'charts'}."""
    rows = ["| workload | machine | numpy | numpy_1thread | s2sgrad (off) | **s2sgrad (auto)** | tf1 |",
            "|---|---|---|---|---|---|---|"]
    for condition, workloads in _conditions(results.get("workloads", {})):
        for title, entry in workloads.items():
            r = entry["results"]
            if "numpy_1thread" not in r:
                continue
            cells = [_ms(r.get(impl, {})) for impl in ("numpy", "numpy_1thread", "s2sgrad_blas_default",
                                                         "s2sgrad", "tf1")]
            cells[3] = f"**{cells[3]}**"
            rows.append(f"| {title} | {condition} | " + " | ".join(cells) + " |")
    targets = [f"| {t['what']} | {t['ratio']:.2f}x | <= {t['target']}x | {'met' if t['met'] else '**not met**'} |"
               for t in results.get("targets", [])]
    corpus = ["| program | machine | s2sgrad wall | s2sgrad CPU | tf1 wall | tf1 CPU | s2sgrad / tf1 wall |",
              "|---|---|---|---|---|---|---|"]
    for condition, programs in _conditions(results.get("corpus", {})):
        for program, runs in programs.items():
            ours, theirs = runs.get("s2sgrad", {}), runs.get("tf1", {})
            ratio = f"{ours['wall'] / theirs['wall']:.2f}x" if "wall" in ours and "wall" in theirs else "-"
            cells = [f"{r[k]:.2f}" if k in r else r.get("error", "-") for r in (ours, theirs) for k in ("wall", "cpu")]
            corpus.append(f"| {program} | {condition} | " + " | ".join(cells) + f" | {ratio} |")
    images = [f"![{title}]({charts_dir}/{name})" for title, name in _chart_names(results)]
    return {"threads": "\n".join(rows), "corpus": "\n".join(corpus), "charts": "\n".join(images),
            "targets": "| target | measured | limit | |\n|---|---|---|---|\n" + "\n".join(targets)}


def _conditions(by_condition: dict) -> list[tuple[str, Any]]:
    """The entries of a {condition: ...} dict, quiet first (results.json stores its keys sorted)."""
    return sorted(by_condition.items(), key=lambda item: item[0] != "quiet")


def _ms(r: dict) -> str:
    return f"{r['median'] * 1e3:.1f}" if "median" in r else "-"


def _chart_names(results: dict) -> list[tuple[str, str]]:
    """The (title, file) of the charts ``charts`` draws for ``results``, without drawing them."""
    titles = {t for workloads in results.get("workloads", {}).values() for t in workloads}
    names = [(t, f"{slug(t)}.png") for t in sorted(titles)]
    names += [(f"whole programs, {m} time, {c}", f"corpus-{m}-{c}.png")
              for c in results.get("corpus", {}) for m in ("wall", "cpu")]
    return names + ([("compile scaling", "compile-scaling.png")] if results.get("compile") else [])


if __name__ == "__main__":   # python benchmarks/report.py DIR/results.json: the tables of docs/benchmarks.md
    with open(sys.argv[1]) as f:
        for part, text in markdown(json.load(f)).items():
            print(f"<!-- {part} -->\n{text}\n")
