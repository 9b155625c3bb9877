"""Static shape and dtype inference at graph-build time: ops that cannot work raise
ValueError/TypeError naming the op and the input shapes; unknown dims propagate."""
import numpy as np
import pytest

import s2sgrad as tf


def ph(shape, dtype=tf.float32, name=None):
    return tf.placeholder(dtype, shape, name=name)


# (id, build, error type, fragments the message must contain)
ERRORS = [
    ("matmul_inner_dims", lambda: tf.matmul(ph([2, 3]), ph([2, 3])), ValueError,
     ["MatMul", "[2,3], [2,3]", "3 and 2"]),
    ("matmul_rank1", lambda: tf.matmul(ph([3]), ph([3, 2])), ValueError, ["MatMul", "rank"]),
    ("matmul_batch_dims", lambda: tf.matmul(ph([2, 3, 4]), ph([3, 4, 5])), ValueError, ["MatMul", "2 and 3"]),
    ("matmul_dtypes", lambda: tf.matmul(ph([2, 2]), ph([2, 2], tf.float64)), TypeError, ["MatMul", "float64"]),
    ("add_float32_float64", lambda: ph([2]) + ph([2], tf.float64), TypeError, ["AddV2", "float64", "float32"]),
    ("mul_int_float", lambda: tf.multiply(ph([2], tf.int32), ph([2])), TypeError, ["Mul", "int32"]),
    ("add_incompatible_shapes", lambda: ph([2, 3]) + ph([4]), ValueError, ["add", "[2,3], [4]", "3 and 4"]),
    ("sin_of_int", lambda: tf.sin(ph([2], tf.int32)), TypeError, ["Sin", "int32"]),
    ("logical_and_of_float", lambda: tf.logical_and(ph([2]), ph([2])), TypeError, ["LogicalAnd", "float32"]),
    ("transpose_bad_perm", lambda: tf.transpose(ph([2, 3]), [0, 0]), ValueError, ["transpose", "[2,3]", "perm"]),
    ("transpose_perm_length", lambda: tf.transpose(ph([2, 3]), [1, 0, 2]), ValueError, ["transpose", "perm"]),
    ("reduce_axis_out_of_range", lambda: tf.reduce_sum(ph([2, 3]), 2), ValueError,
     ["Sum", "[2,3]", "Invalid reduction dimension 2"]),
    ("reduce_sum_of_bool", lambda: tf.reduce_sum(ph([2], tf.bool)), TypeError, ["Sum", "bool"]),
    ("argmax_axis_out_of_range", lambda: tf.argmax(ph([2, 3]), -3), ValueError, ["ArgMax", "[2,3]"]),
    ("cumsum_axis_out_of_range", lambda: tf.cumsum(ph([2, 3]), 2), ValueError, ["Cumsum", "[2,3]"]),
    ("reshape_element_count", lambda: tf.reshape(ph([2, 3]), [4]), ValueError,
     ["Reshape", "[2,3]", "6 elements", "[4]"]),
    ("reshape_two_unknowns", lambda: tf.reshape(ph([2, 3]), [-1, -1]), ValueError, ["Reshape", "multiple"]),
    ("reshape_indivisible", lambda: tf.reshape(ph([2, 3]), [-1, 4]), ValueError, ["Reshape", "6 elements"]),
    ("concat_rank_mismatch", lambda: tf.concat([ph([2, 3]), ph([2])], 0), ValueError,
     ["concat", "[2,3], [2]", "rank"]),
    ("concat_dim_mismatch", lambda: tf.concat([ph([2, 3]), ph([2, 4])], 0), ValueError, ["concat", "3 and 4"]),
    ("concat_axis_out_of_range", lambda: tf.concat([ph([2, 3]), ph([2, 3])], 2), ValueError, ["concat"]),
    ("concat_scalars", lambda: tf.concat([ph([]), ph([])], 0), ValueError, ["concat", "scalars"]),
    ("stack_shapes_differ", lambda: tf.stack([ph([2]), ph([3])]), ValueError, ["stack", "[2], [3]"]),
    ("unstack_num_mismatch", lambda: tf.unstack(ph([2, 3]), num=3), ValueError, ["unstack", "[2,3]"]),
    ("split_uneven", lambda: tf.split(ph([2, 5]), 2, axis=1), ValueError, ["split", "[2,5]", "evenly"]),
    ("split_sizes_sum", lambda: tf.split(ph([2, 5]), [2, 2], axis=1), ValueError, ["split", "[2,5]"]),
    ("zeros_negative_dim", lambda: tf.zeros([-1, 2]), ValueError, ["negative", "[-1, 2]"]),
    ("fill_negative_dim", lambda: tf.fill([2, -3], 1.0), ValueError, ["Fill", "-3"]),
    ("squeeze_non_one", lambda: tf.squeeze(ph([2, 1]), [0]), ValueError, ["Squeeze", "[2,1]", "squeeze dim[0]"]),
    ("expand_dims_axis", lambda: tf.expand_dims(ph([2, 3]), 4), ValueError, ["ExpandDims", "[2,3]"]),
    ("getitem_out_of_bounds", lambda: ph([2, 3])[:, 3], ValueError, ["strided_slice", "[2,3]", "out of bounds"]),
    ("getitem_too_many_indices", lambda: ph([2])[0, 1], ValueError, ["strided_slice", "too many"]),
    ("gather_float_indices", lambda: tf.gather(ph([3]), ph([2])), TypeError, ["GatherV2", "float32"]),
    ("tile_multiples_length", lambda: tf.tile(ph([2, 3]), [2]), ValueError, ["Tile", "[2,3]", "rank 2"]),
    ("tile_negative", lambda: tf.tile(ph([2, 3]), [2, -1]), ValueError, ["Tile", "non-negative"]),
    ("pad_paddings_shape", lambda: tf.pad(ph([2, 3]), [[1, 1]]), ValueError, ["Pad", "[2,3], [1,2]", "paddings"]),
    ("pad_negative", lambda: tf.pad(ph([2, 3]), [[1, -1], [0, 0]]), ValueError, ["Pad", "non-negative"]),
    ("pad_reflect_too_wide", lambda: tf.pad(ph([2, 3]), [[0, 0], [3, 0]], "REFLECT"), ValueError,
     ["MirrorPad", "[2,3]", "less than the dimension size"]),
    ("pad_symmetric_too_wide", lambda: tf.pad(ph([2, 3]), [[3, 0], [0, 0]], "SYMMETRIC"), ValueError,
     ["MirrorPad", "greater than"]),
    ("pad_unknown_mode", lambda: tf.pad(ph([2]), [[1, 1]], "WRAP"), ValueError, ["Unknown padding mode"]),
    ("pad_constant_values_dtype", lambda: tf.pad(ph([2]), [[1, 1]], constant_values=ph([], tf.float64)), ValueError,
     ["float64", "float32"]),
    ("slice_begin_out_of_range", lambda: tf.slice(ph([2, 3]), [3, 0], [1, 1]), ValueError,
     ["Slice", "[2,3]", "begin[0]"]),
    ("slice_size_out_of_range", lambda: tf.slice(ph([2, 3]), [0, 1], [1, 3]), ValueError,
     ["Slice", "size[1]", "[0, 2]"]),
    ("slice_length", lambda: tf.slice(ph([2, 3]), [0], [1]), ValueError, ["Slice", "[2,3]"]),
    ("reverse_axis_twice", lambda: tf.reverse(ph([2, 3]), [1, -1]), ValueError, ["ReverseV2", "more than once"]),
    ("reverse_axis_out_of_range", lambda: tf.reverse(ph([2, 3]), [2]), ValueError, ["ReverseV2", "[2,3]"]),
    ("broadcast_to_incompatible", lambda: tf.broadcast_to(ph([2]), [3]), ValueError,
     ["BroadcastTo", "[2]", "Unable to broadcast"]),
    ("broadcast_to_fewer_dims", lambda: tf.broadcast_to(ph([2, 3]), [3]), ValueError, ["BroadcastTo"]),
    ("gather_nd_depth", lambda: tf.gather_nd(ph([2, 3]), ph([4, 3], tf.int32)), ValueError,
     ["GatherNd", "[2,3], [4,3]", "params.rank"]),
    ("scatter_nd_updates_shape", lambda: tf.scatter_nd(ph([4, 1], tf.int32), ph([4, 2]), [5, 3]), ValueError,
     ["ScatterNd", "[4,1], [4,2]", "(4, 3)"]),
    ("one_hot_axis", lambda: tf.one_hot(ph([2], tf.int32), 3, axis=2), ValueError, ["one_hot", "axis"]),
    ("one_hot_negative_depth", lambda: tf.one_hot(ph([2], tf.int32), -1), ValueError, ["one_hot", "depth"]),
    ("one_hot_float_indices", lambda: tf.one_hot(ph([2]), 3), TypeError, ["one_hot", "float32"]),
    ("one_hot_on_off_dtypes", lambda: tf.one_hot([0], 2, on_value=ph([], tf.float64), dtype=tf.float32),
     TypeError, ["on_value", "float64"]),
    ("boolean_mask_scalar", lambda: tf.boolean_mask(ph([2]), True), ValueError, ["mask cannot be scalar"]),
    ("boolean_mask_shape", lambda: tf.boolean_mask(ph([2, 3]), ph([3], tf.bool)), ValueError, ["(2,)", "(3,)"]),
    ("boolean_mask_unknown_rank", lambda: tf.boolean_mask(ph([2]), ph(None, tf.bool)), ValueError,
     ["Number of mask dimensions"]),
    ("where_condition_not_bool", lambda: tf.where(ph([2]), ph([2]), ph([2])), TypeError, ["Select", "condition"]),
    ("where_branch_dtypes", lambda: tf.where(ph([2], tf.bool), ph([2]), ph([2], tf.int32)), TypeError,
     ["Select", "int32"]),
    ("where_v1_vector_rows", lambda: tf.where(ph([3], tf.bool), ph([2, 3]), ph([2, 3])), ValueError,
     ["Select", "[3], [2,3], [2,3]"]),
    ("einsum_operand_count", lambda: tf.einsum("ij,jk->ik", ph([2, 3])), ValueError, ["2 input subscripts"]),
    ("einsum_dims", lambda: tf.einsum("ij,jk->ik", ph([2, 3]), ph([4, 5])), ValueError,
     ["einsum", "[2,3], [4,5]", "'j'"]),
    ("einsum_rank", lambda: tf.einsum("ij->i", ph([2, 3, 4])), ValueError, ["einsum", "rank 2"]),
    ("einsum_bad_character", lambda: tf.einsum("i1->i", ph([2, 3])), ValueError, ["invalid character '1'"]),
    ("einsum_unknown_output_letter", lambda: tf.einsum("ij->k", ph([2, 3])), ValueError, ["'k'"]),
    ("einsum_repeated_output_letter", lambda: tf.einsum("ij->ii", ph([2, 3])), ValueError, ["more than once"]),
    ("tensordot_axes_count", lambda: tf.tensordot(ph([2, 3]), ph([3, 4]), [[1], [0, 1]]), ValueError,
     ["Different number of contraction axes"]),
    ("tensordot_dims", lambda: tf.tensordot(ph([2, 3]), ph([4, 4]), 1), ValueError, ["Tensordot", "'b'"]),
    ("tensordot_too_many_axes", lambda: tf.tensordot(ph([2, 3]), ph([3]), 2), ValueError, ["'axes'"]),
    ("range_direction", lambda: tf.range(5, 1), ValueError, ["start <= limit", "5/1"]),
    ("range_computed_bound", lambda: tf.range(tf.reduce_sum(ph([2], tf.int32))), TypeError,
     ["tf.range", "Sum:0", "computed"]),
    ("select_v2_broadcast", lambda: tf.where_v2(ph([2], tf.bool), ph([3]), ph([3])), ValueError,
     ["SelectV2", "[2], [3], [3]"]),
]


@pytest.mark.parametrize("build, error, fragments", [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_bad_inputs_raise_naming_op_and_shapes(build, error, fragments):
    with pytest.raises(error) as info:
        build()
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"


def test_failed_op_is_not_added_to_the_graph():
    a = ph([2, 3])
    before = len(tf.get_default_graph().get_operations())
    with pytest.raises(ValueError):
        tf.matmul(a, a)
    assert len(tf.get_default_graph().get_operations()) == before


# (id, build, expected static shape: a list with None for unknown dims, or None for unknown rank)
SHAPES = [
    ("add_broadcast_unknown", lambda: ph([None, 3]) + ph([3]), [None, 3]),
    ("add_unknown_against_one", lambda: ph([None, 1]) + ph([1, 4]), [None, 4]),
    ("add_unknown_meets_known", lambda: ph([None, 3]) + ph([5, 1]), [5, 3]),
    ("add_unknown_rank", lambda: ph(None) + ph([3]), None),
    ("matmul_unknown_rows", lambda: tf.matmul(ph([None, 3]), ph([3, 5])), [None, 5]),
    ("matmul_batched_unknown_batch", lambda: tf.matmul(ph([None, 2, 3]), ph([3, 4])), [None, 2, 4]),
    ("matmul_transposed", lambda: tf.matmul(ph([3, None]), ph([5, 3]), transpose_a=True, transpose_b=True),
     [None, 5]),
    ("reduce_sum_axis", lambda: tf.reduce_sum(ph([None, 3]), 1), [None]),
    ("reduce_mean_keepdims", lambda: tf.reduce_mean(ph([None, 3]), 0, keepdims=True), [1, 3]),
    ("reduce_max_all", lambda: tf.reduce_max(ph([None, None])), []),
    ("reduce_unknown_rank_axis", lambda: tf.reduce_sum(ph(None), 0), None),
    ("reduce_unknown_rank_all", lambda: tf.reduce_sum(ph(None)), []),
    ("argmax", lambda: tf.argmax(ph([None, 3, 4]), 1), [None, 4]),
    ("cumsum", lambda: tf.cumsum(ph([None, 3]), 1), [None, 3]),
    ("reshape_minus_one_unknown", lambda: tf.reshape(ph([None, 6]), [-1, 3]), [None, 3]),
    ("reshape_minus_one_known", lambda: tf.reshape(ph([4, 6]), [3, -1]), [3, 8]),
    ("reshape_to_shape_of_other", lambda: tf.reshape(ph([6]), tf.shape(ph([2, 3]))), [2, 3]),
    ("reshape_computed_shape", lambda: tf.reshape(ph([6]), tf.shape(ph([None, 3]))), [None, None]),
    ("transpose_perm", lambda: tf.transpose(ph([None, 2, 3]), [2, 0, 1]), [3, None, 2]),
    ("transpose_unknown_rank", lambda: tf.transpose(ph(None), [1, 0]), [None, None]),
    ("expand_dims", lambda: tf.expand_dims(ph([None, 3]), -1), [None, 3, 1]),
    ("squeeze_axis", lambda: tf.squeeze(ph([1, None, 1]), [0]), [None, 1]),
    ("squeeze_all_unknown", lambda: tf.squeeze(ph([1, None])), None),
    ("concat_unknown_axis_dim", lambda: tf.concat([ph([None, 3]), ph([2, 3])], 0), [None, 3]),
    ("concat_merges_other_dims", lambda: tf.concat([ph([None, 3]), ph([2, None])], 1), [2, None]),
    ("concat_known", lambda: tf.concat([ph([4, 3]), ph([2, 3])], 0), [6, 3]),
    ("stack", lambda: tf.stack([ph([None, 3]), ph([2, None])], 1), [2, 2, 3]),
    ("unstack", lambda: tf.unstack(ph([None, 2, 3]), axis=1)[0], [None, 3]),
    ("split_num_unknown", lambda: tf.split(ph([None, 6]), 2, axis=1)[1], [None, 3]),
    ("split_sizes_minus_one", lambda: tf.split(ph([None, 6]), [1, -1], axis=1)[1], [None, 5]),
    ("tile", lambda: tf.tile(ph([None, 3]), [2, 2]), [None, 6]),
    ("tile_computed_multiples", lambda: tf.tile(ph([2, 3]), tf.shape(ph([None, 1]))), [None, None]),
    ("reverse", lambda: tf.reverse(ph([None, 3]), [0]), [None, 3]),
    ("broadcast_to", lambda: tf.broadcast_to(ph([None, 1]), [2, 3]), [2, 3]),
    ("broadcast_to_computed", lambda: tf.broadcast_to(ph([3]), tf.shape(ph([None, 3]))), [None, None]),
    ("pad", lambda: tf.pad(ph([None, 3]), [[1, 2], [0, 2]]), [None, 5]),
    ("pad_reflect", lambda: tf.pad(ph([4, None]), [[1, 2], [0, 2]], "REFLECT"), [7, None]),
    ("slice", lambda: tf.slice(ph([None, 5]), [0, 1], [-1, 2]), [None, 2]),
    ("slice_known", lambda: tf.slice(ph([4, 5]), [1, 1], [-1, 2]), [3, 2]),
    ("getitem", lambda: ph([None, 4])[1:, None, 0], [None, 1]),
    ("getitem_tensor_bound", lambda: ph([6, 4])[:tf.reduce_sum(ph([2], tf.int32))], [None, 4]),
    ("gather", lambda: tf.gather(ph([None, 4]), ph([5], tf.int32)), [5, 4]),
    ("gather_axis1", lambda: tf.gather(ph([None, 4, 2]), ph([2, 3], tf.int32), axis=1), [None, 2, 3, 2]),
    ("gather_nd", lambda: tf.gather_nd(ph([None, 4, 3]), ph([7, 2], tf.int32)), [7, 3]),
    ("scatter_nd", lambda: tf.scatter_nd(ph([None, 1], tf.int32), ph([None, 3]), [8, 3]), [8, 3]),
    ("one_hot", lambda: tf.one_hot(ph([None], tf.int32), 3), [None, 3]),
    ("one_hot_axis0", lambda: tf.one_hot(ph([None, 2], tf.int32), 4, axis=0), [4, None, 2]),
    ("one_hot_computed_depth", lambda: tf.one_hot(ph([2], tf.int32), tf.size(ph([None]))), [2, None]),
    ("where_indices", lambda: tf.where(ph([None, 3], tf.bool)), [None, 2]),
    ("where_indices_unknown_rank", lambda: tf.where(ph(None, tf.bool)), [None, None]),
    ("boolean_mask", lambda: tf.boolean_mask(ph([4, 3]), ph([4], tf.bool)), [None, 3]),
    ("boolean_mask_axis1", lambda: tf.boolean_mask(ph([None, 2, 5]), ph([2, 5], tf.bool), axis=1), [None, None]),
    ("select_v1_rows", lambda: tf.where(ph([None], tf.bool), ph([None, 3]), ph([4, 3])), [4, 3]),
    ("einsum", lambda: tf.einsum("ij,jk->ik", ph([None, 3]), ph([3, 4])), [None, 4]),
    ("einsum_ellipsis", lambda: tf.einsum("...ij,jk->...ik", ph([5, None, 3]), ph([3, 4])), [5, None, 4]),
    ("einsum_ellipsis_unknown_rank", lambda: tf.einsum("...j,jk->...k", ph(None), ph([3, 4])), None),
    ("einsum_letters_unknown_rank", lambda: tf.einsum("ij,jk->ki", ph(None), ph([3, 4])), [4, None]),
    ("tensordot", lambda: tf.tensordot(ph([None, 3, 4]), ph([4, 3, 2]), [[1, 2], [1, 0]]), [None, 2]),
    ("fill_from_known_shape", lambda: tf.fill(tf.shape(ph([2, 3])), 1.0), [2, 3]),
    ("fill_from_unknown_shape", lambda: tf.fill(tf.shape(ph([None, 3])), 1.0), [None, None]),
    ("zeros_like", lambda: tf.zeros_like(ph([None, 3])), [None, 3]),
    ("shape", lambda: tf.shape(ph([None, 3, 1])), [3]),
    ("shape_unknown_rank", lambda: tf.shape(ph(None)), [None]),
    ("size_and_rank", lambda: tf.size(ph(None)) + tf.rank(ph([None])), []),
    ("count_nonzero", lambda: tf.count_nonzero(ph([None, 3]), 1), [None]),
]


@pytest.mark.parametrize("build, expected", [s[1:] for s in SHAPES], ids=[s[0] for s in SHAPES])
def test_static_shapes_propagate(build, expected):
    shape = build().shape
    assert (shape.as_list() if shape.rank is not None else None) == expected


DTYPES = [
    ("truediv_int32", lambda: tf.truediv(ph([2], tf.int32), ph([2], tf.int32)), tf.float64),
    ("truediv_int16", lambda: tf.truediv(ph([2], tf.int16), ph([2], tf.int16)), tf.float32),
    ("python_scalar_adopts_dtype", lambda: ph([2], tf.float64) * 2, tf.float64),
    ("comparison", lambda: ph([2]) < 1.0, tf.bool),
    ("argmax_default", lambda: tf.argmax(ph([2])), tf.int64),
    ("where_indices", lambda: tf.where(ph([2], tf.bool)), tf.int64),
    ("shape_default", lambda: tf.shape(ph([2])), tf.int32),
    ("one_hot_default", lambda: tf.one_hot([1], 2), tf.float32),
    ("one_hot_from_on_value", lambda: tf.one_hot([1], 2, on_value=3), tf.int32),
    ("one_hot_from_tensor_off_value", lambda: tf.one_hot([1], 2, off_value=ph([], tf.float64)), tf.float64),
    ("count_nonzero", lambda: tf.count_nonzero(ph([2])), tf.int64),
    ("range_int", lambda: tf.range(3), tf.int32),
    ("range_widest_argument", lambda: tf.range(1, 4.0), tf.float32),
    ("range_int64_tensor", lambda: tf.range(tf.constant(3, tf.int64)), tf.int64),
    ("range_explicit_dtype", lambda: tf.range(3, dtype=tf.float64), tf.float64),
    ("reduce_mean_int", lambda: tf.reduce_mean(ph([2], tf.int32)), tf.int32),
    ("cast", lambda: tf.cast(ph([2]), tf.int64), tf.int64),
    ("einsum_int", lambda: tf.einsum("i,i->", ph([2], tf.int32), ph([2], tf.int32)), tf.int32),
]


@pytest.mark.parametrize("build, dtype", [d[1:] for d in DTYPES], ids=[d[0] for d in DTYPES])
def test_output_dtypes(build, dtype):
    assert build().dtype == dtype


def test_unknown_dims_resolve_when_run():
    x = ph([None, 3])
    y = tf.tile(tf.pad(x, [[1, 0], [0, 0]]), [1, 2])
    assert y.shape.as_list() == [None, 6]
    with tf.Session() as sess:
        out = sess.run(y, {x: np.ones((2, 3), np.float32)})
    assert out.shape == (3, 6)
