"""MonitoredSession, SingularMonitoredSession and MonitoredTrainingSession: hook protocol, stopping,
the end of the data, checkpoints restored on start (a stopped and restarted run computes the same
losses as an uninterrupted one), Scaffold."""
import os

import numpy as np
import pytest

import s2sgrad as tf
from event_decoder import events

RNG = np.random.default_rng(15)
X = RNG.standard_normal((12, 8, 3)).astype(np.float32)
Y = RNG.standard_normal((12, 8)).astype(np.float32)


def _model():
    """A linear regression trained by Adam (slots, beta powers and the global step all checkpointed)."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.placeholder(tf.float32, [None], name="y")
    w = tf.Variable(tf.constant([0.5, -0.25, 1.0]), name="w")
    b = tf.Variable(0.0, name="b")
    loss = tf.reduce_mean(tf.square(tf.reduce_sum(x * w, 1) + b - y), name="loss")
    tf.summary.scalar("loss", loss)
    step = tf.train.get_or_create_global_step()
    train = tf.train.AdamOptimizer(0.05).minimize(loss, global_step=step)
    return x, y, loss, train, step, w


class Recorder(tf.train.SessionRunHook):
    """Records every call, and fetches/feeds what it is given."""

    def __init__(self, calls, fetches=None, feeds=None, stop_after=None):
        self.calls, self.fetches, self.feeds, self.stop_after = calls, fetches, feeds, stop_after
        self.results = []

    def begin(self):
        self.calls.append("begin")

    def after_create_session(self, session, coord):
        self.calls.append("after_create_session")
        assert isinstance(coord, tf.train.Coordinator)

    def before_run(self, run_context):
        self.calls.append("before_run")
        if self.fetches is None and self.feeds is None:
            return None
        return tf.train.SessionRunArgs(self.fetches, self.feeds)

    def after_run(self, run_context, run_values):
        self.calls.append("after_run")
        self.results.append(run_values.results)
        if self.stop_after is not None and len(self.results) >= self.stop_after:
            run_context.request_stop()

    def end(self, session):
        self.calls.append("end")


def _train(checkpoint_dir, last_step, first_batch=0, **kwargs):
    graph = tf.Graph()
    with graph.as_default():
        x, y, loss, train, step, w = _model()
        losses = []
        hooks = [tf.train.StopAtStepHook(last_step=last_step)]
        with tf.train.MonitoredTrainingSession(checkpoint_dir=checkpoint_dir, hooks=hooks, **kwargs) as sess:
            while not sess.should_stop():
                i = first_batch + len(losses)
                losses.append(sess.run([loss, train], {x: X[i], y: Y[i]})[0])
    return losses


def test_a_stopped_run_restarts_from_its_checkpoint_and_computes_the_same_losses(tmp_path):
    whole = _train(str(tmp_path / "whole"), last_step=10)
    first = _train(str(tmp_path / "parts"), last_step=6)
    second = _train(str(tmp_path / "parts"), last_step=10, first_batch=6)
    assert len(whole) == 10 and len(first) == 6 and len(second) == 4
    assert first + second == whole          # bit for bit: Adam's slots and step restored too
    assert tf.train.latest_checkpoint(str(tmp_path / "parts")).endswith("model.ckpt-10")
    reader = tf.train.load_checkpoint(str(tmp_path / "parts"))
    assert reader.get_tensor("global_step") == 10
    assert reader.has_tensor("w/Adam") and reader.has_tensor("beta1_power")


def test_checkpoints_are_written_at_start_every_n_steps_and_at_the_end(tmp_path):
    _train(str(tmp_path), last_step=7, save_checkpoint_steps=3)
    saved = sorted(int(n.split("-")[1].split(".")[0]) for n in os.listdir(tmp_path) if n.endswith(".index"))
    assert saved == [0, 3, 6, 7]
    logs = [e for e in events(str(tmp_path)) if "session_log" in e]
    checkpoints = [(e["step"], os.path.basename(e["session_log"]["checkpoint_path"])) for e in logs
                   if e["session_log"]["status"] == 3]
    assert checkpoints == [(0, "model.ckpt-0"), (3, "model.ckpt-3"), (6, "model.ckpt-6"), (7, "model.ckpt-7")]
    assert [e["step"] for e in logs if e["session_log"]["status"] == 1] == [1]   # START, from SummarySaverHook


def test_summaries_are_written_every_n_steps_at_the_global_step(tmp_path):
    losses = _train(str(tmp_path), last_step=7, save_summaries_steps=3, log_step_count_steps=None)
    written = [(e["step"], e["summary"][0]["simple_value"]) for e in events(str(tmp_path)) if "summary" in e]
    # the summary of a step's run is the loss before its update, recorded at the step after it
    assert written == [(1, losses[0]), (4, losses[3]), (7, losses[6])]
    assert any("graph_def" in e for e in events(str(tmp_path)))


def test_defaults_checkpoint_at_start_and_end_and_summarize_every_100_steps(tmp_path):
    _train(str(tmp_path), last_step=3)
    assert sorted(n for n in os.listdir(tmp_path) if n.endswith(".index")) == ["model.ckpt-0.index",
                                                                              "model.ckpt-3.index"]
    assert [e["step"] for e in events(str(tmp_path)) if "summary" in e] == [1]


def test_without_a_checkpoint_dir_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert len(_train(None, last_step=4)) == 4
    assert os.listdir(tmp_path) == []


def test_a_worker_saves_nothing_and_runs_no_chief_only_hook(tmp_path):
    calls = []
    graph = tf.Graph()
    with graph.as_default():
        x, y, loss, train, step, w = _model()
        with tf.train.MonitoredTrainingSession(is_chief=False, checkpoint_dir=str(tmp_path),
                                               chief_only_hooks=[Recorder(calls)],
                                               hooks=[tf.train.StopAtStepHook(num_steps=2)]) as sess:
            while not sess.should_stop():
                sess.run(train, {x: X[0], y: Y[0]})
    assert calls == [] and os.listdir(tmp_path) == []


def test_hooks_are_called_in_order_with_their_fetches_and_feeds():
    calls = []
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, [], name="a")
        c = tf.placeholder(tf.float32, [], name="c")
        v = tf.Variable(1.0, name="v")
        total = a + v
        scaled = a * 10
        fetching = Recorder(calls, fetches={"total": total, "double": 2 * c})
        feeding = Recorder([], feeds={c: 5.0})
        with tf.train.MonitoredSession(hooks=[fetching, feeding]) as sess:
            assert sess.run(scaled, {a: 1.5}) == 15.0
            assert sess.run(scaled, {a: 2.0}) == 20.0
            assert not sess.should_stop()
    assert calls == ["begin", "after_create_session", "before_run", "after_run", "before_run", "after_run", "end"]
    assert fetching.results == [{"total": 2.5, "double": 10.0}, {"total": 3.0, "double": 10.0}]


def test_a_hook_requesting_stop_stops_the_loop():
    with tf.Graph().as_default():
        v = tf.Variable(0.0)
        inc = tf.assign_add(v, 1.0)
        with tf.train.SingularMonitoredSession(hooks=[Recorder([], fetches=v, stop_after=3)]) as sess:
            runs = 0
            while not sess.should_stop():
                sess.run(inc)
                runs += 1
            assert runs == 3 and sess.raw_session().run(v) == 3.0
        assert sess.should_stop()
        with pytest.raises(RuntimeError, match="closed"):
            sess.run(inc)


def test_a_tensor_fed_by_a_hook_and_the_caller_is_refused():
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, [], name="a")
        with tf.train.MonitoredSession(hooks=[Recorder([], feeds={a: 1.0})]) as sess:
            with pytest.raises(RuntimeError, match="Same tensor is fed by a SessionRunHook .* and user: a:0"):
                sess.run(a, {a: 2.0})
        with tf.train.MonitoredSession(hooks=[Recorder([], feeds={a: 1.0}), Recorder([], feeds={a: 3.0})]) as sess:
            with pytest.raises(RuntimeError, match="and another SessionRunHook"):
                sess.run(a)


@pytest.mark.parametrize("end", [tf.errors.OutOfRangeError(None, None, "End of sequence"), StopIteration()])
def test_the_end_of_the_data_ends_the_with_block_cleanly_and_the_hooks_end(tmp_path, end):
    calls = []
    batches = iter(range(3))

    def feed():
        try:
            i = next(batches)
        except StopIteration:
            raise end from None
        return {x: X[i], y: Y[i]}

    with tf.Graph().as_default():
        x, y, loss, train, step, w = _model()
        hooks = [tf.train.FeedFnHook(feed), Recorder(calls)]
        with tf.train.MonitoredTrainingSession(checkpoint_dir=str(tmp_path), hooks=hooks) as sess:
            while not sess.should_stop():
                sess.run(train)
        assert calls[-1] == "end" and calls.count("after_run") == 3
    assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-3")   # saved by end()


def test_another_error_propagates_and_skips_the_hooks_end():
    calls = []
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, [], name="a")
        with pytest.raises(ValueError, match="boom"):
            with tf.train.MonitoredSession(hooks=[Recorder(calls)]) as sess:
                sess.run(a, {a: 1.0})
                raise ValueError("boom")
    assert "end" not in calls


def test_run_step_fn_gets_the_raw_session_and_can_stop():
    with tf.Graph().as_default():
        v = tf.Variable(2.0)
        with tf.train.MonitoredSession() as sess:
            def step_fn(context):
                context.request_stop()
                return context.session.run(v) + context.run_with_hooks(v)
            assert sess.run_step_fn(step_fn) == 4.0
            assert sess.should_stop()


def test_scaffold_init_fn_and_given_ops(tmp_path):
    seen = []
    with tf.Graph().as_default():
        v = tf.Variable(1.0, name="v")
        set_v = tf.assign(v, 7.0)
        scaffold = tf.train.Scaffold(init_fn=lambda scaffold, sess: seen.append(sess.run(set_v)))
        with tf.train.SingularMonitoredSession(scaffold=scaffold) as sess:
            assert sess.run(v) == 7.0
        assert seen == [7.0] and scaffold.saver is not None and scaffold.init_op is not None
        assert tf.get_default_graph().finalized


def test_a_restored_session_skips_the_init_op(tmp_path):
    with tf.Graph().as_default():
        v = tf.Variable(1.0, name="v")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(tf.assign(v, 4.0))
            tf.train.Saver().save(sess, str(tmp_path / "model.ckpt"))
    with tf.Graph().as_default():
        v = tf.Variable(1.0, name="v")
        with tf.train.SingularMonitoredSession(checkpoint_dir=str(tmp_path)) as sess:
            assert sess.run(v) == 4.0


def test_scaffold_refuses_two_candidates_and_bad_arguments():
    with tf.Graph().as_default():
        tf.add_to_collection(tf.GraphKeys.INIT_OP, tf.no_op())
        tf.add_to_collection(tf.GraphKeys.INIT_OP, tf.no_op())
        with pytest.raises(RuntimeError, match="More than one item in collection init_op"):
            tf.train.Scaffold().finalize()
    with pytest.raises(TypeError, match="init_fn"):
        tf.train.Scaffold(init_fn=3)
    with pytest.raises(TypeError, match="copy_from_scaffold"):
        tf.train.Scaffold(copy_from_scaffold=object())
    with pytest.raises(TypeError, match="SessionRunHook"):
        tf.train.MonitoredSession(hooks=[object()])


def test_the_coordinator_reports_the_first_error():
    coord = tf.train.Coordinator()
    assert not coord.should_stop()
    with coord.stop_on_exception():
        raise KeyError("first")
    coord.request_stop(ValueError("second"))
    assert coord.should_stop()
    with pytest.raises(KeyError, match="first"):
        coord.join()
    coord.clear_stop()
    coord.request_stop(tf.errors.OutOfRangeError(None, None, "done"))   # a clean stop
    coord.join()
    assert coord.joined
