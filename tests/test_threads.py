"""s2sgrad.threads: how many BLAS threads a session's steps use (the "auto" policy, a fixed count,
"off", ConfigProto's intra_op_parallelism_threads), with fake BLAS controllers whose thread count
decides how long a step takes, and once with the real threadpoolctl. Decorated functions:
test_decorator_threads.py."""
import os
import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest

import s2sgrad as tf
from blas_fakes import Clock, FakeBlas, use_clock, use_fake_blas
from s2sgrad import threads


@pytest.fixture
def blas(monkeypatch):
    return use_fake_blas(monkeypatch)


@pytest.fixture
def clock(monkeypatch):
    return use_clock(monkeypatch, Clock())


def stepper(fake, seconds_by_threads, clock):
    """A step that takes ``seconds_by_threads[current thread count]`` on ``clock`` and records that count."""
    seen = []

    def step(x):
        seen.append(fake.num_threads)
        clock.now += seconds_by_threads[fake.num_threads]
        return x + 1
    return step, seen


def run_auto(fake, seconds_by_threads, clock, calls=12):
    raw, seen = stepper(fake, seconds_by_threads, clock)
    installed = [threads.tuned_step(raw, lambda f: installed.append(f))]
    for _ in range(calls):
        assert installed[-1](1) == 2
    return installed, seen, raw


def test_auto_picks_one_thread_when_it_is_faster_and_restores_the_count(blas, clock):
    _, seen, _ = run_auto(blas, {2: 0.0015, 1: 0.001}, clock)
    assert seen[0] == 2                          # the first (warm-up) run is left alone
    assert seen[1:7].count(1) == 3 and seen[1:7].count(2) == 3   # measured alternately
    assert set(seen[7:]) == {1}                  # then the faster count
    assert blas.num_threads == 2                 # restored after every step


def test_auto_keeps_the_blas_default_when_it_is_faster(blas, clock):
    _, seen, _ = run_auto(blas, {2: 0.001, 1: 0.0015}, clock)
    assert set(seen[7:]) == {2}


def test_auto_decides_after_one_run_each_when_a_count_is_far_slower(blas, clock):
    _, seen, _ = run_auto(blas, {2: 0.3, 1: 0.1}, clock)
    assert sorted(seen[1:3]) == [1, 2] and set(seen[3:]) == {1}


def test_auto_hands_back_the_bare_step_when_it_is_short(blas, clock):
    installed, seen, raw = run_auto(blas, {2: 0.0, 1: 0.0}, clock)
    assert installed[-1] is raw and len(installed) == 2
    assert blas.num_threads == 2


def test_auto_re_measures_once_each_and_backs_off_while_the_choice_stands(blas, clock):
    durations = {2: 0.5, 1: 0.1}   # 0.1 s per step: 20 steps to the first recheck after 2 s
    step, seen, _ = run_auto(blas, durations, clock, calls=7)
    step = step[-1]
    seen.clear()
    while len(seen) < 40:
        step(1)
    assert seen.count(2) == 1          # one probe of the slow count at 2 s
    assert step.interval == 2 * threads.RECHECK
    for _ in range(600):
        step(1)
    assert step.interval == threads.MAX_RECHECK


def test_auto_follows_a_change_of_load(blas, clock):
    durations = {2: 0.5, 1: 0.1}
    installed, seen, _ = run_auto(blas, durations, clock, calls=7)
    step = installed[-1]
    durations.update({2: 0.01, 1: 0.1})   # the machine became quiet: the BLAS's own threads win now
    for _ in range(40):
        step(1)
    assert seen[-5:] == [2] * 5 and step.choice == 2


class Machine:
    """Fake ``/proc/stat`` ticks: the whole machine's idle and total CPU time, ``idle`` cores of 2 idle
    per tick of the clock."""

    def __init__(self, clock, idle):
        self.clock, self.idle = clock, idle

    def __call__(self):
        return int(self.clock.now * 100 * self.idle), int(self.clock.now * 100 * 2)


@pytest.mark.parametrize(("idle", "probes"), [(0.1, 0), (1.0, 1)])
def test_a_one_thread_step_re_measures_more_threads_only_when_a_core_was_idle(blas, clock, monkeypatch,
                                                                                idle, probes):
    monkeypatch.setattr(threads.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(threads, "_cpu_ticks", Machine(clock, idle))
    durations = {2: 0.5, 1: 0.1}
    installed, seen, _ = run_auto(blas, durations, clock, calls=7)
    step = installed[-1]
    assert step.choice == 1
    seen.clear()
    while len(seen) < 40:   # past the first re-measurement, 2 s on
        step(1)
    assert seen.count(2) == probes and step.interval == 2 * threads.RECHECK   # the choice stands either way


def test_a_crowded_machine_gets_one_thread_without_timing_more(blas, clock, monkeypatch):
    monkeypatch.setattr(threads, "_crowded", lambda: True)
    installed, seen, _ = run_auto(blas, {2: 0.001, 1: 0.0015}, clock)   # two threads would look faster
    step = installed[-1]
    assert seen[0] == 2 and set(seen[1:]) == {1}   # after the warm-up run, never the BLAS's own count
    assert step.choice == 1 and blas.num_threads == 2


def test_a_short_step_on_a_crowded_machine_is_handed_back_bare(blas, clock, monkeypatch):
    monkeypatch.setattr(threads, "_crowded", lambda: True)
    installed, seen, raw = run_auto(blas, {2: 0.0, 1: 0.0}, clock)
    assert installed[-1] is raw and blas.num_threads == 2


@pytest.mark.parametrize("crowded", [False, True])
def test_a_short_step_is_not_judged_long_by_its_first_one_thread_run(blas, clock, monkeypatch, crowded):
    def set_num_threads(n):   # the first switch to one thread waits for the others to park: 1 ms
        if n == 1 and 1 not in blas.log:
            clock.now += 0.001
        FakeBlas.set_num_threads(blas, n)
    monkeypatch.setattr(blas, "set_num_threads", set_num_threads)
    monkeypatch.setattr(threads, "_crowded", lambda: crowded)
    installed, seen, raw = run_auto(blas, {2: 1e-5, 1: 1e-5}, clock)
    assert installed[-1] is raw   # the fastest of three one-thread runs told it short


def test_a_machine_crowded_at_one_moment_is_still_measured(blas, clock, monkeypatch):
    samples = iter([True] + [False] * 100)
    monkeypatch.setattr(threads, "_crowded", lambda: next(samples))
    installed, seen, _ = run_auto(blas, {2: 0.001, 1: 0.0015}, clock)
    assert seen[1:7].count(2) == 3 and installed[-1].choice == 2


def test_crowded_sees_other_processes_running_on_every_other_core():
    if not os.path.exists("/proc/loadavg") or (os.cpu_count() or 1) < 2:
        pytest.skip("needs Linux's /proc/loadavg and two cores")
    spinners = [subprocess.Popen([sys.executable, "-c", "print(flush=True)\nwhile True: pass"],
                                 stdout=subprocess.PIPE) for _ in range(os.cpu_count() - 1)]
    try:
        for spinner in spinners:
            spinner.stdout.readline()   # started: spinning from now on
        samples = [threads._crowded() for _ in range(20)]
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    assert sum(samples) > 10


def test_the_machines_cpu_ticks_are_idle_within_total():
    ticks = threads._cpu_ticks()
    if ticks is not None:   # Linux
        idle, total = ticks
        assert 0 <= idle <= total


def test_auto_with_a_single_threaded_blas_does_nothing(blas, clock):
    blas.num_threads = 1
    installed, seen, raw = run_auto(blas, {1: 0.001}, clock, calls=3)
    assert installed[-1] is raw and blas.log == []


@pytest.mark.parametrize("value", ["1", 1, " 3 "])
def test_a_count_runs_every_step_with_it(blas, clock, monkeypatch, value):
    monkeypatch.setenv("S2SGRAD_BLAS_THREADS", str(value))
    raw, seen = stepper(blas, {1: 0, 2: 0, 3: 0}, clock)
    step = threads.tuned_step(raw, lambda f: None)
    assert [step(1) for _ in range(3)] == [2, 2, 2]
    assert seen == [int(value)] * 3 and blas.num_threads == 2


def test_off_never_touches_the_blas(blas, clock):
    threads.set_blas_threads("OFF")
    raw, _ = stepper(blas, {2: 0.001}, clock)
    assert threads.tuned_step(raw, lambda f: None) is raw


@pytest.mark.parametrize("value", ["many", 0, -2, True, None])
def test_bad_settings_are_refused_naming_the_setting(blas, monkeypatch, value):
    with pytest.raises(ValueError, match=r"set_blas_threads\(value\) must be 'auto', 'off' or a thread count"):
        threads.set_blas_threads(value)
    monkeypatch.setenv("S2SGRAD_BLAS_THREADS", "lots")
    with pytest.raises(ValueError, match="S2SGRAD_BLAS_THREADS must be .* got 'lots'"):
        threads.blas_threads_setting()


def test_without_threadpoolctl_auto_is_silent_and_a_count_warns(monkeypatch):
    monkeypatch.setattr(threads, "_blas_controllers", lambda: ())
    monkeypatch.setattr(threads, "_setting", ["auto"])
    step = lambda: None  # noqa: E731
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert threads.tuned_step(step, lambda f: None) is step
    threads.set_blas_threads(1)
    threads._warn_missing.cache_clear()
    with pytest.warns(UserWarning, match=r"pip install s2sgrad\[threads\]"):
        assert threads.tuned_step(step, lambda f: None) is step


def mlp_session(config=None):
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float64, [None, 64])
        w = tf.Variable(np.linspace(-1, 1, 64 * 64).reshape(64, 64))
        loss = tf.reduce_sum(tf.tanh(tf.matmul(x, w)))
        train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
        sess = tf.Session(graph=graph, config=config)
        sess.run(tf.global_variables_initializer())
    return sess, x, w, loss, train


def test_sessions_run_steps_through_the_policy(blas):
    threads.set_blas_threads(1)
    sess, x, w, loss, train = mlp_session()
    blas.log.clear()
    sess.run(train, {x: np.linspace(0, 1, 8 * 64).reshape(8, 64)})
    assert blas.log == [1, 2]                    # one thread for the step, the default after
    sess.close()


def test_intra_op_parallelism_threads_overrides_the_policy(blas, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "threadpoolctl", None)   # the session's own limit warns
    threads.set_blas_threads(1)
    with pytest.warns(UserWarning, match="intra_op_parallelism_threads=3"):
        sess, x, w, loss, train = mlp_session(tf.ConfigProto(intra_op_parallelism_threads=3))
    sess.run(train, {x: np.ones((8, 64))})
    assert blas.log == []
    sess.close()


def test_the_real_blas_gives_the_same_training_and_is_restored(monkeypatch):
    threadpoolctl = pytest.importorskip("threadpoolctl")
    monkeypatch.setattr(threads, "SHORT_STEP", 0.0)   # tune even this small step
    data = np.linspace(0, 1, 32 * 64).reshape(32, 64)
    results = {}
    for setting in ("off", "auto", 1):
        monkeypatch.setattr(threads, "_setting", [setting])
        before = [p["num_threads"] for p in threadpoolctl.threadpool_info()]
        sess, x, w, loss, train = mlp_session()
        for _ in range(10):
            sess.run(train, {x: data})
        results[setting] = sess.run(w)
        sess.close()
        assert [p["num_threads"] for p in threadpoolctl.threadpool_info()] == before
    np.testing.assert_allclose(results["auto"], results["off"], rtol=1e-12)
    np.testing.assert_allclose(results[1], results["off"], rtol=1e-12)


def test_auto_is_safe_when_threads_run_the_same_step(blas, monkeypatch):
    monkeypatch.setattr(threads, "SHORT_STEP", 0.0)   # keep measuring: the racy part
    monkeypatch.setattr(threads, "RECHECK", 0.0)
    sess, x, w, loss, train = mlp_session()
    data = np.linspace(0, 1, 8 * 64).reshape(8, 64)
    errors = []

    def worker():
        try:
            for _ in range(30):
                sess.run(loss, {x: data})
        except Exception as e:   # any error fails the test below
            errors.append(e)
    workers = [threading.Thread(target=worker) for _ in range(4)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    assert errors == []
    sess.close()

