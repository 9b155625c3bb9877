"""The IR verifiers catch hand-broken graphs and Programs with messages naming what broke; the
suite itself runs in checked mode (conftest), so every compile is verified after every stage."""
import numpy as np
import pytest

import s2sgrad as tf
from s2sgrad.codegen import stages
from s2sgrad.codegen.lower import lower, needed_ops
from s2sgrad.codegen.program import Instr, Kind, Value
from s2sgrad.codegen.verify import verify_program
from s2sgrad.shapes import TensorShape
from s2sgrad.ssa.verify import VerifyError, verify_graph


def _rule(op):
    return op.prim.infer(op.inputs, op.attrs)


def _mlp():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.Variable(np.ones((3, 2), np.float32), name="w")
    h = tf.tanh(tf.matmul(x, w))
    loss = tf.reduce_sum(h * h)
    return x, w, h, loss, tf.gradients(loss, [w])[0]


def _program():
    x, _, _, loss, g = _mlp()
    ops = needed_ops([loss, g], [], {x})
    variables = {o: (o.outputs[0].dtype, o.outputs[0].shape.sizes) for o in ops if o.type == "VariableV2"}
    return lower(ops, [loss, g], {x: (tf.float32, (4, 3))}, variables, [])


def test_the_suite_runs_checked():
    assert stages.is_checked()


def test_a_well_formed_graph_and_program_pass():
    _mlp()
    verify_graph(tf.get_default_graph(), infer=_rule)
    prog = _program()
    verify_program(prog)
    for run_pass in stages.PASSES:
        run_pass(prog)
        verify_program(prog)


def test_graph_use_before_definition():
    _, _, h, loss, _ = _mlp()
    graph = tf.get_default_graph()
    op = loss.op
    graph._ops[op.id], graph._ops[h.op.id] = h.op, op   # the consumer now comes before its producer
    op.id, h.op.id = h.op.id, op.id
    with pytest.raises(VerifyError, match=r"op 'Sum' .*input 0 mul:0 is used before it is defined"):
        verify_graph(graph)


def test_graph_dangling_input():
    x = tf.placeholder(tf.float32, [2])
    y = tf.square(x)
    other = tf.Graph()
    with other.as_default():
        stray = tf.placeholder(tf.float32, [2], name="stray")
    y.op.inputs = (stray,)
    with pytest.raises(VerifyError, match=r"op 'Square' .*input 0 stray:0 belongs to another graph"):
        verify_graph(tf.get_default_graph())
    removed = tf.placeholder(tf.float32, [2], name="removed")
    y.op.inputs = (removed,)
    tf.get_default_graph()._ops.pop()   # its producer is no longer in the graph
    with pytest.raises(VerifyError, match=r"input 0 removed:0 comes from an op that is not in the graph"):
        verify_graph(tf.get_default_graph(), [y.op])


def test_graph_wrong_recorded_shape_and_dtype():
    x = tf.placeholder(tf.float32, [2, 3])
    y = tf.transpose(x)
    y._shape = TensorShape([2, 3])
    with pytest.raises(VerifyError, match=r"op 'transpose' .*output 0 recorded with shape \(2, 3\), "
                                          r"its rule gives \(3, 2\)"):
        verify_graph(tf.get_default_graph(), infer=_rule)
    y._shape = TensorShape([3, None])
    with pytest.raises(VerifyError, match="recorded with shape"):   # less specific than the rule
        verify_graph(tf.get_default_graph(), infer=_rule)
    y._shape = TensorShape([3, 2])
    y.dtype = tf.float64
    with pytest.raises(VerifyError, match="output 0 recorded as float64, its rule gives float32"):
        verify_graph(tf.get_default_graph(), infer=_rule)


def test_set_shape_may_refine_what_the_rule_knows():
    x = tf.placeholder(tf.float32, [None, 3])
    y = tf.tanh(x)
    y.set_shape([5, 3])
    verify_graph(tf.get_default_graph(), infer=_rule)


def test_program_use_before_definition():
    prog = _program()
    prog.instrs[0], prog.instrs[1] = prog.instrs[1], prog.instrs[0]
    with pytest.raises(VerifyError, match=r"instruction 0 \(Tanh for op 'Tanh'.*argument 0 .* is used before "
                                          r"its definition"):
        verify_program(prog)


def test_program_double_definition():
    prog = _program()
    prog.instrs.insert(1, prog.instrs[0])
    with pytest.raises(VerifyError, match=r"instruction 1 \(MatMul .*output 0 .* is defined twice"):
        verify_program(prog)
    prog = _program()
    prog.params.append(prog.params[0])
    with pytest.raises(VerifyError, match=r"parameter 2 .* is defined twice"):
        verify_program(prog)


def test_program_wrong_recorded_shape():
    prog = _program()
    out = prog.instrs[0].outs[0]
    out.shape = TensorShape([4, 3])
    with pytest.raises(VerifyError, match=r"instruction 0 \(MatMul for op 'MatMul', created at "
                                          r"test_verify.py:\d+\): output 0 recorded with shape \(4, 3\), "
                                          r"its rule gives \(4, 2\)"):
        verify_program(prog)


def test_program_dangling_values():
    prog = _program()
    stray = Value(tf.float32, TensorShape([4, 2]))
    prog.instrs[1].args = [stray]
    with pytest.raises(VerifyError, match=r"instruction 1 \(Tanh .*argument 0 .* is never defined \(dangling\)"):
        verify_program(prog)
    prog = _program()
    prog.outputs.append(stray)
    with pytest.raises(VerifyError, match=r"output 2 .* is never defined \(dangling\)"):
        verify_program(prog)
    prog = _program()
    other = prog.instrs[1]
    prog.instrs[0].outs[0].producer = Instr(other.prim, other.args, other.attrs, [], other.op)
    with pytest.raises(VerifyError, match="output 0 .* names another instruction as its producer"):
        verify_program(prog)
    prog = _program()
    prog.params[0].kind = Kind.TEMP
    with pytest.raises(VerifyError, match="parameter 0 .* is a temp value"):
        verify_program(prog)


def test_a_visible_outer_scope_defines_values_for_a_block():
    prog = _program()
    outer = prog.params.pop(0)   # as a region's body sees a value of the block holding it
    with pytest.raises(VerifyError, match="never defined"):
        verify_program(prog)
    verify_program(prog, visible={id(outer)})


def test_checked_mode_names_the_stage_that_broke_the_program(monkeypatch):
    def breaks(prog):
        prog.instrs.reverse()

    x = tf.placeholder(tf.float32, [3])
    y = tf.tanh(tf.square(x))
    monkeypatch.setattr(stages, "PASSES", (*stages.PASSES, breaks))
    with pytest.raises(VerifyError, match=r"after breaks: instruction 0 \(Tanh .*used before its definition"):
        tf.Session().run(y, {x: np.ones(3, np.float32)})
