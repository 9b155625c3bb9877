"""Every tf.train optimizer for several dense and sparse (IndexedSlices) steps against the values
TensorFlow computed for the same program (tests/data/train_tf/optimizers.json), with TF's slot
names and variables."""
import numpy as np
import pytest

import s2sgrad as tf
from train_tf_data import assert_close, load

RECORDED = load("optimizers")
W0 = [[0.5, -1.5, 2.0], [1.0, 0.25, -0.75]]
GRADS = [[[0.3, -1.2, 0.7], [2.0, -0.1, 0.05]], [[-0.4, 0.9, 1.1], [0.0, 0.6, -2.5]],
         [[1.5, 0.2, -0.3], [-0.7, -0.8, 0.9]], [[0.01, -0.02, 0.5], [0.3, 0.3, -0.3]]]
E0 = [[0.5, -1.0], [0.25, 2.0], [-0.75, 0.1], [1.5, -0.3]]
SPARSE_STEPS = [([0, 2, 0], [[0.3, -1.2], [2.0, -0.1], [0.7, 0.4]]), ([1, 1], [[-0.4, 0.9], [1.1, 0.0]]),
                ([3, 0], [[0.6, -2.5], [1.5, 0.2]])]


def run(expr, sparse, dtype=np.float32):
    """The recording's program in s2sgrad: minimize sum(w * x) (dense) or sum(gather(emb, ids) * x)."""
    with tf.Graph().as_default():
        step = tf.train.get_or_create_global_step()
        opt = eval(expr, {"tf1": tf, "step": step})
        if sparse:
            var = tf.Variable(np.array(E0, dtype), name="emb")
            ids, x = tf.placeholder(tf.int32, [None]), tf.placeholder(tf.as_dtype(dtype), [None, 2])
            loss = tf.reduce_sum(tf.gather(var, ids) * x)
            feeds = [{ids: i, x: np.array(g, dtype)} for i, g in SPARSE_STEPS]
        else:
            var = tf.Variable(np.array(W0, dtype), name="w")
            x = tf.placeholder(tf.as_dtype(dtype), [2, 3])
            loss = tf.reduce_sum(var * x)
            feeds = [{x: np.array(g, dtype)} for g in GRADS]
        train = opt.minimize(loss, global_step=step)
        slots = {name: opt.get_slot(var, name) for name in opt.get_slot_names()}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            history = []
            for feed in feeds:
                sess.run(train, feed)
                history.append(sess.run(var))
            return {"history": history, "step": int(sess.run(step)),
                    "slots": {n: [s.op.name, sess.run(s)] for n, s in slots.items()},
                    "variables": sorted(v.op.name for v in tf.global_variables())}


@pytest.mark.parametrize("kind", ["dense", "sparse"])
@pytest.mark.parametrize("case", sorted(RECORDED))
def test_matches_tensorflow(case, kind):
    want = RECORDED[case][kind]
    got = run(RECORDED[case]["expr"], kind == "sparse")
    for g, w in zip(got["history"], want["history"], strict=True):
        assert g.dtype == np.float32
        assert_close(g, w, rtol=1e-5, atol=1e-6)
    assert got["step"] == want["step"]
    assert got["variables"] == want["variables"]
    assert sorted(got["slots"]) == sorted(want["slots"])
    for name, (var_name, value) in want["slots"].items():
        assert got["slots"][name][0] == var_name
        assert_close(got["slots"][name][1], value, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("case", sorted(RECORDED))
def test_float64_follows_the_float32_recording(case):
    got = run(RECORDED[case]["expr"], False, np.float64)
    for g, w in zip(got["history"], RECORDED[case]["dense"]["history"], strict=True):
        assert g.dtype == np.float64
        assert_close(g, w, rtol=2e-4, atol=1e-5)
