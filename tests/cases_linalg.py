"""Op cases: matmul (transposes, batches, broadcasting batch dims), einsum (contractions,
diagonals, traces, outer products, ``...`` broadcasting, several operands) and tensordot."""
import numpy as np

import s2sgrad as tf
from optable import OpCase

R = np.random.default_rng(4)


def n(*shape):
    return R.standard_normal(shape)


def _case(name, build, ref, inputs, **kw):
    return OpCase(name, build, inputs, ref, **kw)


def _mm(ta=False, tb=False):
    def ref(a, b):
        return np.matmul(np.swapaxes(a, -1, -2) if ta else a, np.swapaxes(b, -1, -2) if tb else b)
    return ref


MATMUL = [
    _case("matmul", tf.matmul, np.matmul, [n(3, 4), n(4, 5)], order2=True),
    _case("matmul_transpose_a", lambda a, b: tf.matmul(a, b, transpose_a=True), _mm(ta=True), [n(4, 3), n(4, 5)]),
    _case("matmul_transpose_b", lambda a, b: tf.matmul(a, b, transpose_b=True), _mm(tb=True), [n(3, 4), n(5, 4)]),
    _case("matmul_transpose_both", lambda a, b: tf.matmul(a, b, transpose_a=True, transpose_b=True),
          _mm(True, True), [n(4, 3), n(5, 4)], order2=True),
    _case("matmul_adjoint_b", lambda a, b: tf.matmul(a, b, adjoint_b=True), _mm(tb=True), [n(2, 3), n(4, 3)]),
    _case("matmul_operator", lambda a, b: a @ b, np.matmul, [n(2, 3), n(3, 2)]),
    _case("matmul_batched", tf.matmul, np.matmul, [n(2, 3, 4), n(2, 4, 5)], order2=True),
    _case("matmul_batch_broadcast_matrix", tf.matmul, np.matmul, [n(3, 4), n(2, 4, 5)]),
    _case("matmul_batch_broadcast_size_one", tf.matmul, np.matmul, [n(2, 1, 3, 4), n(5, 4, 2)], order2=True),
    _case("matmul_batched_transposes", lambda a, b: tf.matmul(a, b, transpose_a=True, transpose_b=True),
          _mm(True, True), [n(1, 4, 3), n(3, 5, 4)]),
    _case("matmul_int", tf.matmul, np.matmul, [np.arange(6, dtype=np.int32).reshape(2, 3),
                                               np.arange(6, dtype=np.int32).reshape(3, 2) - 2], grad=False),
    _case("matmul_float32", tf.matmul, np.matmul, [n(3, 4).astype(np.float32), n(4, 2).astype(np.float32)],
          rtol=1e-5),
    _case("matmul_empty_inner", tf.matmul, np.matmul, [np.zeros((2, 0)), np.zeros((0, 3))]),
]


def _einsum(equation, *shapes, name=None, **kw):
    inputs = [n(*s) for s in shapes]
    return _case(name or f"einsum_{equation}", lambda *t: tf.einsum(equation, *t),
                 lambda *a: _np_einsum(equation, *a), inputs, **kw)


def _np_einsum(equation, *arrays):
    """NumPy's einsum, which will not sum '...' dims away by itself: sum them explicitly."""
    lhs, arrow, rhs = equation.replace(" ", "").partition("->")
    if "..." in lhs and arrow and "..." not in rhs:
        out = np.einsum(f"{lhs}->...{rhs}", *arrays)
        return np.sum(out, axis=tuple(range(out.ndim - len(rhs))))
    return np.einsum(equation, *arrays)


EINSUM = [
    _einsum("ij,jk->ik", (3, 4), (4, 5), order2=True),
    _einsum("ij,jk", (3, 4), (4, 2), name="einsum_implicit_output"),
    _einsum("ij,kj", (3, 4), (2, 4), name="einsum_implicit_sorted_output"),
    _einsum(" bij , bjk -> bik ", (2, 3, 4), (2, 4, 5), name="einsum_batch_with_spaces", order2=True),
    _einsum("ii->i", (3, 3), name="einsum_diagonal"),
    _einsum("ii", (4, 4), name="einsum_trace"),
    _einsum("iij->ji", (3, 3, 2), name="einsum_diagonal_of_3d"),
    _einsum("ii,i->i", (3, 3), (3,), name="einsum_diagonal_times_vector", order2=True),
    _einsum("ij->ji", (3, 4), name="einsum_transpose"),
    _einsum("ij->", (3, 4), name="einsum_sum_all"),
    _einsum("ij->j", (3, 4), name="einsum_sum_rows"),
    _einsum("ij,j->", (3, 4), (4,), name="einsum_letter_summed_by_one_operand", order2=True),
    _einsum("i,j->ij", (3,), (4,), name="einsum_outer", order2=True),
    _einsum("ij,jk,kl->il", (2, 3), (3, 4), (4, 2), name="einsum_three_operands", order2=True),
    _einsum("ijk,ik->j", (2, 3, 4), (2, 4), name="einsum_contract_two_axes"),
    _einsum("Ab,bC->AC", (2, 3), (3, 4), name="einsum_uppercase"),
    _einsum("...ij,...jk->...ik", (2, 3, 4), (4, 5), name="einsum_ellipsis_broadcast_rank", order2=True),
    _einsum("...ij,...jk->...ik", (1, 3, 4), (2, 4, 5), name="einsum_ellipsis_broadcast_size_one"),
    _einsum("...i,...i->...", (2, 3), (1, 3), name="einsum_ellipsis_rowwise_dot"),
    _einsum("...i->i", (2, 3, 4), name="einsum_ellipsis_summed_out", known_rank=True),
    _einsum("i...->...i", (3, 2, 4), name="einsum_ellipsis_moved"),
    _einsum("...,...->", (3,), (1,), name="einsum_ellipsis_only_summed", known_rank=True),
    _einsum("i,i->", (4,), (4,), name="einsum_dot"),
    _case("einsum_int", lambda a, b: tf.einsum("ij,jk->ik", a, b), lambda a, b: np.einsum("ij,jk->ik", a, b),
          [np.arange(6, dtype=np.int32).reshape(2, 3), np.ones((3, 2), np.int32)], grad=False),
]

TENSORDOT = [
    _case("tensordot_axes1", lambda a, b: tf.tensordot(a, b, 1), lambda a, b: np.tensordot(a, b, 1),
          [n(3, 4), n(4, 5)], order2=True, known_rank=True),
    _case("tensordot_axes2", lambda a, b: tf.tensordot(a, b, 2), lambda a, b: np.tensordot(a, b, 2),
          [n(2, 3, 4), n(3, 4, 5)], known_rank=True),
    _case("tensordot_axes0_outer", lambda a, b: tf.tensordot(a, b, 0), lambda a, b: np.tensordot(a, b, 0),
          [n(2, 3), n(4)], known_rank=True),
    _case("tensordot_axis_lists", lambda a, b: tf.tensordot(a, b, [[0, 2], [2, 1]]),
          lambda a, b: np.tensordot(a, b, ([0, 2], [2, 1])), [n(2, 3, 4), n(5, 4, 2)], known_rank=True),
    _case("tensordot_int_pair", lambda a, b: tf.tensordot(a, b, [1, 0]),
          lambda a, b: np.tensordot(a, b, ([1], [0])), [n(3, 4), n(4, 2)], known_rank=True),
    _case("tensordot_negative_axes", lambda a, b: tf.tensordot(a, b, [[-1], [-2]]),
          lambda a, b: np.tensordot(a, b, ([-1], [-2])), [n(2, 3), n(3, 5)], known_rank=True),
    _case("linalg_matrix_transpose", tf.linalg.matrix_transpose, lambda a: np.swapaxes(a, -1, -2), [n(2, 3, 4)],
          known_rank=True),
]

CASES = MATMUL + EINSUM + TENSORDOT
