"""``tf.Session`` semantics: fetch structures, feeds, errors, variable reads and commits, defaults."""
import collections

import numpy as np
import pytest

import s2sgrad as tf

Pair = collections.namedtuple("Pair", "first second")


@pytest.fixture
def sess():
    with tf.Session() as s:
        yield s


# -- fetches ----------------------------------------------------------------------------------------------

def test_nested_fetch_structures_are_preserved(sess):
    x = tf.constant([1.0, 2.0])
    y = x * 2.0
    v = tf.Variable(3.0)
    sess.run(v.initializer)
    got = sess.run({"list": [x, (y, [v])], "pair": Pair(y, {"op": v.initializer, "s": "mul:0"}), "t": (x,)})
    assert set(got) == {"list", "pair", "t"}
    assert isinstance(got["list"], list) and isinstance(got["list"][1], tuple)
    assert isinstance(got["pair"], Pair) and isinstance(got["t"], tuple)
    np.testing.assert_array_equal(got["list"][0], [1.0, 2.0])
    np.testing.assert_array_equal(got["list"][1][0], [2.0, 4.0])
    assert got["list"][1][1] == [3.0]
    assert got["pair"].second["op"] is None           # an Operation fetch gives None
    np.testing.assert_array_equal(got["pair"].second["s"], [2.0, 4.0])   # a name fetches the tensor


def test_single_fetches_and_empty_structures(sess):
    x = tf.constant(2.0)
    assert sess.run(x) == 2.0
    assert sess.run([]) == [] and sess.run(()) == () and sess.run({}) == {}
    assert sess.run(tf.no_op()) is None


def test_fetching_a_variable_gives_its_value(sess):
    v = tf.Variable([[1.0, 2.0]], name="v")
    sess.run(tf.global_variables_initializer())
    np.testing.assert_array_equal(sess.run(v), [[1.0, 2.0]])
    np.testing.assert_array_equal(sess.run("v:0"), [[1.0, 2.0]])


@pytest.mark.parametrize("nest", [lambda t: None, lambda t: [t, None], lambda t: {"a": (t, None)}])
def test_none_fetches_are_a_type_error(sess, nest):
    with pytest.raises(TypeError, match="Fetch argument None has invalid type"):
        sess.run(nest(tf.constant(1.0)))


def test_unknown_fetch_names_and_objects_are_refused(sess):
    tf.constant(1.0, name="c")
    with pytest.raises(ValueError, match="cannot be interpreted as a Tensor"):
        sess.run("missing:0")
    with pytest.raises(TypeError, match="has invalid type"):
        sess.run(3.5)


# -- feeds ------------------------------------------------------------------------------------------------

def test_feeds_keyed_by_placeholders_names_and_intermediates(sess):
    x = tf.placeholder(tf.float32, [2], name="x_input")
    h = x * 2.0
    y = h + 1.0
    np.testing.assert_array_equal(sess.run(y, {x: [1.0, 2.0]}), [3.0, 5.0])
    np.testing.assert_array_equal(sess.run(y, {"x_input:0": [0.0, 1.0]}), [1.0, 3.0])
    np.testing.assert_array_equal(sess.run(y, {h: [10.0, 20.0]}), [11.0, 21.0])   # replaces h, x unneeded
    c = tf.constant(5.0)
    assert sess.run(c * 2.0, {c: 7.0}) == 14.0


def test_feeding_a_variable_replaces_its_value_for_that_run_only(sess):
    v = tf.Variable(1.0)
    sess.run(v.initializer)
    assert sess.run(v * 10.0, {v: 4.0}) == 40.0
    assert sess.run(v) == 1.0


def test_fed_values_are_converted_to_the_dtype_of_the_tensor(sess):
    f = tf.placeholder(tf.float32, [2])
    i = tf.placeholder(tf.int32, [2])
    got_f = sess.run(f, {f: [1, 2]})
    got_i = sess.run(i, {i: np.array([1.9, -2.5])})
    assert got_f.dtype == np.float32 and got_i.dtype == np.int32
    np.testing.assert_array_equal(got_i, [1, -2])
    assert sess.run(f * 2.0, {f: np.array([1.5, 2.5], np.float64)}).dtype == np.float32


def test_a_fed_shape_that_contradicts_the_static_shape_is_refused(sess):
    x = tf.placeholder(tf.float32, [2])
    with pytest.raises(ValueError, match=r"^Cannot feed value of shape \(3,\) for Tensor Placeholder:0, "
                                         r"which has shape \(2,\)$"):
        sess.run(x * 2.0, {x: [1.0, 2.0, 3.0]})
    m = tf.placeholder(tf.float32, [None, 3], name="m")
    assert sess.run(tf.reduce_sum(m), {m: np.ones((4, 3))}) == 12.0
    with pytest.raises(ValueError, match=r"Cannot feed value of shape \(4, 2\) for Tensor m:0, "
                                         r"which has shape \(\?, 3\)"):
        sess.run(m, {m: np.ones((4, 2))})


def test_a_missing_feed_is_an_invalid_argument_error(sess):
    x = tf.placeholder(tf.float32, [2], name="needed")
    with pytest.raises(tf.errors.InvalidArgumentError, match="You must feed a value for placeholder tensor 'needed'"):
        sess.run(x + 1.0)


def test_bad_feed_keys_and_values(sess):
    x = tf.placeholder(tf.float32, [])
    with pytest.raises(TypeError, match="Cannot interpret feed_dict key as Tensor"):
        sess.run(x, {x.op: 1.0})
    with pytest.raises(TypeError, match="The value of a feed cannot be a tf.Tensor object"):
        sess.run(x, {x: tf.constant(1.0)})
    with pytest.raises(TypeError, match="feed_dict must be a dict"):
        sess.run(x, [(x, 1.0)])


# -- variables: reads, commits, atomicity -------------------------------------------------------------------

def test_an_uninitialized_variable_is_a_failed_precondition(sess):
    v = tf.Variable(1.0, name="fresh")
    with pytest.raises(tf.errors.FailedPreconditionError, match="Attempting to use uninitialized value fresh"):
        sess.run(v + 1.0)


def test_run_train_op_and_loss_returns_the_loss_before_the_update(sess):
    w = tf.Variable(3.0)
    loss = w * w
    train = tf.train.GradientDescentOptimizer(0.25).minimize(loss)
    sess.run(w.initializer)
    _, before = sess.run([train, loss])
    assert before == 9.0
    assert sess.run(w) == 3.0 - 0.25 * 6.0
    assert sess.run([loss, train])[0] == 2.25


def test_reads_in_one_run_see_pre_run_values(sess):
    v = tf.Variable(1.0)
    sess.run(v.initializer)
    up = tf.assign_add(v, 10.0)
    read_after = v * 1.0
    got = sess.run([read_after, up, v])
    assert got == [1.0, 11.0, 1.0]      # the assign's own output is the new value
    assert sess.run(v) == 11.0


def test_assignments_commit_at_the_end_in_graph_order(sess):
    v = tf.Variable(0.0)
    first = tf.assign(v, 1.0)
    second = tf.assign(v, 2.0)
    sess.run(v.initializer)
    sess.run([second, first])
    assert sess.run(v) == 2.0           # the later op in the graph wins, whatever the fetch order
    sess.run([first])
    assert sess.run(v) == 1.0


def test_fetching_the_same_assignment_twice_runs_it_once(sess):
    v = tf.Variable(1.0)
    up = tf.assign_add(v, 1.0)
    sess.run(v.initializer)
    assert sess.run([up, up, up.op]) == [2.0, 2.0, None]
    assert sess.run(v) == 2.0


def test_a_run_that_raises_changes_no_variable(sess):
    a, b = tf.Variable([1.0, 2.0]), tf.Variable(5.0)
    index = tf.placeholder(tf.int32, [1])
    ok = tf.assign(b, 50.0)
    bad = tf.assign(a, tf.gather([7.0, 8.0], index) * [1.0, 1.0])
    sess.run(tf.global_variables_initializer())
    with pytest.raises(tf.errors.InvalidArgumentError, match="GatherV2"):
        sess.run([ok, bad], {index: [9]})
    assert sess.run(b) == 5.0
    np.testing.assert_array_equal(sess.run(a), [1.0, 2.0])
    sess.run([ok, bad], {index: [1]})
    assert sess.run(b) == 50.0
    np.testing.assert_array_equal(sess.run(a), [8.0, 8.0])


def test_fetched_values_are_copies_the_user_may_mutate(sess):
    v = tf.Variable([1.0, 2.0])
    c = tf.constant([3.0, 4.0])
    x = tf.placeholder(tf.float32, [2])
    sess.run(v.initializer)
    for fetch in (v, c, v.read_value()):
        value = sess.run(fetch)
        value[0] = 100.0
        assert sess.run(fetch)[0] != 100.0
    fed = np.array([5.0, 6.0], np.float32)
    out = sess.run(x, {x: fed})
    out[0] = -1.0
    assert fed[0] == 5.0


# -- result types -------------------------------------------------------------------------------------------

def test_rank_zero_results_are_numpy_scalars(sess):
    f, i = tf.constant([1.0, 2.0]), tf.constant([1, 2])
    got = sess.run([tf.reduce_sum(f), tf.reduce_sum(i), f[0], tf.constant(True)])
    assert [type(g) for g in got] == [np.float32, np.int32, np.float32, np.bool_]
    assert got[:3] == [3.0, 3, 1.0]


def test_dtypes_are_kept_and_python_scalars_adopt_them(sess):
    f = tf.placeholder(tf.float32, [2])
    i = tf.placeholder(tf.int32, [2])
    d = tf.placeholder(tf.float64, [2])
    feeds = {f: [1.0, 2.0], i: [1, 2], d: [1.0, 2.0]}
    got = sess.run([f * 2.5, f / 3, i + 1, i * 7, d * 0.1, 1 - f], feeds)
    assert [g.dtype for g in got] == [np.float32, np.float32, np.int32, np.int32, np.float64, np.float32]
    np.testing.assert_array_equal(got[1], np.array([1.0, 2.0], np.float32) / np.float32(3))


# -- defaults, lifetime, callables --------------------------------------------------------------------------

def test_a_session_context_is_the_default_for_eval_and_run():
    x = tf.constant(2.0)
    v = tf.Variable(1.0)
    with tf.Session() as s:
        assert tf.get_default_session() is s
        v.initializer.run()
        tf.assign_add(v, 1.0).op.run()
        assert x.eval() == 2.0 and v.eval() == 2.0
        assert (x * 3.0).eval(feed_dict={x: 5.0}) == 15.0
    assert tf.get_default_session() is None
    with pytest.raises(ValueError, match="No default session is registered"):
        x.eval()


def test_as_default_and_explicit_session_arguments():
    x = tf.constant(4.0)
    s1, s2 = tf.Session(), tf.Session()
    with s1.as_default():
        assert tf.get_default_session() is s1
        with s2.as_default():
            assert tf.get_default_session() is s2
        assert x.eval(session=s2) == 4.0
    assert tf.get_default_session() is None
    other = tf.Graph()
    with other.as_default():
        y = tf.constant(1.0)
    with pytest.raises(ValueError, match="graph is different"):
        y.eval(session=s1)
    s1.close()
    s2.close()


def test_a_closed_session_refuses_to_run():
    s = tf.Session()
    x = tf.constant(1.0)
    assert s.run(x) == 1.0
    s.close()
    with pytest.raises(RuntimeError, match="closed Session"):
        s.run(x)


def test_interactive_session_installs_itself_until_closed():
    x = tf.constant(3.0)
    s = tf.InteractiveSession()
    try:
        assert tf.get_default_session() is s
        assert x.eval() == 3.0
    finally:
        s.close()
    assert tf.get_default_session() is None


def test_make_callable_runs_the_fetches_with_positional_feeds(sess):
    x = tf.placeholder(tf.float32, [3], name="x")
    v = tf.Variable(1.0)
    sess.run(v.initializer)
    fetches = [x * 2.0, tf.assign_add(v, tf.reduce_sum(x))]
    f = sess.make_callable(fetches, feed_list=[x])
    got = f([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(got[0], [2.0, 4.0, 6.0])
    assert got[1] == 7.0 and sess.run(v) == 7.0
    assert f.source == sess.source(fetches, {x: [1.0, 2.0, 3.0]})
    with pytest.raises(TypeError, match="takes 1 feed values, got 2"):
        f([1.0, 2.0, 3.0], [1.0])


def test_make_callable_source_is_the_module_it_runs(sess):
    x = tf.placeholder(tf.float32, [2], name="x")
    y = tf.reduce_sum(x * x)
    f = sess.make_callable(y, [x])
    before = f.source
    assert f([1.0, 2.0]) == 5.0
    assert f.source == before == sess.source(y, {x: [1.0, 2.0]})
    assert "def run(x):" in before


def test_make_callable_validates_its_fetches_now(sess):
    with pytest.raises(TypeError, match="Fetch argument None"):
        sess.make_callable(None)
