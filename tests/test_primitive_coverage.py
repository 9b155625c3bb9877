"""Every primitive is exercised by an op case, every differentiable one has a checked rule, and every
one the generated code computes has an emitter."""
import s2sgrad as tf
from optable import all_cases, build
from s2sgrad.autodiff.control import CONTROL_RULES
from s2sgrad.autodiff.rules import RULES
from s2sgrad.codegen.emitters import EMITTERS
from s2sgrad.primitives import ALL

# Primitives made only by the graph machinery itself, exercised by other tests.
INFRASTRUCTURE = {"Const", "Placeholder", "PlaceholderWithDefault", "VariableV2", "Assign", "AssignAdd",
                  "AssignSub", "NoOp", "RandomStandardNormal", "RandomUniform", "TruncatedNormal",
                  "RandomUniformInt",
                  # tf.data's ops (string inputs, host ops): exercised by tests/test_data_*.py
                  "IteratorGetNext", "MakeIterator", "IteratorToStringHandle", "ParseExample",
                  # the decorator's draws from NumPy's streams: exercised by tests/test_decorator_random.py
                  "NumpyRandom", "NumpyGenerator", "NumpySeed"}


def _op_types(cases, with_gradients):
    seen = set()
    for case in cases:
        graph, holders, out = build(case)
        with graph.as_default():
            if with_gradients:
                outs = out if isinstance(out, (list, tuple)) else [out]
                floats = [o for o in outs if o.dtype.is_floating]
                xs = [h for h in holders if h.dtype.is_floating]
                if floats and xs:
                    tf.gradients(floats, xs)
        seen.update(op.type for op in graph.get_operations())
    return seen


def test_every_differentiable_primitive_has_a_gradient_rule():
    missing = sorted(p.name for p in ALL if p.differentiable and p not in RULES and p not in CONTROL_RULES)
    assert not missing, f"differentiable primitives without a gradient rule: {missing}"


def test_every_primitive_has_a_forward_case():
    covered = _op_types([c for c in all_cases() if c.reference is not None], with_gradients=True)
    missing = sorted({p.name for p in ALL} - covered - INFRASTRUCTURE)
    assert not missing, f"primitives no op case exercises: {missing}"


def test_every_gradient_rule_is_checked_against_finite_differences():
    cases = [c for c in all_cases() if c.grad]
    forward = _op_types(cases, with_gradients=False)
    missing = sorted(p.name for p in ALL
                     if p.differentiable and p.name not in forward and p.name not in INFRASTRUCTURE)
    assert not missing, f"differentiable primitives whose rule no case checks: {missing}"


# Primitives the generated code computes with no expression: module constants and parameters
# (Const, Placeholder, VariableV2, a defaulted placeholder's input), Assign (the new value is the
# assigned value), NoOp, the host ops the Session computes around the module (tf.data's iterators);
# control flow (If, While, For) is written as Python blocks, whose parameters (BlockParam) are bound by them.
NOT_COMPUTED = {"Const", "Placeholder", "PlaceholderWithDefault", "VariableV2", "Assign", "NoOp", "If", "While", "For",
                "BlockParam", "IteratorGetNext", "MakeIterator", "IteratorToStringHandle"}


def test_every_computed_primitive_has_an_emitter():
    missing = sorted(p.name for p in ALL if p not in EMITTERS and p.name not in NOT_COMPUTED)
    assert not missing, f"primitives without a NumPy emitter (an expr or a codegen/emitters table): {missing}"
    unexpected = sorted(p.name for p in ALL if p in EMITTERS and p.name in NOT_COMPUTED)
    assert not unexpected, f"NOT_COMPUTED primitives that now have an emitter: {unexpected}"
