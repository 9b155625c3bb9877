"""Pictures of what runs: Graphviz DOT of a slice's optimized program or of its graph ops, and SVG.

``program_dot`` draws the lowered and optimized program, the instructions the generated
module executes; ``to_dot`` draws graph slices op by op, as the user's graph holds them.
Both fill forward ops blue and gradient ops orange, draw variables as cylinders and inputs
from outside the slice (fed tensors) as dashed ellipses. Every user-chosen string (op names,
types, file names) is escaped, so no name can end a quoted DOT string or inject attributes.
Output is deterministic: nodes and edges come in program (graph) order.

    digraph s2sgrad {
      subgraph cluster_1 { label="module 1: run"; m1_op3 [label="Mul\\nmul"]; ... }
    }
"""
from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterable, Sequence

import numpy as np

from .codegen.build import optimized_program
from .codegen.program import Instr, Kind, Program, Value
from .pipeline import FeedSpecs, Plan, VariableSpec
from .primitives.state import VARIABLE_V2
from .ssa.graph import Operation
from .ssa.printer import _type
from .text import location_text, shortest_float

__all__ = ["to_dot", "program_dot", "slice_dot", "op_where", "dot_string", "to_svg", "render", "GRAPHVIZ_MISSING",
           "FORMATS", "FORWARD_COLOR", "GRADIENT_COLOR"]

FORWARD_COLOR = "#dbe9f6"    # fill of forward ops
GRADIENT_COLOR = "#fbd9b5"   # fill of gradient ops (made by tf.gradients or a decorator's derivative)
FORMATS = ("dot", "svg")
_LEGEND = "blue: forward ops, orange: gradient ops, cylinders: variables, dashed: inputs"
GRAPHVIZ_MISSING = ("rendering DOT as SVG needs Graphviz's 'dot' program, which is not on PATH: install Graphviz "
            "(Debian/Ubuntu: apt-get install graphviz; macOS: brew install graphviz; conda install graphviz; "
            "https://graphviz.org/download/), or ask for format='dot' and render the text elsewhere")


def dot_string(text: str) -> str:
    """``text`` as a quoted DOT string: non-printables spelled out, backslashes and quotes escaped."""
    printable = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))
    return '"' + printable.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _label(*lines: str) -> str:
    """A multi-line DOT label: each line escaped, joined by DOT's ``\\n`` line break."""
    return '"' + "\\n".join(dot_string(line)[1:-1] for line in lines) + '"'


def _graph_lines() -> list[str]:
    return ["digraph s2sgrad {", "  rankdir=TB;", '  node [shape=box, style=rounded, fontname="Helvetica"];',
            '  edge [fontname="Helvetica", fontsize=10];']


def to_dot(sections: Iterable[tuple[str, Sequence[Operation]]]) -> str:
    """One ``digraph`` with a cluster per (title, ops) section of graph ops (the unoptimized
    slices); inputs from outside a slice (fed tensors, variables read by reference) appear as
    dashed ellipses."""
    lines = _graph_lines()
    for k, (title, ops) in enumerate(sections, start=1):
        lines += [f"  subgraph cluster_{k} {{", f"    label={dot_string(title)};"]
        lines += ["    " + line for line in _section(f"m{k}_", ops)]
        lines.append("  }")
    lines.append(f"  label={dot_string(_LEGEND)};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _section(prefix: str, ops: Sequence[Operation]) -> list[str]:
    inside = set(ops)
    external: dict[Operation, None] = {}
    edges: list[str] = []
    for op in ops:
        for t in op.inputs:
            if t.op not in inside:
                external[t.op] = None
            index = f":{t.value_index} " if len(t.op.outputs) > 1 else ""
            edges.append(f"{prefix}op{t.op.id} -> {prefix}op{op.id} [label={dot_string(index + _type(t))}];")
        for c in op.control_inputs:
            if c not in inside:
                external[c] = None
            edges.append(f"{prefix}op{c.id} -> {prefix}op{op.id} [style=dashed, arrowhead=odot];")
    nodes = [f"{prefix}op{op.id} [label={_label(op.type, op.name)}, shape=ellipse, style=dashed, "
             f"tooltip={dot_string(op_where(op))}];" for op in sorted(external, key=lambda o: o.id)]
    nodes += [f"{prefix}op{op.id} [label={_label(op.type, op.name)}{_style(op)}, tooltip={dot_string(op_where(op))}];"
              for op in ops]
    return nodes + edges


def _style(op: Operation) -> str:
    if op.prim is VARIABLE_V2:
        return ", shape=cylinder, style=solid"
    if op.grad_of is not None:
        return f', style="rounded,filled", fillcolor="{GRADIENT_COLOR}"'
    return f', style="rounded,filled", fillcolor="{FORWARD_COLOR}"'


def op_where(op: Operation) -> str:
    """Where the user made ``op``: ``file.py:line``; for a gradient op also its forward op's line."""
    if op.grad_of is not None:
        return f"grad of {op.grad_of.type} {location_text(op.grad_of.location)} " \
               f"(gradients at {location_text(op.location)})"
    return location_text(op.location)


def program_dot(prog: Program, title: str) -> str:
    """The optimized program ``prog`` as one ``digraph``: an instruction per node (labelled with
    its primitive and the graph op it was made for), values as edges labelled with dtype and
    shape, constants as small plain labels, the fetched results and variable updates as edges
    to ``fetch`` / variable nodes."""
    return "\n".join([*_graph_lines(), *_ProgramDrawing(prog).lines(),
                      f"  label={dot_string(title + ' - ' + _LEGEND)};", "  labelloc=t;", "}"]) + "\n"


class _ProgramDrawing:
    """Node names and statements of one program's picture."""

    def __init__(self, prog: Program) -> None:
        self.prog = prog
        self.nodes: list[str] = []
        self.edges: list[str] = []
        self.names: dict[int, str] = {}   # id(Value) -> the node that produces it

    def lines(self) -> list[str]:
        variables: dict[Operation, str] = {}
        for i, p in enumerate(self.prog.params):
            name = self.names[id(p)] = f"p{i}"
            if p.kind is Kind.VAR and isinstance(p.source, Operation):
                variables[p.source] = name
                self.nodes.append(f"{name} [label={_label(p.source.name)}, shape=cylinder, style=solid];")
            else:
                self.nodes.append(f"{name} [label={_label(p.kind.value, _source_name(p))}, shape=ellipse, "
                                  f"style=dashed];")
        for k, ins in enumerate(self.prog.instrs):
            self._instr(f"i{k}", ins)
        for j, out in enumerate(self.prog.outputs):
            self.nodes.append(f"out{j} [label={_label(f'fetch {j}')}, shape=plaintext];")
            self.edges.append(f"{self._source(out)} -> out{j} [label={dot_string(_type(out))}];")
        for var, value in self.prog.commits:
            target = variables.get(var)
            if target is None:
                target = f"v{len(variables)}"
                variables[var] = target
                self.nodes.append(f"{target} [label={_label(var.name)}, shape=cylinder, style=solid];")
            self.edges.append(f"{self._source(value)} -> {target} [label=\"assign\", style=bold, constraint=false];")
        return ["  " + line for line in self.nodes + self.edges]

    def _instr(self, name: str, ins: Instr) -> None:
        for v in ins.outs:
            self.names[id(v)] = name
        op = ins.op
        head = ins.prim.name if ins.prim.name == op.type else f"{ins.prim.name} ({op.type})"
        fill = GRADIENT_COLOR if op.grad_of is not None else FORWARD_COLOR
        lines = (head,) if op.name == ins.prim.name else (head, op.name)
        self.nodes.append(f"{name} [label={_label(*lines)}, style=\"rounded,filled\", fillcolor=\"{fill}\", "
                          f"tooltip={dot_string(op_where(op))}];")
        for position, arg in enumerate(ins.args):
            self.edges.append(f"{self._source(arg, f'{name}_c{position}')} -> {name} "
                              f"[label={dot_string(_type(arg))}];")

    def _source(self, value: Value, const_name: str = "") -> str:
        """The node producing ``value`` (a constant gets its own small node, named ``const_name``)."""
        name = self.names.get(id(value))
        if name is not None:
            return name
        name = const_name or f"c{len(self.nodes)}"
        if value.kind is Kind.SHAPE:
            text = "shape " + _type(value)
        else:
            text = _scalar_text(value) if value.const is not None and value.is_uniform() else "const"
        self.nodes.append(f"{name} [label={_label(text)}, shape=plaintext, fontsize=10];")
        return name


def _scalar_text(value: Value) -> str:
    scalar = value.scalar()
    return repr(shortest_float(scalar)) if isinstance(scalar, np.floating) else repr(np.asarray(scalar).item())


def _source_name(p: Value) -> str:
    source = p.source
    return str(getattr(source, "name", "") or p.name)


def slice_dot(plan: Plan, feed_specs: FeedSpecs, variable_spec: VariableSpec, optimized: bool = True,
              title: str = "run") -> str:
    """DOT of what ``plan`` computes for these specs: its optimized program, or (``optimized=False``)
    the graph ops of its slice."""
    if not optimized:
        return to_dot([(title, plan.ops)])
    prog, _, _ = optimized_program(plan.ops, plan.structure.tensors, feed_specs, variable_spec)
    return program_dot(prog, title)


def to_svg(dot_text: str) -> str:
    """``dot_text`` rendered by Graphviz as an SVG document (RuntimeError naming what to install
    when Graphviz is not there)."""
    program = shutil.which("dot")
    if program is None:
        raise RuntimeError(GRAPHVIZ_MISSING)
    done = subprocess.run([program, "-Tsvg"], input=dot_text, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"Graphviz's dot failed (status {done.returncode}): {done.stderr.strip()}")
    return done.stdout


def render(dot_text: str, format: str) -> str:
    """``dot_text`` as ``format``: 'dot' (unchanged) or 'svg' (through Graphviz)."""
    if format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(repr(f) for f in FORMATS)}, got {format!r}")
    return to_svg(dot_text) if format == "svg" else dot_text
