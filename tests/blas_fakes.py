"""Fakes for tests of s2sgrad.threads: a BLAS thread pool and clocks that steps advance."""
from s2sgrad import threads


class FakeBlas:
    """A BLAS thread pool: ``num_threads`` and ``set_num_threads`` as threadpoolctl's controllers."""

    def __init__(self, num_threads=2):
        self.num_threads = num_threads
        self.log = []

    def set_num_threads(self, n):
        self.log.append(n)
        self.num_threads = n


def use_fake_blas(monkeypatch):
    """A ``FakeBlas`` as the only BLAS, on an idle machine, with the default setting; returned."""
    fake = FakeBlas()
    monkeypatch.setattr(threads, "_blas_controllers", lambda: (fake,))
    monkeypatch.setattr(threads, "_cpu_ticks", lambda: None)   # the machine's idle time unknown: always re-measure
    monkeypatch.setattr(threads, "_crowded", lambda: False)    # no other process competes for the cores
    monkeypatch.setattr(threads, "_setting", [])
    monkeypatch.delenv("S2SGRAD_BLAS_THREADS", raising=False)
    return fake


class Clock:
    """A fake ``time`` module for s2sgrad.threads: steps advance it by what they "take"."""

    def __init__(self):
        self.now = 100.0

    def perf_counter(self):
        return self.now


class TickingClock(Clock):
    """A clock that advances 1 ms each time it is read: every step looks long, both counts alike."""

    def perf_counter(self):
        self.now += 0.001
        return self.now


def use_clock(monkeypatch, clock):
    """``clock`` as s2sgrad.threads' time; returned."""
    monkeypatch.setattr(threads, "time", clock)
    return clock
