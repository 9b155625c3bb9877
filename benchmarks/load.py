"""A loaded machine on demand: ``with busy_processes(2): ...`` runs two CPU-burning processes
for the block's duration and stops them after, also on Ctrl-C or an error."""
from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator

_BURN = "while True:\n    pass\n"


@contextlib.contextmanager
def busy_processes(count: int) -> Iterator[list[subprocess.Popen]]:
    """Start ``count`` Python processes that spin on one core each; kill them when the block ends."""
    burners: list[subprocess.Popen] = []
    try:
        for _ in range(count):
            burners.append(subprocess.Popen([sys.executable, "-c", _BURN], stdin=subprocess.DEVNULL))
        yield burners
    finally:
        for burner in burners:
            burner.kill()
        for burner in burners:
            burner.wait()
