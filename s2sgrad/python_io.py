"""``tf.python_io``: TFRecord files (TF-1.x's older home of ``tf.io``'s writer and reader)."""
from .data.tfrecord import TFRecordCompressionType, TFRecordOptions, TFRecordWriter, tf_record_iterator
from .tf1_api import missing_names as _missing_names

__all__ = ["TFRecordCompressionType", "TFRecordOptions", "TFRecordWriter", "tf_record_iterator"]

__getattr__ = _missing_names("python_io", __name__)
