"""TF-1.x's namespaces and old spellings: each is the op it stands for, computes TF's numbers, and
has TF's signature (recorded from TensorFlow in tests/data/tf1_signatures.txt by tools/tf1_names.py).
"""
from __future__ import annotations

import inspect
import math
import subprocess
import sys

import numpy as np
import pytest
import s2sgrad.compat.v1 as tf_v1

import s2sgrad as tf
from tf1_signatures import TF_SIGNATURES, normalized, signature_text
from tools import coverage_table


def run(*fetches, feed=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(list(fetches), feed)


# (TF name, s2sgrad object it must be): TF's own aliases (the same object in TensorFlow too).
ALIASES = [
    ("compat.v1", tf), ("compat.v1.placeholder", tf.placeholder), ("mul", tf.multiply), ("sub", tf.subtract),
    ("neg", tf.negative), ("pack", tf.stack), ("unpack", tf.unstack), ("lin_space", tf.linspace),
("initialize_variables", tf.variables_initializer),
    ("initialize_local_variables", tf.local_variables_initializer), ("no_gradient", tf.NoGradient),
    ("OpError", tf.errors.OpError), ("random.normal", tf.random_normal), ("random.uniform", tf.random_uniform),
    ("random.truncated_normal", tf.truncated_normal), ("random.set_random_seed", tf.set_random_seed),
    ("random.set_seed", tf.set_random_seed), ("initializers.zeros", tf.zeros_initializer),
    ("initializers.ones", tf.ones_initializer), ("initializers.constant", tf.constant_initializer),
    ("initializers.random_normal", tf.random_normal_initializer),
    ("initializers.random_uniform", tf.random_uniform_initializer),
    ("initializers.truncated_normal", tf.truncated_normal_initializer),
    ("initializers.glorot_uniform", tf.glorot_uniform_initializer),
    ("initializers.glorot_normal", tf.glorot_normal_initializer),
    ("initializers.variance_scaling", tf.variance_scaling_initializer),
    ("initializers.global_variables", tf.global_variables_initializer),
    ("initializers.local_variables", tf.local_variables_initializer),
    ("initializers.variables", tf.variables_initializer), ("debugging.is_finite", tf.is_finite),
    ("debugging.is_inf", tf.is_inf), ("debugging.is_nan", tf.is_nan), ("math.softmax", tf.nn.softmax),
    ("math.log_softmax", tf.nn.log_softmax), ("math.softplus", tf.nn.softplus), ("math.softsign", tf.nn.softsign),
    ("math.l2_normalize", tf.nn.l2_normalize), ("linalg.l2_normalize", tf.nn.l2_normalize),
    ("linalg.transpose", tf.linalg.matrix_transpose), ("manip.tile", tf.tile), ("manip.reshape", tf.reshape),
    ("manip.reverse", tf.reverse), ("manip.gather_nd", tf.gather_nd), ("manip.scatter_nd", tf.scatter_nd),
    ("contrib.framework.get_global_step", tf.train.get_global_step),
    ("contrib.framework.get_or_create_global_step", tf.train.get_or_create_global_step),
    ("contrib.layers.xavier_initializer_conv2d", tf.contrib.layers.xavier_initializer),
    ("errors.UnsupportedTensorFlowName", tf.tf1_api.UnsupportedTensorFlowName),
]


def resolve(name: str):
    value = tf
    for part in name.split("."):
        value = getattr(value, part)
    return value


@pytest.mark.parametrize("name, target", ALIASES, ids=[n for n, _ in ALIASES])
def test_aliases_are_the_object_they_stand_for(name, target):
    assert resolve(name) is target


# Names s2sgrad added for TF-1.x compatibility: parameters and their defaults exactly as TensorFlow's.
CHECKED = ["arg_max", "arg_min", "concat", "concat_v2", "select", "all_variables", "executing_eagerly",
           "executing_eagerly_outside_functions", "disable_tensor_equality", "enable_tensor_equality",
           "disable_eager_execution", "disable_v2_behavior", "enable_eager_execution", "enable_v2_behavior",
           "initialize_variables", "initialize_local_variables", "compat.as_bytes", "compat.as_text", "compat.as_str",
           "compat.as_str_any", "compat.path_to_str", "errors.exception_type_from_error_code",
           "errors.error_code_from_exception_type", "random_uniform_initializer", "initializers.random_uniform",
           "linalg.transpose", "get_collection", "add_to_collection", "add_to_collections", "is_tensor",
           "train.global_step", "initializers.he_normal", "initializers.he_uniform", "initializers.lecun_normal",
           "initializers.lecun_uniform"]
NOT_FUNCTIONS = {"compat.v1", "compat.v1.placeholder", "OpError", "errors.UnsupportedTensorFlowName"}
CHECKED += [n for n, target in ALIASES if callable(target) and n not in NOT_FUNCTIONS]
# TF 0.x/1.0 names that tf.compat.v1 no longer has, and two that TF 2 extended (bad_indices_policy): their
# signatures in TensorFlow 1.x's API.
OLD_SIGNATURES = {"manip.gather_nd": "params, indices, name=None, batch_dims=0",
                  "manip.scatter_nd": "indices, updates, shape, name=None",
                  "mul": "x, y, name=None", "sub": "x, y, name=None", "neg": "x, name=None",
                  "select": "condition, t, e, name=None", "pack": "values, axis=0, name=...",
                  "unpack": "value, num=None, axis=0, name=...", "concat_v2": "values, axis, name=...",
                  "random.set_seed": "seed",
                  "contrib.layers.xavier_initializer": "uniform=True, seed=None, dtype=...",
                  "contrib.layers.xavier_initializer_conv2d": "uniform=True, seed=None, dtype=...",
                  "contrib.layers.variance_scaling_initializer":
                      "factor=2.0, mode='FAN_IN', uniform=False, seed=None, dtype=...",
                  "contrib.framework.get_global_step": "graph=None",
                  "contrib.framework.get_or_create_global_step": "graph=None"}


@pytest.mark.parametrize("name", sorted(set(CHECKED) | set(OLD_SIGNATURES)))
def test_signatures_are_tensorflows(name):
    assert signature_text(resolve(name)) == normalized(OLD_SIGNATURES.get(name) or TF_SIGNATURES[name])


# TF parameters that s2sgrad's version of a name does not take: TF 2.x additions to TF-1.x functions
# (DTensor layouts, bad_indices_policy, grad_a/grad_b, optimizer name-scope internals) and differences
# in how a class is constructed; and defaults that differ in spelling only (None means the same there).
NOT_TAKEN = {"layout", "bad_indices_policy", "grad_a", "grad_b", "use_own_namescope_for_non_slot_vars"}
KNOWN_GAPS = {"DType": {"type_enum", "handle_data"}, "dtypes.DType": {"type_enum", "handle_data"},
              "OpError": {"error_code"}, "errors.OpError": {"error_code"}, "as_dtype": {"type_value"},
              "dtypes.as_dtype": {"type_value"},
              # TF's constructor takes its C++ resource; programs make iterators from datasets or
              # Iterator.from_structure / from_string_handle, as TF's docs say to
              "data.Iterator": {"iterator_resource", "initializer", "output_types", "output_shapes",
                                "output_classes"}}
SAME_DEFAULT = {("assign", "validate_shape"), ("shape", "out_type"), ("size", "out_type")}


def _tf_parameters(text: str) -> dict[str, str | None]:
    """{name: default text or None} of a recorded signature, without *args/**kwargs."""
    items = [item.partition("=") for item in filter(None, text.split(", ")) if not item.startswith("*")]
    return {name: default or None for name, _, default in items}


def test_every_supported_name_takes_tensorflows_parameters():
    """Each TF parameter of a supported name is one of s2sgrad's (or goes to its **kwargs), with TF's
    default where that is a plain value (the ``name`` default aside)."""
    problems = []
    for name, text in sorted(TF_SIGNATURES.items()):
        if not coverage_table.supported(name):
            continue
        ours = inspect.signature(resolve(name)).parameters
        takes_any = any(p.kind is p.VAR_KEYWORD for p in ours.values())
        for param, default in _tf_parameters(text).items():
            if param not in ours:
                if not takes_any and param not in NOT_TAKEN | KNOWN_GAPS.get(name, set()):
                    problems.append(f"{name} has no parameter {param}")
            elif (default not in (None, "...") and param != "name" and (name, param) not in SAME_DEFAULT
                  and repr(ours[param].default) != default):
                problems.append(f"{name}({param}=...) defaults to {ours[param].default!r}, TF's to {default}")
    assert problems == []


def test_import_compat_v1_as_tf_runs_a_program():
    code = ("import s2sgrad.compat.v1 as tf\ntf.disable_v2_behavior()\ntf.compat.v1.disable_eager_execution()\n"
            "x = tf.placeholder('float32', [None, 2])\ny = tf.reduce_sum(x * 2.0, reduction_indices=[1])\n"
            "assert not tf.executing_eagerly()\n"
            "with tf.Session() as sess:\n    print(sess.run(y, {x: [[1.0, 2.0], [3.0, 4.0]]}))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[ 6. 14.]"


@pytest.mark.parametrize("switch", [tf.enable_eager_execution, tf.compat.v1.enable_v2_behavior])
def test_turning_eager_execution_on_is_refused_clearly(switch):
    with pytest.raises(NotImplementedError, match=rf"graph programs only.*tf\.{switch.__name__}\(\).*Session"):
        switch()
    assert tf.executing_eagerly() is False and tf.executing_eagerly_outside_functions() is False
    assert tf.disable_eager_execution() is None and tf.disable_v2_behavior() is None


def test_tensor_equality_stays_tf1s():
    a, b = tf.constant(1.0), tf.constant(1.0)
    assert tf.disable_tensor_equality() is None
    assert a == a and a != b and len({a, b}) == 2
    with pytest.raises(NotImplementedError, match=r"a == b.*same tensor.*tf\.equal\(a, b\)"):
        tf.enable_tensor_equality()


def test_old_spellings_compute_what_the_new_ones_do():
    a = tf.constant([[1.0, -2.0], [3.0, 4.0]])
    b = tf.constant([[5.0, 6.0], [-7.0, 8.0]])
    fetched = run(tf.mul(a, b), tf.sub(a, b), tf.neg(a), tf.select(tf.constant([True, False]), a, b),
                  tf.arg_max(b, 1), tf.arg_min(b, 0, output_type=tf.int32), tf.pack([a, b], axis=1),
                  tf.concat(0, [a, b]), tf.concat([a, b], 1), tf.concat_v2([a, b], 0), tf.lin_space(0.0, 1.0, 3))
    x, y = np.array([[1.0, -2.0], [3.0, 4.0]]), np.array([[5.0, 6.0], [-7.0, 8.0]])
    expected = [x * y, x - y, -x, np.array([x[0], y[1]]), [1, 1], [1, 0], np.stack([x, y], 1),
                np.concatenate([x, y], 0), np.concatenate([x, y], 1), np.concatenate([x, y], 0), [0.0, 0.5, 1.0]]
    for got, want in zip(fetched, expected, strict=True):
        np.testing.assert_allclose(got, want)
    assert fetched[4].dtype == np.int64 and fetched[5].dtype == np.int32
    assert [t.shape.as_list() for t in tf.unpack(a)] == [[2], [2]]


def test_the_old_concat_order_needs_an_int_then_a_list():
    a = tf.constant([[1.0, 2.0]])
    assert tf.concat(1, [a, a]).shape.as_list() == [1, 4]
    assert tf.concat((a, a), 0).shape.as_list() == [2, 2]
    with pytest.raises(ValueError, match="non-empty list"):
        tf.concat(0, a)


def test_old_variable_collections_and_initializers():
    v = tf.Variable([1.0, 2.0], name="v")
    local = tf.Variable([3.0], name="local", collections=["local_variables"])
    assert tf.all_variables() == [v] and tf.local_variables() == [local]
    with tf.Session() as sess:
        sess.run([tf.initialize_variables([v]), tf.initialize_local_variables()])
        np.testing.assert_allclose(sess.run(v + local), [4.0, 5.0])


def test_namespaced_random_and_initializers_draw_as_the_top_level_ones():
    tf.random.set_seed(3)
    draws = run(tf.random.normal([2000], 1.0, 2.0, seed=1), tf.random.uniform([2000], -1.0, 3.0, seed=1),
                tf.random.truncated_normal([2000], seed=1))
    assert abs(draws[0].mean() - 1.0) < 0.15 and abs(draws[0].std() - 2.0) < 0.15
    assert draws[1].min() >= -1.0 and draws[1].max() < 3.0 and abs(draws[1].mean() - 1.0) < 0.1
    assert np.abs(draws[2]).max() <= 2.0
    w = tf.get_variable("w", [3, 2], initializer=tf.initializers.constant(0.5))
    z = tf.get_variable("z", [2], initializer=tf.initializers.zeros())
    u = tf.get_variable("u", [3000], initializer=tf.initializers.random_uniform(seed=2))
    got = run(w, z, u)
    np.testing.assert_allclose(got[0], np.full((3, 2), 0.5))
    np.testing.assert_allclose(got[1], [0.0, 0.0])
    assert got[2].min() >= 0.0 and got[2].max() < 1.0 and abs(got[2].mean() - 0.5) < 0.05  # TF-1.x's [0, 1)


@pytest.mark.parametrize("uniform, mode, factor", [(True, "FAN_AVG", 1.0), (False, "FAN_AVG", 1.0),
                                                   (False, "FAN_IN", 2.0), (True, "FAN_OUT", 3.0)])
def test_contrib_variance_scaling_draws_contribs_distribution(uniform, mode, factor):
    fan_in, fan_out = 400, 100
    n = {"FAN_IN": fan_in, "FAN_OUT": fan_out, "FAN_AVG": (fan_in + fan_out) / 2}[mode]
    init = tf.contrib.layers.variance_scaling_initializer(factor, mode, uniform, seed=4)
    if (factor, mode) == (1.0, "FAN_AVG"):
        init = tf.contrib.layers.xavier_initializer(uniform, seed=4)
    w = run(tf.get_variable("w", [fan_in, fan_out], initializer=init))[0]
    if uniform:  # U(-l, l) with l = sqrt(3 factor / n)
        limit = math.sqrt(3.0 * factor / n)
        assert limit * 0.99 < np.abs(w).max() <= limit and abs(w.std() - limit / math.sqrt(3)) < 0.01 * limit
    else:  # normal with stddev sqrt(1.3 factor / n), cut at 2 stddevs (whose std is 0.8796 of that)
        sigma = math.sqrt(1.3 * factor / n)
        assert np.abs(w).max() <= 2 * sigma and abs(w.std() - 0.87962566 * sigma) < 0.01 * sigma
    with pytest.raises(TypeError, match="Unknown mode 'fan_in'"):
        tf.contrib.layers.variance_scaling_initializer(mode="fan_in")


def test_namespaced_math_and_manip_compute_as_their_targets():
    x = tf.constant([[1.0, 2.0, 3.0], [0.0, -1.0, 4.0]])
    softmax, batch_t, tiled, finite = run(tf.math.softmax(x), tf.linalg.transpose(tf.reshape(x, [1, 2, 3])),
                                          tf.manip.tile(x, [1, 2]), tf.debugging.is_finite(x / 0.0))
    e = np.exp(np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 4.0]]))
    np.testing.assert_allclose(softmax, e / e.sum(1, keepdims=True), rtol=1e-6)
    assert batch_t.shape == (1, 3, 2) and tiled.shape == (2, 6)
    np.testing.assert_array_equal(finite, [[False] * 3, [False, False, False]])


def test_compat_text_helpers():
    assert tf.compat.as_bytes("héllo") == "héllo".encode() and tf.compat.as_bytes(bytearray(b"a")) == b"a"
    assert tf.compat.as_text(b"h\xc3\xa9") == "hé" == tf.compat.as_str("hé")
    assert tf.compat.as_str_any(3) == "3" and tf.compat.as_str_any(b"x") == "x"
    import pathlib  # only this test needs it
    assert tf.compat.path_to_str(pathlib.Path("a") / "b") == str(pathlib.Path("a/b"))
    assert tf.compat.path_to_str(7) == 7
    with pytest.raises(TypeError, match="as_bytes expects bytes or str, got int"):
        tf.compat.as_bytes(3)


def test_error_codes():
    assert (tf.errors.OK, tf.errors.INVALID_ARGUMENT, tf.errors.UNAUTHENTICATED) == (0, 3, 16)
    for cls in [tf.errors.CancelledError, tf.errors.NotFoundError, tf.errors.DataLossError]:
        assert tf.errors.exception_type_from_error_code(cls.error_code) is cls
        assert tf.errors.error_code_from_exception_type(cls) == cls.error_code
    assert tf.errors.FAILED_PRECONDITION == tf.errors.FailedPreconditionError.error_code
    with pytest.raises(KeyError):
        tf.errors.exception_type_from_error_code(99)
    with pytest.raises(KeyError, match="not an OpError subclass"):
        tf.errors.error_code_from_exception_type(ValueError)


def test_every_namespace_module_is_listed_in_tf_and_importable():
    for name in ["compat", "contrib", "contrib.layers", "contrib.framework", "debugging", "initializers", "manip",
                 "random", "math", "linalg", "nn", "train", "losses", "errors", "dtypes"]:
        module = resolve(name)
        assert inspect.ismodule(module) and module.__name__ == "s2sgrad." + name
        assert all(hasattr(module, n) for n in getattr(module, "__all__", []))
    assert tf_v1 is tf


# tf.compat.v1.GraphKeys' values in TensorFlow 2.21 (the ones s2sgrad defines)
TF_GRAPH_KEYS = {"GLOBAL_VARIABLES": "variables", "VARIABLES": "variables", "LOCAL_VARIABLES": "local_variables",
                 "METRIC_VARIABLES": "metric_variables", "MODEL_VARIABLES": "model_variables",
                 "TRAINABLE_VARIABLES": "trainable_variables", "SUMMARIES": "summaries",
                 "QUEUE_RUNNERS": "queue_runners",
                 "TABLE_INITIALIZERS": "table_initializer", "MOVING_AVERAGE_VARIABLES": "moving_average_variables",
                 "REGULARIZATION_LOSSES": "regularization_losses", "SAVERS": "savers", "WEIGHTS": "weights",
                 "BIASES": "biases", "ACTIVATIONS": "activations", "UPDATE_OPS": "update_ops", "LOSSES": "losses",
                 "INIT_OP": "init_op", "LOCAL_INIT_OP": "local_init_op", "GLOBAL_STEP": "global_step",
                 "TRAIN_OP": "train_op"}


def test_graph_keys_and_collections_are_tensorflows():
    assert {k: v for k, v in vars(tf.GraphKeys).items() if k.isupper()} == TF_GRAPH_KEYS
    w = tf.Variable([1.0], name="w")
    frozen = tf.Variable([2.0], name="frozen", trainable=False)
    step = tf.train.get_or_create_global_step()
    loss = tf.losses.mean_squared_error([1.0], w)
    assert tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES) == [w, frozen, step]
    assert tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES) == [w]
    assert tf.get_collection(tf.GraphKeys.GLOBAL_STEP) == [step]
    assert tf.get_collection(tf.GraphKeys.LOSSES) == [loss]
    assert tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope="fro") == [frozen]
    tf.add_to_collection("mine", w)
    tf.add_to_collections(["a", "b"], frozen)
    tf.add_to_collections("a", w)
    assert tf.get_collection("mine") == [w] and tf.get_collection("a") == [frozen, w]
    assert tf.get_collection("b") == [frozen] and tf.get_collection("nothing") == []
    tf.get_collection("mine").append(frozen)  # a copy
    assert tf.get_collection("mine") == [w]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(tf.assign_add(step, 3))
        assert tf.train.global_step(sess, step) == 3 and type(tf.train.global_step(sess, step)) is int


def test_is_tensor_as_tensorflow_answers_it():
    """TF 2.21 (tf.compat.v1, graph mode): True for Tensor, Variable, IndexedSlices; False for an Operation,
    an array or a number."""
    v = tf.get_variable("g", [2])
    slices = tf.gradients(tf.reduce_sum(tf.gather(v, [0])), v)[0]
    assert isinstance(slices, tf.IndexedSlices)
    assert [tf.is_tensor(x) for x in [v, tf.constant(1.0), slices]] == [True, True, True]
    assert [tf.is_tensor(x) for x in [v.op, np.ones(2), 1.0, [tf.constant(1.0)]]] == [False] * 4


@pytest.mark.parametrize("name, scale, uniform", [("he_normal", 2.0, False), ("he_uniform", 2.0, True),
                                                  ("lecun_normal", 1.0, False), ("lecun_uniform", 1.0, True)])
def test_he_and_lecun_initializers_scale_by_fan_in(name, scale, uniform):
    w = run(tf.get_variable("w", [500, 20], initializer=getattr(tf.initializers, name)(seed=5)))[0]
    std = math.sqrt(scale / 500)
    if uniform:
        assert np.abs(w).max() <= math.sqrt(3) * std and abs(w.std() - std) < 0.02 * std
    else:  # variance scale / fan_in after truncation at 2 stddevs of the untruncated normal
        assert np.abs(w).max() <= 2 * std / 0.87962566 and abs(w.std() - std) < 0.02 * std


def test_reductions_take_tf1s_argument_names():
    x = tf.constant([[1.0, 2.0], [3.0, 5.0]])
    got = run(tf.reduce_sum(x, reduction_indices=[1]), tf.reduce_mean(x, reduction_indices=0, keep_dims=True),
              tf.reduce_max(x, 1, keep_dims=True), tf.argmax(x, dimension=0))
    for value, want in zip(got, [[3.0, 8.0], [[2.0, 3.5]], [[2.0], [5.0]], [1, 1]], strict=True):
        np.testing.assert_allclose(value, want)
