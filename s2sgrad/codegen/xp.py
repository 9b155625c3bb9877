"""NumPy text -> array API text: the one place a generated module is retargeted to a backend.

The emitters write NumPy (``np.tanh(x)``, ``x.astype(np.float32)``, ``rt.softmax_xent(...)``).
For any backend but NumPy, ``translate_module`` rewrites each statement of the finished module
through the tables below: names the standard spells the same or differently (``np.concatenate``
-> ``xp.concat``), methods it spells as functions (``x.astype(t)`` -> ``xp.astype(x, t)``), and
what it lacks, done by a helper of ``runtime_xp`` (``xrt.<name>``), possibly per backend.
A name in none of the tables is NumPy-only: ``NotPortable`` names it, with the reason from
``NUMPY_ONLY`` when there is one. Comments, layout and the line -> op map are kept.
"""
from __future__ import annotations

import ast
import dataclasses
import io
import tokenize
from typing import Any

from .. import errors
from .backends import Backend
from .emit import RUNTIME_IMPORT, Module
from .lines import MAX_LINE, with_comment
from .printer import print_lines
from .runtime_xp import BACKEND_HELPERS, HELPERS

__all__ = ["translate_module", "NotPortable", "SAME", "RENAMED", "NUMPY_ONLY", "NUMPY_ONLY_OPS", "XRT_IMPORT"]

XRT_IMPORT = "from s2sgrad.codegen import runtime_xp as xrt"

# np.<name> the standard spells the same (dtypes and constants included)
SAME = frozenset("""abs all any arange argmax argmin broadcast_to ceil clip cos cosh exp expand_dims expm1 flip
    floor full isfinite isinf isnan log log1p logical_and logical_not logical_or logical_xor max maximum mean min
    minimum multiply add subtract divide prod reshape round sign sin sinh sqrt square squeeze stack sum take tan
    tanh where zeros zeros_like ones ones_like full_like moveaxis tile linalg float16 float32 float64 int8 int16
    int32 int64 uint8 uint16 uint32 uint64 complex64 complex128 nan inf pi e matmul tensordot real imag conj
    sort hypot copysign take_along_axis fft""".split())
# np.<name> -> the standard's name
RENAMED = {"concatenate": "concat", "transpose": "permute_dims", "power": "pow", "arccos": "acos", "arcsin": "asin",
           "arcsinh": "asinh", "arccosh": "acosh", "arctan": "atan", "arctanh": "atanh", "arctan2": "atan2",
           "array": "asarray", "asarray": "asarray", "cumsum": "cumulative_sum", "cumprod": "cumulative_prod",
           "bool_": "bool", "absolute": "abs", "negative": "negative"}
# what has no array API form at all, and why
NUMPY_ONLY = {
    "np.angle": "the standard has no angle (atan2 of the parts would be the portable spelling)",
    "np.object_": "string tensors are NumPy object arrays",
    "np.argwhere": "its result's shape depends on the values",
    "np.einsum": "the standard has no einsum (the torch, jax and cupy backends use theirs)",
    "np.fmax": "the standard has no NaN-ignoring maximum", "np.fmin": "the standard has no NaN-ignoring minimum",
    "np.nanargmax": "the standard has no NaN-ignoring argmax (NumPy's raises on an all-NaN slice)",
    "np.nanargmin": "the standard has no NaN-ignoring argmin (NumPy's raises on an all-NaN slice)",
    "np.cbrt": "the standard has no cube root", "np.argsort": "NumPy's kind= (the standard's argsort takes stable=)",
    "np.partition": "the standard has no partition", "np.argpartition": "the standard has no partition",
    "rt.segment_sum": "scatter-add into a new array (no standard scatter)",
    "rt.scatter_into_zeros": "scatter into a new array (no standard scatter)",
    "rt.scatter_nd": "scatter into a new array (no standard scatter)",
    "rt.print_v2": "host I/O inside the step", "rt.print_tensors": "host I/O inside the step",
    "rt.assert_that": "a host check of values inside the step", "rt.check_numerics": "a host check of values",
    "rt.upper_eigh": "the standard's eigh has no UPLO (which triangle it reads)",
    "rt.gather_nd": "integer arrays indexing several axes at once", "rt.parse_example": "host-side protobuf parsing",
    "rt.truncated_normal": "a draw from the host's NumPy generator (random ops stay NumPy, then move)",
    **dict.fromkeys((f"rt.{n}" for n in ("segment_reduce", "sorted_segment", "mirror_pad_grad", "max_pool_argmax",
                                         "sample_candidates")), "scatters or value-dependent shapes"),
    **dict.fromkeys((f"rt.{n}" for n in ("step_grad", "ta_write", "ta_stack", "ta_split", "ta_size", "ta_scatter",
                                         "ta_concat", "ta_concat_grad")),
                    "TensorArrays are Python lists the NumPy helpers grow in place"),
    **dict.fromkeys((f"rt.{n}" for n in ("scalar_summary", "histogram_summary", "image_summary", "audio_summary",
                                         "text_summary", "merge_summary")), "summaries are host-side protobufs"),
    **dict.fromkeys((f"rt.{n}" for n in ("depthwise_conv", "depthwise_backprop_input", "depthwise_backprop_filter",
                                         "max_pool_grad_grad", "resize_bilinear", "resize_bilinear_grad",
                                         "resize_nearest", "resize_nearest_grad", "window_sum", "top_k", "in_top_k",
                                         "sparse_softmax_xent", "band_part", "matrix_diag", "matrix_set_diag",
                                         "triangular_solve", "svd", "erf", "real_eig")),
                    "no runtime_xp helper yet (NumPy helper only)"),
}
# ops whose generated NumPy runs only on NumPy in some uses (the test of every op's portability reads this)
NUMPY_ONLY_OPS = {
    "Fill": "a fill value that is a tensor (the standard's full takes a Python scalar)",
    "PadV2": "a constant value that is a tensor", "Pad": "paddings fed as a tensor (iterated on the host)",
    "MirrorPad": "reflect and symmetric modes (no standard pad)",
    "Unpack": "unstacking iterates over the array", "Slice": "begin and size given as tensors",
    "Tile": "multiples given as a tensor", "OneHot": "a depth given as a tensor",
    "GatherV2": "indices of rank above 1 (the standard's take is 1-D)",
    "ResourceGather": "indices of rank above 1 (the standard's take is 1-D)",
    "Mean": "the mean of integers (the standard's mean is floating-point only)",
    "AddV2": "adding booleans (the standard adds numbers only)",
    "SoftmaxCrossEntropyWithLogits": "its second-order gradient multiplies booleans",
}


class NotPortable(errors.UnimplementedError):
    """A generated statement uses a NumPy name no array API table covers (names the op)."""

    def __init__(self, name: str, backend: str, op: Any) -> None:
        reason = NUMPY_ONLY.get(name, "not in the array API standard nor in runtime_xp's helpers")
        where = f" (op '{op.name}' of type {op.type}, created at {op.where})" if op is not None else ""
        super().__init__(None, op, f"{name} has no {backend!r} form ({reason}); it runs on the numpy backend "
                                   f"only{where}")
        self.name = name


def translate_module(module: Module, backend: Backend) -> Module:
    """``module``'s text for ``backend`` (the same Module for NumPy)."""
    if backend.is_numpy:
        return module
    lines = module.source.splitlines()
    out: list[str] = []
    moved: dict[int, int] = {}   # old line number -> new one
    row = 1
    for start, end, code_end, comment in _logical_lines(module.source):
        while row < start:  # comment-only or blank lines between statements
            moved[row] = len(out) + 1
            out.append(lines[row - 1])
            row += 1
        new = _statement(lines[start - 1:end], code_end, comment, backend, start, module.line_ops.get(start))
        for k in range(end - start + 1):
            moved[start + k] = len(out) + 1 + min(k, len(new) - 1)
        out += new
        row = end + 1
    out += lines[row - 1:]
    out[0] = out[0].replace("as NumPy statements.", f"as array API statements for the {backend.name} backend.")
    line_ops = {moved.get(n, n): op for n, op in module.line_ops.items()}
    return dataclasses.replace(module, source="\n".join(out) + "\n", line_ops=line_ops, helpers=set())  # rt: none


def _logical_lines(source: str) -> list[tuple[int, int, tuple[int, int], str | None]]:
    """(first row, last row, end of the code, trailing comment) of each logical line."""
    found = []
    start: tuple[int, int] | None = None
    code_end = (0, 0)
    comment: str | None = None
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING):
            continue
        if tok.type == tokenize.COMMENT:
            if start is not None:
                comment = tok.string
            continue
        if tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            if start is not None:
                found.append((start[0], tok.start[0], code_end, comment))
            start, comment = None, None
            continue
        if start is None:
            start = tok.start
        code_end = tok.end
    return found


def _statement(text: list[str], code_end: tuple[int, int], comment: str | None, backend: Backend,
               first: int, op: Any) -> list[str]:
    """One statement's lines for ``backend`` (unchanged when it names no NumPy)."""
    code_lines = text[:code_end[0] - first] + [text[code_end[0] - first][:code_end[1]]]
    code = "\n".join(code_lines)
    indent = text[0][:len(text[0]) - len(text[0].lstrip())]
    body = code.lstrip()
    if body.startswith(('"""', "def ", "del ", "return (", "pass")) and "np." not in body:
        return text
    if body == "import numpy as np":
        return ["import numpy as np", f"import {backend.namespace_module} as xp", XRT_IMPORT]
    if body == RUNTIME_IMPORT:
        return []
    compound = body.endswith(":")
    if body in ("else:", "try:", "finally:") or body.startswith("except"):
        return text
    prefix, body = ("el", body[2:]) if body.startswith("elif ") else ("", body)
    tree = ast.parse(body + (" pass" if compound else ""))
    node = tree.body[0]
    if op is not None and not op.prim.pure and isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
        node.value = ast.Call(_attr("xp", "asarray"), [node.value], [])  # drawn on the host's NumPy generator
    else:
        node = _Translator(backend, op).visit(node)
    if compound:  # a loop or branch header: ast.unparse prints the header, then `pass`, dropped
        printed = [prefix + ast.unparse(node).split("\n")[0]]
    else:
        printed = print_lines(node, MAX_LINE - len(indent))
    comment_text = comment[2:] if comment else ""
    return [indent + line for line in with_comment(printed, comment_text, indent)]


class _Translator(ast.NodeTransformer):
    def __init__(self, backend: Backend, op: Any) -> None:
        self.backend, self.op = backend, op

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        value = node.value
        if isinstance(value, ast.Name) and value.id in ("np", "rt"):
            return self._name(value.id, node.attr)
        self.generic_visit(node)
        return node

    def visit_Call(self, node: ast.Call) -> ast.expr:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "astype" and getattr(func.value, "id", None) != "np":
            args = [self.visit(func.value), *[self.visit(a) for a in node.args]]
            return ast.Call(_attr("xp", "astype"), args, [self.visit(k) for k in node.keywords])
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "np" \
                and func.attr == "transpose" and len(node.args) == 1 and not node.keywords:
            return ast.Call(_attr("xrt", "transpose"), [self.visit(node.args[0])], [])
        if isinstance(func, ast.Name) and func.id == "tuple" and getattr(self.op, "type", None) == "Unpack":
            return ast.Call(_attr("xp", "unstack"), [self.visit(node.args[0])], [])  # the standard iterates no arrays
        new_func = self.visit(func)
        args = [self.visit(a) for a in node.args]
        keywords = [self.visit(k) for k in node.keywords]
        if _is_fft2(new_func):  # the fft extension has no 2-D forms: np.fft.fft2(x) is xp.fft.fftn(x, axes=(-2, -1))
            new_func.attr = new_func.attr[:-1] + "n"
            keywords.append(ast.keyword("axes", ast.Tuple([ast.Constant(-2), ast.Constant(-1)], ast.Load())))
        kept = _POSITIONAL.get(getattr(new_func, "attr", ""), (None, ()))[0] \
            if getattr(getattr(new_func, "value", None), "id", None) == "xp" else None
        if kept is not None and len(args) > kept:  # the standard takes these by keyword only
            names = _POSITIONAL[getattr(new_func, "attr", "")][1]
            keywords = [ast.keyword(n, a) for n, a in zip(names, args[kept:], strict=False)] + keywords
            args = args[:kept]
        if _is_dtype(new_func) and len(args) == 1:  # np.float32(1.5): a 0-d array of that dtype
            return ast.Call(_attr("xp", "asarray"), args, [ast.keyword("dtype", new_func)])
        return ast.Call(new_func, args, keywords)

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        """``g * (x > 0)``: the standard multiplies no booleans, so ``xp.where(x > 0, g, 0)``."""
        self.generic_visit(node)
        if isinstance(node.op, ast.Mult):
            for mask, other in ((node.right, node.left), (node.left, node.right)):
                if _is_mask(mask):
                    return ast.Call(_attr("xp", "where"), [mask, other, ast.Constant(0)], [])
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        """``x[1:, 0]`` -> ``x[1:, 0, ...]``: the standard wants every axis indexed (the same in NumPy)."""
        self.generic_visit(node)
        index = node.slice
        items = list(index.elts) if isinstance(index, ast.Tuple) else [index]
        basic = all(isinstance(i, ast.Slice) or isinstance(i, ast.Constant) and isinstance(i.value, int)
                    or isinstance(i, ast.UnaryOp) and isinstance(i.operand, ast.Constant) for i in items)
        if isinstance(node.ctx, ast.Load) and basic and not any(
                isinstance(i, ast.Constant) and i.value in (None, Ellipsis) for i in items):
            node.slice = ast.Tuple([*items, ast.Constant(Ellipsis)], ast.Load())
        return node

    def _name(self, module: str, name: str) -> ast.expr:
        helpers = BACKEND_HELPERS.get(self.backend.name, frozenset())
        key = f"{module}.{name}"
        if key in helpers or key in HELPERS:
            return _attr("xrt", name)
        if module == "np" and name in SAME:
            return _attr("xp", name)
        if module == "np" and name in RENAMED:
            return _attr("xp", RENAMED[name])
        raise NotPortable(key, self.backend.name, self.op)


# functions whose later arguments the standard takes by keyword only: (positional kept, keyword names)
_AXIS_SECOND = ("flip", "concat", "stack", "sum", "mean", "max", "min", "prod", "all", "any", "argmax", "argmin",
                "cumulative_sum", "cumulative_prod", "expand_dims", "squeeze")
_POSITIONAL = {**dict.fromkeys(_AXIS_SECOND, (1, ("axis",))),
               "take": (2, ("axis",)), "full": (2, ("dtype",)), "zeros": (1, ("dtype",)), "ones": (1, ("dtype",)),
               "asarray": (1, ("dtype",)), "arange": (3, ("dtype",))}

_DTYPES = frozenset("float16 float32 float64 int8 int16 int32 int64 uint8 uint16 uint32 uint64 complex64 "
                    "complex128 bool".split())


def _is_fft2(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr.endswith("2") and isinstance(node.value, ast.Attribute) \
        and node.value.attr == "fft" and getattr(node.value.value, "id", None) == "xp"


def _is_mask(node: ast.expr) -> bool:
    """A comparison, or ``&``/``|`` of comparisons: a boolean array."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr)):
        return _is_mask(node.left) and _is_mask(node.right)
    return isinstance(node, ast.Compare)


def _is_dtype(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "xp" \
        and node.attr in _DTYPES


def _attr(module: str, name: str) -> ast.expr:
    return ast.Attribute(ast.Name(module, ast.Load()), name, ast.Load())
