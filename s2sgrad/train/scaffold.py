"""``tf.train.Scaffold`` (the ops a monitored session needs: init, local init, summary op, saver) and
the session creators: ``ChiefSessionCreator`` restores the latest checkpoint of ``checkpoint_dir``
or else runs the init op; ``WorkerSessionCreator`` does the same (see its doc).

There is no ``ready_op`` by default (s2sgrad has no ``report_uninitialized_variables``): a run that
reads a variable nothing initialized raises ``FailedPreconditionError`` naming it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..checkpoint.saver import Saver
from ..checkpoint.state import latest_checkpoint
from ..graph_keys import GraphKeys
from ..ops import control_flow as cf
from ..ops import summary_ops
from ..ops.variables import global_variables_initializer, local_variables_initializer
from ..session import Session
from ..ssa.graph import get_default_graph
from ..summary.writer import directory_argument

__all__ = ["Scaffold", "SessionCreator", "ChiefSessionCreator", "WorkerSessionCreator"]


class Scaffold:
    """What ``finalize()`` fills in when not given: ``init_op`` (every global variable's initializer),
    ``local_init_op``, ``summary_op`` (``merge_all``, or None), ``saver`` (``tf.train.Saver()``), each
    first looked up in its graph collection (``init_op``, ``local_init_op``, ``summary_op``, ``savers``)."""

    init_op: Any
    init_feed_dict: Any
    ready_op: Any
    ready_for_local_init_op: Any
    local_init_op: Any
    local_init_feed_dict: Any
    summary_op: Any
    saver: Any
    _user_init_fn: Callable | None

    def __init__(self, init_op: Any = None, init_feed_dict: Any = None, init_fn: Callable | None = None,
                 ready_op: Any = None, ready_for_local_init_op: Any = None, local_init_op: Any = None,
                 summary_op: Any = None, saver: Any = None, copy_from_scaffold: Scaffold | None = None,
                 local_init_feed_dict: Any = None) -> None:
        if copy_from_scaffold is not None:
            if not isinstance(copy_from_scaffold, Scaffold):
                raise TypeError("copy_from_scaffold is not a Scaffold instance.")
            base = copy_from_scaffold
            init_op = base.init_op if init_op is None else init_op
            init_feed_dict = base.init_feed_dict if init_feed_dict is None else init_feed_dict
            init_fn = base._user_init_fn if init_fn is None else init_fn
            ready_op = base.ready_op if ready_op is None else ready_op
            local_init_op = base.local_init_op if local_init_op is None else local_init_op
            local_init_feed_dict = base.local_init_feed_dict if local_init_feed_dict is None else local_init_feed_dict
            summary_op = base.summary_op if summary_op is None else summary_op
            saver = base.saver if saver is None else saver
        if init_fn is not None and not callable(init_fn):
            raise TypeError(f"init_fn must be a function of the session, got {init_fn!r}")
        self._init_fn = None if init_fn is None else (lambda sess: init_fn(self, sess))
        self._user_init_fn = init_fn
        self.init_op, self.init_feed_dict, self.ready_op = init_op, init_feed_dict, ready_op
        self.ready_for_local_init_op, self.local_init_op = ready_for_local_init_op, local_init_op
        self.local_init_feed_dict = local_init_feed_dict
        self.summary_op, self.saver = summary_op, saver
        self._finalized = False

    @property
    def init_fn(self) -> Callable | None:
        """``init_fn(sess)``, called after the init op (TF calls the user's as ``init_fn(scaffold, sess)``)."""
        return self._init_fn

    @staticmethod
    def get_or_default(arg_name: str, collection_key: str, default_constructor: Callable[[], Any]) -> Any:
        """The one op in collection ``collection_key``, else ``default_constructor()`` (then added to it)."""
        found = get_default_graph().get_collection(collection_key)
        if len(found) > 1:
            raise RuntimeError(f"More than one item in collection {collection_key}. Please indicate which one to "
                               f"use by passing it to the tf.Scaffold constructor as: tf.Scaffold({arg_name}=item)")
        if found:
            return found[0]
        made = default_constructor()
        if made is not None:
            get_default_graph().add_to_collection(collection_key, made)
        return made

    def finalize(self) -> Scaffold:
        """Create the missing ops, then finalize the graph (no op can be added after)."""
        if self._finalized:
            return self
        if self.init_op is None:
            self.init_op = Scaffold.get_or_default("init_op", GraphKeys.INIT_OP, global_variables_initializer)
        if self.local_init_op is None:
            self.local_init_op = Scaffold.get_or_default(
                "local_init_op", GraphKeys.LOCAL_INIT_OP, lambda: cf.group(local_variables_initializer()))
        if self.summary_op is None:
            self.summary_op = Scaffold.get_or_default("summary_op", GraphKeys.SUMMARY_OP, summary_ops.merge_all)
        if self.saver is None:
            self.saver = Scaffold.get_or_default("saver", GraphKeys.SAVERS,
                                                 lambda: Saver(sharded=True, allow_empty=True))
        get_default_graph().finalize()
        self._finalized = True
        return self


class SessionCreator:
    """Makes the session a MonitoredSession wraps: ``create_session()``."""

    def create_session(self) -> Session:
        raise NotImplementedError("a SessionCreator subclass defines create_session()")


class ChiefSessionCreator(SessionCreator):
    """A Session whose variables are restored from ``checkpoint_filename_with_path`` or the latest
    checkpoint of ``checkpoint_dir``, else initialized by the scaffold's init op and ``init_fn``;
    then the local init op runs."""

    def __init__(self, scaffold: Scaffold | None = None, master: str = "", config: Any = None,
                 checkpoint_dir: str | None = None, checkpoint_filename_with_path: str | None = None) -> None:
        if scaffold is not None and not isinstance(scaffold, Scaffold):
            raise TypeError(f"scaffold must be a tf.train.Scaffold, got {scaffold!r}")
        self._scaffold = scaffold or Scaffold()
        checkpoint_dir = directory_argument(checkpoint_dir, "checkpoint_dir")
        self._master, self._config = master, config
        self._checkpoint_dir, self._checkpoint_path = checkpoint_dir, checkpoint_filename_with_path

    def create_session(self) -> Session:
        scaffold = self._scaffold.finalize()
        sess = Session(self._master, graph=get_default_graph(), config=self._config)
        path = self._checkpoint_path
        if path is None and self._checkpoint_dir:
            path = latest_checkpoint(self._checkpoint_dir)
        if path is not None:
            scaffold.saver.restore(sess, path)
        else:
            if scaffold.init_op is None and scaffold.init_fn is None and scaffold.local_init_op is None:
                raise RuntimeError("Model is not initialized and no init_op or init_fn or local_init_op was given")
            if scaffold.init_op is not None:
                sess.run(scaffold.init_op, feed_dict=scaffold.init_feed_dict)
            if scaffold.init_fn is not None:
                scaffold.init_fn(sess)
        if scaffold.local_init_op is not None:
            sess.run(scaffold.local_init_op, feed_dict=scaffold.local_init_feed_dict)
        return sess


class WorkerSessionCreator(ChiefSessionCreator):
    """A worker's session. A TensorFlow worker waits (up to ``max_wait_secs``) for the chief to initialize
    the variables on their shared server; s2sgrad's sessions share no server, so a worker initializes its
    own, as the chief does, and restores ``checkpoint_dir``'s latest checkpoint (an s2sgrad addition)."""

    def __init__(self, scaffold: Scaffold | None = None, master: str = "", config: Any = None,
                 max_wait_secs: float = 1800, checkpoint_dir: str | None = None) -> None:
        super().__init__(scaffold=scaffold, master=master, config=config, checkpoint_dir=checkpoint_dir)
