"""Emitters of the summary ops: one runtime call each (``rt.scalar_summary('loss', loss)``)."""
from __future__ import annotations

import ast
from collections.abc import Sequence

from ...primitives import summary
from ...primitives.core import Primitive
from ..program import Instr
from .common import LOAD, Emitter, literal, rt_call


def _emit_scalar(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return rt_call("scalar_summary", [literal(ins.attrs["tag"]), args[0]])


def _emit_histogram(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return rt_call("histogram_summary", [literal(ins.attrs["tag"]), args[0]])


def _emit_image(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return rt_call("image_summary", [literal(ins.attrs["tag"]), args[0], literal(ins.attrs["max_images"]),
                                     literal(tuple(ins.attrs["bad_color"]))])


def _emit_audio(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return rt_call("audio_summary", [literal(ins.attrs["tag"]), args[0], literal(ins.attrs["sample_rate"]),
                                     literal(ins.attrs["max_outputs"])])


def _emit_text(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return rt_call("text_summary", [literal(ins.attrs["tag"]), args[0]])


def _emit_merge(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return rt_call("merge_summary", [ast.List(list(args), LOAD)])


EMITTERS: dict[Primitive, Emitter] = {
    summary.SCALAR_SUMMARY: _emit_scalar,
    summary.HISTOGRAM_SUMMARY: _emit_histogram,
    summary.IMAGE_SUMMARY: _emit_image,
    summary.AUDIO_SUMMARY: _emit_audio,
    summary.TEXT_SUMMARY: _emit_text,
    summary.MERGE_SUMMARY: _emit_merge,
}
