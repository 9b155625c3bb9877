"""Every dtype spelling TF accepts, every DType attribute, and dtype acceptance at each entry point.

The expected values below were recorded once from real TensorFlow (2.21, tensorflow-cpu, in graph mode via
``tf.compat.v1`` with ``disable_eager_execution()``) by evaluating ``tf.as_dtype(spelling)`` and each DType
attribute, e.g. ``python -c "import tensorflow as tf; print(tf.as_dtype(float).name, tf.int8.limits)"``;
TensorFlow is not needed to run these tests.
"""
import pickle

import numpy as np
import pytest

import s2sgrad as tf

ACCEPTED = [  # (spelling, the dtype name TF's as_dtype gives for it)
    ('bool', 'bool'), ('complex128', 'complex128'), ('complex64', 'complex64'), ('double', 'float64'),
    ('float', 'float32'), ('float16', 'float16'), ('float32', 'float32'), ('float64', 'float64'),
    ('half', 'float16'), ('int16', 'int16'), ('int32', 'int32'), ('int64', 'int64'), ('int8', 'int8'),
    ('string', 'string'), ('uint16', 'uint16'), ('uint32', 'uint32'), ('uint64', 'uint64'), ('uint8', 'uint8'),
    (float, 'float32'), (bool, 'bool'), (object, 'string'), (np.float16, 'float16'), (np.float32, 'float32'),
    (np.float64, 'float64'), (np.int8, 'int8'), (np.int16, 'int16'), (np.int32, 'int32'), (np.int64, 'int64'),
    (np.uint8, 'uint8'), (np.uint16, 'uint16'), (np.uint32, 'uint32'), (np.uint64, 'uint64'), (np.bool_, 'bool'),
    (np.complex64, 'complex64'), (np.complex128, 'complex128'), (np.str_, 'string'), (np.bytes_, 'string'),
    (np.object_, 'string'), (np.intc, 'int32'), (np.int_, 'int64'), (np.longlong, 'int64'), (np.single, 'float32'),
    (np.double, 'float64'), (np.half, 'float16'), (np.dtype('float32'), 'float32'), (np.dtype('<f4'), 'float32'),
    (np.dtype('>f4'), 'float32'), (np.dtype('f8'), 'float64'), (np.dtype('i8'), 'int64'),
    (np.dtype('u4'), 'uint32'), (np.dtype('U5'), 'string'), (np.dtype('S5'), 'string'),
    (np.dtype(object), 'string'), (np.dtype('bool'), 'bool'), (np.dtype('c16'), 'complex128'),
    (np.array([1.0]).dtype, 'float64'), (np.arange(3).dtype, 'int64'), (1, 'float32'), (2, 'float64'),
    (3, 'int32'), (4, 'uint8'), (5, 'int16'), (6, 'int8'), (7, 'string'), (8, 'complex64'), (9, 'int64'),
    (10, 'bool'), (17, 'uint16'), (18, 'complex128'), (19, 'float16'), (22, 'uint32'), (23, 'uint64'),
]
REFUSED = [  # TF's as_dtype raises TypeError for each
    int, complex, str, bytes, None, 0, 99, 'foo', 'int', 'long', 'str', 'object', 'complex', 'f4', '<f4',
    'Float32', 'FLOAT', '', [1], (np.float32,), np.longdouble, np.datetime64, np.timedelta64, np.void,
    np.dtype([('a', 'f4')]), np.dtype('M8[s]'),
]
TF_ONLY = [  # names TF knows whose types NumPy lacks: s2sgrad refuses them, saying so
    'bfloat16', 'float4_e2m1fn', 'float8_e4m3b11fnuz', 'float8_e4m3fn', 'float8_e4m3fnuz', 'float8_e5m2',
    'float8_e5m2fnuz', 'int2', 'int4', 'qint16', 'qint32', 'qint8', 'quint16', 'quint8', 'resource', 'uint2',
    'uint4', 'variant', 'float32_ref', 'int64_ref',
]
FLAGS = {  # is_floating, is_integer, is_unsigned, is_bool, is_complex, is_numeric, is_quantized
    'float16': (True, False, False, False, False, True, False),
    'float32': (True, False, False, False, False, True, False),
    'float64': (True, False, False, False, False, True, False),
    'int8': (False, True, False, False, False, True, False),
    'int16': (False, True, False, False, False, True, False),
    'int32': (False, True, False, False, False, True, False),
    'int64': (False, True, False, False, False, True, False),
    'uint8': (False, True, True, False, False, True, False),
    'uint16': (False, True, True, False, False, True, False),
    'uint32': (False, True, True, False, False, True, False),
    'uint64': (False, True, True, False, False, True, False),
    'bool': (False, False, False, True, False, False, False),
    'string': (False, False, False, False, False, False, False),
    'complex64': (False, False, False, False, True, True, False),
    'complex128': (False, False, False, False, True, True, False),
}
LAYOUT = {  # size, real_dtype, base_dtype, as_numpy_dtype (a NumPy type's name), as_datatype_enum
    'float16': (2, 'float16', 'float16', 'float16', 19),
    'float32': (4, 'float32', 'float32', 'float32', 1),
    'float64': (8, 'float64', 'float64', 'float64', 2),
    'int8': (1, 'int8', 'int8', 'int8', 6),
    'int16': (2, 'int16', 'int16', 'int16', 5),
    'int32': (4, 'int32', 'int32', 'int32', 3),
    'int64': (8, 'int64', 'int64', 'int64', 9),
    'uint8': (1, 'uint8', 'uint8', 'uint8', 4),
    'uint16': (2, 'uint16', 'uint16', 'uint16', 17),
    'uint32': (4, 'uint32', 'uint32', 'uint32', 22),
    'uint64': (8, 'uint64', 'uint64', 'uint64', 23),
    'bool': (1, 'bool', 'bool', 'bool', 10),
    'string': (0, 'string', 'string', 'object', 7),
    'complex64': (8, 'float32', 'complex64', 'complex64', 8),
    'complex128': (16, 'float64', 'complex128', 'complex128', 18),
}
RANGES = {  # min, max: an int, (NumPy float type, value), or the error TF raises
    'float16': (('float16', -65504.0), ('float16', 65504.0)),
    'float32': (('float32', -3.4028234663852886e+38), ('float32', 3.4028234663852886e+38)),
    'float64': (('float64', -1.7976931348623157e+308), ('float64', 1.7976931348623157e+308)),
    'int8': (-128, 127),
    'int16': (-32768, 32767),
    'int32': (-2147483648, 2147483647),
    'int64': (-9223372036854775808, 9223372036854775807),
    'uint8': (0, 255),
    'uint16': (0, 65535),
    'uint32': (0, 4294967295),
    'uint64': (0, 18446744073709551615),
    'bool': ('TypeError', 'TypeError'),
    'string': ('TypeError', 'TypeError'),
    'complex64': ('TypeError', 'TypeError'),
    'complex128': ('TypeError', 'TypeError'),
}
LIMITS = {  # TF's DType.limits
    'float16': 'ValueError', 'float32': (0, 1), 'float64': (0, 1), 'int8': (0, 127), 'int16': (0, 32767),
    'int32': (0, 2147483647), 'int64': (0, 9223372036854775807), 'uint8': (0, 255), 'uint16': (0, 65535),
    'uint32': (0, 4294967295), 'uint64': (0, 18446744073709551615), 'bool': (0, True), 'string': 'ValueError',
    'complex64': 'ValueError', 'complex128': 'ValueError',
}
DTYPE_NAMES = list(FLAGS)


@pytest.mark.parametrize("spelling, name", ACCEPTED, ids=[repr(s) for s, _ in ACCEPTED])
def test_every_spelling_tf_accepts_gives_tfs_dtype(spelling, name):
    dtype = tf.as_dtype(spelling)
    assert dtype is getattr(tf, name) and dtype.name == name
    assert tf.dtypes.as_dtype(spelling) is dtype and dtype == spelling


@pytest.mark.parametrize("spelling", REFUSED, ids=[repr(s) for s in REFUSED])
def test_spellings_tf_refuses_get_tfs_type_error(spelling):
    with pytest.raises(TypeError, match=r"^Cannot convert the argument `type_value`: .* to a TensorFlow DType\.$"):
        tf.as_dtype(spelling)
    assert tf.float32 != spelling and not tf.float32 == spelling


@pytest.mark.parametrize("name", TF_ONLY)
def test_tf_dtypes_numpy_cannot_hold_are_refused_saying_so(name):
    with pytest.raises(TypeError, match=rf"^TensorFlow dtype '{name}' is not supported by s2sgrad; supported "
                                        r"dtypes: float16, float32, .*complex128$"):
        tf.as_dtype(name)


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_dtype_attributes_match_tf(name):
    dtype = tf.as_dtype(name)
    flags = (dtype.is_floating, dtype.is_integer, dtype.is_unsigned, dtype.is_bool, dtype.is_complex,
             dtype.is_numeric, dtype.is_quantized)
    assert flags == FLAGS[name]
    size, real, base, numpy_type, enum = LAYOUT[name]
    assert (dtype.size, dtype.real_dtype.name, dtype.base_dtype.name) == (size, real, base)
    assert dtype.as_numpy_dtype.__name__ == numpy_type and dtype.as_datatype_enum == enum
    assert tf.as_dtype(enum) is dtype and dtype.is_numpy_compatible


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_min_max_match_tf(name):
    dtype = tf.as_dtype(name)
    for attr, expected in zip(("min", "max"), RANGES[name], strict=True):
        if expected == "TypeError":
            with pytest.raises(TypeError, match=rf"^Cannot find {attr}imum value of <dtype: '{name}'> with type "
                                                rf"<dtype: '{name}'>\.$"):
                getattr(dtype, attr)
        elif isinstance(expected, tuple):
            got = getattr(dtype, attr)
            assert type(got).__name__ == expected[0] and float(got) == expected[1]
        else:
            got = getattr(dtype, attr)
            assert type(got) is int and got == expected


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_limits_match_tf(name):
    dtype = tf.as_dtype(name)
    if LIMITS[name] == "ValueError":
        with pytest.raises(ValueError, match=rf"^<dtype: '{name}'> does not have defined limits\.$"):
            _ = dtype.limits
    else:
        assert dtype.limits == LIMITS[name] and type(dtype.limits[1]) is type(LIMITS[name][1])


def test_dtype_text_equality_hash_and_pickle_as_tf():
    assert repr(tf.float32) == "tf.float32" and str(tf.float32) == "<dtype: 'float32'>"
    assert tf.float32 == np.float32 and np.float32 == tf.float32 and tf.float32 == "float" and tf.float32 == float  # noqa: E721
    assert tf.float32 != tf.float64 and tf.float32 != None and tf.float32 != "foo" and tf.float32 != 3  # noqa: E711
    assert tf.float32 == 1  # TF's DataType number of float32
    assert hash(tf.double) == hash(tf.float64) and tf.double is tf.float64 and tf.half is tf.float16
    assert {tf.float32: 1}[tf.as_dtype("float")] == 1
    assert pickle.loads(pickle.dumps(tf.uint64)) is tf.uint64
    assert tf.float32.is_compatible_with("float32") and not tf.float32.is_compatible_with(tf.int32)


def test_dtype_exposes_tf1s_public_attributes():
    # TF 1.x DType's public attributes (TF 2's extra ones are tf.function tracing machinery)
    tf1 = {"as_datatype_enum", "as_numpy_dtype", "base_dtype", "is_bool", "is_compatible_with", "is_complex",
           "is_floating", "is_integer", "is_numpy_compatible", "is_quantized", "is_unsigned", "limits", "max",
           "min", "name", "real_dtype", "size"}
    assert tf1 <= set(dir(tf.float32))


def test_arrays_are_not_taken_for_their_dtype():
    # deliberate difference: TF's as_dtype(np.zeros(2)) is float64; here an array is a mistake, say so
    with pytest.raises(TypeError, match="Cannot convert the argument `type_value`"):
        tf.as_dtype(np.zeros(2))
    assert tf.as_dtype(np.zeros(2).dtype) is tf.float64


SPELLINGS_OF_FLOAT64 = ["float64", "double", np.float64, np.dtype("float64"), tf.float64, 2]


def _entry_points(dtype):
    """Every public function that takes a dtype, called with ``dtype``: (what, tensor or variable)."""
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    return [
        ("placeholder", tf.placeholder(dtype, [2])),
        ("placeholder_with_default", tf.placeholder_with_default(tf.constant([1.5, 2.5], dtype), [2])),
        ("cast", tf.cast(x, dtype)),
        ("constant", tf.constant([1, 2], dtype=dtype)),
        ("convert_to_tensor", tf.convert_to_tensor([1, 2], dtype=dtype)),
        ("zeros", tf.zeros([2], dtype)), ("ones", tf.ones([2], dtype=dtype)),
        ("zeros_like", tf.zeros_like(x, dtype=dtype)), ("ones_like", tf.ones_like(x, dtype=dtype)),
        ("range", tf.range(3, dtype=dtype)), ("eye", tf.eye(2, dtype=dtype)),
        ("one_hot", tf.one_hot([0, 1], 2, dtype=dtype)), ("count_nonzero", tf.count_nonzero(x, dtype=dtype)),
        ("random_normal", tf.random_normal([2], dtype=dtype, seed=1)),
        ("random_uniform", tf.random_uniform([2], dtype=dtype, seed=1)),
        ("truncated_normal", tf.truncated_normal([2], dtype=dtype, seed=1)),
        ("Variable", tf.Variable([1.0, 2.0], dtype=dtype)),
        ("get_variable", tf.get_variable("v", [2], dtype=dtype)),
        ("zeros_initializer", tf.zeros_initializer(dtype=dtype)([2])),
        ("ones_initializer", tf.ones_initializer(dtype=dtype)([2])),
        ("constant_initializer", tf.constant_initializer(3.0, dtype=dtype)([2])),
        ("random_normal_initializer", tf.random_normal_initializer(seed=1, dtype=dtype)([2])),
        ("random_uniform_initializer", tf.random_uniform_initializer(seed=1, dtype=dtype)([2])),
        ("truncated_normal_initializer", tf.truncated_normal_initializer(seed=1, dtype=dtype)([2])),
        ("glorot_uniform_initializer", tf.glorot_uniform_initializer(seed=1, dtype=dtype)([2, 2])),
        ("variance_scaling_initializer", tf.variance_scaling_initializer(seed=1, dtype=dtype)([2, 2])),
        ("initializer call dtype", tf.zeros_initializer()([2], dtype=dtype)),
    ]


@pytest.mark.parametrize("spelling", SPELLINGS_OF_FLOAT64, ids=repr)
def test_every_entry_point_takes_every_spelling(spelling):
    with tf.Graph().as_default():
        made = _entry_points(spelling)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for what, t in made:
                assert t.dtype is tf.float64, what
                if what.startswith("placeholder"):
                    continue
                assert sess.run(t).dtype == np.float64, what


@pytest.mark.parametrize("call", [
    lambda d: tf.placeholder(d), lambda d: tf.cast(tf.constant(1.0), d), lambda d: tf.zeros([2], d),
    lambda d: tf.constant(1, dtype=d), lambda d: tf.Variable(1.0, dtype=d), lambda d: tf.get_variable("w", [2], d),
    lambda d: tf.random_uniform([2], dtype=d), lambda d: tf.zeros_initializer(dtype=d),
    lambda d: tf.range(3, dtype=d), lambda d: tf.one_hot([1], 2, dtype=d), lambda d: tf.ones_like([1.0], dtype=d),
], ids=["placeholder", "cast", "zeros", "constant", "Variable", "get_variable", "random_uniform", "initializer",
        "range", "one_hot", "ones_like"])
@pytest.mark.parametrize("bad", ["foo", int, "bfloat16"])
def test_every_entry_point_refuses_a_bad_dtype_with_a_type_error(call, bad):
    with tf.Graph().as_default(), pytest.raises(TypeError, match=repr(bad).replace("'", ".").replace("(", r"\(")):
        call(bad)


@pytest.mark.parametrize("call, what", [
    (lambda: tf.argmax([1.0, 2.0], output_type=tf.float32), "output_type"),
    (lambda: tf.argmin([1.0, 2.0], output_type="float64"), "output_type"),
    (lambda: tf.shape([1.0], out_type=tf.float64), "out_type"),
    (lambda: tf.size([1.0], out_type=np.float32), "out_type"),
])
def test_index_outputs_must_be_int32_or_int64(call, what):
    with tf.Graph().as_default(), pytest.raises(TypeError, match=rf"^Value passed to parameter '{what}' has DataType "
                                                              r"float\d\d not in list of allowed values: int32, int64"):
        call()


def test_index_outputs_take_any_spelling_of_int64():
    with tf.Graph().as_default(), tf.Session() as sess:
        got = sess.run([tf.argmax([1.0, 2.0], output_type="int64"), tf.shape([1.0], out_type=np.int64),
                        tf.size([1.0], out_type=np.dtype("int64")), tf.argmin([1.0, 2.0], output_type=9)])
    assert [g.dtype for g in got] == [np.int64] * 4 and [int(g.reshape(-1)[0]) for g in got] == [1, 1, 1, 0]


# (expression, result dtype, result) recorded from TF graph-mode runs of the same expressions
UNSIGNED_AND_COMPLEX = [
    ("tf.cast(c([1.5, 2.7]), U32)", "uint32", [1, 2]), ("tf.cast(c([3], U32), tf.float32)", "float32", [3.0]),
    ("tf.cast(c([1.5]), C64)", "complex64", [1.5 + 0j]), ("tf.cast(c([1+2j]), tf.float32)", "float32", [1.0]),
    ("tf.cast(c([1+2j], C64), C128)", "complex128", [1 + 2j]), ("tf.cast(c([7], U64), tf.int32)", "int32", [7]),
    ("tf.cast(c([-1]), U32)", "uint32", [4294967295]), ("tf.cast(c([True]), U32)", "uint32", [1]),
    ("tf.cast(c([3], U32), tf.bool)", "bool", [True]),
    ("c([1], U32) + c([2], U32)", "uint32", [3]), ("c([1], U32) - c([2], U32)", "uint32", [4294967295]),
    ("c([3], U64) * c([2], U64)", "uint64", [6]), ("c([7], U32) // c([2], U32)", "uint32", [3]),
    ("c([7], U32) % c([2], U32)", "uint32", [1]), ("c([7], U32) / c([2], U32)", "float64", [3.5]),
    ("c([7], U64) / c([2], U64)", "float64", [3.5]), ("tf.square(c([3], U32))", "uint32", [9]),
    ("tf.maximum(c([1], U32), c([2], U32))", "uint32", [2]), ("c([1], U32) < c([2], U32)", "bool", [True]),
    ("tf.reduce_sum(c([1, 2], U32))", "uint32", 3), ("tf.reduce_max(c([1, 2], U64))", "uint64", 2),
    ("tf.reduce_mean(c([1, 2], U32))", "uint32", 1), ("tf.argmax(c([1, 2], U32))", "int64", 1),
    ("tf.sqrt(c([1+1j], C64))", "complex64", [1.0986841917037964 + 0.45508983731269836j]),
    ("tf.reduce_sum(c([1+1j, 2j], C128))", "complex128", 1 + 3j),
    ("tf.matmul(c([[1+1j]], C64), c([[1-1j]], C64))", "complex64", [[2 + 0j]]),
    ("c([1+1j], C64) * 2", "complex64", [2 + 2j]), ("tf.zeros([2], U32)", "uint32", [0, 0]),
    ("tf.ones([2], U64)", "uint64", [1, 1]), ("tf.fill([2], c(3, U32))", "uint32", [3, 3]),
    ("tf.zeros_like(c([1.]), dtype=U32)", "uint32", [0]), ("tf.one_hot([1], 3, dtype=U64)", "uint64", [[0, 1, 0]]),
    ("tf.eye(2, dtype=C64)", "complex64", [[1, 0], [0, 1]]), ("tf.gather(c([5, 6], U32), [1])", "uint32", [6]),
    ("tf.reshape(c([1, 2], U64), [2, 1])", "uint64", [[1], [2]]),
    ("tf.concat([c([1], U32), c([2], U32)], 0)", "uint32", [1, 2]),
    ("tf.transpose(c([[1, 2]], U32))", "uint32", [[1], [2]]), ("tf.tile(c([1], U64), [3])", "uint64", [1, 1, 1]),
    ("tf.constant(2**40, dtype=U64)", "uint64", 1099511627776), ("tf.count_nonzero(c([1, 0], U32))", "int64", 1),
    ("tf.minimum(c([1], U64), 3)", "uint64", [1]), ("c([1], U32) + 1", "uint32", [2]),
    ("tf.add_n([c([1], U32), c([2], U32)])", "uint32", [3]), ("tf.cumsum(c([1, 2], U32))", "uint32", [1, 3]),
    ("tf.reduce_prod(c([2, 3], U64))", "uint64", 6),
    ("tf.where(c([True, False]), c([1, 2], U32), c([3, 4], U32))", "uint32", [1, 4]),
    ("tf.clip_by_value(c([5], U32), c(1, U32), c(3, U32))", "uint32", [3]),
    ("tf.floormod(c([5], U64), c([3], U64))", "uint64", [2]), ("tf.stack([c(1, U64), c(2, U64)])", "uint64", [1, 2]),
]
NAMESPACE = {"tf": tf, "c": tf.constant, "U32": tf.uint32, "U64": tf.uint64, "C64": tf.complex64,
             "C128": tf.complex128}


@pytest.mark.parametrize("expr, dtype, expected", UNSIGNED_AND_COMPLEX, ids=[e for e, _, _ in UNSIGNED_AND_COMPLEX])
def test_unsigned_and_complex_ops_compute_as_tf(expr, dtype, expected):
    with tf.Graph().as_default(), tf.Session() as sess:
        got = sess.run(eval(expr, NAMESPACE))
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_allclose(got, np.array(expected, dtype=dtype), rtol=1e-7)


@pytest.mark.parametrize("expr", ["tf.negative(c([1], U32))", "-c([1], U64)", "tf.abs(c([1], U32))",
                                  "tf.sign(c([3], U64))", "tf.exp(c([1], U32))", "c([1], U32) + 1.5"])
def test_ops_tf_refuses_for_unsigned_are_type_errors(expr):
    with tf.Graph().as_default(), pytest.raises(TypeError, match="uint"):
        eval(expr, NAMESPACE)


def test_abs_of_complex_is_real_and_its_gradient_is_tfs():
    # recorded from TF: abs([3+4j, 1-1j]) is float32 [5, 1.4142135]; the gradient of sum(abs(x) * [1, 2])
    # is complex64 [0.6+0.8j, 1.4142135-1.4142135j]
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.constant([3 + 4j, 1 - 1j], tf.complex64)
        y = tf.abs(x)
        g = tf.gradients(tf.reduce_sum(y * tf.constant([1.0, 2.0])), x)[0]
        assert y.dtype is tf.float32 and g.dtype is tf.complex64
        got_y, got_g = sess.run([y, g])
    np.testing.assert_allclose(got_y, [5.0, 1.4142135], rtol=1e-6)
    np.testing.assert_allclose(got_g, [0.6 + 0.8j, 1.4142135 - 1.4142135j], rtol=1e-6)
