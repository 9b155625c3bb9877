"""tf.data transformations: every element sequence against hand-computed expectations."""
import numpy as np
import pytest

import s2sgrad as tf
from s2sgrad.data import Dataset


def elements(ds, sess=None):
    """Every element of ``ds`` through a one-shot iterator, until OutOfRangeError."""
    nxt = tf.data.make_one_shot_iterator(ds).get_next()
    out = []
    with tf.Session() as s:
        while True:
            try:
                out.append(s.run(nxt))
            except tf.errors.OutOfRangeError:
                return out


def fill(n):
    """``[n] * n`` as a tensor (int64 n)."""
    return tf.fill(tf.reshape(tf.cast(n, tf.int32), [1]), n)


def ints(values):
    return [int(v) for v in values]


def test_range_forms():
    assert ints(elements(Dataset.range(4))) == [0, 1, 2, 3]
    assert ints(elements(Dataset.range(2, 5))) == [2, 3, 4]
    assert ints(elements(Dataset.range(10, 0, -3))) == [10, 7, 4, 1]
    assert Dataset.range(3).output_types is tf.int64
    assert Dataset.range(3).output_shapes.as_list() == []


def test_from_tensor_slices_tuple_and_dict():
    x = np.arange(6.0).reshape(3, 2)
    got = elements(Dataset.from_tensor_slices((x, np.array([7, 8, 9]))))
    assert len(got) == 3
    for i, (row, label) in enumerate(got):
        np.testing.assert_array_equal(row, x[i])
        assert label == 7 + i
    got = elements(Dataset.from_tensor_slices({"b": np.array([1, 2]), "a": np.array([[1.0], [2.0]])}))
    assert [sorted(g) for g in got] == [["a", "b"], ["a", "b"]]
    assert got[1]["b"] == 2 and got[1]["a"].tolist() == [2.0]
    ds = Dataset.from_tensor_slices({"b": np.array([1, 2]), "a": np.array([[1.0], [2.0]])})
    assert ds.output_types == {"a": tf.float64, "b": tf.int64}
    assert ds.output_shapes["a"].as_list() == [1]
    assert tf.data.get_output_classes(ds) == {"a": tf.Tensor, "b": tf.Tensor}


def test_from_tensor_slices_list_is_one_component():
    got = elements(Dataset.from_tensor_slices([[1, 2], [3, 4]]))
    assert [g.tolist() for g in got] == [[1, 2], [3, 4]]


def test_from_tensor_slices_refuses_mismatched_or_scalar():
    with pytest.raises(ValueError, match="first dimension"):
        Dataset.from_tensor_slices((np.zeros(3), np.zeros(4)))
    with pytest.raises(ValueError, match="rank 1"):
        Dataset.from_tensor_slices(np.float32(1.0))


def test_from_tensors_is_one_element():
    got = elements(Dataset.from_tensors((np.arange(3), 5)))
    assert len(got) == 1 and got[0][0].tolist() == [0, 1, 2] and got[0][1] == 5


def test_zip_stops_at_the_shortest_and_nests():
    a, b = Dataset.range(5), Dataset.range(10, 13)
    assert [tuple(ints(g)) for g in elements(Dataset.zip((a, b)))] == [(0, 10), (1, 11), (2, 12)]
    got = elements(Dataset.zip({"x": a, "y": (b, a)}))
    assert [(int(g["x"]), int(g["y"][0]), int(g["y"][1])) for g in got] == [(0, 10, 0), (1, 11, 1), (2, 12, 2)]


def test_concatenate():
    assert ints(elements(Dataset.range(3).concatenate(Dataset.range(10, 12)))) == [0, 1, 2, 10, 11]
    with pytest.raises(TypeError, match="different"):
        Dataset.range(3).concatenate(Dataset.from_tensor_slices(np.zeros(2)))
    ds = Dataset.from_tensors(np.zeros((2, 3))).concatenate(Dataset.from_tensors(np.zeros((4, 3))))
    assert ds.output_shapes.as_list() == [None, 3]


def test_from_generator():
    def gen():
        for i in range(3):
            yield i, [float(i)] * i

    ds = Dataset.from_generator(gen, (tf.int32, tf.float32), (tf.TensorShape([]), tf.TensorShape([None])))
    got = elements(ds)
    assert [int(a) for a, _ in got] == [0, 1, 2]
    assert [b.tolist() for _, b in got] == [[], [1.0], [2.0, 2.0]]
    assert got[2][1].dtype == np.float32
    bad = Dataset.from_generator(lambda: iter([[1, 2]]), tf.int32, tf.TensorShape([3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="shape"):
        elements(bad)


def test_map_filter_and_structures():
    ds = Dataset.range(6).map(lambda i: (i, i * i)).filter(lambda i, sq: tf.equal(i % 2, 0))
    assert [tuple(ints(g)) for g in elements(ds)] == [(0, 0), (2, 4), (4, 16)]
    ds = Dataset.range(3).map(lambda i: {"v": tf.cast(i, tf.float32) / 2.0}, num_parallel_calls=4)
    assert [g["v"] for g in elements(ds)] == [0.0, 0.5, 1.0]
    with pytest.raises(ValueError, match="scalar bool"):
        Dataset.range(3).filter(lambda i: i)


def test_map_before_batch_runs_in_the_pipeline():
    ds = Dataset.range(5).map(lambda i: i * 10).batch(2)
    assert [g.tolist() for g in elements(ds)] == [[0, 10], [20, 30], [40]]


def test_flat_map():
    ds = Dataset.range(1, 4).flat_map(lambda n: Dataset.range(n).map(lambda k: k + 10 * n))
    assert ints(elements(ds)) == [10, 20, 21, 30, 31, 32]
    ds = Dataset.from_tensor_slices(np.array([[1, 2], [3, 4]])).flat_map(Dataset.from_tensor_slices)
    assert ints(elements(ds)) == [1, 2, 3, 4]


def test_interleave_cycle_and_block():
    # TF's documented example: [1..5] each repeated 6 times, cycle 2, block 4
    ds = Dataset.range(1, 6).interleave(lambda x: Dataset.from_tensors(x).repeat(6), cycle_length=2, block_length=4)
    expected = [1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 4, 4, 5, 5, 5, 5, 5, 5]
    assert ints(elements(ds)) == expected
    # a short dataset's slot is refilled by the next input when the cycle comes back
    ds = Dataset.range(1, 4).interleave(lambda x: Dataset.range(x), cycle_length=2)
    assert ints(elements(ds)) == [0, 0, 1, 0, 1, 2]


def test_batch_and_drop_remainder():
    ds = Dataset.range(7).batch(3)
    assert [g.tolist() for g in elements(ds)] == [[0, 1, 2], [3, 4, 5], [6]]
    assert ds.output_shapes.as_list() == [None]
    ds = Dataset.range(7).batch(3, drop_remainder=True)
    assert [g.tolist() for g in elements(ds)] == [[0, 1, 2], [3, 4, 5]]
    assert ds.output_shapes.as_list() == [3]
    with pytest.raises(ValueError, match="batch_size"):
        Dataset.range(3).batch(0)


def test_batch_of_different_shapes_is_an_error():
    ds = Dataset.range(1, 3).flat_map(lambda n: Dataset.from_tensors(fill(n))).batch(2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="different shapes in component 0"):
        elements(ds)


def test_padded_batch():
    ds = Dataset.range(1, 5).map(fill).padded_batch(2, padded_shapes=[None])
    got = [g.tolist() for g in elements(ds)]
    assert got == [[[1, 0], [2, 2]], [[3, 3, 3, 0], [4, 4, 4, 4]]]
    ds = Dataset.range(1, 3).map(fill).padded_batch(2, padded_shapes=[4], padding_values=np.int64(-1))
    assert [g.tolist() for g in elements(ds)] == [[[1, -1, -1, -1], [2, 2, -1, -1]]]
    too_small = Dataset.range(3, 4).map(fill).padded_batch(1, padded_shapes=[2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="smaller size"):
        elements(too_small)


def test_unbatch_inverts_batch():
    ds = Dataset.range(5).batch(2).unbatch()
    assert ints(elements(ds)) == [0, 1, 2, 3, 4]
    assert ds.output_shapes.as_list() == []


def test_repeat_take_skip():
    assert ints(elements(Dataset.range(3).repeat(2))) == [0, 1, 2, 0, 1, 2]
    assert ints(elements(Dataset.range(3).repeat().take(7))) == [0, 1, 2, 0, 1, 2, 0]
    assert ints(elements(Dataset.range(5).skip(2))) == [2, 3, 4]
    assert ints(elements(Dataset.range(5).skip(-1))) == []
    assert ints(elements(Dataset.range(5).take(-1))) == [0, 1, 2, 3, 4]
    assert ints(elements(Dataset.range(5).take(0))) == []
    assert ints(elements(Dataset.range(0).repeat())) == []   # an empty input ends repeat()
    with pytest.raises(ValueError, match="take"):
        Dataset.range(3).take(-2)


def test_shard():
    assert ints(elements(Dataset.range(10).shard(3, 1))) == [1, 4, 7]
    with pytest.raises(ValueError, match="index"):
        Dataset.range(3).shard(2, 2)


def test_maps_move_past_order_only_transformations_into_the_graph():
    w = tf.Variable(3, dtype=tf.int64)
    ds = Dataset.range(6).map(lambda i: i * w).shuffle(2, seed=1).shard(2, 0).take(2).repeat(2).prefetch(1)
    it = ds.make_initializable_iterator()
    nxt = it.get_next()
    # the map is applied in the graph, on the IteratorGetNext tensor, after shuffle/shard/take/repeat
    assert nxt.op.type == "Mul" and {i.op.type for i in nxt.op.inputs} == {"IteratorGetNext", "VariableV2"}
    with tf.Session() as sess:
        sess.run([w.initializer, it.initializer])
        got = ints([sess.run(nxt) for _ in range(4)])
    assert all(v % 3 == 0 for v in got) and len(set(got[:2])) == 2


def test_enumerate_prefetch_apply():
    got = elements(Dataset.range(10, 13).enumerate(start=5).prefetch(2))
    assert [(int(i), int(v)) for i, v in got] == [(5, 10), (6, 11), (7, 12)]
    ds = Dataset.range(4).apply(lambda d: d.skip(1).take(2))
    assert ints(elements(ds)) == [1, 2]


def test_cache_replays_the_first_pass():
    calls = []

    def gen():
        calls.append(1)
        yield from range(3)

    ds = Dataset.from_generator(gen, tf.int64, tf.TensorShape([])).cache().repeat(3)
    assert ints(elements(ds)) == [0, 1, 2] * 3
    assert len(calls) == 1
    ds = Dataset.from_generator(gen, tf.int64, tf.TensorShape([])).repeat(2)
    calls.clear()
    assert ints(elements(ds)) == [0, 1, 2] * 2 and len(calls) == 2


def _shuffled(buffer_size, seed, n=10, epochs=1, reshuffle=True):
    return ints(elements(Dataset.range(n).shuffle(buffer_size, seed=seed, reshuffle_each_iteration=reshuffle)
                         .repeat(epochs)))


def test_shuffle_is_a_permutation_and_deterministic_with_a_seed():
    a = _shuffled(4, seed=7)
    assert sorted(a) == list(range(10))
    assert a == _shuffled(4, seed=7)        # same seed, same order, in another session
    assert a != list(range(10))
    assert len({tuple(_shuffled(10, seed=s)) for s in range(5)}) > 1


def test_shuffle_buffer_limits_how_far_elements_move():
    # with a buffer of b, output k is one of the first k + b inputs
    for seed in range(20):
        out = _shuffled(3, seed=seed, n=30)
        assert all(v < k + 3 for k, v in enumerate(out))
        assert sorted(out) == list(range(30))
    assert _shuffled(1, seed=3) == list(range(10))   # buffer 1: no shuffling


def test_shuffle_reshuffle_each_iteration():
    two = _shuffled(10, seed=1, epochs=2)
    assert sorted(two[:10]) == sorted(two[10:]) == list(range(10))
    assert two[:10] != two[10:]
    same = _shuffled(10, seed=1, epochs=2, reshuffle=False)
    assert same[:10] == same[10:]


def test_shuffle_uses_the_graph_seed():
    tf.set_random_seed(3)
    first = _shuffled(10, seed=None)
    tf.reset_default_graph()
    tf.set_random_seed(3)
    assert _shuffled(10, seed=None) == first


def test_strings_are_bytes_and_batch_to_object_arrays():
    ds = Dataset.from_tensor_slices(np.array([b"a", b"bc", b"d"], dtype=object)).batch(2)
    got = elements(ds)
    assert got[0].tolist() == [b"a", b"bc"] and got[1].tolist() == [b"d"]


def test_dataset_needs_graph_mode_iteration():
    with pytest.raises(RuntimeError, match="make_one_shot_iterator"):
        iter(Dataset.range(3))
