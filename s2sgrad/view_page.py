"""``s2sgrad.view``: one self-contained HTML page showing a program beside its IR and generated code.

Three columns, linked line to line through the ops each line comes from: the user's source
files, the IR (one equation per op) and the generated module (``Module.line_ops``: each line's
op). Selecting a program line highlights the forward and gradient statements it produced;
selecting a statement highlights its op's other rows and the user's lines (for a gradient op
both: the forward op's line and the ``tf.gradients`` call). ``explain`` results are shown
beside the lines that cut a gradient, and the DOT picture is embedded as SVG when Graphviz is
installed. The page loads nothing: its style and script are inlined.
"""
from __future__ import annotations

import dataclasses
import html
import json
import linecache
import os
import shutil
from collections.abc import Sequence
from typing import Any

from .drawing import op_where, slice_dot, to_dot, to_svg
from .explain import Explanation
from .explain import explain as explain_gradients
from .inspection import slice_plan
from .pipeline import Executable, generate, static_variable_spec
from .ssa.graph import Operation
from .ssa.printer import format_ops
from .tracing import GradientFunction
from .view_assets import SCRIPT, STYLE

__all__ = ["view", "Compiled", "page", "compiled_of_executable"]


@dataclasses.dataclass
class Compiled:
    """One generated module the page shows: its title, graph slice, source, line -> op map and
    its picture as DOT text."""

    title: str
    ops: Sequence[Operation]
    source: str
    line_ops: dict[int, Operation]
    dot: str


def compiled_of_executable(exe: Executable, title: str) -> Compiled:
    """What the page shows of a loaded module (its picture: the graph slice op by op)."""
    return Compiled(title, exe.ops, exe.source, exe.module.line_ops, to_dot([(title, exe.ops)]))


def view(target: Any, *args: Any, feed_dict: dict | None = None, feed_list: Sequence[Any] | None = None,
         explain: Any = None, path: str | os.PathLike | None = None, **kwargs: Any) -> str:
    """The page of ``target`` as HTML text, also written to ``path`` when given.

    ``target`` is what ``tf.source`` takes (fetches, with ``feed_dict`` or ``feed_list``; then
    ``explain=(ys, xs)`` adds ``tf.explain(ys, xs)``) or a decorated function (``s2sgrad.grad(f)``)
    followed by example arguments, whose ``explain`` is shown.

    >>> # tf.view(train, feed_dict={x: xs}, explain=(loss, [w, b]), path="page.html")
    """
    if isinstance(target, GradientFunction):
        if feed_dict is not None or feed_list is not None or explain is not None:
            raise TypeError("view of a decorated function takes its example arguments, not feed_dict, feed_list "
                            "or explain (its own explain is shown)")
        exe = target.executable(*args, **kwargs)
        sections = [compiled_of_executable(exe, target.label)]
        explanations = list(target.explain(*args, **kwargs))
    else:
        if args or kwargs:
            raise TypeError(f"view of fetches takes no further arguments, got {len(args) + len(kwargs)}; "
                            f"pass feeds as feed_dict= or feed_list=")
        plan, specs = slice_plan(target, feed_list, feed_dict, None)
        module = generate(plan, specs, static_variable_spec)
        sections = [Compiled("run", plan.ops, module.source, module.line_ops,
                             slice_dot(plan, specs, static_variable_spec))]
        explanations = list(explain_gradients(*explain)) if explain is not None else []
    text = page(sections, explanations, title="s2sgrad view")
    if path is not None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return text


def page(sections: Sequence[Compiled], explanations: Sequence[Explanation] = (), title: str = "s2sgrad view") -> str:
    """The HTML page of ``sections`` (one per generated module) with ``explanations`` inline."""
    return _Page(sections, explanations).html(title)


class _Page:
    """Row ids, the link table and the HTML of one page."""

    def __init__(self, sections: Sequence[Compiled], explanations: Sequence[Explanation]) -> None:
        self.sections = sections
        self.explanations = explanations
        self.files: dict[str, int] = {}
        self.ops: dict[str, dict] = {}            # op key -> its rows, lines and description
        self.lines: dict[str, list[str]] = {}     # program row id -> op keys it made
        for s, section in enumerate(sections):
            for op in [*section.ops, *section.line_ops.values()]:
                self._op(s, op)
        for e in explanations:
            for r in e.reasons:
                if r.op is not None:
                    self._line_id(r.op.location)

    def _line_id(self, location: tuple) -> str:
        index = self.files.setdefault(location[0], len(self.files))
        return f"p{index}_{location[1]}"

    def _op(self, s: int, op: Operation) -> str:
        key = f"{s}.{op.id}"
        if key not in self.ops:
            forward = [self._line_id(op.grad_of.location if op.grad_of is not None else op.location)]
            gradient = [self._line_id(op.location)] if op.grad_of is not None else []
            self.ops[key] = {"name": op.name, "type": op.type, "where": op_where(op), "gradient": bool(gradient),
                             "ir": [], "gen": [], "forward_lines": forward, "gradient_lines": gradient}
            for line in forward + gradient:
                self.lines.setdefault(line, []).append(key)
        return key

    # -- columns -----------------------------------------------------------------------------------
    def _program_column(self) -> list[str]:
        why: dict[str, list[str]] = {}
        for e in self.explanations:
            for r in e.reasons:
                if r.op is not None:
                    why.setdefault(self._line_id(r.op.location), []).append(f"{e.label}: {r.message}")
        out = []
        for path, index in self.files.items():
            out.append(f"<h3>{html.escape(os.path.basename(path))}</h3><pre>")
            lines = linecache.getlines(path)
            if not lines:
                out.append('<span class="row">(the source of this file is not available)</span>')
            for n, text in enumerate(lines, start=1):
                row = f"p{index}_{n}"
                where = html.escape(f"{os.path.basename(path)}:{n}", quote=True)
                out.append(f'<span class="row" id="{row}" data-where="{where}"><span class="num">{n}</span>'
                           f"{html.escape(text.rstrip())}</span>")
                out += [f'<span class="why">{html.escape(message)}</span>' for message in why.get(row, [])]
            out.append("</pre>")
        return out

    def _ir_column(self) -> list[str]:
        out = []
        for s, section in enumerate(self.sections):
            out.append(f"<h3>{html.escape(section.title)}</h3><pre>")
            for op in section.ops:
                key = self._op(s, op)
                for j, text in enumerate(format_ops([op]).splitlines()):
                    row = f"ir{s}_{op.id}_{j}"
                    self.ops[key]["ir"].append(row)
                    out.append(f'<span class="row" id="{row}" data-op="{key}">{html.escape(text)}</span>')
            out.append("</pre>")
        return out

    def _generated_column(self) -> list[str]:
        out = []
        for s, section in enumerate(self.sections):
            out.append(f"<h3>{html.escape(section.title)}</h3><pre>")
            for n, text in enumerate(section.source.splitlines(), start=1):
                op = section.line_ops.get(n)
                row = f"g{s}_{n}"
                data = ""
                if op is not None:
                    key = self._op(s, op)
                    self.ops[key]["gen"].append(row)
                    data = f' data-op="{key}"'
                out.append(f'<span class="row" id="{row}"{data}><span class="num">{n}</span>'
                           f"{html.escape(text)}</span>")
            out.append("</pre>")
        return out

    def _explain_block(self) -> list[str]:
        if not self.explanations:
            return []
        out = ['<section class="explain"><h2>Why a gradient is None (s2sgrad.explain)</h2>']
        for e in self.explanations:
            lines = [f' data-line="{self._line_id(r.op.location)}"' for r in e.reasons if r.op is not None]
            out.append(f"<pre{lines[0] if lines else ''}>{html.escape(str(e))}</pre>")
        return out + ["</section>"]

    def _pictures(self) -> list[str]:
        out = ['<section class="pictures"><h2>Pictures</h2>']
        graphviz = shutil.which("dot") is not None
        if not graphviz:
            out.append("<p>Graphviz is not installed, so the pictures are shown as DOT text "
                       "(install it, e.g. <code>apt-get install graphviz</code>, to see them drawn).</p>")
        for section in self.sections:
            out.append(f"<h3>{html.escape(section.title)}</h3>")
            if graphviz:
                svg = to_svg(section.dot)
                out.append(f'<div class="picture">{svg[svg.find("<svg"):]}</div>')
            else:
                out.append(f"<details><summary>DOT</summary><pre>{html.escape(section.dot)}</pre></details>")
        return out + ["</section>"]

    def html(self, title: str) -> str:
        columns = [("program", "Program", self._program_column()), ("ir", "IR", self._ir_column()),
                   ("generated", "Generated module", self._generated_column())]
        body = ['<div class="columns">']
        for cls, heading, rows in columns:
            body += [f'<div class="column {cls}"><h2>{heading}</h2>', "".join(rows), "</div>"]
        body.append("</div>")
        body += self._explain_block() + self._pictures()
        links = json.dumps({"ops": self.ops, "lines": self.lines}, sort_keys=True).replace("</", "<\\/")
        legend = ('<div class="legend"><span class="sel">selected</span><span class="fwd">forward</span>'
                  '<span class="grad">gradient</span> click a line of any column</div>')
        return "\n".join([
            "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">', f"<title>{html.escape(title)}</title>",
            f"<style>{STYLE}</style></head><body>",
            f'<header><h1>{html.escape(title)}</h1>{legend}<div id="info"></div></header>', *body,
            f'<script type="application/json" id="links">{links}</script>', f"<script>{SCRIPT}</script>",
            "</body></html>", ""])
