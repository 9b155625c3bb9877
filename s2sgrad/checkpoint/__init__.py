"""Checkpoints in TensorFlow's V2 format: ``tf.train.Saver``, the ``checkpoint`` state file, readers.

No TensorFlow or protobuf needed: ``crc32c``, ``wire`` (protobuf wire format), ``table`` (the
index's sorted table) and ``bundle`` (the tensor bundle) implement the file format; ``saver``,
``state``, ``reader`` and ``init_from`` are the ``tf.train`` functions on top (``s2sgrad.train`` exports them).
"""
