"""compute_gradients -> clip_by_global_norm -> apply_gradients(global_step=) as people write it, with a
decaying learning rate, against TensorFlow's run of the same program (tests/data/train_tf/pipeline.json);
every new optimizer inside it; their argument errors."""
import numpy as np
import pytest

import s2sgrad as tf
from train_programs import pipeline, sparse_pipeline
from train_tf_data import assert_matches, load

RECORDED = load("pipeline")
SPARSE = load("sparse_pipeline")


def test_matches_tensorflow():
    assert_matches(pipeline(tf), RECORDED, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("optimizer", sorted(SPARSE))
def test_sparse_gradients_through_clipping_match_tensorflow(optimizer):
    got = sparse_pipeline(tf)[optimizer]
    assert got["sparse_gradients"] == [True, False]
    assert_matches(got, SPARSE[optimizer], rtol=1e-5, atol=1e-6)


NEW_OPTIMIZERS = {
    "adadelta": lambda step: tf.train.AdadeltaOptimizer(1.0, epsilon=1e-2),
    "ftrl": lambda step: tf.train.FtrlOptimizer(0.5, l1_regularization_strength=0.001,
                                                l2_shrinkage_regularization_strength=0.01),
    "proximal_gd": lambda step: tf.train.ProximalGradientDescentOptimizer(0.1, l1_regularization_strength=0.001),
    "proximal_adagrad": lambda step: tf.train.ProximalAdagradOptimizer(0.5, l2_regularization_strength=0.001),
    "adagrad_da": lambda step: tf.train.AdagradDAOptimizer(0.5, step),
    "rmsprop": lambda step: tf.train.RMSPropOptimizer(0.05, momentum=0.5, centered=True),
}


@pytest.mark.parametrize("name", sorted(NEW_OPTIMIZERS))
def test_each_optimizer_fits_a_line_with_clipped_gradients(name):
    rng = np.random.RandomState(0)
    x_val = rng.normal(size=(32, 2)).astype(np.float32)
    y_val = x_val @ np.float32([[2.0], [-1.0]]) + 0.5
    step = tf.train.get_or_create_global_step()
    w, b = tf.Variable(tf.zeros([2, 1])), tf.Variable(0.0)
    loss = tf.losses.mean_squared_error(y_val, tf.matmul(tf.constant(x_val), w) + b)
    opt = NEW_OPTIMIZERS[name](step)
    grads_and_vars = opt.compute_gradients(loss)
    clipped, _ = tf.clip_by_global_norm([g for g, _ in grads_and_vars], 5.0)
    train = opt.apply_gradients(list(zip(clipped, [v for _, v in grads_and_vars], strict=True)), global_step=step)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run(loss)
        for _ in range(200):
            sess.run(train)
        assert sess.run(loss) < 0.05 * first
        assert sess.run(step) == 200


@pytest.mark.parametrize("make, error, match", [
    (lambda: tf.train.FtrlOptimizer(0.1, learning_rate_power=0.5), ValueError,
     "learning_rate_power 0.500000 needs to be negative or zero"),
    (lambda: tf.train.FtrlOptimizer(0.1, initial_accumulator_value=-1.0), ValueError,
     "initial_accumulator_value -1.000000 needs to be positive or zero"),
    (lambda: tf.train.FtrlOptimizer(0.1, l1_regularization_strength=-1.0), ValueError, "l1_regularization_strength"),
    (lambda: tf.train.FtrlOptimizer(0.1, l2_regularization_strength=-1.0), ValueError, "l2_regularization_strength"),
    (lambda: tf.train.FtrlOptimizer(0.1, l2_shrinkage_regularization_strength=-1.0), ValueError, "shrinkage"),
    (lambda: tf.train.ProximalAdagradOptimizer(0.1, initial_accumulator_value=0.0), ValueError, "must be positive"),
    (lambda: tf.train.AdagradDAOptimizer(0.1, tf.train.get_or_create_global_step(),
                                         initial_gradient_squared_accumulator_value=0.0), ValueError, "positive"),
    (lambda: tf.train.AdagradDAOptimizer(0.1, 3), TypeError, "global_step must be a Tensor"),
    (lambda: tf.train.AdadeltaOptimizer(None), ValueError, "lr must not be None"),
    (lambda: tf.train.ProximalGradientDescentOptimizer("fast"), TypeError, "learning_rate must be a number"),
    (lambda: tf.train.AdadeltaOptimizer(0.1, name=""), ValueError, "Must specify the optimizer name"),
])
def test_argument_errors(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_slot_names_follow_the_name_argument_and_ftrl_slot_names():
    w = tf.Variable(tf.ones([2]), name="w")
    ftrl = tf.train.FtrlOptimizer(0.1, accum_name="acc", linear_name="lin")
    ftrl.minimize(tf.reduce_sum(w))
    assert [ftrl.get_slot(w, n).name for n in ("accum", "linear")] == ["w/acc:0", "w/lin:0"]
    ada = tf.train.AdadeltaOptimizer(name="Ada")
    ada.minimize(tf.reduce_sum(w))
    assert [ada.get_slot(w, n).name for n in ada.get_slot_names()] == ["w/Ada:0", "w/Ada_1:0"]
    assert ada.get_name() == "Ada"
