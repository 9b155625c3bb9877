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
