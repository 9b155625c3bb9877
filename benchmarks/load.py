"""A loaded machine on demand: ``with busy_processes(2): ...`` runs two CPU-burning processes
for the block's duration and stops them after, also on Ctrl-C, an error or SIGTERM (which ends the
block with SystemExit)."""
from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator

_BURN = "while True:\n    pass\n"


@contextlib.contextmanager
def busy_processes(count: int) -> Iterator[list[subprocess.Popen]]:
    """Start ``count`` Python processes that spin on one core each; kill them when the block ends."""
    burners: list[subprocess.Popen] = []
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _exit) if main else None
    try:
        for _ in range(count):
            burners.append(subprocess.Popen([sys.executable, "-c", _BURN], stdin=subprocess.DEVNULL))
        yield burners
    finally:
        for burner in burners:
            burner.kill()
        for burner in burners:
            burner.wait()
        if main:
            signal.signal(signal.SIGTERM, previous)


def _exit(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)
