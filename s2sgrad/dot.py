"""Graph slices as Graphviz DOT: ops are nodes, tensors are edges labelled with dtype and shape.

Every user-chosen string (op names, types, file names) is escaped, so no name can end a
quoted DOT string or inject attributes. Output is deterministic: sections, nodes and edges
come in graph order.

    digraph s2sgrad {
      subgraph cluster_1 { label="module 1: run"; m1_op3 [label="Mul\\nmul"]; ... }
    }
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from .primitives.state import VARIABLE_V2
from .ssa.graph import Operation
from .ssa.printer import _type

__all__ = ["to_dot", "dot_string"]


def dot_string(text: str) -> str:
    """``text`` as a quoted DOT string: non-printables spelled out, backslashes and quotes escaped."""
    printable = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))
    return '"' + printable.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _label(*lines: str) -> str:
    """A multi-line DOT label: each line escaped, joined by DOT's ``\\n`` line break."""
    return '"' + "\\n".join(dot_string(line)[1:-1] for line in lines) + '"'


def to_dot(sections: Iterable[tuple[str, Sequence[Operation]]]) -> str:
    """One ``digraph`` with a cluster per (title, ops) section; inputs from outside a slice
    (fed tensors, variables read by reference) appear as dashed ellipses."""
    lines = ["digraph s2sgrad {", "  rankdir=TB;", '  node [shape=box, style=rounded, fontname="Helvetica"];',
             '  edge [fontname="Helvetica", fontsize=10];']
    for k, (title, ops) in enumerate(sections, start=1):
        lines += [f"  subgraph cluster_{k} {{", f"    label={dot_string(title)};"]
        lines += ["    " + line for line in _section(f"m{k}_", ops)]
        lines.append("  }")
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
             f"tooltip={dot_string(op.where)}];" for op in sorted(external, key=lambda o: o.id)]
    nodes += [f"{prefix}op{op.id} [label={_label(op.type, op.name)}{_style(op)}, tooltip={dot_string(op.where)}];"
              for op in ops]
    return nodes + edges


def _style(op: Operation) -> str:
    if op.prim is VARIABLE_V2:
        return ", shape=cylinder, style=solid"
    if op.grad_of is not None:
        return ', style="rounded,filled", fillcolor="#eeeeee"'
    return ""
