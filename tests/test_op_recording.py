"""What ``Graph.create_op`` records per op, through its caches: the user's line (cached per instruction
offset, the code checked by identity) and the op's name (checked once, then looked up)."""
import inspect

import numpy as np
import pytest

import s2sgrad as tf
from s2sgrad.ssa import recording_state


def first(x):
    return tf.tanh(x)


def second(x):
    return tf.tanh(x)


def test_two_functions_recording_at_the_same_offset_get_their_own_lines():
    assert first.__code__.co_code == second.__code__.co_code   # the same offsets: one cache entry each time
    x = tf.placeholder(tf.float64, [3])
    ops = [f(x).op for _ in range(3) for f in (first, second)]
    lines = [inspect.getsourcelines(f)[1] + 1 for f in (first, second)]
    assert [op.location for op in ops] == [(__file__, lines[0]), (__file__, lines[1])] * 3


def test_the_ops_of_a_loop_record_its_line():
    x = tf.placeholder(tf.float64, [3])
    line = inspect.currentframe().f_lineno + 1
    ops = [tf.tanh(x * 2.0).op for _ in range(3)]
    assert {op.location for op in ops} == {(__file__, line)}
    assert {op.inputs[0].op.location for op in ops} == {(__file__, line)}


def test_a_name_is_checked_every_time_even_once_it_is_known():
    x = tf.placeholder(tf.float64, [3])
    assert tf.identity(x, name="same").op.name == "same"
    assert tf.identity(x, name="same").op.name == "same_1"
    assert tf.identity(x, name="exact/").op.name == "exact"
    with pytest.raises(ValueError, match="Duplicate node name in graph: 'exact'"):
        tf.identity(x, name="exact/")
    with pytest.raises(ValueError, match=r"'a b' is not a valid node name"):
        tf.identity(x, name="a b")
    with pytest.raises(ValueError, match=r"'a b' is not a valid node name"):   # not cached as valid
        tf.identity(x, name="a b")
    with pytest.raises(ValueError, match=r"np.str_\('same'\) is not a valid node name"):   # a str subclass, as before
        tf.identity(x, name=np.str_("same"))
    with pytest.raises(TypeError, match="node name must be a string"):
        tf.identity(x, name=3)


def test_the_name_cache_stays_bounded_and_right():
    for i in range(5000):
        assert recording_state.exact_name(f"n{i}/") == f"n{i}"
        assert len(recording_state.EXACT_NAMES) <= 4096
    x = tf.placeholder(tf.float64, [3])
    assert [tf.identity(x, name=n).op.name for n in ("n1/", "n4999", "n4999")] == ["n1", "n4999", "n4999_1"]
