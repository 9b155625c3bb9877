"""tf.train.Saver: round trips of every dtype and rank, TensorFlow's checkpoints restored with TF's values
(and a TF-trained Adam model continuing as TF did), names, the state file, max_to_keep, errors."""
from __future__ import annotations

import os
import time

import numpy as np
import pytest

import s2sgrad as tf
from tests import checkpoint_spec_reader as spec
from tests.test_checkpoint_format import DATA, tf_values

KINDS = ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
         "complex64", "complex128", "bool"]


@pytest.fixture(autouse=True)
def fresh_graph():
    with tf.Graph().as_default() as g:
        yield g


def values_of(sess, variables):
    return [np.array(v, copy=True) for v in sess.run(variables)]


def assert_same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    if got.dtype.kind in "fc":
        assert np.array_equal(got, want, equal_nan=True)
    else:
        assert got.tolist() == want.tolist()


# -- round trips -------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("rank", range(5))
def test_round_trip_every_dtype_and_rank(kind, rank, tmp_path):
    rng = np.random.default_rng(rank)
    value = rng.standard_normal([3, 1, 2, 2][:rank]) * 90
    value = value + 1j * rng.standard_normal(value.shape) if kind.startswith("complex") else value
    value = np.asarray(value > 0 if kind == "bool" else value.astype(kind))
    v = tf.Variable(value, name="v")
    other = tf.Variable(np.zeros([2], np.float32), name="scope/other")
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "m"))
        sess.run([v.initializer if kind == "bool" else v.assign(value * 0), other.assign([3.0, 4.0])])
        saver.restore(sess, path)
        assert_same(sess.run(v), value)
        assert_same(sess.run(other), np.zeros([2], np.float32))
    assert_same(spec.read(path)["v"].astype(value.dtype), value)


def test_round_trip_strings(tmp_path):
    value = np.array([[b"", b"\x00\xff"], ["gr\u00fc\u00df".encode(), b"y" * 1000]], dtype=object)
    v = tf.Variable(value, name="s")
    scalar = tf.Variable(b"one", name="scalar")
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "m"))
    with tf.Session() as sess:
        saver.restore(sess, path)
        assert sess.run(v).tolist() == value.tolist() and sess.run(scalar) == b"one"


# -- TensorFlow's checkpoints ------------------------------------------------------------------------

def _variables_like(values: dict[str, np.ndarray]) -> dict[str, tf.Variable]:
    out = {}
    for name, want in values.items():
        dtype = tf.string if want.dtype.kind == "S" else tf.as_dtype(want.dtype)
        out[name] = tf.Variable(tf.zeros(want.shape, dtype), name=name) if dtype is not tf.string else \
            tf.Variable(np.full(want.shape, b"", dtype=object), name=name)
    return out


@pytest.mark.parametrize("name", ["dtypes.ckpt-7", "adam.ckpt-5", "sharded.ckpt-2"])
def test_tensorflow_checkpoints_restore_with_tensorflows_values(name):
    expected = tf_values(name)
    variables = _variables_like(expected)
    with tf.Session() as sess:
        tf.train.Saver().restore(sess, os.path.join(DATA, name))
        for key, got in zip(variables, sess.run(list(variables.values())), strict=True):
            got = np.asarray(got)
            assert_same(got.astype(bytes) if got.dtype == object else got, expected[key])


def _adam_model():
    """The model of make_tf_checkpoints.adam(), built the same way."""
    step = tf.train.get_or_create_global_step()
    x = tf.placeholder(tf.float32, [None, 3])
    y = tf.placeholder(tf.float32, [None, 1])
    with tf.variable_scope("dense"):
        w = tf.Variable(np.zeros([3, 4], np.float32), name="w")
        b = tf.Variable(np.zeros([4], np.float32), name="b")
    w2 = tf.Variable(np.zeros([4, 1], np.float32), name="w2")
    loss = tf.reduce_mean(tf.square(tf.matmul(tf.tanh(tf.matmul(x, w) + b), w2) - y))
    train = tf.train.AdamOptimizer(0.05).minimize(loss, global_step=step)
    return x, y, loss, train, step


def test_a_tensorflow_adam_run_continues_here_as_in_tensorflow():
    x, y, loss, train, step = _adam_model()
    with np.load(os.path.join(DATA, "adam_data.npz")) as f:
        data = dict(f)
    saver = tf.train.Saver()
    assert sorted(v.op.name for v in tf.global_variables()) == sorted(tf_values("adam.ckpt-5"))
    with tf.Session() as sess:
        saver.restore(sess, os.path.join(DATA, "adam.ckpt-5"))
        feed = {x: data["x"], y: data["y"]}
        np.testing.assert_allclose(sess.run(loss, feed), data["saved_loss"], rtol=1e-6)
        sess.run(train, feed)
        np.testing.assert_allclose(sess.run(loss, feed), data["loss_after_step_6"], rtol=1e-5)
        assert sess.run(step) == 6


def test_slot_names_match_tensorflows():
    _adam_model()
    names = sorted(tf.train.Saver()._built())
    assert names == sorted(tf_values("adam.ckpt-5"))
    assert {"dense/w/Adam", "dense/w/Adam_1", "beta1_power", "beta2_power", "global_step"} <= set(names)


def test_reader_functions_on_a_tensorflow_checkpoint():
    prefix = os.path.join(DATA, "dtypes.ckpt-7")
    reader = tf.train.NewCheckpointReader(prefix)
    assert reader.has_tensor("v_int16") and not reader.has_tensor("nope")
    assert reader.get_variable_to_shape_map()["v_int16"] == [2, 3, 1, 2]
    assert reader.get_variable_to_dtype_map()["v_complex128"] is tf.complex128
    assert reader.get_tensor("scalar_int64") == -(2 ** 62) and reader.get_tensor("empty").shape == (0, 3)
    with open(os.path.join(DATA, "dtypes.debug_string.txt"), "rb") as f:   # what TF's reader returns
        assert reader.debug_string() == f.read()
    listed = tf.train.list_variables(prefix)
    assert listed == sorted(listed) and ("scope/rank4", [2, 1, 3, 2]) in listed
    assert tf.train.load_checkpoint(prefix).get_tensor("v_uint8").dtype == np.uint8
    with pytest.raises(tf.errors.NotFoundError, match="Key nope not found in checkpoint"):
        reader.get_tensor("nope")


# -- save(): paths, the state file, max_to_keep -------------------------------------------------------

def _one_variable():
    v = tf.Variable(np.arange(3, dtype=np.float32), name="v")
    return v, tf.assign_add(v, tf.ones([3]))


def test_save_returns_tensorflows_paths_and_writes_the_state_file(tmp_path):
    _, inc = _one_variable()
    step = tf.train.get_or_create_global_step()
    saver = tf.train.Saver(max_to_keep=2)
    base = str(tmp_path / "model.ckpt")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        paths = [saver.save(sess, base, global_step=i) for i in (1, 2)]
        paths.append(saver.save(sess, base, global_step=step))
        paths.append(saver.save(sess, base, global_step=np.int64(30)))
    assert paths == [base + "-1", base + "-2", base + "-0", base + "-30"]
    with open(tmp_path / "checkpoint") as f:
        assert f.read() == (f'model_checkpoint_path: "{base}-30"\nall_model_checkpoint_paths: "{base}-0"\n'
                            f'all_model_checkpoint_paths: "{base}-30"\n')
    assert sorted(os.listdir(tmp_path)) == sorted(["checkpoint"] + [f"model.ckpt-{i}.{s}" for i in (0, 30)
                                                                  for s in ("index", "data-00000-of-00001")])
    assert saver.last_checkpoints == [base + "-0", base + "-30"]
    assert tf.train.latest_checkpoint(str(tmp_path)) == base + "-30"
    state = tf.train.get_checkpoint_state(str(tmp_path))
    assert state.model_checkpoint_path == base + "-30" and state.all_model_checkpoint_paths == [base + "-0",
                                                                                                 base + "-30"]
    assert tf.train.checkpoint_exists(base + "-0") and not tf.train.checkpoint_exists(base + "-1")


def test_save_relative_paths_latest_filename_pad_step_and_write_state(tmp_path):
    _one_variable()
    saver = tf.train.Saver(save_relative_paths=True, pad_step_number=True, max_to_keep=None)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(7):
            saver.save(sess, str(tmp_path / "m"), global_step=i, latest_filename="state")
        assert saver.save(sess, str(tmp_path / "quiet"), write_state=False) == str(tmp_path / "quiet")
        with pytest.raises(ValueError, match="'latest_filename' must not contain path components"):
            saver.save(sess, str(tmp_path / "m"), latest_filename="a/b")
    with open(tmp_path / "state") as f:
        text = f.read()
    assert text.startswith('model_checkpoint_path: "m-00000006"\nall_model_checkpoint_paths: "m-00000000"\n')
    assert text.count("all_model_checkpoint_paths") == 7 and not (tmp_path / "checkpoint").exists()
    assert tf.train.latest_checkpoint(str(tmp_path), "state") == str(tmp_path / "m-00000006")
    assert tf.train.latest_checkpoint(str(tmp_path)) is None
    assert tf.train.checkpoint_exists(str(tmp_path / "quiet"))


def test_relative_save_path_with_relative_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _one_variable()
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert saver.save(sess, "run/model", global_step=3) == "run/model-3"   # makes the one missing level
        assert saver.save(sess, "here", global_step=1) == "here-1"   # in the current directory
        with pytest.raises(ValueError, match="Parent directory of a/b/c doesn't exist, can't save."):
            saver.save(sess, "a/b/c")
    with open("run/checkpoint") as f:
        assert f.read() == 'model_checkpoint_path: "model-3"\nall_model_checkpoint_paths: "model-3"\n'
    assert tf.train.latest_checkpoint("run") == os.path.join("run", "model-3")
    with open("checkpoint") as f:   # the saver's earlier checkpoint is listed too, as TF does
        assert f.read() == ('model_checkpoint_path: "here-1"\nall_model_checkpoint_paths: "run/model-3"\n'
                            'all_model_checkpoint_paths: "here-1"\n')
    assert tf.train.latest_checkpoint(".") == "./here-1" and tf.train.latest_checkpoint("") == "here-1"


def test_keep_checkpoint_every_n_hours_keeps_one_per_period(tmp_path, monkeypatch):
    _one_variable()
    clock = [1000.0]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    saver = tf.train.Saver(max_to_keep=1, keep_checkpoint_every_n_hours=1)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(6):
            saver.save(sess, str(tmp_path / "m"), global_step=i)
            clock[0] += 1800   # half an hour between saves
    kept = sorted(int(p.split("-")[1].split(".")[0]) for p in os.listdir(tmp_path) if p.endswith(".index"))
    assert kept == [2, 4, 5]   # saved at 1h and 2h after the saver was made (the first at or after each hour)


def test_var_list_dict_and_list(tmp_path):
    a = tf.Variable([1.0, 2.0], name="a")
    b = tf.Variable(3, name="b")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = tf.train.Saver({"renamed/a": a}).save(sess, str(tmp_path / "d"))
        assert tf.train.list_variables(path) == [("renamed/a", [2])]
        path2 = tf.train.Saver([b, a, b]).save(sess, str(tmp_path / "l"))
        assert [n for n, _ in tf.train.list_variables(path2)] == ["a", "b"]
        sess.run(a.assign([0.0, 0.0]))
        tf.train.Saver({"renamed/a": a}).restore(sess, path)
        assert sess.run(a).tolist() == [1.0, 2.0]


def test_constructor_errors():
    with pytest.raises(ValueError, match="No variables to save"):
        tf.train.Saver()
    a = tf.Variable(1.0, name="a")
    with pytest.raises(TypeError, match="Variable to save is not a Variable"):
        tf.train.Saver([a.value()])
    with pytest.raises(TypeError, match="dict or a list"):
        tf.train.Saver(a)
    assert sorted(tf.train.Saver({"x": a, "y": a})._built()) == ["x", "y"]   # one variable, two names: allowed
    with pytest.raises(ValueError, match="At least two variables have the same name: a"):
        tf.train.Saver([a, _named_like(a)])
    with pytest.raises(NotImplementedError, match="V2 format only"):
        tf.train.Saver(write_version=tf.train.SaverDef.V1)
    deferred = tf.train.Saver(defer_build=True)
    with pytest.raises(RuntimeError, match="build"):
        deferred.save(tf.Session(), "/tmp/never")
    with pytest.raises(TypeError, match="'sess' must be a Session"):
        tf.train.Saver().save(object(), "/tmp/never")
    deferred.build()
    with tf.Graph().as_default(), tf.Session() as other:
        with pytest.raises(ValueError, match="Variable a is not an element of the session's graph"):
            deferred.restore(other, "/tmp/never")


def _named_like(var):
    """A second variable whose op name equals ``var``'s (in another graph), for the duplicate check."""
    with tf.Graph().as_default():
        return tf.Variable(1.0, name=var.op.name)


def test_allow_empty_saves_nothing(tmp_path):
    saver = tf.train.Saver(allow_empty=True)
    with tf.Session() as sess:
        assert saver.save(sess, str(tmp_path / "m")) is None
        assert saver.restore(sess, str(tmp_path / "m")) is None
    assert os.listdir(tmp_path) == []


def test_save_of_an_uninitialized_variable_fails_and_writes_nothing(tmp_path):
    _one_variable()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized value v"):
            tf.train.Saver().save(sess, str(tmp_path / "m"))
    assert os.listdir(tmp_path) == []


# -- restore(): errors change nothing -------------------------------------------------------------------

def _saved(tmp_path):
    a = tf.Variable(np.ones([2, 2], np.float32), name="a")
    b = tf.Variable(np.int64(5), name="b")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = tf.train.Saver().save(sess, str(tmp_path / "m"))
    return a, b, path


@pytest.mark.parametrize("case, error, message", [
    ("missing", tf.errors.NotFoundError, "(?s)Variable name or other graph key that is missing.*Key c not found"),
    ("shape", tf.errors.InvalidArgumentError, r"lhs shape= \[3\] rhs shape= \[2, 2\] \(variable a"),
    ("dtype", tf.errors.InvalidArgumentError, "tensor_name = b; expected dtype int32 does not equal original "
                                              "dtype int64")])
def test_restore_errors_name_the_variable_and_change_nothing(case, error, message, tmp_path):
    a, b, path = _saved(tmp_path)
    with tf.Graph().as_default():
        x = tf.Variable([7.0, 8.0], name="x")
        a2 = tf.Variable(np.zeros([3] if case == "shape" else [2, 2], np.float32), name="a")
        b2 = tf.Variable(np.int32(0) if case == "dtype" else np.int64(0), name="b")
        extra = [tf.Variable(0.0, name="c")] if case == "missing" else []
        saver = tf.train.Saver([x, a2, b2, *extra] if case == "missing" else [a2, b2, x])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            before = values_of(sess, [x, a2, b2])
            with pytest.raises(error, match=message):
                saver.restore(sess, path)
            for got, want in zip(values_of(sess, [x, a2, b2]), before, strict=True):
                assert_same(got, want)


def test_restore_argument_errors(tmp_path):
    _saved(tmp_path)
    saver = tf.train.Saver()
    with tf.Session() as sess:
        with pytest.raises(ValueError, match="Can't load save_path when it is None"):
            saver.restore(sess, None)
        with pytest.raises(ValueError, match="not a valid checkpoint: .*nothing"):
            saver.restore(sess, str(tmp_path / "nothing"))


# -- init_from_checkpoint ---------------------------------------------------------------------------------

def test_init_from_checkpoint_variable_scope_and_root_mappings():
    prefix = os.path.join(DATA, "adam.ckpt-5")
    want = tf_values("adam.ckpt-5")
    with tf.variable_scope("model"):
        w = tf.get_variable("w", [3, 4])
        b = tf.get_variable("b", [4])
    w2 = tf.get_variable("w2", [4, 1])
    one = tf.get_variable("one", [], dtype=tf.int64)
    tf.train.init_from_checkpoint(prefix, {"dense/": "model/", "w2": w2, "global_step": "one"})
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for var, key in [(w, "dense/w"), (b, "dense/b"), (w2, "w2"), (one, "global_step")]:
            assert_same(sess.run(var), want[key])
    with tf.Graph().as_default():
        g = tf.get_variable("global_step", [], dtype=tf.int64)
        w2 = tf.get_variable("w2", [4, 1])
        tf.train.init_from_checkpoint(prefix, {"/": "/"})   # every variable from the same name
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert sess.run(g) == 5
            assert_same(sess.run(w2), want["w2"])


def test_init_from_checkpoint_errors():
    prefix = os.path.join(DATA, "adam.ckpt-5")
    w = tf.get_variable("w", [2, 2])
    with pytest.raises(ValueError, match=r"Shape of variable w:0 \(\(2, 2\)\) doesn't match with shape of tensor "
                                         r"dense/w \(\[3, 4\]\)"):
        tf.train.init_from_checkpoint(prefix, {"dense/w": w})
    with pytest.raises(ValueError, match="Tensor nothing is not found in"):
        tf.train.init_from_checkpoint(prefix, {"nothing": w})
    with pytest.raises(ValueError, match="Should be 'scope/': 'other_scope/'"):
        tf.train.init_from_checkpoint(prefix, {"dense": "scope/"})
    with pytest.raises(ValueError, match="Couldn't find 'checkpoint' file"):
        tf.train.init_from_checkpoint(os.path.dirname(prefix), {"dense/w": w})


@pytest.mark.parametrize("name, optimizer", [
    ("momentum", "MomentumOptimizer(0.05, 0.9)"), ("adagrad", "AdagradOptimizer(0.1)"),
    ("rmsprop", "RMSPropOptimizer(0.01, momentum=0.5, centered=True)"), ("sgd", "GradientDescentOptimizer(0.1)")])
def test_each_optimizers_tensorflow_checkpoint_continues_as_in_tensorflow(name, optimizer):
    """Same slot names as TF, and each slot holds what TF's does: one more step gives TF's loss."""
    with np.load(os.path.join(DATA, f"opt_{name}_data.npz")) as f:
        data = dict(f)
    step = tf.train.get_or_create_global_step()
    with tf.variable_scope("layer"):
        w = tf.Variable(np.zeros([2, 1], np.float32), name="w")
    b = tf.Variable(np.float32(0), name="b")
    loss = tf.reduce_mean(tf.square(tf.matmul(data["x"], w) * b - data["y"]))
    train = eval("tf.train." + optimizer).minimize(loss, global_step=step)   # the parametrized constructor
    prefix = os.path.join(DATA, f"opt_{name}.ckpt-3")
    assert sorted(v.op.name for v in tf.global_variables()) == [n for n, _ in tf.train.list_variables(prefix)]
    with tf.Session() as sess:
        tf.train.Saver().restore(sess, prefix)
        sess.run(train)
        np.testing.assert_allclose(sess.run(loss), data["loss_after_step_4"], rtol=2e-6)
        assert sess.run(step) == 4


def test_reshape_restores_as_many_elements_in_another_shape(tmp_path):
    a, _, path = _saved(tmp_path)   # a: ones [2, 2]
    with tf.Graph().as_default():
        flat = tf.Variable(np.zeros([4], np.float32), name="a")
        b = tf.Variable(np.int64(0), name="b")
        with tf.Session() as sess:
            tf.train.Saver(reshape=True).restore(sess, path)
            assert sess.run(flat).tolist() == [1.0] * 4 and sess.run(b) == 5
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"lhs shape= \[4\] rhs shape= \[2, 2\]"):
                tf.train.Saver().restore(sess, path)


# What TensorFlow 2.21 wrote for the same update_checkpoint_state calls (tf.compat.v1.train), with the
# directory written as {d}.
TF_STATE_FILES = r'''model_checkpoint_path: "{d}/m-3"
all_model_checkpoint_paths: "{d}/m-1"
all_model_checkpoint_paths: "rel/m-2"
all_model_checkpoint_paths: "{d}/m-3"
all_model_checkpoint_timestamps: 1606848000.25
all_model_checkpoint_timestamps: 1606848001.5
all_model_checkpoint_timestamps: 1606849999.1234567
last_preserved_timestamp: 1606847000.5
model_checkpoint_path: "we\"ird\\name\nü-1"
all_model_checkpoint_paths: "we\"ird\\name\nü-1"
model_checkpoint_path: "x-1"
all_model_checkpoint_paths: "x-0"
all_model_checkpoint_paths: "x-1"
'''


def test_state_files_as_tensorflow_writes_them(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    d = str(tmp_path / "run")
    os.makedirs(d)
    os.makedirs("relative_dir")
    tf.train.update_checkpoint_state(d, d + "/m-3", [d + "/m-1", "rel/m-2"],
                                     all_model_checkpoint_timestamps=[1606848000.25, 1606848001.5,
                                                                      1606849999.123456789],
                                     last_preserved_timestamp=1606847000.5)
    tf.train.update_checkpoint_state(d, 'we"ird\\name\n\u00fc-1', latest_filename="other")
    tf.train.update_checkpoint_state("relative_dir", "relative_dir/x-1", ["relative_dir/x-0"])
    written = ""
    for path in [d + "/checkpoint", d + "/other", "relative_dir/checkpoint"]:
        with open(path, encoding="utf-8") as f:
            written += f.read()
    assert written == TF_STATE_FILES.replace("{d}", d)
    state = tf.train.get_checkpoint_state(d)
    assert state.all_model_checkpoint_paths == [d + "/m-1", d + "/rel/m-2", d + "/m-3"]
    assert state.all_model_checkpoint_timestamps == [1606848000.25, 1606848001.5, 1606849999.123456789]
    assert state.last_preserved_timestamp == 1606847000.5
    assert tf.train.get_checkpoint_state(d, "other").model_checkpoint_path == d + '/we"ird\\name\n\u00fc-1'
    with pytest.raises(ValueError, match="timestamps, if provided, must match"):
        tf.train.update_checkpoint_state(d, "m", [], all_model_checkpoint_timestamps=[1.0, 2.0])
    with pytest.raises(RuntimeError, match="conflicts with path used for checkpoint state"):
        tf.train.update_checkpoint_state(d, d + "/checkpoint")


def test_sharded_saver_writes_the_single_shard_tf_merges_to(tmp_path):
    v, inc = _one_variable()
    saver = tf.train.Saver(sharded=True)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "s"), global_step=2)
        sess.run(inc)
        saver.restore(sess, path)
        assert sess.run(v).tolist() == [0.0, 1.0, 2.0]
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "s-2.data-00000-of-00001", "s-2.index"]


def test_a_new_saver_takes_over_the_kept_checkpoints(tmp_path):
    _one_variable()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = tf.train.Saver(max_to_keep=2)
        for i in range(2):
            first.save(sess, str(tmp_path / "m"), global_step=i)
        state = tf.train.get_checkpoint_state(str(tmp_path))
        second = tf.train.Saver(max_to_keep=2)   # e.g. after a restart
        second.recover_last_checkpoints(state.all_model_checkpoint_paths + [str(tmp_path / "gone")])
        assert second.last_checkpoints == [str(tmp_path / "m-0"), str(tmp_path / "m-1")]
        second.save(sess, str(tmp_path / "m"), global_step=2)
    assert not tf.train.checkpoint_exists(str(tmp_path / "m-0"))
    assert tf.train.get_checkpoint_state(str(tmp_path)).all_model_checkpoint_paths == [
        str(tmp_path / "m-1"), str(tmp_path / "m-2")]
    with pytest.raises(TypeError, match="last_checkpoints must be a list"):
        second.set_last_checkpoints("m-1")


def test_init_from_checkpoint_of_a_directory_uses_its_latest_checkpoint(tmp_path):
    v, inc = _one_variable()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        saver = tf.train.Saver()
        saver.save(sess, str(tmp_path / "m"), global_step=1)
        sess.run(inc)
        saver.save(sess, str(tmp_path / "m"), global_step=2)
    with tf.Graph().as_default():
        w = tf.get_variable("w", [3])
        tf.train.init_from_checkpoint(str(tmp_path), {"v": w})
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert sess.run(w).tolist() == [1.0, 2.0, 3.0]
