"""Each elementwise declaration's ``tf_names`` are functions of ``ops/math_ops.py`` that record it, exported
where TensorFlow 1.x has them (``tf.*``, ``tf.math.*``); its ``numpy`` ufuncs dispatch to it in the decorator."""
from __future__ import annotations

import pytest

import s2sgrad as tf
from s2sgrad.ops import math_ops
from s2sgrad.primitives import ALL
from s2sgrad.primitives import math as declarations
from s2sgrad.primitives.core import Primitive
from s2sgrad.tf1_api import tf1_names
from s2sgrad.tracing.registry import UFUNCS

DECLARED = [p for p in ALL if p.arity is not None]
NAMED = [(p, name) for p in DECLARED for name in p.tf_names]
_SAMPLE_DTYPES = {"f": tf.float64, "i": tf.int32, "b": tf.bool}
GRADIENT_KERNELS = ["TanhGrad", "SigmoidGrad", "SqrtGrad", "RsqrtGrad", "ReciprocalGrad"]  # (y, g) -> dx: no tf.* name


def _sample_dtype(prim: Primitive) -> tf.DType:
    return next(dtype for kind, dtype in _SAMPLE_DTYPES.items() if kind in declarations.KINDS[prim.kinds])


@pytest.mark.parametrize("prim, name", NAMED, ids=[name for _, name in NAMED])
def test_each_declared_name_is_a_function_recording_its_declaration(prim, name):
    function = getattr(math_ops, name, None)
    assert function is not None, f"ops/math_ops.py lacks `{name} = {_maker(prim)}(P.{_constant(prim)})`"
    with tf.Graph().as_default():
        args = [tf.placeholder(_sample_dtype(prim), [3]) for _ in range(prim.arity)]
        out = function(*args)
    assert out.op.prim is prim and out.op.name == prim.default_name


@pytest.mark.parametrize("prim, name", NAMED, ids=[name for _, name in NAMED])
def test_each_declared_name_is_exported_where_tensorflow_has_it(prim, name):
    places = [(f"tf.{path}", namespace) for path, namespace in ((name, tf), (f"math.{name}", tf.math))
              if path in tf1_names()]
    assert places, f"{name} is not a TensorFlow 1.x function name"
    for where, namespace in places:
        assert getattr(namespace, name, None) is getattr(math_ops, name), f"{where} is not math_ops.{name}"


def test_every_elementwise_declaration_but_the_gradient_kernels_names_its_functions():
    assert sorted(p.name for p in DECLARED if not p.tf_names) == sorted(GRADIENT_KERNELS)


@pytest.mark.parametrize("prim", [p for p in DECLARED if p.numpy], ids=lambda p: p.name)
def test_declared_ufuncs_dispatch_to_their_declaration(prim):
    for ufunc in prim.numpy:
        graph = tf.Graph()
        with graph.as_default():
            args = [tf.placeholder(_sample_dtype(prim), [3]) for _ in range(ufunc.nin)]
            UFUNCS[ufunc](*args)
        assert prim in {op.prim for op in graph.get_operations()}, f"numpy.{ufunc.__name__} does not record {prim.name}"


def _maker(prim: Primitive) -> str:
    return "unary_function" if prim.arity == 1 else "binary_function"


def _constant(prim: Primitive) -> str:
    return next(key for key, value in vars(declarations).items() if value is prim)
