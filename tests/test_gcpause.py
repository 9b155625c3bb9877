"""The garbage collector is paused inside s2sgrad's heavy phases and always restored."""
import gc
import threading

import pytest

import s2sgrad as tf
from s2sgrad.gcpause import gc_paused


def test_collector_is_restored_after_nested_and_failing_phases():
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError):
        with gc_paused():
            raise RuntimeError("boom")
    assert gc.isenabled()


def test_a_disabled_collector_stays_disabled():
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_concurrent_phases_leave_the_collector_enabled():
    def work():
        x = tf.placeholder(tf.float64, [3])
        y = tf.reduce_sum(tf.tanh(x) * 2.0)
        g = tf.gradients(y, x)[0]
        with tf.Session() as sess:
            sess.run(g, {x: [1.0, 2.0, 3.0]})
    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert gc.isenabled()


def test_gradients_that_raise_restore_the_collector():
    x = tf.placeholder(tf.float32, [2])
    with pytest.raises(ValueError):
        tf.gradients(x * 2.0, x, grad_ys=[1.0, 2.0, 3.0])
    assert gc.isenabled()


class _Node:
    """A cyclic object the collector must find."""

    def __init__(self) -> None:
        self.me = self


def test_objects_made_in_a_phase_go_to_the_oldest_generation_unscanned():
    with gc_paused():
        made = [_Node() for _ in range(2000)]
    assert gc.get_count()[0] < 100  # nothing left for a young collection to rescan
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert all(id(o) in oldest for o in made[:10])


def test_garbage_made_in_a_phase_is_still_collected():
    import weakref
    with gc_paused():
        node = _Node()
        ref = weakref.ref(node)
        del node
    assert ref() is not None  # a cycle: only the collector frees it
    gc.collect()
    assert ref() is None


def test_objects_the_program_froze_stay_frozen():
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen > 0
        with gc_paused():
            made = [_Node() for _ in range(100)]
        assert gc.get_freeze_count() == frozen
        assert gc.isenabled()
        del made
    finally:
        gc.unfreeze()
