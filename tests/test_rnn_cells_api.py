"""The cells' API as TF-1.x has it: sizes, zero states, scopes and sharing, wrappers, and the errors."""
import numpy as np
import pytest

import s2sgrad as tf
from s2sgrad.ops import nest

rc = tf.nn.rnn_cell


def _run(fetches, feeds=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feeds)


@pytest.mark.parametrize("cell, state_size, output_size", [
    (lambda: rc.BasicRNNCell(3), 3, 3),
    (lambda: rc.BasicLSTMCell(3), rc.LSTMStateTuple(3, 3), 3),
    (lambda: rc.BasicLSTMCell(3, state_is_tuple=False), 6, 3),
    (lambda: rc.LSTMCell(3, num_proj=2), rc.LSTMStateTuple(3, 2), 2),
    (lambda: rc.LSTMCell(3, num_proj=2, state_is_tuple=False), 5, 2),
    (lambda: rc.GRUCell(4), 4, 4),
    (lambda: rc.MultiRNNCell([rc.GRUCell(4), rc.BasicLSTMCell(2)]), (4, rc.LSTMStateTuple(2, 2)), 2),
    (lambda: rc.MultiRNNCell([rc.GRUCell(4), rc.BasicRNNCell(2)], state_is_tuple=False), 6, 2),
    (lambda: rc.DropoutWrapper(rc.BasicLSTMCell(3)), rc.LSTMStateTuple(3, 3), 3),
    (lambda: rc.ResidualWrapper(rc.GRUCell(4)), 4, 4),
    (lambda: rc.DeviceWrapper(rc.GRUCell(4), "/cpu:0"), 4, 4)])
def test_sizes_and_zero_state(cell, state_size, output_size, fresh_graph):
    cell = cell()
    assert cell.state_size == state_size and cell.output_size == output_size
    zero = cell.zero_state(2, tf.float64)
    leaves = nest.flatten(zero)
    assert [leaf.shape.as_list() for leaf in leaves] == [[2, s] for s in nest.flatten(state_size)]
    assert all(leaf.dtype == tf.float64 for leaf in leaves)
    assert all((v == 0).all() for v in _run(leaves))
    assert type(zero) is type(cell.zero_state(2, tf.float32))


def test_zero_state_with_a_batch_size_known_only_at_run_time(fresh_graph):
    x = tf.placeholder(tf.float32, [None, 3])
    cell = rc.BasicLSTMCell(4)
    state = cell.zero_state(tf.shape(x)[0], tf.float32)
    assert state.c.shape.as_list() == [None, 4]
    output, _ = cell(x, state)
    assert _run(output, {x: np.ones((5, 3))}).shape == (5, 4)
    assert rc.LSTMStateTuple(*cell.zero_state(2, tf.float32)).dtype == tf.float32


def test_a_cell_called_again_shares_its_variables(fresh_graph):
    cell = rc.GRUCell(3)
    x = tf.placeholder(tf.float32, [2, 4])
    h, _ = cell(x, cell.zero_state(2, tf.float32))
    with tf.variable_scope("elsewhere"):
        cell(x, h)
    assert [v.name for v in tf.global_variables()] == [
        "gru_cell/gates/kernel:0", "gru_cell/gates/bias:0", "gru_cell/candidate/kernel:0", "gru_cell/candidate/bias:0"]
    assert cell.variables == tf.global_variables() == cell.trainable_weights and cell.built


def test_scope_argument_and_name_and_reuse(fresh_graph):
    x = tf.placeholder(tf.float32, [2, 4])
    rc.BasicRNNCell(3)(x, tf.zeros([2, 3]), scope="mine")
    rc.BasicRNNCell(3, name="named")(x, tf.zeros([2, 3]))
    shared = rc.BasicRNNCell(3, name="named", reuse=True)
    shared(x, tf.zeros([2, 3]))
    assert [v.name for v in tf.global_variables()] == ["mine/kernel:0", "mine/bias:0", "named/kernel:0",
                                                       "named/bias:0"]
    assert shared.variables == tf.global_variables()[2:]
    with pytest.raises(ValueError, match="named/kernel already exists"):
        rc.BasicRNNCell(3, name="named")(x, tf.zeros([2, 3]))


def test_two_rnns_in_one_scope_need_reuse(fresh_graph):
    steps = [tf.placeholder(tf.float32, [2, 4]) for _ in range(3)]
    tf.nn.static_rnn(rc.BasicRNNCell(3), steps, dtype=tf.float32)
    with pytest.raises(ValueError, match="rnn/basic_rnn_cell/kernel already exists"):
        tf.nn.static_rnn(rc.BasicRNNCell(3), steps, dtype=tf.float32)
    with tf.variable_scope(tf.get_variable_scope(), reuse=True):
        tf.nn.static_rnn(rc.BasicRNNCell(3), steps, dtype=tf.float32)
    assert len(tf.global_variables()) == 2


def test_a_cell_written_the_old_way_with_get_variable_in_call(fresh_graph):
    class Scaled(rc.RNNCell):
        state_size = output_size = 4

        def __call__(self, inputs, state, scope=None):
            with tf.variable_scope(scope or "scaled"):
                w = tf.get_variable("w", [4], initializer=tf.ones_initializer())
                return state * w + inputs, state * w + inputs
    outputs, state = tf.nn.static_rnn(Scaled(), [tf.ones([2, 4])] * 3, dtype=tf.float32)
    assert [v.name for v in tf.global_variables()] == ["rnn/scaled/w:0"]
    np.testing.assert_allclose(_run(state), np.full((2, 4), 3.0))


def test_lstm_initializer_and_gru_initializers_are_used(fresh_graph):
    x = tf.placeholder(tf.float32, [2, 3])
    lstm = rc.LSTMCell(2, use_peepholes=True, num_proj=1, initializer=tf.constant_initializer(0.5))
    lstm(x, lstm.zero_state(2, tf.float32))
    gru = rc.GRUCell(2, kernel_initializer=tf.ones_initializer(), bias_initializer=tf.constant_initializer(-2.0))
    gru(x, gru.zero_state(2, tf.float32))
    values = dict(zip([v.name for v in tf.global_variables()], _run(tf.global_variables()), strict=True))
    assert (values["lstm_cell/kernel:0"] == 0.5).all() and (values["lstm_cell/w_o_diag:0"] == 0.5).all()
    assert (values["lstm_cell/projection/kernel:0"] == 0.5).all() and (values["lstm_cell/bias:0"] == 0).all()
    assert (values["gru_cell/gates/bias:0"] == -2).all() and (values["gru_cell/candidate/kernel:0"] == 1).all()


def test_gru_gate_bias_starts_at_one(fresh_graph):
    gru = rc.GRUCell(2)
    gru(tf.zeros([1, 3]), gru.zero_state(1, tf.float32))
    gates_bias, candidate_bias = _run([gru.variables[1], gru.variables[3]])
    assert (gates_bias == 1).all() and (candidate_bias == 0).all()


class Echo(rc.RNNCell):
    """Outputs its inputs: shows what a wrapper feeds the cell."""
    state_size = output_size = 50

    def call(self, inputs, state):
        return inputs, state


def test_dropout_wrapper_drops_inputs_and_outputs_and_scales_the_rest(fresh_graph):
    x = tf.ones([200, 50])
    inputs_dropped, _ = rc.DropoutWrapper(Echo(), input_keep_prob=0.5, seed=3)(x, tf.zeros([200, 50]))
    plain = rc.BasicRNNCell(50)
    reference, _ = plain(x, tf.zeros([200, 50]))
    outputs_dropped, _ = rc.DropoutWrapper(plain, output_keep_prob=0.25, seed=3)(x, tf.zeros([200, 50]))
    got_inputs, got_outputs, want = _run([inputs_dropped, outputs_dropped, reference])
    assert set(np.unique(got_inputs)) == {0.0, 2.0} and 0.45 < (got_inputs == 0).mean() < 0.55
    kept = got_outputs != 0
    assert 0.2 < kept.mean() < 0.3
    np.testing.assert_allclose(got_outputs[kept], 4 * want[kept], rtol=1e-5)
    assert len(tf.global_variables()) == 2


def test_dropout_wrapper_state_filter_keeps_lstm_memory(fresh_graph):
    cell = rc.DropoutWrapper(rc.BasicLSTMCell(40), state_keep_prob=0.5, seed=1)
    plain = cell.wrapped_cell
    x = tf.constant(np.random.RandomState(0).uniform(-1, 1, (100, 3)).astype(np.float32))
    _, state = cell(x, cell.zero_state(100, tf.float32))
    reference_output, reference_state = plain(x, plain.zero_state(100, tf.float32))
    c, h, ref_c, ref_h = _run([state.c, state.h, reference_state.c, reference_state.h])
    np.testing.assert_allclose(c, ref_c, rtol=1e-6)
    dropped = h == 0
    assert 0.4 < dropped.mean() < 0.6
    np.testing.assert_allclose(h[~dropped], 2 * ref_h[~dropped], rtol=1e-5)


def test_variational_dropout_uses_one_mask_for_every_step(fresh_graph):
    cell = rc.DropoutWrapper(rc.BasicRNNCell(30), output_keep_prob=0.5, variational_recurrent=True,
                             dtype=tf.float32, seed=5)
    outputs, _ = tf.nn.static_rnn(cell, [tf.ones([4, 2])] * 3, dtype=tf.float32)
    zeros = [o == 0 for o in _run(outputs)]
    assert (zeros[0] == zeros[1]).all() and (zeros[1] == zeros[2]).all()
    assert (zeros[0] == zeros[0][:1]).all() and 0 < zeros[0].mean() < 1
    with pytest.raises(ValueError, match="dtype must be provided"):
        rc.DropoutWrapper(rc.BasicRNNCell(3), output_keep_prob=0.5, variational_recurrent=True)
    with pytest.raises(ValueError, match="input_size must be provided"):
        rc.DropoutWrapper(rc.BasicRNNCell(3), input_keep_prob=0.5, variational_recurrent=True, dtype=tf.float32)


def test_residual_and_device_wrappers(fresh_graph):
    x = tf.constant(np.full((2, 3), 0.5, np.float32))
    inner = rc.BasicRNNCell(3)
    out, state = rc.ResidualWrapper(inner)(x, tf.zeros([2, 3]))
    got_out, got_state = _run([out, state])
    np.testing.assert_allclose(got_out, got_state + 0.5, rtol=1e-6)
    custom, _ = rc.ResidualWrapper(rc.BasicRNNCell(3, name="c"), lambda i, o: o - i)(x, tf.zeros([2, 3]))
    assert custom.op.type == "Sub"
    with pytest.raises(ValueError, match="input shape"):
        rc.ResidualWrapper(rc.BasicRNNCell(4, name="d"))(x, tf.zeros([2, 4]))
    on_device, _ = rc.DeviceWrapper(rc.BasicRNNCell(3, name="e"), "/device:CPU:0")(x, tf.zeros([2, 3]))
    assert "CPU" in on_device.op.device


@pytest.mark.parametrize("call, error, message", [
    (lambda: rc.BasicRNNCell(0), ValueError, "num_units must be a positive integer"),
    (lambda: rc.LSTMCell(3, num_unit_shards=2), NotImplementedError, "num_unit_shards"),
    (lambda: rc.BasicRNNCell(3, activation="nope"), ValueError, "Unknown activation"),
    (lambda: rc.MultiRNNCell([]), ValueError, "at least one cell"),
    (lambda: rc.MultiRNNCell(rc.GRUCell(2)), TypeError, "cells must be a list or tuple"),
    (lambda: rc.MultiRNNCell([rc.BasicLSTMCell(2)], state_is_tuple=False), ValueError, "state_is_tuple"),
    (lambda: rc.DropoutWrapper(rc.GRUCell(2), output_keep_prob=1.5), ValueError, "output_keep_prob must be between"),
    (lambda: rc.DropoutWrapper("cell"), TypeError, "not a RNNCell"),
    (lambda: tf.nn.static_rnn(rc.GRUCell(2), [], dtype=tf.float32), ValueError, "inputs must not be empty"),
    (lambda: tf.nn.static_rnn(rc.GRUCell(2), tf.zeros([2, 3, 4]), dtype=tf.float32), TypeError,
     "inputs must be a sequence"),
    (lambda: tf.nn.static_rnn(rc.GRUCell(2), [tf.zeros([2, 3])]), ValueError, "dtype must be specified"),
    (lambda: tf.nn.static_rnn("cell", [tf.zeros([2, 3])]), TypeError, "cell must be an instance of RNNCell"),
    (lambda: tf.nn.static_rnn(rc.GRUCell(2), [tf.placeholder(tf.float32, [2, None])], dtype=tf.float32),
     ValueError, "must be accessible via shape inference"),
    (lambda: tf.nn.dynamic_rnn(rc.GRUCell(2), tf.zeros([2, 3, 4])), ValueError, "you must give a dtype"),
    (lambda: tf.nn.dynamic_rnn(rc.GRUCell(2), tf.zeros([2, 3, 4]), sequence_length=[[1]], dtype=tf.float32),
     ValueError, "sequence_length must be a vector"),
    (lambda: tf.nn.dynamic_rnn(rc.GRUCell(2), tf.zeros([3]), dtype=tf.float32), ValueError, "rank at least 2"),
    (lambda: tf.nn.bidirectional_dynamic_rnn(rc.GRUCell(2), None, tf.zeros([2, 3, 4]), dtype=tf.float32),
     TypeError, "cell_bw must be an instance of RNNCell"),
    (lambda: rc.MultiRNNCell([rc.GRUCell(2)])(tf.zeros([1, 2]), tf.zeros([1, 2])), ValueError,
     "Expected state to be a tuple of length 1")])
def test_errors(call, error, message, fresh_graph):
    with pytest.raises(error, match=message):
        call()


def test_the_tf1_spellings(fresh_graph):
    assert tf.contrib.rnn.BasicLSTMCell is rc.BasicLSTMCell is tf.nn.rnn_cell.BasicLSTMCell
    assert tf.contrib.rnn.static_rnn is tf.nn.static_rnn
    assert tf.compat.v1.nn.rnn_cell.LSTMStateTuple(1, 2).h == 2


def test_dropout_inside_dynamic_rnn_draws_a_mask_per_step_and_backpropagates_through_it(fresh_graph):
    x = tf.placeholder(tf.float32, [8, 6, 50])
    outputs, _ = tf.nn.dynamic_rnn(rc.DropoutWrapper(Echo(), output_keep_prob=0.5, seed=4), x, dtype=tf.float32)
    grad = tf.gradients(tf.reduce_sum(outputs), x)[0]
    got, got_grad = _run([outputs, grad], {x: np.ones((8, 6, 50), np.float32)})
    assert set(np.unique(got)) == {0.0, 2.0}
    assert not all((got[:, t] == got[:, 0]).all() for t in range(1, 6))
    np.testing.assert_array_equal(got_grad, got)  # d(mask * 2 * x)/dx = mask * 2, the same mask


def test_variational_dropout_inside_dynamic_rnn_keeps_one_mask(fresh_graph):
    cell = rc.DropoutWrapper(Echo(), input_keep_prob=0.5, variational_recurrent=True, input_size=50,
                             dtype=tf.float32, seed=6)
    outputs, _ = tf.nn.dynamic_rnn(cell, tf.ones([8, 6, 50]), dtype=tf.float32)
    got = _run(outputs)
    assert all((got[b, t] == got[0, 0]).all() for b in range(8) for t in range(6))
    assert 0.3 < (got[0, 0] == 0).mean() < 0.7
