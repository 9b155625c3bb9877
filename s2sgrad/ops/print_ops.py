"""``tf.Print``, ``tf.print``, ``tf.debugging.check_numerics`` and ``tf.add_check_numerics_ops``:
ops that print or check values while the program runs (see ``primitives/debug.py``)."""
from __future__ import annotations

import sys
from typing import Any

from ..primitives.debug import CHECK_NUMERICS, PRINT, PRINT_V2
from ..ssa.graph import Operation, Tensor, get_default_graph
from .control_flow import group
from .convert import convert_to_tensor, graph_of, is_tensor_like, record, record1

__all__ = ["Print", "print_v2", "check_numerics", "add_check_numerics_ops"]

_SLOT = "\x00"   # stands for a tensor's text while tf.print's template is built


class _Slot:
    def __repr__(self) -> str:
        return _SLOT


def _summarize(summarize: Any) -> int:
    if summarize is None:
        return 3
    if not isinstance(summarize, int) or isinstance(summarize, bool):
        raise TypeError(f"summarize must be an int, got {summarize!r}")
    return summarize


def Print(input_: Any, data: Any, message: str | None = None, first_n: Any = None, summarize: Any = None,
          name: str | None = None) -> Tensor:
    """``input_``, and, each time it is computed, ``message`` and the first ``summarize`` (3)
    elements of each tensor of ``data`` written to stderr (TF-1.x's deprecated ``tf.Print``).

    >>> # x = tf.Print(x, [x, tf.shape(x)], message="x: ")
    """
    if first_n not in (None, -1):
        raise NotImplementedError("tf.Print with first_n is not supported: s2sgrad prints every time")
    x = convert_to_tensor(input_)
    with graph_of([x]).as_default():
        values = [convert_to_tensor(d) for d in (data if isinstance(data, (list, tuple)) else [data])]
        attrs = {"message": "" if message is None else str(message), "summarize": _summarize(summarize)}
        return record1(PRINT, [x, *values], attrs, name or "Print")


def _template(inputs: tuple, sep: str, end: str, tensors: list[Tensor]) -> str:
    """The text of ``inputs`` joined by ``sep`` with ``end`` after, ``{}`` for each tensor (in ``tensors``)."""
    def walk(value: Any) -> Any:
        if is_tensor_like(value):
            tensors.append(convert_to_tensor(value))
            return _Slot()
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return type(value)(walk(v) for v in value) if type(value) in (list, tuple) else value
        return value
    pieces = []
    for value in inputs:
        shown = walk(value)
        pieces.append(_SLOT if isinstance(shown, _Slot) else shown if isinstance(shown, str) else str(shown))
    text = sep.join(pieces) + end
    return text.replace("{", "{{").replace("}", "}}").replace(_SLOT, "{}")


_STREAMS = {"stdout": "stdout", "stderr": "stderr", "log(info)": "stderr", "log(warning)": "stderr",
            "log(error)": "stderr"}


def _stream(output_stream: Any) -> str:
    if output_stream is sys.stdout:
        return "stdout"
    if output_stream is sys.stderr:
        return "stderr"
    if isinstance(output_stream, str) and output_stream in _STREAMS:
        return _STREAMS[output_stream]
    raise ValueError(f"Unsupported output stream, logging level, or file. {output_stream!r}. Supported streams "
                     f"are sys.stdout, sys.stderr and the strings {sorted(_STREAMS)}")


def print_v2(*inputs: Any, **kwargs: Any) -> Operation:
    """``tf.print``: an op (PrintV2) that writes ``inputs`` (tensors, Python values, and lists or
    dicts holding tensors) separated by ``sep`` and followed by ``end``, to ``output_stream``
    (default stderr). Long axes show ``summarize`` (3) items at each end. In graph mode it runs
    when fetched or as a control dependency.

    >>> # with tf.control_dependencies([tf.print("loss:", loss)]): train = ...
    """
    unknown = sorted(set(kwargs) - {"output_stream", "summarize", "sep", "end", "name"})
    if unknown:
        raise TypeError(f"print() got unexpected keyword arguments {unknown}")
    sep, end = kwargs.get("sep", " "), kwargs.get("end", "\n")
    if not isinstance(sep, str) or not isinstance(end, str):
        raise TypeError(f"sep and end must be strings, got sep={sep!r}, end={end!r}")
    stream = _stream(kwargs.get("output_stream", sys.stderr))
    tensors: list[Tensor] = []
    template = _template(inputs, sep, end, tensors)
    graph = graph_of(tensors) if tensors else get_default_graph()
    attrs = {"template": template, "summarize": _summarize(kwargs.get("summarize", 3)), "output_stream": stream}
    with graph.as_default():
        return record(PRINT_V2, tensors, attrs, kwargs.get("name") or "PrintV2")


def check_numerics(tensor: Any, message: str, name: str | None = None) -> Tensor:
    """``tensor``, checked when it is computed: InvalidArgumentError ``"<message> : Tensor had NaN
    values"`` (or Inf) if it has any. Its gradient is checked too.

    >>> # logits = tf.debugging.check_numerics(logits, "logits")
    """
    if not isinstance(message, str):
        raise TypeError(f"check_numerics message must be a string, got {message!r}")
    x = convert_to_tensor(tensor)
    return record1(CHECK_NUMERICS, [x], {"message": message}, name or "CheckNumerics")


def add_check_numerics_ops() -> Operation:
    """A ``check_numerics`` of every float output in the default graph, grouped in one op to run.

    >>> # check = tf.add_check_numerics_ops(); sess.run([train, check])
    """
    graph = get_default_graph()
    checks = [check_numerics(t, f"{op.name}:{i}") for op in graph.get_operations()
              for i, t in enumerate(op.outputs) if t.dtype.is_floating]
    return group(*checks)
