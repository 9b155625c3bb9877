"""tf.data iterators in sessions: end of data, reinitialization, feedable handles, one element per
run, maps traced into the step's module and differentiated, failed runs changing no variable."""
import threading

import numpy as np
import pytest

import s2sgrad as tf
from s2sgrad.data import Dataset, Iterator


def drain(sess, fetch):
    out = []
    while True:
        try:
            out.append(sess.run(fetch))
        except tf.errors.OutOfRangeError:
            return out


def test_one_shot_ends_with_out_of_range_and_stays_ended():
    nxt = Dataset.range(3).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        assert [int(v) for v in drain(sess, nxt)] == [0, 1, 2]
        with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
            sess.run(nxt)
    with tf.Session() as sess:   # each session has its own position
        assert int(sess.run(nxt)) == 0


def test_one_fetch_per_run_shares_the_element_and_two_get_nexts_pull_two():
    it = Dataset.range(10).make_one_shot_iterator()
    a = it.get_next()
    b, c = a + 100, a * 2
    with tf.Session() as sess:
        assert [int(v) for v in sess.run([a, b, c])] == [0, 100, 0]
        assert [int(v) for v in sess.run([a, b, c])] == [1, 101, 2]
        d = it.get_next()
        x, y = sess.run([a, d])
        assert {int(x), int(y)} == {2, 3}


def test_initializable_iterator_fed_with_placeholders_and_reinitialized():
    data = tf.placeholder(tf.float32, [None, 2])
    labels = tf.placeholder(tf.int64, [None])
    it = tf.data.make_initializable_iterator(Dataset.from_tensor_slices((data, labels)).batch(2))
    x, y = it.get_next()
    assert x.shape.as_list() == [None, 2]
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="not been initialized"):
            sess.run(x)
        sess.run(it.initializer, {data: np.ones((3, 2)), labels: [1, 2, 3]})
        got = drain(sess, [x, y])
        assert [b[1].tolist() for b in got] == [[1, 2], [3]]
        assert got[0][0].dtype == np.float32
        sess.run(it.initializer, {data: np.zeros((1, 2)), labels: [9]})  # restart on other data
        assert [b[1].tolist() for b in drain(sess, [x, y])] == [[9]]
        with pytest.raises(tf.errors.InvalidArgumentError, match="must feed"):
            sess.run(it.initializer)


def test_from_structure_and_make_initializer_switch_datasets():
    train = Dataset.range(5).map(lambda i: i * 2)
    test = Dataset.range(100, 102)
    it = Iterator.from_structure(train.output_types, train.output_shapes)
    nxt = it.get_next()
    init_train, init_test = it.make_initializer(train), it.make_initializer(test)
    with tf.Session() as sess:
        sess.run(init_train)
        assert [int(v) for v in drain(sess, nxt)] == [0, 2, 4, 6, 8]
        sess.run(init_test)
        assert [int(v) for v in drain(sess, nxt)] == [100, 101]
    with pytest.raises(TypeError, match="output types"):
        it.make_initializer(Dataset.from_tensor_slices(np.zeros(3)))
    with pytest.raises(ValueError, match="initializer"):
        _ = it.initializer


def test_feedable_iterator_from_string_handle():
    handle = tf.placeholder(tf.string, [])
    train = Dataset.range(3).repeat().make_one_shot_iterator()
    valid = Dataset.range(50, 52).make_initializable_iterator()
    it = Iterator.from_string_handle(handle, train.output_types, train.output_shapes)
    nxt = it.get_next()
    with tf.Session() as sess:
        h_train, h_valid = sess.run([train.string_handle(), valid.string_handle()])
        assert isinstance(h_train, bytes) and h_train != h_valid
        assert [int(sess.run(nxt, {handle: h_train})) for _ in range(4)] == [0, 1, 2, 0]
        sess.run(valid.initializer)
        assert int(sess.run(nxt, {handle: h_valid})) == 50
        assert int(sess.run(nxt, {handle: h_train})) == 1     # the train iterator kept its place
        assert int(sess.run(nxt, {handle: h_valid})) == 51
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(nxt, {handle: h_valid})
        with pytest.raises(tf.errors.InvalidArgumentError, match="not the string handle"):
            sess.run(nxt, {handle: b"nonsense"})


def test_output_types_shapes_classes_of_iterators():
    ds = Dataset.from_tensor_slices({"a": np.zeros((4, 3), np.float32), "b": np.arange(4)}).batch(2, True)
    it = ds.make_one_shot_iterator()
    assert it.output_types == {"a": tf.float32, "b": tf.int64}
    assert it.output_shapes["a"].as_list() == [2, 3]
    assert tf.data.get_output_shapes(it)["b"].as_list() == [2]
    assert tf.data.get_output_types(ds) == it.output_types
    assert it.output_classes == {"a": tf.Tensor, "b": tf.Tensor}
    nxt = it.get_next()
    assert nxt["a"].shape.as_list() == [2, 3]


def test_trailing_map_is_in_the_step_module_and_differentiable():
    w = tf.Variable(np.array([1.0, -2.0]), name="w")
    x = np.array([[0.5, 1.0], [2.0, 3.0], [-1.0, 0.25]])
    ds = Dataset.from_tensor_slices(x).map(lambda row: tf.reduce_sum(tf.tanh(row * w)))
    nxt = ds.make_one_shot_iterator().get_next()
    g = tf.gradients(nxt, w)[0]
    assert g is not None
    with tf.Session() as sess:
        sess.run(w.initializer)
        src = sess.source([nxt, g])
        assert "np.tanh" in src and "IteratorGetNext" in src
        for row in x:
            value, grad = sess.run([nxt, g])
            wv = np.array([1.0, -2.0])
            np.testing.assert_allclose(value, np.sum(np.tanh(row * wv)))
            np.testing.assert_allclose(grad, row * (1 - np.tanh(row * wv) ** 2))
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(g)


def test_gradient_through_map_matches_finite_differences():
    w = tf.Variable(np.array([[0.3, -0.7], [1.1, 0.2]]), name="w")
    x = np.random.default_rng(0).normal(size=(4, 2))
    ds = Dataset.from_tensor_slices(x).batch(4).map(lambda b: tf.sigmoid(tf.matmul(b, w)))
    out = ds.repeat().make_one_shot_iterator().get_next()
    loss = tf.reduce_sum(out * out)
    g = tf.gradients(loss, w)[0]

    def f(wv):
        s = 1 / (1 + np.exp(-(x @ wv)))
        return np.sum(s * s)

    with tf.Session() as sess:
        sess.run(w.initializer)
        grad = sess.run(g)
        w0 = sess.run(w)
    eps = 1e-6
    numeric = np.zeros_like(w0)
    for idx in np.ndindex(*w0.shape):
        d = np.zeros_like(w0)
        d[idx] = eps
        numeric[idx] = (f(w0 + d) - f(w0 - d)) / (2 * eps)
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-8)


def test_map_inside_the_pipeline_reads_the_variables_current_value():
    w = tf.Variable(10, dtype=tf.int64)
    nxt = Dataset.range(4).map(lambda i: i + w).batch(2).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        sess.run(w.initializer)
        assert sess.run(nxt).tolist() == [10, 11]
        sess.run(w.assign(100))
        assert sess.run(nxt).tolist() == [102, 103]


def test_a_run_that_ends_the_data_changes_no_variable():
    w = tf.Variable(0.0, dtype=tf.float64)
    x = Dataset.from_tensor_slices(np.array([1.0, 2.0])).make_one_shot_iterator().get_next()
    step = tf.assign_add(w, x)
    counter = tf.Variable(0, dtype=tf.int32)
    both = [step, tf.assign_add(counter, 1)]
    with tf.Session() as sess:
        sess.run([w.initializer, counter.initializer])
        sess.run(both)
        sess.run(both)
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(both)
        assert sess.run(w) == 3.0 and sess.run(counter) == 2


def test_training_loop_until_out_of_range():
    rng = np.random.default_rng(1)
    xs = rng.normal(size=(64, 3))
    ys = xs @ np.array([1.0, -2.0, 0.5])
    x, y = Dataset.from_tensor_slices((xs, ys)).shuffle(64, seed=0).batch(16).repeat(30) \
        .make_one_shot_iterator().get_next()
    w = tf.Variable(np.zeros(3))
    loss = tf.reduce_mean(tf.square(tf.linalg.matvec(x, w) if hasattr(tf.linalg, "matvec") else
                                    tf.reduce_sum(x * w, axis=1) - y))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    steps = 0
    with tf.Session() as sess:
        sess.run(w.initializer)
        try:
            while True:
                sess.run(train)
                steps += 1
        except tf.errors.OutOfRangeError:
            pass
        np.testing.assert_allclose(sess.run(w), [1.0, -2.0, 0.5], atol=1e-3)
    assert steps == 4 * 30


def test_get_next_outside_a_session_run_is_a_clear_error():
    nxt = Dataset.range(3).make_one_shot_iterator().get_next()
    with pytest.raises(tf.errors.InvalidArgumentError, match="input pipeline"):
        tf.source(nxt)


def test_make_iterator_helpers_refuse_non_datasets():
    with pytest.raises(TypeError, match="Dataset"):
        tf.data.make_one_shot_iterator([1, 2])
    with pytest.raises(TypeError, match="Dataset"):
        tf.data.get_output_types(3)


def test_one_shot_iterators_refuse_placeholders_and_initializers_run_in_groups():
    data = tf.placeholder(tf.float32, [None])
    with pytest.raises(ValueError, match="Cannot capture a placeholder"):
        Dataset.from_tensor_slices(data).make_one_shot_iterator()
    it = Dataset.from_tensor_slices(data).make_initializable_iterator()
    v = tf.Variable(2.0)
    nxt = it.get_next() * v
    with tf.Session() as sess:
        sess.run(tf.group(tf.global_variables_initializer(), it.initializer), {data: [1.0, 2.0]})
        step = sess.make_callable(nxt)
        assert [step(), step()] == [2.0, 4.0]
        with pytest.raises(tf.errors.OutOfRangeError):
            step()


def test_threads_share_an_iterator_without_losing_or_repeating_elements():
    nxt = Dataset.range(400).make_one_shot_iterator().get_next()
    seen, errors = [], []
    with tf.Session() as sess:
        def worker():
            try:
                while True:
                    seen.append(int(sess.run(nxt)))
            except tf.errors.OutOfRangeError:
                pass
            except Exception as e:   # reported below
                errors.append(e)
        threads = [threading.Thread(target=worker) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not errors and sorted(seen) == list(range(400))
