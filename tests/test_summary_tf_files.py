"""Summaries of the inputs TensorFlow summarized (tests/data/events/, see its README) are the same as
TensorFlow's: tags, steps, values, histogram buckets, image pixels, text; read with the tests' own
decoder and with TensorBoard's reader."""
import os

import numpy as np
import pytest

import s2sgrad as tf
from event_decoder import events

HERE = os.path.join(os.path.dirname(__file__), "data", "events")
INPUTS = dict(np.load(os.path.join(HERE, "inputs.npz")))


def _write_like_tensorflow(logdir):
    """The program of make_tf_events.py, in s2sgrad."""
    graph = tf.Graph()
    with graph.as_default():
        loss = tf.placeholder(tf.float32, [], name="loss_value")
        weights = tf.placeholder(tf.float32, [None, 40], name="weights")
        pos = tf.placeholder(tf.float32, [None, 3, 4, 3], name="pos")
        neg = tf.placeholder(tf.float32, [None, 3, 4, 1], name="neg")
        u8 = tf.placeholder(tf.uint8, [None, 2, 5, 4], name="u8")
        with tf.name_scope("train"):
            tf.summary.scalar("loss", loss)
        tf.summary.histogram("weights", weights)
        tf.summary.image("pos", pos, max_outputs=2)
        tf.summary.image("neg", neg, max_outputs=3)
        tf.summary.image("u8", u8)
        tf.summary.text("note", tf.constant(["hello", "world"]))
        merged = tf.summary.merge_all()
        with tf.Session() as sess:
            writer = tf.summary.FileWriter(logdir, sess.graph)
            for step in range(3):
                feed = {loss: INPUTS["loss"][step], weights: INPUTS["weights"][:step + 1], pos: INPUTS["pos_image"],
                        neg: INPUTS["neg_image"], u8: INPUTS["u8_image"]}
                writer.add_summary(sess.run(merged, feed), global_step=step * 10)
            writer.close()


def _summaries(logdir):
    return [(e["step"], e["summary"]) for e in events(logdir) if "summary" in e]


@pytest.fixture(scope="module")
def ours(tmp_path_factory):
    logdir = str(tmp_path_factory.mktemp("ours"))
    _write_like_tensorflow(logdir)
    return logdir


def test_the_event_files_hold_the_same_steps_tags_and_values(ours):
    theirs = _summaries(os.path.join(HERE, "tf_events"))
    mine = _summaries(ours)
    assert [s for s, _ in mine] == [s for s, _ in theirs] == [0, 10, 20]
    for (_, got), (_, want) in zip(mine, theirs, strict=True):
        assert [v["tag"] for v in got] == [v["tag"] for v in want]
        for g, w in zip(got, want, strict=True):
            assert g.keys() - {"plugin_name"} == w.keys() - {"plugin_name"}, g["tag"]
            if "simple_value" in w:
                assert g["simple_value"] == w["simple_value"]
            if "histo" in w:
                for key in ("min", "max", "num"):
                    assert g["histo"][key] == w["histo"][key], key
                for key in ("sum", "sum_squares"):   # TF adds in its own order
                    np.testing.assert_allclose(g["histo"][key], w["histo"][key], rtol=1e-12)
                np.testing.assert_array_equal(g["histo"]["bucket_limit"], w["histo"]["bucket_limit"])
                np.testing.assert_array_equal(g["histo"]["bucket"], w["histo"]["bucket"])
            if "image" in w:
                for key in ("height", "width", "colorspace"):
                    assert g["image"][key] == w["image"][key]
                np.testing.assert_array_equal(g["image"]["pixels"], w["image"]["pixels"], err_msg=g["tag"])
            if "tensor" in w:
                assert g["tensor"] == w["tensor"]


def test_the_file_starts_with_the_file_version_event(ours):
    first = events(ours)[0]
    assert first["file_version"] == "brain.Event:2" == events(os.path.join(HERE, "tf_events"))[0]["file_version"]
    assert first["wall_time"] == int(first["wall_time"])


def test_tensorboard_reads_both_files_alike(ours):
    accumulator = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")
    readers = []
    for logdir in (ours, os.path.join(HERE, "tf_events")):
        reader = accumulator.EventAccumulator(logdir, size_guidance={"images": 0, "histograms": 0, "scalars": 0})
        reader.Reload()
        readers.append(reader)
    mine, theirs = readers
    for kind in ("scalars", "histograms", "images"):
        assert sorted(mine.Tags()[kind]) == sorted(theirs.Tags()[kind]), kind
    assert mine.Tags()["graph"] and theirs.Tags()["graph"]
    for tag in theirs.Tags()["scalars"]:
        assert [(e.step, e.value) for e in mine.Scalars(tag)] == [(e.step, e.value) for e in theirs.Scalars(tag)]
    for tag in theirs.Tags()["histograms"]:
        for g, w in zip(mine.Histograms(tag), theirs.Histograms(tag), strict=True):
            assert g.step == w.step
            assert g.histogram_value.bucket_limit == w.histogram_value.bucket_limit
            assert g.histogram_value.bucket == w.histogram_value.bucket
    for tag in theirs.Tags()["images"]:
        assert [(e.step, e.width, e.height) for e in mine.Images(tag)] == \
            [(e.step, e.width, e.height) for e in theirs.Images(tag)]
    assert {n.name for n in mine.Graph().node} >= {"loss_value", "weights", "train/loss", "weights_1", "pos_1"}
