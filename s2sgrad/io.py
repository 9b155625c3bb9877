"""``tf.io``: its file API (``tf.io.gfile``), TFRecord files and ``tf.train.Example`` parsing."""
from .data.tfrecord import TFRecordCompressionType, TFRecordOptions, TFRecordWriter, tf_record_iterator
from .ops.parsing_ops import (
                              FixedLenFeature,
                              FixedLenSequenceFeature,
                              VarLenFeature,
                              parse_example,
                              parse_single_example,
)
from .platform import io_gfile as gfile
from .tf1_api import missing_names as _missing_names

__all__ = ["gfile", "TFRecordCompressionType", "TFRecordOptions", "TFRecordWriter", "tf_record_iterator",
           "FixedLenFeature", "FixedLenSequenceFeature", "VarLenFeature", "parse_example", "parse_single_example"]

__getattr__ = _missing_names("io", __name__)  # TF names s2sgrad lacks say so
