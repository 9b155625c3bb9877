"""``tf.train.Saver``: save and restore a session's variables as TensorFlow V2 checkpoints.

A checkpoint holds each variable under its op name (``w``, ``w/Adam``, ``global_step``), or
under the names of a ``var_list`` dict. Saving reads the session's variables at once and writes
the files atomically (see ``bundle.write_bundle``), then the ``checkpoint`` state file, then
deletes checkpoints beyond ``max_to_keep``. Restoring reads and checks every value first and
writes them all at once: a failed restore changes no variable.

``write_meta_graph=True`` writes no ``.meta`` file: s2sgrad's graphs are not TensorFlow
GraphDefs, and a partial MetaGraphDef is a file TensorFlow would misread. Checkpoints restore in
TensorFlow through a TF-built graph with the same variable names (or ``NewCheckpointReader``).
"""
from __future__ import annotations

import numbers
import os
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import errors
from ..ops.variables import GLOBAL_VARIABLES, Variable
from ..pipeline.variable_store import VariableStore
from ..ssa.graph import get_default_graph
from .bundle import BundleReader, write_bundle
from .reader import value_for
from .state import (
    checkpoint_exists,
    get_checkpoint_mtimes,
    path_argument,
    remove_checkpoint,
    update_checkpoint_state_internal,
)

__all__ = ["Saver", "SaverDef"]

SAVEABLE_OBJECTS = "saveable_objects"


class SaverDef:
    """TF's SaverDef: the checkpoint format versions (only V2 is written) and a saver's settings."""

    LEGACY, V1, V2 = 0, 1, 2

    def __init__(self, max_to_keep: int = 5, keep_checkpoint_every_n_hours: float = 10000.0, sharded: bool = False,
                 name: str = "save") -> None:
        self.filename_tensor_name = f"{name}/Const:0"
        self.save_tensor_name = f"{name}/control_dependency:0"
        self.restore_op_name = f"{name}/restore_all"
        self.max_to_keep = max_to_keep
        self.keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self.sharded = sharded
        self.version = SaverDef.V2


class Saver:
    """Saves and restores variables.

    >>> # saver = tf.train.Saver(max_to_keep=3)
    >>> # path = saver.save(sess, "/tmp/model.ckpt", global_step=step)   # "/tmp/model.ckpt-<step>"
    >>> # saver.restore(sess, tf.train.latest_checkpoint("/tmp"))
    """

    def __init__(self, var_list: Any = None, reshape: bool = False, sharded: bool = False, max_to_keep: int = 5,
                 keep_checkpoint_every_n_hours: float = 10000.0, name: str | None = None,
                 restore_sequentially: bool = False, saver_def: Any = None, builder: Any = None,
                 defer_build: bool = False, allow_empty: bool = False, write_version: int = SaverDef.V2,
                 pad_step_number: bool = False, save_relative_paths: bool = False, filename: str | None = None) -> None:
        if write_version != SaverDef.V2:
            raise NotImplementedError("s2sgrad writes checkpoints in TensorFlow's V2 format only "
                                      f"(write_version=tf.train.SaverDef.V2), got write_version={write_version!r}")
        if saver_def is not None or builder is not None:
            raise NotImplementedError("Saver(saver_def=, builder=) builds from a graph's SaverDef, which s2sgrad "
                                      "graphs do not have; pass var_list instead")
        self._var_list = var_list
        self._reshape = reshape
        self._allow_empty = allow_empty
        self._max_to_keep = max_to_keep
        self._keep_every = keep_checkpoint_every_n_hours
        self._next_keep_time = time.time() + keep_checkpoint_every_n_hours * 3600
        self._pad_step_number = pad_step_number
        self._save_relative_paths = save_relative_paths
        self._filename = filename
        self.saver_def = SaverDef(max_to_keep, keep_checkpoint_every_n_hours, sharded, name or "save")
        self._last_checkpoints: list[tuple[str, float]] = []
        self._to_delete: list[tuple[str, float]] = []
        self._variables: dict[str, Variable] | None = None
        if not defer_build:
            self.build()

    def build(self) -> None:
        """Fix the variables to save (``Saver(defer_build=True)`` calls this later)."""
        if self._variables is None:
            self._variables = _names_to_variables(self._var_list)
            if not self._variables and not self._allow_empty:
                raise ValueError("No variables to save")

    def _built(self) -> dict[str, Variable]:
        if self._variables is None:
            raise RuntimeError("`build()` should be called before save if defer_build==True")
        return self._variables

    # -- saving -------------------------------------------------------------------------------------
    def save(self, sess: Any, save_path: str, global_step: Any = None, latest_filename: str | None = None,
             meta_graph_suffix: str = "meta", write_meta_graph: bool = True, write_state: bool = True,
             strip_default_attrs: bool = False, save_debug_info: bool = False) -> str | None:
        """Write the variables' values in ``sess`` to ``save_path`` (``save_path-<global_step>`` when
        given) and return that prefix; with ``write_state``, record it in the directory's state file
        (``latest_filename``, default ``checkpoint``) and delete checkpoints beyond ``max_to_keep``.
        No ``.meta`` file is written (see the module docstring). None when there is nothing to save."""
        variables = self._built()
        store = _store_of(sess, variables)
        latest_filename = "checkpoint" if latest_filename is None else path_argument(latest_filename,
                                                                                      "latest_filename")
        if os.path.split(latest_filename)[0]:
            raise ValueError("'latest_filename' must not contain path components")
        save_path = path_argument(save_path, "save_path")
        if global_step is not None:
            step = _step(sess, global_step)
            save_path = f"{save_path}-{step:08d}" if self._pad_step_number else f"{save_path}-{step}"
        if not variables:
            return None
        parent = os.path.dirname(save_path)
        values = store.snapshot([var.op for var in variables.values()])
        if parent and not os.path.isdir(parent):
            try:
                os.mkdir(parent)   # one level, as TF's bundle writer
            except OSError:
                raise ValueError(f"Parent directory of {save_path} doesn't exist, can't save.") from None
        write_bundle(save_path, {name: (var.dtype, value) for (name, var), value in
                                 zip(variables.items(), values, strict=True)})
        if write_state:
            self._record(save_path)
            update_checkpoint_state_internal(parent, save_path, self.last_checkpoints, latest_filename,
                                             self._save_relative_paths)
            self._delete_old(meta_graph_suffix)
        return save_path

    def _record(self, path: str) -> None:
        """Add ``path`` as the newest checkpoint; the oldest beyond ``max_to_keep`` are set aside."""
        self._last_checkpoints = [(p, t) for p, t in self._last_checkpoints if p != path]
        self._last_checkpoints.append((path, time.time()))
        if self._max_to_keep:
            excess = max(0, len(self._last_checkpoints) - self._max_to_keep)
            self._to_delete += self._last_checkpoints[:excess]
            self._last_checkpoints = self._last_checkpoints[excess:]

    def _delete_old(self, meta_graph_suffix: str) -> None:
        """Delete the checkpoints set aside by ``_record``, except one every n hours."""
        while self._to_delete:
            path, stamp = self._to_delete.pop(0)
            if stamp - self._next_keep_time >= 0:
                self._next_keep_time += self._keep_every * 3600
                continue
            remove_checkpoint(path, SaverDef.V2, meta_graph_suffix)

    @property
    def last_checkpoints(self) -> list[str]:
        """The kept checkpoints' prefixes, oldest first."""
        return [p for p, _ in self._last_checkpoints]

    def set_last_checkpoints(self, last_checkpoints: Sequence[str]) -> None:
        if not isinstance(last_checkpoints, (list, tuple)):
            raise TypeError(f"last_checkpoints must be a list of paths, got {last_checkpoints!r}")
        self._last_checkpoints = [(p, time.time()) for p in last_checkpoints]

    def set_last_checkpoints_with_time(self, last_checkpoints_with_time: Sequence[tuple[str, float]]) -> None:
        if not isinstance(last_checkpoints_with_time, (list, tuple)):
            raise TypeError("last_checkpoints_with_time must be a list of (path, time) pairs")
        self._last_checkpoints = [(p, float(t)) for p, t in last_checkpoints_with_time]

    def recover_last_checkpoints(self, checkpoint_paths: Sequence[str]) -> None:
        """Take over ``checkpoint_paths`` (those that exist, with their files' times), e.g. after a restart."""
        existing = [p for p in checkpoint_paths if checkpoint_exists(p)]
        self.set_last_checkpoints_with_time(list(zip(existing, get_checkpoint_mtimes(existing), strict=True)))

    # -- restoring ----------------------------------------------------------------------------------
    def restore(self, sess: Any, save_path: str) -> None:
        """Set the variables in ``sess`` from the checkpoint ``save_path``: all of them, or none
        (NotFoundError for a missing variable, InvalidArgumentError for a dtype or shape mismatch,
        DataLossError for a damaged file)."""
        variables = self._built()
        if not variables:
            return
        store = _store_of(sess, variables)
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        save_path = path_argument(save_path, "save_path")
        if not checkpoint_exists(save_path):
            raise ValueError(f"The passed save_path is not a valid checkpoint: {save_path}")
        bundle = BundleReader(save_path)
        try:
            values = [(var.op, value_for(bundle, name, var, self._reshape)) for name, var in variables.items()]
        except errors.NotFoundError as e:
            raise _restore_error(e, "a Variable name or other graph key that is missing") from None
        except errors.InvalidArgumentError as e:
            raise _restore_error(e, "a mismatch between the current graph and the graph") from None
        store.commit(values)

    def as_saver_def(self) -> SaverDef:
        return self.saver_def


def _step(sess: Any, global_step: Any) -> int:
    """The step number of ``global_step``: an int, or a tensor or variable holding one in ``sess``."""
    if isinstance(global_step, numbers.Integral):
        return int(global_step)
    value = np.asarray(sess.run(global_step))
    if value.shape != () or value.dtype.kind not in "iu":
        raise TypeError(f"global_step must be an int or an integer scalar tensor, got {global_step!r}")
    return int(value)


def _restore_error(e: errors.OpError, cause: str) -> errors.OpError:
    return type(e)(None, e.op, f"Restoring from checkpoint failed. This is most likely due to {cause} from the "
                               "checkpoint. Please ensure that you have not altered the graph expected based on "
                               f"the checkpoint. Original error:\n\n{e.message}")


def _store_of(sess: Any, variables: dict[str, Variable]) -> VariableStore:
    """The variable store of ``sess``, whose graph must hold ``variables``."""
    store = getattr(sess, "variable_store", None)
    if not isinstance(store, VariableStore):
        raise TypeError(f"'sess' must be a Session; {sess!r}")
    graph = getattr(sess, "graph", None)
    for var in variables.values():
        if graph is not None and var.graph is not graph:
            raise ValueError(f"Variable {var.op.name} is not an element of the session's graph")
    return store


def _names_to_variables(var_list: Any) -> dict[str, Variable]:
    """Checkpoint name -> variable, from ``var_list`` as TF's Saver takes it (None: all global
    variables and saveable objects; a list: keyed by op name; a dict: keyed by its keys)."""
    if var_list is None:
        graph = get_default_graph()
        var_list = graph.get_collection(GLOBAL_VARIABLES) + graph.get_collection(SAVEABLE_OBJECTS)
    if isinstance(var_list, dict):
        items = list(var_list.items())
    elif isinstance(var_list, (list, tuple, set)):
        for var in var_list:
            if not isinstance(var, Variable):
                raise TypeError(f"Variable to save is not a Variable: {var!r}")
        unique = list(dict.fromkeys(var_list))
        items = sorted(((var.op.name, var) for var in unique), key=lambda item: item[0])
    else:
        raise TypeError(f"Variables to save should be passed in a dict or a list: {var_list!r}")
    names: dict[str, Variable] = {}
    for name, var in items:
        if not isinstance(name, str):
            raise TypeError(f"Checkpoint names must be strings, got {name!r} for {var!r}")
        if not isinstance(var, Variable):
            raise TypeError(f"Variable to save is not a Variable: {var!r}")
        if name in names:
            raise ValueError(f"At least two variables have the same name: {name}")
        names[name] = var
    return names
