"""Summaries and monitored sessions: what they add to a training step.

    python benchmarks/summaries.py

- summary ops: the run time of one merged summary (scalar, histogram of a 784x256 weight matrix,
  8 images of 28x28) against the training step it rides on (the MLP of workloads.py's size);
- MonitoredTrainingSession: a step with its default hooks (StepCounterHook, SummarySaverHook,
  CheckpointSaverHook every 600 s, plus StopAtStepHook) against a plain Session.run of the same step;
- FileWriter.add_summary: events per second (each is framed with two CRC-32Cs and written).

Times are medians of rounds of 200 steps.
"""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import s2sgrad as tf

BATCH, IN, HIDDEN, OUT, STEPS = 64, 784, 256, 10, 200


def _model():
    rng = np.random.default_rng(0)
    x = tf.placeholder(tf.float32, [None, IN], name="x")
    y = tf.placeholder(tf.int64, [None], name="y")
    w1 = tf.Variable(rng.standard_normal((IN, HIDDEN)).astype(np.float32) * 0.05, name="w1")
    w2 = tf.Variable(rng.standard_normal((HIDDEN, OUT)).astype(np.float32) * 0.05, name="w2")
    logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    step = tf.train.get_or_create_global_step()
    train = tf.train.GradientDescentOptimizer(0.01).minimize(loss, global_step=step)
    summary = tf.summary.merge([tf.summary.scalar("loss", loss), tf.summary.histogram("w1", w1),
                                tf.summary.image("inputs", tf.reshape(x[:8], [8, 28, 28, 1]), max_outputs=8)])
    feed = {x: rng.standard_normal((BATCH, IN)).astype(np.float32), y: rng.integers(0, OUT, BATCH)}
    return train, loss, summary, feed


def _per_step(fn, rounds: int = 5) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(STEPS):
            fn()
        times.append((time.perf_counter() - start) / STEPS)
    return statistics.median(times)


def main() -> None:
    with tf.Graph().as_default():
        train, loss, summary, feed = _model()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            plain = _per_step(lambda: sess.run(train, feed))
            with_summary = _per_step(lambda: sess.run([train, summary], feed))
            summary_only = _per_step(lambda: sess.run(summary, feed))
            serialized = sess.run(summary, feed)
    print(f"training step (Session.run):              {plain * 1e3:8.3f} ms")
    print(f"training step + merged summary:           {with_summary * 1e3:8.3f} ms")
    print(f"merged summary alone ({len(serialized)} bytes):     {summary_only * 1e3:8.3f} ms")

    with tf.Graph().as_default(), tempfile.TemporaryDirectory() as logdir:
        train, loss, summary, feed = _model()
        hooks = [tf.train.StopAtStepHook(last_step=10 ** 9)]
        with tf.train.MonitoredTrainingSession(checkpoint_dir=logdir, hooks=hooks, save_summaries_steps=None,
                                               log_step_count_steps=None) as sess:
            monitored_bare = _per_step(lambda: sess.run(train, feed))
        tf.summary.FileWriterCache.clear()
    with tf.Graph().as_default(), tempfile.TemporaryDirectory() as logdir:
        train, loss, summary, feed = _model()
        with tf.train.MonitoredTrainingSession(checkpoint_dir=logdir, hooks=hooks) as sess:
            monitored = _per_step(lambda: sess.run(train, feed))
        tf.summary.FileWriterCache.clear()
    print(f"MonitoredTrainingSession, StopAtStepHook + checkpoint hook:  {monitored_bare * 1e3:8.3f} ms")
    print(f"MonitoredTrainingSession, defaults (+ step counter, summaries every 100): {monitored * 1e3:8.3f} ms")

    with tempfile.TemporaryDirectory() as logdir:
        writer = tf.summary.FileWriter(logdir, max_queue=100)
        write = _per_step(lambda: writer.add_summary(serialized, 1))
        writer.close()
    print(f"FileWriter.add_summary of that summary:   {write * 1e3:8.3f} ms ({1 / write:,.0f} events/s)")


if __name__ == "__main__":
    main()
