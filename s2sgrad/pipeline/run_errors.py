"""An exception raised inside a compiled module, as the TF error a user reads.

The error names the op that failed, the user's line that created it (for an op of a gradient:
also the forward op and its line) and the generated line that ran. Its traceback ends in the
generated frame, so an uncaught error prints that line last and post-mortem debugging
(``pdb.pm()``, ``python -m pdb``) starts there, with the module's local values at hand; the
original exception stays its ``__cause__``, its traceback trimmed to the generated frames
(``S2SGRAD_TRACEBACK_FILTERING=off`` keeps every frame).
"""
from __future__ import annotations

import linecache
import os
from typing import Any

from .. import errors
from ..ssa.graph import Operation
from ..tracebacks import chain, filtering

__all__ = ["translate_error"]

_ERROR_CLASSES = {MemoryError: errors.ResourceExhaustedError, NotImplementedError: errors.UnimplementedError}


def translate_error(e: Exception, exe: Any) -> errors.OpError:
    """``e`` (from ``exe``'s generated code) as a TF error: ResourceExhaustedError for MemoryError,
    UnimplementedError for NotImplementedError, InvalidArgumentError for the rest (bad index or
    label values, NumPy errors, failed ``tf.Assert`` and ``check_numerics`` checks, whose
    AssertionError already carries TF's message)."""
    filename = exe.fn.filename
    generated = []
    tb = e.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            generated.append(tb)
        tb = tb.tb_next
    op = None
    for entry in generated:
        op = exe.module.line_ops.get(entry.tb_lineno, op)
    kind = next((tf_error for cls, tf_error in _ERROR_CLASSES.items() if isinstance(e, cls)),
                errors.InvalidArgumentError)
    text = str(e) if isinstance(e, AssertionError) else f"{type(e).__name__}: {e}"  # rt's checks: TF's own text
    if generated:
        line = generated[-1].tb_lineno
        statement = linecache.getline(filename, line).strip()
        text += f"\n  generated line {line} of {os.path.basename(filename)}: {statement}"
    error = kind(None, op, _with_op(text, op))
    if generated and filtering():
        e.__traceback__ = chain(generated)
        error.__traceback__ = e.__traceback__
    return error


def _with_op(text: str, op: Operation | None) -> str:
    """``text`` with the op named after its first line."""
    if op is None:
        return text
    where = f" (op '{op.name}' of type {op.type}, created at {op.where}"
    forward = op.grad_of
    if forward is not None:
        where += f" for the gradient of op '{forward.name}' of type {forward.type}, created at {forward.where}"
    first, _, rest = text.partition("\n")
    return f"{first}{where})" + (f"\n{rest}" if rest else "")

