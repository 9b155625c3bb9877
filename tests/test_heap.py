"""s2sgrad.heap: under "keep" (the default) memory freed by a step stays with the process, so the next
step's large arrays do not page-fault in afresh; "off" leaves glibc's malloc as it is. Measured in
page faults (``ru_minflt``), which the machine's load does not move."""
import os
import platform
import subprocess
import sys
import textwrap

import pytest

import s2sgrad as tf
from s2sgrad import heap

glibc = pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
                           reason="the setting changes glibc's malloc only")

FAULTS = textwrap.dedent("""
    import resource, sys
    import numpy as np
    import s2sgrad as tf
    from s2sgrad import heap

    def faults_per_step():
        '''Page faults of a step that frees six 4 MiB arrays together (a training step's pattern).'''
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        for _ in range(20):
            arrays = [np.ones(1 << 20, np.float32) for _ in range(6)]
            del arrays
        return (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) // 20

    faults_per_step()   # glibc's thresholds adapt to the first free: what follows is the steady state
    print(faults_per_step())
    {make_step}
    print(faults_per_step())
    heap.set_heap("off")
    {make_step}
    print(faults_per_step())
""")
SESSION_STEP = "x = tf.placeholder(tf.float32, [3]); tf.Session().run(x * 2, {x: np.ones(3, np.float32)})"
DECORATED_STEP = "tf.grad(lambda v: np.sum(v * v))(np.ones(3))"


def faults(make_step, setting):
    code = FAULTS.format(make_step=make_step)
    env = dict(os.environ, S2SGRAD_HEAP=setting)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return [int(n) for n in out.stdout.split()]


@glibc
@pytest.mark.parametrize("make_step", [SESSION_STEP, DECORATED_STEP], ids=["session", "decorated"])
def test_the_first_step_keeps_freed_memory_and_off_gives_it_back(make_step):
    untouched, kept, given_back = faults(make_step, "keep")
    assert untouched > 1000   # glibc gives the freed 24 MiB back, so each step faults them in again
    assert kept * 10 < untouched
    assert given_back * 2 > untouched


@glibc
def test_off_never_touches_malloc():
    untouched, after_step, _ = faults(SESSION_STEP, "off")
    assert untouched > 1000 and after_step > 1000


def test_a_bad_setting_is_named(monkeypatch):
    monkeypatch.setattr(heap, "_setting", [])
    monkeypatch.setenv("S2SGRAD_HEAP", "sometimes")
    with pytest.raises(ValueError, match="S2SGRAD_HEAP must be 'keep' or 'off', got 'sometimes'"):
        heap.heap_setting()
    with pytest.raises(ValueError, match=r"set_heap\(value\) must be 'keep' or 'off', got 3"):
        heap.set_heap(3)


def test_the_setting_is_read_when_a_step_is_made(monkeypatch):
    calls = []
    monkeypatch.setattr(heap, "_setting", ["keep"])
    monkeypatch.setattr(heap, "_applied", [])
    monkeypatch.setattr(heap, "_mallopt", lambda: lambda *args: calls.append(args))
    x = tf.placeholder(tf.float32, [2])
    with tf.Session() as sess:
        sess.run(x + 1, {x: [1, 2]})
        sess.run(x + 2, {x: [1, 2]})
    assert calls == [(-3, heap.MMAP_THRESHOLD), (-1, heap.TRIM_THRESHOLD)]   # once, not per step
