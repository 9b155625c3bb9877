"""Checkpoints in TensorFlow's V2 format: ``tf.train.Saver``, the ``checkpoint`` state file, readers.

No TensorFlow or protobuf needed: ``crc32c``, ``wire`` (protobuf wire format), ``table`` (the
index's sorted table) and ``bundle`` (the tensor bundle) implement the file format; ``saver``,
``state``, ``reader`` and ``init_from`` are the ``tf.train`` functions on top.
"""
from .init_from import init_from_checkpoint
from .reader import CheckpointReader, NewCheckpointReader, list_variables, load_checkpoint
from .saver import Saver, SaverDef
from .state import (CheckpointState, checkpoint_exists, generate_checkpoint_state_proto, get_checkpoint_mtimes,
                    get_checkpoint_state, latest_checkpoint, remove_checkpoint, update_checkpoint_state)

__all__ = ["Saver", "SaverDef", "CheckpointReader", "NewCheckpointReader", "load_checkpoint", "list_variables",
           "init_from_checkpoint", "CheckpointState", "checkpoint_exists", "generate_checkpoint_state_proto",
           "get_checkpoint_mtimes", "get_checkpoint_state", "latest_checkpoint", "remove_checkpoint",
           "update_checkpoint_state"]
