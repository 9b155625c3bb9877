"""tf.summary ops: names and tags as TensorFlow gives them, collections, merge, the values they
compute (decoded by the tests' own reader), errors, and the generated code."""
import importlib.util

import numpy as np
import pytest

import s2sgrad as tf
from event_decoder import summary_values


def _values(summary):
    return summary_values(summary)


def test_the_tag_is_the_name_scope_and_the_op_takes_it():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        first = tf.summary.scalar("loss", x)
        second = tf.summary.scalar("loss", x)
        with tf.name_scope("train"):
            scoped = tf.summary.scalar("loss", x)
        family = tf.summary.scalar("acc", x, family="eval")
        odd = tf.summary.scalar("a b:c", x)
        with tf.Session() as sess:
            out = sess.run([first, second, scoped, family, odd], {x: 0.5})
    assert [first.op.name, second.op.name, scoped.op.name, family.op.name, odd.op.name] == \
        ["loss", "loss_1", "train/loss", "eval/acc", "a_b_c"]
    assert [_values(s)[0]["tag"] for s in out] == ["loss", "loss_1", "train/loss", "eval/eval/acc", "a_b_c"]
    assert first.dtype == tf.string and first.shape == [] and first.op.type == "ScalarSummary"


def test_summaries_join_the_summaries_collection_or_the_ones_given():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        a = tf.summary.scalar("a", x)
        b = tf.summary.histogram("b", x, collections=["mine"])
        c = tf.summary.scalar("c", x, collections=[])
        assert tf.get_collection(tf.GraphKeys.SUMMARIES) == [a]
        assert tf.get_collection("mine") == [b] and c not in tf.get_collection(tf.GraphKeys.SUMMARIES)
        merged = tf.summary.merge_all()
        mine = tf.summary.merge_all("mine")
        assert tf.summary.merge_all("empty") is None
        with tf.Session() as sess:
            got, got_mine = sess.run([merged, mine], {x: 2.0})
    assert [v["tag"] for v in _values(got)] == ["a"]
    assert [v["tag"] for v in _values(got_mine)] == ["b"]
    assert merged.op.name == "Merge/MergeSummary"


def test_merge_keeps_the_order_and_refuses_a_repeated_tag():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        a, b = tf.summary.scalar("a", x), tf.summary.scalar("b", x * 2)
        merged = tf.summary.merge([b, a, tf.summary.merge([a])])
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="Duplicate tag a found in summary inputs"):
                sess.run(merged, {x: 1.0})
            ok = sess.run(tf.summary.merge([b, a]), {x: 1.5})
    assert [(v["tag"], v["simple_value"]) for v in _values(ok)] == [("b", 3.0), ("a", 1.5)]


def test_scalar_values_of_every_real_dtype():
    with tf.Graph().as_default():
        values = {"f16": np.float16(0.25), "f64": np.float64(1e300), "i64": np.int64(-3), "u8": np.uint8(200)}
        ops = {k: tf.summary.scalar(k, tf.constant(v)) for k, v in values.items()}
        with tf.Session() as sess:
            got = sess.run(ops)
    assert {k: _values(v)[0]["simple_value"] for k, v in got.items()} == \
        {"f16": 0.25, "f64": float("inf"), "i64": -3.0, "u8": 200.0}


def test_histogram_statistics_and_buckets():
    data = np.array([[0.0, 1.0, 1.05], [-2.0, 1e-13, 5e3]])
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, [None, 3])
        h = tf.summary.histogram("h", x)
        with tf.Session() as sess:
            histo = _values(sess.run(h, {x: data}))[0]["histo"]
            empty = _values(sess.run(h, {x: np.zeros((0, 3))}))[0]["histo"]
    assert (histo["min"], histo["max"], histo["num"]) == (-2.0, 5e3, 6.0)
    np.testing.assert_allclose([histo["sum"], histo["sum_squares"]], [data.sum(), (data ** 2).sum()], rtol=1e-15)
    limits, counts = histo["bucket_limit"], histo["bucket"]
    assert counts.sum() == 6 and len(limits) == len(counts)
    # every value lies in its bucket [previous limit, limit); empty buckets only just before a full one
    for value in data.ravel():
        i = np.searchsorted(limits, value, side="right")
        assert counts[i] > 0 and (i == 0 or limits[i - 1] <= value < limits[i])
    assert np.all(counts[:-1][counts[:-1] == 0] == 0) and np.all((counts[:-1] > 0) | (counts[1:] > 0))
    assert limits[-1] == np.finfo(np.float64).max and 0.0 in limits   # 0 gets its own edge
    assert (empty["num"], list(empty["bucket"]), list(empty["bucket_limit"])) == (0.0, [0.0], [np.finfo(float).max])


def test_a_histogram_of_nan_fails_naming_the_op():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None])
        h = tf.summary.histogram("weights", x)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="Nan in summary histogram for: weights"):
                sess.run(h, {x: [1.0, np.inf]})


def test_float_images_are_scaled_per_image_as_tensorflow_does():
    positive = np.array([0.0, 0.5, 2.0, 1.0]).reshape(1, 2, 2, 1)
    negative = np.array([-1.0, 0.0, 0.5, np.nan]).reshape(1, 2, 2, 1)
    rgb = np.zeros((1, 1, 2, 3))
    rgb[0, 0, 1] = [np.inf, 0.2, 0.1]
    with tf.Graph().as_default():
        ops = [tf.summary.image(n, tf.constant(v)) for n, v in [("p", positive), ("n", negative), ("rgb", rgb)]]
        with tf.Session() as sess:
            p, n, c = (_values(s)[0] for s in sess.run(ops))
    assert p["tag"] == "p/image/0"   # max_outputs 3: numbered tags even for one image
    assert p["image"]["pixels"].ravel().tolist() == [0, 63, 255, 127]
    assert n["image"]["pixels"].ravel().tolist() == [1, 128, 191, 255]   # NaN: the bad colour (red, here grey)
    assert c["image"]["pixels"].reshape(2, 3).tolist() == [[0, 0, 0], [255, 0, 0]]
    assert (c["image"]["height"], c["image"]["width"], c["image"]["colorspace"]) == (1, 2, 3)


def test_max_outputs_limits_the_images_and_names_the_tags():
    images = np.random.default_rng(0).integers(0, 256, (5, 3, 2, 4)).astype(np.uint8)
    with tf.Graph().as_default():
        one = tf.summary.image("one", images, max_outputs=1)
        two = tf.summary.image("two", images, max_outputs=2)
        with tf.Session() as sess:
            got_one, got_two = (_values(s) for s in sess.run([one, two]))
    assert [v["tag"] for v in got_one] == ["one/image"]
    assert [v["tag"] for v in got_two] == ["two/image/0", "two/image/1"]
    np.testing.assert_array_equal(got_two[1]["image"]["pixels"], images[1])


def test_text_summary_holds_the_strings_for_the_text_plugin():
    with tf.Graph().as_default():
        s = tf.summary.text("note", tf.constant([["a", "b"], ["c", "d"]]))
        with tf.Session() as sess:
            value = _values(sess.run(s))[0]
    assert value["plugin_name"] == "text"
    assert value["tensor"] == {"dtype": 7, "shape": [2, 2], "string_val": [b"a", b"b", b"c", b"d"]}


def test_bad_summaries_are_refused_when_recorded():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="scalar summary 'loss' needs a single value"):
            tf.summary.scalar("loss", tf.ones([2]))
        with pytest.raises(TypeError, match="scalar summary 's' needs real numbers, got a string tensor"):
            tf.summary.scalar("s", tf.constant("x"))
        with pytest.raises(ValueError, match="1, 3 or 4 channels"):
            tf.summary.image("img", tf.ones([1, 2, 2, 2]))
        with pytest.raises(ValueError, match="batch, height, width, channels"):
            tf.summary.image("img", tf.ones([2, 2, 3]))
        with pytest.raises(TypeError, match="uint8 or float images, got a int32"):
            tf.summary.image("img", tf.ones([1, 2, 2, 3], tf.int32))
        with pytest.raises(ValueError, match="max_outputs must be a positive int"):
            tf.summary.image("img", tf.ones([1, 2, 2, 3]), max_outputs=0)
        with pytest.raises(TypeError, match="text summary 't' needs strings"):
            tf.summary.text("t", tf.ones([2]))
        with pytest.raises(TypeError, match="merge needs serialized summaries"):
            tf.summary.merge([tf.ones([])])
        with pytest.raises(ValueError, match="non-empty list"):
            tf.summary.merge([])
        with pytest.raises(TypeError, match="summary name must be a string"):
            tf.summary.scalar(3, 1.0)
        with pytest.raises(TypeError, match="collections must be a list"):
            tf.summary.scalar("a", 1.0, collections="summaries")
        with pytest.raises(TypeError, match="sample_rate must be a number"):
            tf.summary.audio("a", tf.ones([1, 4]), sample_rate=tf.placeholder(tf.float32))


def test_the_generated_code_reads_as_runtime_calls():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None], name="x")
        loss = tf.reduce_mean(x * x)
        loss_summary = tf.summary.scalar("loss", loss)
        weights_summary = tf.summary.histogram("weights", x)
        merged = tf.summary.merge([loss_summary, weights_summary])
        source = tf.Session().source(merged, {x: np.ones(3, np.float32)})
    assert "loss = np.mean(x * x)" in source
    assert "loss_summary = rt.scalar_summary('loss', loss)" in source
    assert "weights_summary = rt.histogram_summary('weights', x)" in source
    assert "merged = rt.merge_summary([loss_summary, weights_summary])" in source


def test_an_exported_summary_step_computes_the_same_bytes(tmp_path):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, 2, 2, 1], name="x")
        merged = tf.summary.merge([tf.summary.histogram("h", x), tf.summary.image("i", x), tf.summary.scalar(
            "s", tf.reduce_sum(x))])
        feed = {x: np.arange(8, dtype=np.float32).reshape(2, 2, 2, 1)}
        with tf.Session() as sess:
            expected = sess.run(merged, feed)
            path = str(tmp_path / "step.py")
            tf.export(merged, path, feed, session=sess)
    spec = importlib.util.spec_from_file_location("exported_summary_step", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert "def merge_summary(summaries):" in open(path).read()   # the helpers are copied in
    assert module.Step()(feed[x]) == expected
