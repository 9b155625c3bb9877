"""The programs behind tests/data/train_tf/*.json, written once for both libraries: each function takes
the ``tf1`` module - TensorFlow's ``tf.compat.v1`` when tests/data/train_tf/record.py records, s2sgrad
when a test checks it - and returns what the program computed as JSON-ready values."""
from __future__ import annotations

from typing import Any

import numpy as np

W0 = [[0.5, -1.5, 2.0], [1.0, 0.25, -0.75]]
GRADS = [[[0.3, -1.2, 0.7], [2.0, -0.1, 0.05]], [[-0.4, 0.9, 1.1], [0.0, 0.6, -2.5]],
         [[1.5, 0.2, -0.3], [-0.7, -0.8, 0.9]], [[0.01, -0.02, 0.5], [0.3, 0.3, -0.3]]]
E0 = [[0.5, -1.0], [0.25, 2.0], [-0.75, 0.1], [1.5, -0.3]]
SPARSE_STEPS = [([0, 2, 0], [[0.3, -1.2], [2.0, -0.1], [0.7, 0.4]]), ([1, 1], [[-0.4, 0.9], [1.1, 0.0]]),
                ([3, 0], [[0.6, -2.5], [1.5, 0.2]])]

OPTIMIZERS = {
    "adadelta": "tf1.train.AdadeltaOptimizer(0.5, rho=0.9, epsilon=1e-6)",
    "adadelta_defaults": "tf1.train.AdadeltaOptimizer()",
    "ftrl": "tf1.train.FtrlOptimizer(0.3)",
    "ftrl_l1_l2": "tf1.train.FtrlOptimizer(0.3, l1_regularization_strength=0.05, l2_regularization_strength=0.2)",
    "ftrl_power": "tf1.train.FtrlOptimizer(0.3, learning_rate_power=-0.7, initial_accumulator_value=0.5, "
                  "l1_regularization_strength=0.01)",
    "ftrl_power_zero": "tf1.train.FtrlOptimizer(0.3, learning_rate_power=0.0, l2_regularization_strength=0.1)",
    "ftrl_shrinkage": "tf1.train.FtrlOptimizer(0.3, l1_regularization_strength=0.02, "
                      "l2_regularization_strength=0.1, l2_shrinkage_regularization_strength=0.3)",
    "ftrl_beta": "tf1.train.FtrlOptimizer(0.3, beta=0.5, l2_regularization_strength=0.1)",
    "proximal_gd": "tf1.train.ProximalGradientDescentOptimizer(0.2)",
    "proximal_gd_l1_l2": "tf1.train.ProximalGradientDescentOptimizer(0.2, l1_regularization_strength=0.3, "
                         "l2_regularization_strength=0.5)",
    "proximal_gd_l2": "tf1.train.ProximalGradientDescentOptimizer(0.2, l2_regularization_strength=0.5)",
    "proximal_adagrad": "tf1.train.ProximalAdagradOptimizer(0.4)",
    "proximal_adagrad_l1_l2": "tf1.train.ProximalAdagradOptimizer(0.4, initial_accumulator_value=0.3, "
                              "l1_regularization_strength=0.1, l2_regularization_strength=0.2)",
    "adagrad_da": "tf1.train.AdagradDAOptimizer(0.4, step)",
    "adagrad_da_l1_l2": "tf1.train.AdagradDAOptimizer(0.4, step, initial_gradient_squared_accumulator_value=0.2, "
                        "l1_regularization_strength=0.1, l2_regularization_strength=0.3)",
    "rmsprop": "tf1.train.RMSPropOptimizer(0.05)",
    "rmsprop_centered_momentum": "tf1.train.RMSPropOptimizer(0.05, decay=0.8, momentum=0.6, epsilon=1e-4, "
                                 "centered=True)",
    "rmsprop_momentum": "tf1.train.RMSPropOptimizer(0.05, momentum=0.3)",
    "momentum": "tf1.train.MomentumOptimizer(0.1, 0.9)",
    "momentum_nesterov": "tf1.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True)",
    "adam": "tf1.train.AdamOptimizer(0.05)",
    "adagrad": "tf1.train.AdagradOptimizer(0.3)",
    "sgd": "tf1.train.GradientDescentOptimizer(0.3)",
}


def floats(x):
    """``x`` as (nested lists of) Python floats, for JSON."""
    return np.asarray(x, np.float64).tolist()


def optimizer_case(tf1: Any, expr: str, sparse: bool, dtype: Any = np.float32) -> dict:
    """Minimize ``sum(w * x)`` (dense; the gradient is the fed x) or ``sum(gather(emb, ids) * x)`` (sparse)."""
    with tf1.Graph().as_default():
        step = tf1.train.get_or_create_global_step()
        opt = eval(expr, {"tf1": tf1, "step": step})
        if sparse:
            var = tf1.Variable(np.array(E0, dtype), name="emb")
            ids = tf1.placeholder(tf1.int32, [None])
            x = tf1.placeholder(tf1.as_dtype(dtype), [None, 2])
            loss = tf1.reduce_sum(tf1.gather(var, ids) * x)
            steps = [{ids: i, x: np.array(g, dtype)} for i, g in SPARSE_STEPS]
        else:
            var = tf1.Variable(np.array(W0, dtype), name="w")
            x = tf1.placeholder(tf1.as_dtype(dtype), [2, 3])
            loss = tf1.reduce_sum(var * x)
            steps = [{x: np.array(g, dtype)} for g in GRADS]
        train = opt.minimize(loss, global_step=step)
        slots = {name: opt.get_slot(var, name) for name in opt.get_slot_names()}
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            history = []
            for feed in steps:
                sess.run(train, feed)
                history.append(floats(sess.run(var)))
            return {"history": history, "step": int(sess.run(step)), "dtype": var.dtype.name,
                    "slots": {n: [s.op.name, floats(sess.run(s))] for n, s in slots.items()},
                    "variables": sorted(v.op.name for v in tf1.global_variables())}


SCHEDULES = {
    "exponential": "tf1.train.exponential_decay(0.1, step, 4, 0.7)",
    "exponential_staircase": "tf1.train.exponential_decay(0.1, step, 4, 0.7, staircase=True)",
    "piecewise": "tf1.train.piecewise_constant(step, [3, 8], [1.0, 0.5, 0.1])",
    "piecewise_int": "tf1.train.piecewise_constant(step, [5], [7, 9])",
    "polynomial": "tf1.train.polynomial_decay(0.1, step, 10)",
    "polynomial_power": "tf1.train.polynomial_decay(0.1, step, 10, end_learning_rate=0.01, power=0.5)",
    "polynomial_cycle": "tf1.train.polynomial_decay(0.1, step, 6, end_learning_rate=0.02, power=2.0, cycle=True)",
    "natural_exp": "tf1.train.natural_exp_decay(0.1, step, 3, 0.4)",
    "natural_exp_staircase": "tf1.train.natural_exp_decay(0.1, step, 3, 0.4, staircase=True)",
    "inverse_time": "tf1.train.inverse_time_decay(0.1, step, 3, 0.5)",
    "inverse_time_staircase": "tf1.train.inverse_time_decay(0.1, step, 3, 0.5, staircase=True)",
    "cosine": "tf1.train.cosine_decay(0.1, step, 12)",
    "cosine_alpha": "tf1.train.cosine_decay(0.1, step, 12, alpha=0.2)",
    "cosine_restarts": "tf1.train.cosine_decay_restarts(0.1, step, 4)",
    "cosine_restarts_mul": "tf1.train.cosine_decay_restarts(0.1, step, 3, t_mul=1.0, m_mul=0.5, alpha=0.1)",
    "cosine_restarts_t3": "tf1.train.cosine_decay_restarts(0.1, step, 2, t_mul=3.0, m_mul=0.8)",
    "linear_cosine": "tf1.train.linear_cosine_decay(0.1, step, 12)",
    "linear_cosine_args": "tf1.train.linear_cosine_decay(0.1, step, 12, num_periods=2.0, alpha=0.1, beta=0.01)",
    "exponential_f64": "tf1.train.exponential_decay(tf1.constant(0.1, tf1.float64), step, 4, 0.7)",
}


def schedule_case(tf1: Any, expr: str) -> dict:
    """The schedule ``expr`` of a fed int64 ``step`` at steps 0..29, its name and dtype."""
    with tf1.Graph().as_default():
        step = tf1.placeholder(tf1.int64, [])
        lr = eval(expr, {"tf1": tf1, "step": step})
        with tf1.Session() as sess:
            values = [sess.run(lr, {step: s}).item() for s in range(30)]
        return {"expr": expr, "values": values, "name": lr.name, "dtype": lr.dtype.name}


AVERAGES = {"plain": {"decay": 0.9}, "num_updates": {"decay": 0.99, "num_updates": "step"},
            "named": {"decay": 0.5, "name": "avg"}, "after_train": {"decay": 0.8, "num_updates": "step"}}


def averages_case(tf1: Any, case: str) -> dict:
    """ExponentialMovingAverage(**AVERAGES[case]) of w and b, applied after each of 5 gradient-descent steps:
    in a run of its own, or (``after_train``) in the training run, under control_dependencies([train])."""
    kwargs = AVERAGES[case]
    with tf1.Graph().as_default():
        step = tf1.train.get_or_create_global_step()
        w = tf1.Variable(np.array(W0, np.float32), name="w")
        b = tf1.Variable(1.0, name="b")
        t = tf1.placeholder(tf1.float32, [], name="t")
        ema = tf1.train.ExponentialMovingAverage(**dict(kwargs, **({"num_updates": step} if "num_updates" in kwargs
                                                                  else {})))
        first_name = ema.average_name(w)
        train = tf1.train.GradientDescentOptimizer(0.1).minimize(tf1.reduce_sum(w * w) + b * t, global_step=step)
        if case == "after_train":
            with tf1.control_dependencies([train]):
                averages = ema.apply([w, b])
        else:
            averages = ema.apply([w, b])
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            history = []
            for i in range(5):
                if case == "after_train":
                    sess.run(averages, {t: float(i) - 1.5})
                else:
                    sess.run(train, {t: float(i) - 1.5})
                    sess.run(averages)
                history.append([floats(sess.run(ema.average(w))), float(sess.run(ema.average(b)))])
        return {"kwargs": kwargs, "history": history, "names": [ema.average(w).name, ema.average(b).name],
                "average_name": ema.average_name(w), "average_name_before_apply": first_name,
                "restore": sorted(ema.variables_to_restore()),
                "moving_average_variables": [v.name for v in tf1.moving_average_variables()], "op": averages.name}


def tensor_averages(tf1: Any) -> dict:
    """ExponentialMovingAverage of a tensor (a fed placeholder), plain and zero-debiased, over 4 runs."""
    out = {}
    for zero_debias in (False, True):
        with tf1.Graph().as_default():
            x = tf1.placeholder(tf1.float32, [2], name="x")
            ema = tf1.train.ExponentialMovingAverage(0.8, zero_debias=zero_debias)
            op = ema.apply([x])
            with tf1.Session() as sess:
                sess.run(tf1.global_variables_initializer())
                history = []
                for value in ([1.0, 2.0], [3.0, -1.0], [0.5, 0.5], [-2.0, 4.0]):
                    sess.run(op, {x: value})
                    history.append(floats(sess.run(ema.average(x))))
                out[f"zero_debias={zero_debias}"] = {
                    "history": history, "name": ema.average(x).name,
                    "variables": sorted(v.name for v in tf1.global_variables())}
    return out

def loss_inputs():
    rng = np.random.RandomState(0)
    p = rng.uniform(0.05, 0.95, (4, 3)).astype(np.float32)
    y = (rng.uniform(size=(4, 3)) > 0.5).astype(np.float32)
    z = rng.normal(size=(4, 3)).astype(np.float32) * 2
    dirs = rng.normal(size=(4, 3)).astype(np.float32)
    return {"p": p, "y": y, "z": z, "yreg": rng.normal(size=(4, 3)).astype(np.float32),
            "u": dirs / np.linalg.norm(dirs, axis=1, keepdims=True),
            "v": (lambda d: d / np.linalg.norm(d, axis=1, keepdims=True))(rng.normal(size=(4, 3)).astype(np.float32)),
            "onehot": np.eye(3, dtype=np.float32)[[0, 2, 1, 2]], "ids": np.array([0, 2, 1, 2], np.int32)}


LOSSES = {
    "absolute_difference": "tf1.losses.absolute_difference(yreg, z, weights=W{r})",
    "mean_squared_error": "tf1.losses.mean_squared_error(yreg, z, weights=W{r})",
    "huber_loss": "tf1.losses.huber_loss(yreg, z, weights=W{r})",
    "huber_loss_delta": "tf1.losses.huber_loss(yreg, z, weights=W, delta=0.7{r})",
    "hinge_loss": "tf1.losses.hinge_loss(y, z, weights=W{r})",
    "log_loss": "tf1.losses.log_loss(y, p, weights=W{r})",
    "log_loss_epsilon": "tf1.losses.log_loss(y, p, weights=W, epsilon=0.1{r})",
    "cosine_distance": "tf1.losses.cosine_distance(u, v, axis=1, weights=WC{r})",
    "cosine_distance_dim": "tf1.losses.cosine_distance(u, v, dim=1, weights=WC{r})",
    "sigmoid_cross_entropy": "tf1.losses.sigmoid_cross_entropy(y, z, weights=W{r})",
    "sigmoid_cross_entropy_smoothing": "tf1.losses.sigmoid_cross_entropy(y, z, weights=W, label_smoothing=0.2{r})",
    "softmax_cross_entropy": "tf1.losses.softmax_cross_entropy(onehot, z, weights=WB{r})",
    "softmax_cross_entropy_smoothing": "tf1.losses.softmax_cross_entropy(onehot, z, weights=WB, "
                                       "label_smoothing=0.3{r})",
    "sparse_softmax_cross_entropy": "tf1.losses.sparse_softmax_cross_entropy(ids, z, weights=WB{r})",
    "mean_pairwise_squared_error": "tf1.losses.mean_pairwise_squared_error(yreg, z, weights=WC)",
}
WEIGHTS = {"py_one": (1.0, 1.0, 1.0), "py_half": (0.5, 0.5, 0.5), "one": (1.0, 1.0, 1.0),
           "scalar": (0.5, 0.5, 0.5), "zero": (0.0, 0.0, 0.0),
           "column": ([[1.0], [0.0], [2.0], [0.5]], [[1.0], [0.0], [2.0], [0.5]], [1.0, 0.0, 2.0, 0.5]),
           "row": ([[0.0, 1.0, 3.0]], [[2.0]], [2.0, 2.0, 2.0, 2.0]),
           "full": ([[1, 0, 2], [0, 0, 0], [1, 1, 1], [0.5, 0, 3]], [[1], [0], [2], [0.5]], [0.0, 1.0, 0.0, 3.0])}
REDUCTIONS = ["NONE", "SUM", "MEAN", "SUM_OVER_BATCH_SIZE", "SUM_BY_NONZERO_WEIGHTS", "default"]


def loss_case(tf1: Any, inputs: dict, case: str, wname: str, reduction: str) -> dict:
    """The loss ``LOSSES[case]`` with weights ``WEIGHTS[wname]`` and ``reduction``: its value, name and the
    losses collection (or the type of the error raised)."""
    w, wc, wb = WEIGHTS[wname]
    r = "" if reduction == "default" else f", reduction=tf1.losses.Reduction.{reduction}"
    with tf1.Graph().as_default():
        env = {k: tf1.constant(v) for k, v in inputs.items()}
        python = wname.startswith("py_")   # Python numbers, not tensors: TF treats them apart
        env.update(tf1=tf1, **{k: value if python else tf1.constant(value, tf1.float32)
                               for k, value in (("W", w), ("WC", wc), ("WB", wb))})
        try:
            loss = eval(LOSSES[case].format(r=r), env)
        except (ValueError, TypeError) as e:
            return {"error": type(e).__name__}
        with tf1.Session() as sess:
            value = sess.run(loss)
        return {"value": floats(value), "name": loss.name,
                "collected": [t.name for t in tf1.get_collection(tf1.GraphKeys.LOSSES)]}


def loss_keys() -> list[tuple[str, str, str]]:
    """Every (loss, weights, reduction) recorded; mean_pairwise_squared_error has no reduction argument."""
    return [(case, wname, reduction) for case in LOSSES for wname in WEIGHTS
            for reduction in (REDUCTIONS if case != "mean_pairwise_squared_error" else ["default"])]


def metric_batches():
    rng = np.random.RandomState(1)
    batches = []
    for _ in range(4):
        labels = (rng.uniform(size=6) > 0.5).astype(np.int64)
        scores = np.clip(labels * 0.3 + rng.uniform(size=6) * 0.7, 0, 1).astype(np.float32)
        weights = rng.choice([0.0, 0.5, 1.0, 2.0], size=6).astype(np.float32)
        classes = rng.randint(0, 3, size=6).astype(np.int64)
        guesses = np.where(rng.uniform(size=6) > 0.4, classes, rng.randint(0, 3, size=6)).astype(np.int64)
        values = rng.normal(size=6).astype(np.float32)
        batches.append({"labels": labels, "scores": scores, "weights": weights, "classes": classes,
                        "guesses": guesses, "values": values})
    return batches


METRICS = {
    "accuracy": "tf1.metrics.accuracy(classes, guesses)",
    "accuracy_weighted": "tf1.metrics.accuracy(classes, guesses, weights=weights)",
    "mean": "tf1.metrics.mean(values)",
    "mean_weighted": "tf1.metrics.mean(values, weights=weights)",
    "precision": "tf1.metrics.precision(labels, scores > 0.5)",
    "precision_weighted": "tf1.metrics.precision(labels, scores > 0.5, weights=weights)",
    "recall": "tf1.metrics.recall(labels, scores > 0.5)",
    "recall_weighted": "tf1.metrics.recall(labels, scores > 0.5, weights=weights)",
    "auc": "tf1.metrics.auc(labels, scores)",
    "auc_weighted": "tf1.metrics.auc(labels, scores, weights=weights, num_thresholds=50)",
    "auc_pr": "tf1.metrics.auc(labels, scores, curve='PR', num_thresholds=20)",
    "auc_minoring": "tf1.metrics.auc(labels, scores, num_thresholds=30, summation_method='minoring')",
    "auc_majoring": "tf1.metrics.auc(labels, scores, num_thresholds=30, summation_method='majoring')",
    "auc_careful": "tf1.metrics.auc(labels, scores, num_thresholds=30, summation_method='careful_interpolation')",
    "auc_pr_careful": "tf1.metrics.auc(labels, scores, curve='PR', num_thresholds=30, "
                      "summation_method='careful_interpolation')",
    "mean_iou": "tf1.metrics.mean_iou(classes, guesses, 3)",
    "mean_iou_weighted": "tf1.metrics.mean_iou(classes, guesses, 4, weights=weights)",
    "mean_squared_error": "tf1.metrics.mean_squared_error(scores, values)",
    "mean_squared_error_weighted": "tf1.metrics.mean_squared_error(scores, values, weights=weights)",
    "root_mean_squared_error": "tf1.metrics.root_mean_squared_error(scores, values, weights=weights)",
    "mean_absolute_error": "tf1.metrics.mean_absolute_error(scores, values, weights=weights)",
    "named": "tf1.metrics.accuracy(classes, guesses, name='acc')",
}


def metric_case(tf1: Any, expr: str, batches: list[dict]) -> dict:
    """The metric ``expr`` over ``batches``: ``update_op`` and then ``value`` after each, and its names."""
    with tf1.Graph().as_default():
        env = {k: tf1.placeholder(tf1.as_dtype(v.dtype), [None], name=k) for k, v in batches[0].items()}
        value, update = eval(expr, dict(env, tf1=tf1))
        record = {"expr": expr, "value_name": value.name, "update_name": update.name,
                  "local": [v.op.name for v in tf1.local_variables()],
                  "metric": [v.op.name for v in tf1.get_collection(tf1.GraphKeys.METRIC_VARIABLES)],
                  "updates": [], "values": []}
        with tf1.Session() as sess:
            sess.run(tf1.local_variables_initializer())
            record["initial"] = floats(sess.run(value))
            for b in batches:
                record["updates"].append(floats(sess.run(update, {env[k]: v for k, v in b.items()})))
                record["values"].append(floats(sess.run(value)))
        return record


def clipping(tf1: Any) -> dict:
    """Each clipping function on fixed tensors (None entries, IndexedSlices), and the names it gives."""
    out = {}
    a_val = np.array([[3.0, -4.0], [1.0, 2.0]], np.float32)
    b_val = np.array([12.0, 0.5, -1.0], np.float32)
    with tf1.Graph().as_default():
        a, b = tf1.constant(a_val), tf1.constant(b_val)
        rows = tf1.IndexedSlices(tf1.constant([[1.0, 2.0], [-2.0, 0.5]]), tf1.constant([0, 3]),
                                 tf1.constant([5, 2]))
        fetches = {
            "global_norm": tf1.global_norm([a, None, b]),
            "global_norm_slices": tf1.global_norm([rows, a]),
            "clip_by_global_norm": tf1.clip_by_global_norm([a, None, b], 5.0)[0][::2],
            "clip_by_global_norm_norm": tf1.clip_by_global_norm([a, b], 5.0)[1],
            "clip_by_global_norm_large": tf1.clip_by_global_norm([a, b], 100.0)[0],
            "clip_by_global_norm_use_norm": tf1.clip_by_global_norm([a, b], 1.0, use_norm=tf1.constant(2.0))[0],
            "clip_by_global_norm_slices": tf1.clip_by_global_norm([rows, b], 2.0)[0][0].values,
            "clip_by_norm": tf1.clip_by_norm(a, 2.0),
            "clip_by_norm_axes": tf1.clip_by_norm(a, 2.0, axes=[1]),
            "clip_by_norm_negative": tf1.clip_by_norm(a, -1.0),
            "clip_by_norm_slices": tf1.clip_by_norm(rows, 1.0).values,
            "clip_by_average_norm": tf1.clip_by_average_norm(a, 0.5),
            "clip_by_value": tf1.clip_by_value(a, -1.0, 2.5),
            "clip_by_value_tensor_bounds": tf1.clip_by_value(a, [[-1.0], [1.5]], 2.5),
        }
        names = {"global_norm": fetches["global_norm"].name,
                 "clip_by_global_norm": [t.name for t in fetches["clip_by_global_norm"]],
                 "clip_by_norm": fetches["clip_by_norm"].name, "clip_by_value": fetches["clip_by_value"].name,
                 "clip_by_average_norm": fetches["clip_by_average_norm"].name}
        with tf1.Session() as sess:
            values = sess.run(fetches)
    for key, value in values.items():
        out[key] = [floats(v) for v in value] if isinstance(value, list) else floats(value)
    out["names"] = names
    return out


def pipeline(tf1: Any) -> dict:
    """compute_gradients -> clip_by_global_norm -> apply_gradients(global_step=) on a small regression."""
    rng = np.random.RandomState(2)
    x_val = rng.normal(size=(8, 3)).astype(np.float32)
    y_val = (x_val @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3).astype(np.float32)
    with tf1.Graph().as_default():
        step = tf1.train.get_or_create_global_step()
        x, y = tf1.constant(x_val), tf1.constant(y_val)
        w = tf1.Variable(np.zeros((3, 1), np.float32), name="w")
        b = tf1.Variable(0.0, name="b")
        loss = tf1.losses.mean_squared_error(y, tf1.matmul(x, w) + b)
        lr = tf1.train.exponential_decay(0.5, step, 3, 0.5, staircase=True)
        opt = tf1.train.MomentumOptimizer(lr, 0.9, use_nesterov=True)
        grads, variables = zip(*opt.compute_gradients(loss), strict=True)
        clipped, norm = tf1.clip_by_global_norm(grads, 1.0)
        train = opt.apply_gradients(zip(clipped, variables, strict=True), global_step=step)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            history = []
            for _ in range(8):
                n, _ = sess.run([norm, train])
                history.append({"norm": float(n), "loss": float(sess.run(loss)), "w": floats(sess.run(w)),
                                "b": float(sess.run(b)), "step": int(sess.run(step))})
            return {"x": floats(x_val), "y": floats(y_val), "history": history, "train": train.name}


def sparse_pipeline(tf1: Any) -> dict:
    """An embedding (IndexedSlices gradient) and a dense layer: compute_gradients -> clip_by_global_norm ->
    apply_gradients with FTRL and with Adadelta, 5 steps each."""
    ids_val = [[0, 3, 3], [1, 0, 2], [4, 4, 1], [2, 3, 0]]
    labels_val = [0, 1, 1, 0]
    out = {}
    for name, make in (("ftrl", lambda: tf1.train.FtrlOptimizer(0.5, l1_regularization_strength=0.01)),
                       ("adadelta", lambda: tf1.train.AdadeltaOptimizer(2.0, epsilon=1e-3))):
        with tf1.Graph().as_default():
            step = tf1.train.get_or_create_global_step()
            emb = tf1.Variable(np.linspace(-1, 1, 10).reshape(5, 2).astype(np.float32), name="emb")
            w = tf1.Variable(np.array([[0.5, -0.5], [0.25, 1.0]], np.float32), name="w")
            features = tf1.reduce_mean(tf1.nn.embedding_lookup(emb, tf1.constant(ids_val)), axis=1)
            loss = tf1.losses.sparse_softmax_cross_entropy(tf1.constant(labels_val), tf1.matmul(features, w))
            opt = make()
            grads_and_vars = opt.compute_gradients(loss)
            sparse = [isinstance(g, tf1.IndexedSlices) for g, _ in grads_and_vars]
            clipped, norm = tf1.clip_by_global_norm([g for g, _ in grads_and_vars], 0.3)
            train = opt.apply_gradients(zip(clipped, [v for _, v in grads_and_vars], strict=True), global_step=step)
            with tf1.Session() as sess:
                sess.run(tf1.global_variables_initializer())
                history = []
                for _ in range(5):
                    n, _ = sess.run([norm, train])
                    history.append({"norm": float(n), "emb": floats(sess.run(emb)), "w": floats(sess.run(w))})
                out[name] = {"sparse_gradients": sparse, "history": history, "step": int(sess.run(step))}
    return out
