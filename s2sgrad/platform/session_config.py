"""What ``tf.Session(target, graph, config)`` does with ``target`` and ``config``, and the checks of
``Session.run``'s ``options`` / ``run_metadata``.

s2sgrad runs in this process on one CPU device, so the only target is ``''``. Of the config,
``intra_op_parallelism_threads`` > 0 limits NumPy's BLAS thread pool while the session is open
(through threadpoolctl: ``pip install s2sgrad[threads]``; without it a warning says so and the
BLAS default stays), otherwise s2sgrad.threads chooses per step; ``device_count={'CPU': 0}`` is
refused as in TF; the rest is recorded only.
"""
from __future__ import annotations

import importlib
import os
import random
import warnings
from dataclasses import dataclass
from typing import Any

from .. import errors
from .config import ConfigProto, RunMetadata, RunOptions

__all__ = ["LOCAL_CPU", "DeviceAttributes", "SessionSettings", "check_run_arguments"]

LOCAL_CPU = "/job:localhost/replica:0/task:0/device:CPU:0"
THREADS_EXTRA = "pip install s2sgrad[threads]"


@dataclass(frozen=True)
class DeviceAttributes:
    """One entry of ``Session.list_devices()``."""

    name: str
    device_type: str
    memory_limit_bytes: int
    incarnation: int


class SessionSettings:
    """A session's validated target and config, and the BLAS thread limit it holds while open."""

    def __init__(self, target: Any, config: Any) -> None:
        if isinstance(target, bytes):
            target = target.decode()
        if not isinstance(target, str):
            raise TypeError(f'Argument `target` must be a string, but got "{type(target).__name__}"')
        if target.startswith("grpc://"):
            raise errors.UnimplementedError(
                None, None, f"Session target {target!r}: distributed runtimes are not supported; s2sgrad runs "
                "every graph in this process (use target='')")
        if target:
            raise errors.NotFoundError(
                None, None, f"No session factory registered for the session target {target!r}: s2sgrad only "
                "runs in-process sessions (target='')")
        if config is not None and not isinstance(config, ConfigProto):
            raise TypeError(f'Argument `config` must be a tf.ConfigProto, but got "{type(config).__name__}"')
        self.target = target
        self.config = ConfigProto()
        if config is not None:
            self.config.CopyFrom(config)
            if "CPU" in config.device_count and config.device_count["CPU"] == 0:
                raise errors.NotFoundError(None, None, "No CPU devices are available in this process "
                                           "(ConfigProto.device_count={'CPU': 0})")
        self._incarnation = random.getrandbits(63) | 1
        self._thread_limit = _limit_blas_threads(self.config.intra_op_parallelism_threads)

    @property
    def fixed_threads(self) -> bool:
        """Whether ``intra_op_parallelism_threads`` fixes the BLAS threads (else s2sgrad.threads chooses)."""
        return self.config.intra_op_parallelism_threads > 0

    def list_devices(self) -> list[DeviceAttributes]:
        """The one device every op runs on: this process's CPU."""
        return [DeviceAttributes(LOCAL_CPU, "CPU", _physical_memory(), self._incarnation)]

    def release(self) -> None:
        """Give back the BLAS thread limit (idempotent)."""
        if self._thread_limit is not None:
            self._thread_limit.restore_original_limits()
            self._thread_limit = None


def _limit_blas_threads(threads: int) -> Any:
    """A threadpoolctl limit of the BLAS pools to ``threads`` (None when ``threads`` <= 0, or with
    a warning when threadpoolctl is not installed)."""
    if threads <= 0:
        return None
    try:
        threadpoolctl = importlib.import_module("threadpoolctl")   # optional: the [threads] extra
    except ImportError:
        warnings.warn(f"ConfigProto.intra_op_parallelism_threads={threads} needs threadpoolctl to limit NumPy's "
                      f"BLAS threads ({THREADS_EXTRA}); running with the BLAS default", stacklevel=4)
        return None
    return threadpoolctl.threadpool_limits(limits=threads, user_api="blas")


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):   # no sysconf (Windows) or no such name
        return 0


def check_run_arguments(options: Any, run_metadata: Any) -> None:
    """``Session.run``'s ``options`` must be a RunOptions and ``run_metadata`` a RunMetadata (or None)."""
    if options is not None and not isinstance(options, RunOptions):
        raise TypeError(f"options must be a tf.RunOptions, got {type(options).__name__}")
    if run_metadata is not None and not isinstance(run_metadata, RunMetadata):
        raise TypeError(f"run_metadata must be a tf.RunMetadata, got {type(run_metadata).__name__}")
