"""Straight-line glue generated per plan and per compiled module: Session.run's fast path, and
the one place where a compiled module's results are post-processed.

A plan's *dispatcher* unpacks the feed values, converts those that are not already of the
fed tensor's dtype, and picks the executable for their shapes. An executable's *step* reads
the variables it needs (one C-level ``itemgetter`` call), calls the generated module,
commits the assignments (one ``dict.update``) and rebuilds the fetch structure. Both are
single Python functions with no loops; a step's *checked* twin is both in one function, for
the feed shapes it was compiled for, which is what makes ``sess.run`` cost about one function
call more than hand-written NumPy. An executable's *call* (used by the decorator and
export) is the step's middle part alone: call the module, post-process its results.

The glue text contains only internal identifiers (``f0``, ``v1``, ``o2``...); every object it
touches is bound in its namespace, so no user string ever reaches it.
"""
from __future__ import annotations

import operator
from bdb import BdbQuit
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import errors
from .variable_store import VariableStore

__all__ = ["make_dispatcher", "make_step", "make_call", "call_lines", "define"]


def define(name: str, params: Sequence[str], body: list[str], namespace: dict) -> Callable:
    """The function ``name(params)`` with these body lines, its globals ``namespace`` (internal names only)."""
    text = f"def {name}({', '.join(params)}):\n" + "".join(f"    {line}\n" for line in body)
    exec(compile(text, f"<s2sgrad-{name}>", "exec"), namespace)  # internal identifiers only
    return namespace[name]


def make_dispatcher(feed_types: Sequence[tuple], steps: dict, compile_step: Callable, convert: Callable) -> Callable:
    """``dispatch(feed_values) -> result`` for one plan: feed checks, then the step for their shapes."""
    ns: dict[str, Any] = {"steps": steps, "compile_step": compile_step}
    names, body = _feed_lines(feed_types, convert, ns)
    signature = "(" + "".join(f"{n}.shape, " for n in names) + ")"
    body += [f"step = steps.get({signature})",
             "if step is None:",
             f"    step = compile_step([{', '.join(names)}])",
             f"return step({', '.join(names)})"]
    return define("dispatch", ["feeds"], body, ns)


def _feed_lines(feed_types: Sequence[tuple], convert: Callable, ns: dict) -> tuple[list[str], list[str]]:
    """The names of the feed values and the lines that unpack ``feeds`` into them, converting those
    not already of their tensor's type; ``feed_types``: (dtype, scalar type, tensor) per feed."""
    names = [f"f{i}" for i in range(len(feed_types))]
    ns.update({"ndarray": np.ndarray, "convert": convert})
    body = [f"{', '.join(names)}, = feeds"] if names else []
    for i, (dtype, scalar, tensor) in enumerate(feed_types):
        ns[f"D{i}"], ns[f"S{i}"], ns[f"T{i}"] = dtype, scalar, tensor
        body.append(f"if type(f{i}) is not S{i} and (type(f{i}) is not ndarray or f{i}.dtype is not D{i}): "
                    f"f{i} = convert(f{i}, T{i})")
    return names, body


def make_call(exe: Any, translate: Callable) -> Callable:
    """``call(args) -> list`` for one executable: its module's results, post-processed."""
    ns: dict[str, Any] = {}
    returned = [f"o{i}" for i in range(exe.n_fetches + len(exe.commit_ops))]
    body = call_lines(exe, "*args", returned, translate, ns)
    return define("call", ["args"], body + [f"return [{', '.join(returned)}]"], ns)


def make_step(exe: Any, store: VariableStore, uninitialized: Callable, translate: Callable,
              rebuild: Callable | None, slots: tuple | None, checks: tuple) -> Callable:
    """``step(*feed_values) -> result`` for one executable bound to one session's ``VariableStore``:
    its snapshot and commit, inlined.

    ``slots`` describes a flat fetch list (index into the fetched values, -1 for an op) so the
    result is built inline; otherwise ``rebuild`` builds it from the list of fetched values.
    ``checks`` is the plan's (feed types, convert, dispatch, feed shapes) for ``step.checked``:
    ``checked(feed_values)`` is the plan's dispatcher and this step in one function (feed checks,
    then this step's body when the values have ``feed shapes``, else ``dispatch(values)``)."""
    feed_types, convert, dispatch, shapes = checks
    ns: dict[str, Any] = {"values": store.values, "rng": store.generator, "uninitialized": uninitialized,
                          "rebuild": rebuild, "dispatch": dispatch, "update": store.values.update}
    feeds, checked = _feed_lines(feed_types, convert, ns)
    body: list[str] = []
    variables = [f"v{i}" for i in range(len(exe.var_ops))]
    if variables:
        ns["read"] = operator.itemgetter(*exe.var_ops)
        body += ["try:", f"    {', '.join(variables)}{',' if len(variables) > 1 else ''} = read(values)",
                 "except KeyError:", "    raise uninitialized() from None"]
    randoms = []
    for i, op in enumerate(exe.rng_ops):
        ns[f"R{i}"] = op
        randoms.append(f"r{i}")
        body.append(f"r{i} = rng(R{i})")
    args = [feeds[i] for i in exe.feed_positions] + variables + randoms
    outs = [f"o{i}" for i in range(exe.n_fetches)]
    commits = [f"c{i}" for i in range(len(exe.commit_ops))]
    body += call_lines(exe, ", ".join(args), outs + commits, translate, ns)
    if commits:  # after the call returned (a failed run commits nothing), all at once (atomic under the GIL)
        for i, var_op in enumerate(exe.commit_ops):
            ns[f"K{i}"] = var_op
        body.append("update((" + "".join(f"(K{i}, c{i}), " for i in range(len(commits))) + "))")
    if slots is not None:
        body.append("return " + _inline_result(slots, outs))
    else:
        body.append(f"return rebuild([{', '.join(outs)}])")
    if feeds:
        checked.append(f"if {' or '.join(_shape_differs(i, shape, ns) for i, shape in enumerate(shapes))}: "
                       f"return dispatch(({', '.join(feeds)}, ))")
    step = define("step", feeds, body, ns)
    step.checked = define("checked_step", ["feeds"], checked + body, ns)  # type: ignore[attr-defined]
    return step


def _shape_differs(i: int, shape: tuple, ns: dict) -> str:
    """The test that feed value ``f{i}`` (converted) is not of ``shape``; a NumPy scalar is of shape ()."""
    ns[f"P{i}"] = shape
    return f"(type(f{i}) is not S{i} and f{i}.shape != P{i})" if shape == () else f"f{i}.shape != P{i}"


def call_lines(exe: Any, args: str, returned: list[str], translate: Callable, ns: dict) -> list[str]:
    """The lines that call the generated module with ``args`` into the names ``returned``, then
    post-process them: errors become TF errors, aliased outputs are copied, 0-d arrays become
    NumPy scalars (as TF returns them)."""
    ns.update({"fn": exe.fn, "translate": translate, "OpError": errors.OpError, "BdbQuit": BdbQuit,
               "ndarray": np.ndarray, "array": np.array})
    body = ["try:", f"    {', '.join(returned) + ',' if returned else '_'} = fn({args})",   # pdb's quit passes through
            "except (OpError, BdbQuit):", "    raise", "except Exception as e:", "    raise translate(e) from e"]
    for i in exe.copy_outputs:
        body.append(f"{returned[i]} = array({returned[i]})")
    for i in exe.scalar_outputs:
        body.append(f"if type({returned[i]}) is ndarray: {returned[i]} = {returned[i]}[()]")
    return body


def _inline_result(slots: Sequence[Any], outs: list[str]) -> str:
    kind, items = slots
    values = ", ".join("None" if s < 0 else outs[s] for s in items)
    if kind is list:
        return f"[{values}]"
    if kind is tuple:
        return f"({values}{',' if len(items) == 1 else ''})"
    return outs[items[0]]
