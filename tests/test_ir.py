"""The IR printed one SSA equation per line: ``str(graph)`` and ``s2sgrad.ir(fetches)``, against
expected text. Programs run as ``prog.py`` so the locations are stable."""
import s2sgrad as tf
from evaluate import exec_program
from programs import SEED3, SEED4

SEED3_GRAPH = """\
Const:0 f32[] = Const[value=0.0]()                                # prog.py:1
Const_1:0 f32[] = Const[value=2.0]()                              # prog.py:2
mul:0 f32[] = Mul(Const_1:0, Const:0)                             # prog.py:2
add:0 f32[] = AddV2(Const:0, mul:0)                               # prog.py:3
gradients/grad_ys_0:0 f32[] = Const[value=1.0]()                  # prog.py:4
gradients/mul_grad/Mul:0 f32[] = Mul(gradients/grad_ys_0:0, Const_1:0)  # prog.py:4
gradients/AddN:0 f32[] = AddN(gradients/grad_ys_0:0, gradients/mul_grad/Mul:0)  # prog.py:4
"""

SEED3_SLICE = """\
Const_1:0 f32[] = Const[value=2.0]()                              # prog.py:2
gradients/grad_ys_0:0 f32[] = Const[value=1.0]()                  # prog.py:4
gradients/mul_grad/Mul:0 f32[] = Mul(gradients/grad_ys_0:0, Const_1:0)  # prog.py:4
gradients/AddN:0 f32[] = AddN(gradients/grad_ys_0:0, gradients/mul_grad/Mul:0)  # prog.py:4
"""

SEED4_SLICE = """\
Variable:0 f32[] = VariableV2()                                   # prog.py:1
Const:0 f32[] = Const[value=3.0]()                                # prog.py:3
Mul:0 f32[] = Mul(Variable:0, Const:0)                            # prog.py:3
StopGradient:0 f32[] = StopGradient(Mul:0)                        # prog.py:4
gradients/grad_ys_0:0 f32[] = Const[value=1.0]()                  # prog.py:6
gradients/Mul_1_grad/Mul_1:0 f32[] = Mul(gradients/grad_ys_0:0, StopGradient:0)  # prog.py:6
"""

ATTRIBUTES = """\
x = tf.placeholder(tf.float32, [None, 3], name="x")
with tf.name_scope("layer"):
    w = tf.constant([[1.0], [2.0], [3.0]], name="w")
    h = tf.matmul(x, w)
s = tf.reduce_sum(h, axis=1, keepdims=True)
t = tf.transpose(tf.reshape(s, [1, -1]), [1, 0])
first = t[0, ::-1]
label = tf.constant("a\\nb")
v = tf.Variable(tf.zeros([2]), name="v")
up = v.assign_add([0.1, 2.0])
with tf.control_dependencies([up]):
    done = tf.no_op(name="done")
big = tf.constant(tf.zeros([4, 4]).op.get_attr("value") + 0.5)
"""

ATTRIBUTES_GRAPH = """\
x:0 f32[?,3] = Placeholder()                                      # prog.py:1
layer/w:0 f32[3,1] = Const[value=[[1.0], [2.0], [3.0]]]()         # prog.py:3
layer/MatMul:0 f32[?,1] = MatMul[transpose_a=False, transpose_b=False](x:0, layer/w:0)  # prog.py:4
Sum:0 f32[?,1] = Sum[axis=[1], keepdims=True](layer/MatMul:0)     # prog.py:5
shape:0 i32[2] = Const[value=[1, -1]]()                           # prog.py:6
Reshape:0 f32[1,?] = Reshape(Sum:0, shape:0)                      # prog.py:6
transpose:0 f32[?,1] = Transpose[perm=[1, 0]](Reshape:0)          # prog.py:6
strided_slice:0 f32[1] = StridedSlice[index=[0, ::-1]](transpose:0)  # prog.py:7
Const:0 str[] = Const[value=b'a\\nb']()                            # prog.py:8
zeros:0 f32[2] = Const[value=[0.0, 0.0]]()                        # prog.py:9
v:0 f32[2] = VariableV2()                                         # prog.py:9
v/Assign:0 f32[2] = Assign[validate_shape=True](v:0, zeros:0)     # prog.py:9
Const_1:0 f32[2] = Const[value=[0.1, 2.0]]()                      # prog.py:10
AssignAdd:0 f32[2] = AssignAdd[validate_shape=True](v:0, Const_1:0)  # prog.py:10
^done = NoOp(^AssignAdd)                                          # prog.py:12
zeros_1:0 f32[4,4] = Const[value=<f32[4, 4]>]()                   # prog.py:13
Const_2:0 f32[4,4] = Const[value=<f32[4, 4]>]()                   # prog.py:13
"""

ATTRIBUTES_FED_SLICE = "".join(ATTRIBUTES_GRAPH.splitlines(keepends=True)[1:8])

CONTROL_SLICE = "".join(ATTRIBUTES_GRAPH.splitlines(keepends=True)[i] for i in (10, 12, 13, 14))


def test_seed_program_3_graph():
    exec_program(SEED3)
    assert str(tf.get_default_graph()) == SEED3_GRAPH


def test_seed_program_3_gradient_slice():
    ns = exec_program(SEED3)
    assert tf.ir(ns["g"]) == SEED3_SLICE


def test_seed_program_4_slice_of_the_gradient_through_stop_gradient():
    ns = exec_program(SEED4)
    assert tf.ir(ns["gradients"][1]) == SEED4_SLICE


def test_attributes_scopes_strings_and_large_constants():
    exec_program(ATTRIBUTES)
    assert str(tf.get_default_graph()) == ATTRIBUTES_GRAPH


def test_fed_tensors_cut_the_slice():
    ns = exec_program(ATTRIBUTES)
    assert tf.ir(ns["first"], [ns["x"]]) == ATTRIBUTES_FED_SLICE
    assert tf.ir(ns["first"]) == "x:0 f32[?,3] = Placeholder()".ljust(64) + "  # prog.py:1\n" + ATTRIBUTES_FED_SLICE


def test_control_dependencies_and_ops_without_outputs():
    ns = exec_program(ATTRIBUTES)
    assert tf.ir(ns["done"]) == CONTROL_SLICE


def test_printing_is_deterministic_and_graphs_print_independently():
    texts = []
    for _ in range(2):
        graph = tf.Graph()
        with graph.as_default():
            exec_program(SEED3 + SEED4.replace("gradients =", "grads ="))
        texts.append(str(graph))
    assert texts[0] == texts[1]
    assert texts[0].startswith(SEED3_GRAPH)
    assert str(tf.Graph()) == ""


def test_user_text_cannot_break_a_line():
    exec_program('tf.constant("x\\n# injected", name="c")\n', filename="odd\nname.py")
    (line,) = str(tf.get_default_graph()).splitlines()
    assert line == "c:0 str[] = Const[value=b'x\\n# injected']()".ljust(64) + "  # odd\\nname.py:1"
