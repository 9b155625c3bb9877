"""Each tf.train hook's behaviour, in a MonitoredSession over a counter model."""
import logging
import os

import numpy as np
import pytest

import s2sgrad as tf
from event_decoder import events


def _counter():
    """A global step incremented by each run of ``train`` and a value that doubles."""
    step = tf.train.get_or_create_global_step()
    value = tf.Variable(1.0, name="value")
    train = tf.group(tf.assign_add(step, 1), tf.assign(value, value * 2.0))
    return step, value, train


def _run_until_stopped(hooks, train, limit=50, **kwargs):
    runs = 0
    with tf.train.SingularMonitoredSession(hooks=hooks, **kwargs) as sess:
        while not sess.should_stop() and runs < limit:
            sess.run(train)
            runs += 1
    return runs


def test_stop_at_step_hook_counts_from_the_step_at_start_or_stops_at_last_step(tmp_path):
    with tf.Graph().as_default():
        step, _, train = _counter()
        assert _run_until_stopped([tf.train.StopAtStepHook(num_steps=4)], train) == 4
    with tf.Graph().as_default():
        step, _, train = _counter()
        assert _run_until_stopped([tf.train.StopAtStepHook(last_step=3)], train) == 3


def test_stop_at_step_hook_arguments_and_the_missing_global_step():
    with pytest.raises(ValueError, match="One of num_steps or last_step must be specified"):
        tf.train.StopAtStepHook()
    with pytest.raises(ValueError, match="Only one of num_steps or last_step"):
        tf.train.StopAtStepHook(num_steps=1, last_step=2)
    with pytest.raises(ValueError, match="num_steps must be a non-negative int"):
        tf.train.StopAtStepHook(num_steps=-1)
    with tf.Graph().as_default():
        tf.Variable(1.0)
        with pytest.raises(RuntimeError, match="Global step should be created to use StopAtStepHook"):
            tf.train.MonitoredSession(hooks=[tf.train.StopAtStepHook(num_steps=1)])


def test_logging_tensor_hook_logs_every_n_iter_sorted_by_tag_and_at_end(caplog):
    caplog.set_level(logging.INFO, logger="tensorflow")
    with tf.Graph().as_default():
        step, value, train = _counter()
        hook = tf.train.LoggingTensorHook({"v": value, "s": step}, every_n_iter=2, at_end=True)
        _run_until_stopped([hook, tf.train.StopAtStepHook(num_steps=5)], train)
    lines = [r.getMessage() for r in caplog.records if r.name == "tensorflow"]
    logged = [line.split(" (")[0] for line in lines if line.startswith("s = ")]
    # iterations 0, 2, 4 (values read before each run), then at the end
    assert logged == ["s = 0, v = 1.0", "s = 2, v = 4.0", "s = 4, v = 16.0", "s = 5, v = 32.0"]
    assert lines[1].endswith(" sec)")   # the seconds since the previous line


def test_logging_tensor_hook_with_a_list_of_names_and_a_formatter(caplog):
    caplog.set_level(logging.INFO, logger="tensorflow")
    with tf.Graph().as_default():
        step, value, train = _counter()
        hook = tf.train.LoggingTensorHook(["value:0"], every_n_iter=3,
                                          formatter=lambda values: f"value is {values['value:0']:.1f}")
        _run_until_stopped([hook, tf.train.StopAtStepHook(num_steps=4)], train)
    assert [r.getMessage() for r in caplog.records if r.getMessage().startswith("value is")] == \
        ["value is 1.0", "value is 8.0"]


def test_logging_tensor_hook_arguments():
    with pytest.raises(ValueError, match="either at_end and/or exactly one of every_n_iter and every_n_secs"):
        tf.train.LoggingTensorHook({"a": "a:0"})
    with pytest.raises(ValueError, match="invalid every_n_iter=0"):
        tf.train.LoggingTensorHook({"a": "a:0"}, every_n_iter=0)
    with pytest.raises(TypeError, match="formatter"):
        tf.train.LoggingTensorHook({"a": "a:0"}, every_n_iter=1, formatter="%s")


def test_nan_tensor_hook_raises_or_stops():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        loss = tf.sqrt(x)
        with tf.train.MonitoredSession(hooks=[tf.train.NanTensorHook(loss)]) as sess:
            sess.run(loss, {x: 4.0})
            with pytest.raises(tf.train.NanLossDuringTrainingError, match="NaN loss during training"):
                sess.run(loss, {x: -1.0})
        with tf.train.MonitoredSession(hooks=[tf.train.NanTensorHook(loss, fail_on_nan_loss=False)]) as sess:
            sess.run(loss, {x: -1.0})
            assert sess.should_stop()


def test_step_counter_hook_writes_steps_per_second(tmp_path):
    with tf.Graph().as_default():
        step, _, train = _counter()
        hook = tf.train.StepCounterHook(every_n_steps=2, output_dir=str(tmp_path))
        _run_until_stopped([hook, tf.train.StopAtStepHook(num_steps=7)], train)
    tf.summary.FileWriterCache.clear()
    rates = [(e["step"], v["tag"], v["simple_value"]) for e in events(str(tmp_path)) if "summary" in e
             for v in e["summary"]]
    assert [(s, tag) for s, tag, _ in rates] == [(3, "global_step/sec"), (5, "global_step/sec"),
                                                 (7, "global_step/sec")]
    assert all(rate > 0 for _, _, rate in rates)
    with pytest.raises(ValueError, match="exactly one of every_n_steps and every_n_secs"):
        tf.train.StepCounterHook(every_n_steps=None)


def test_final_ops_hook_and_feed_fn_hook():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        total = tf.Variable(0.0, name="total")
        add = tf.assign_add(total, x)
        feeds = iter([1.0, 2.0, 4.0])
        final = tf.train.FinalOpsHook({"total": total, "half": total / 2})
        with tf.train.MonitoredSession(hooks=[tf.train.FeedFnHook(lambda: {x: next(feeds)}), final]) as sess:
            for _ in range(3):
                sess.run(add)
        assert final.final_ops_values == {"total": 7.0, "half": 3.5}
    with pytest.raises(TypeError, match="feed_fn"):
        tf.train.FeedFnHook({})


class _Listener(tf.train.CheckpointSaverListener):
    def __init__(self, stop_at=None):
        self.calls, self.stop_at = [], stop_at

    def begin(self):
        self.calls.append("begin")

    def before_save(self, session, step):
        self.calls.append(("before_save", step))

    def after_save(self, session, step):
        self.calls.append(("after_save", step))
        return step == self.stop_at

    def end(self, session, step):
        self.calls.append(("end", step))


def test_checkpoint_saver_hook_tells_its_listeners_and_a_listener_can_stop(tmp_path):
    listener = _Listener(stop_at=4)
    with tf.Graph().as_default():
        step, value, train = _counter()
        hook = tf.train.CheckpointSaverHook(str(tmp_path), save_steps=2, listeners=[listener])
        assert _run_until_stopped([hook], train) == 4   # the saver: the one Scaffold.finalize put in `savers`
    assert listener.calls == ["begin", ("before_save", 0), ("after_save", 0), ("before_save", 2), ("after_save", 2),
                              ("before_save", 4), ("after_save", 4), ("end", 4)]
    reader = tf.train.load_checkpoint(str(tmp_path))
    assert reader.get_tensor("value") == 16.0 and reader.get_tensor("global_step") == 4


def test_checkpoint_saver_hook_with_save_secs_saves_at_start_and_end(tmp_path):
    with tf.Graph().as_default():
        step, _, train = _counter()
        hook = tf.train.CheckpointSaverHook(str(tmp_path), save_secs=3600, saver=tf.train.Saver())
        _run_until_stopped([hook, tf.train.StopAtStepHook(num_steps=3)], train)
    assert sorted(n for n in os.listdir(tmp_path) if n.endswith(".index")) == ["model.ckpt-0.index",
                                                                              "model.ckpt-3.index"]


def test_checkpoint_saver_hook_arguments():
    with pytest.raises(ValueError, match="exactly one of every_steps and every_secs"):
        tf.train.CheckpointSaverHook("/tmp/unused")
    with pytest.raises(ValueError, match="exactly one of every_steps and every_secs"):
        tf.train.CheckpointSaverHook("/tmp/unused", save_secs=1, save_steps=1)
    with pytest.raises(ValueError, match="both saver and scaffold"):
        tf.train.CheckpointSaverHook("/tmp/unused", save_steps=1, saver=object(), scaffold=object())


def test_summary_saver_hook_runs_its_summary_ops_every_n_steps(tmp_path):
    with tf.Graph().as_default():
        step, value, train = _counter()
        ops = [tf.summary.scalar("doubling", value), tf.summary.histogram("values", tf.stack([value, -value]))]
        hook = tf.train.SummarySaverHook(save_steps=3, output_dir=str(tmp_path), summary_op=ops)
        _run_until_stopped([hook, tf.train.StopAtStepHook(num_steps=7)], train)
    tf.summary.FileWriterCache.clear()
    found = events(str(tmp_path))
    scalars = [(e["step"], v["simple_value"]) for e in found if "summary" in e for v in e["summary"]
               if v["tag"] == "doubling"]
    assert scalars == [(1, 1.0), (4, 8.0), (7, 64.0)]   # the value read by the run, at the step it made
    histograms = [(e["step"], v["histo"]["num"], v["histo"]["max"]) for e in found if "summary" in e
                  for v in e["summary"] if v["tag"] == "values"]
    assert histograms == [(1, 2.0, 1.0), (4, 2.0, 8.0), (7, 2.0, 64.0)]
    assert [(e["step"], e["session_log"]["status"]) for e in found if "session_log" in e] == [(1, 1)]


def test_summary_saver_hook_arguments():
    with pytest.raises(ValueError, match="Exactly one of scaffold or summary_op"):
        tf.train.SummarySaverHook(save_steps=1, output_dir="/tmp/unused")
    with pytest.raises(ValueError, match="exactly one of every_steps and every_secs"):
        tf.train.SummarySaverHook(output_dir="/tmp/unused", summary_op=object())


def test_second_or_step_timer():
    timer = tf.train.SecondOrStepTimer(every_steps=3)
    assert timer.should_trigger_for_step(0)
    assert timer.update_last_triggered_step(0) == (None, None)
    assert [timer.should_trigger_for_step(s) for s in range(5)] == [False, False, False, True, True]
    seconds, steps = timer.update_last_triggered_step(4)
    assert steps == 4 and seconds >= 0 and timer.last_triggered_step() == 4
    by_time = tf.train.SecondOrStepTimer(every_secs=3600)
    by_time.update_last_triggered_step(0)
    assert not by_time.should_trigger_for_step(100)
    with pytest.raises(ValueError, match="every_steps must be a positive int"):
        tf.train.SecondOrStepTimer(every_steps=0)
    assert np.isfinite(seconds)
