"""``tf.summary``: summary ops (``scalar``, ``histogram``, ``image``, ``audio``, ``text``, ``merge``,
``merge_all``) and ``FileWriter`` / ``FileWriterCache``, writing event files TensorBoard reads.

No protobuf library is needed: the Summary, Event and GraphDef messages are written in the
protobuf wire format by s2sgrad's own encoder (``codegen/runtime_summary.py``, ``events.py``,
``graph_def.py``), framed as TFRecords with masked CRC-32C (``records.py``).
"""
from __future__ import annotations

from ..ops.summary_ops import audio, histogram, image, merge, merge_all, scalar, text
from ..tf1_api import missing_names as _missing_names
from .events import SessionLog
from .messages import HistogramProto, Summary
from .writer import FileWriter, FileWriterCache

__all__ = ["audio", "histogram", "image", "merge", "merge_all", "scalar", "text", "FileWriter", "FileWriterCache",
           "SessionLog", "Summary", "HistogramProto"]


__getattr__ = _missing_names("summary", __name__)
