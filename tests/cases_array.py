"""Op cases: shapes, reshapes, joining/splitting, tile/reverse/broadcast_to/pad, indexing
(strided slices, slice, gather, gather_nd, scatter_nd, boolean_mask, where, one_hot),
fills and constant builders."""
import numpy as np

import s2sgrad as tf
from optable import OpCase
from s2sgrad.ops import array_ops, layout_ops

R = np.random.default_rng(3)
X = R.standard_normal((3, 4))
X3 = R.standard_normal((2, 3, 4))
V = R.standard_normal((4,))
I = np.array([[1, -2, 3], [4, 5, -6]], np.int32)  # noqa: E741 - I, the integer operand (as X the float one)
B = np.array([[True, False, True, True], [False, False, True, False], [True, True, False, False]])


def _case(name, build, ref, inputs, **kw):
    return OpCase(name, build, inputs, ref, **kw)


def _const(name, build, ref, **kw):
    """A case without inputs (constant builders)."""
    return OpCase(name, build, [], ref, grad=False, **kw)


def _mirror_pad_grad(g, paddings, mode):
    """Reference for MirrorPadGrad: add each padded element back onto the element it copies."""
    n_in = [d - a - b for d, (a, b) in zip(g.shape, paddings, strict=True)]
    out = np.zeros(n_in)
    flat = np.pad(np.arange(out.size).reshape(n_in), paddings, mode=mode.lower())
    np.add.at(out.reshape(-1), flat.reshape(-1), g.reshape(-1))
    return out


SHAPES = [
    _case("shape", tf.shape, lambda x: np.array(x.shape, np.int32), [X3], grad=False),
    _case("shape_int64", lambda x: tf.shape(x, out_type=tf.int64), lambda x: np.array(x.shape, np.int64), [X],
          grad=False),
    _case("size", tf.size, lambda x: np.int32(x.size), [X3], grad=False),
    _case("rank", tf.rank, lambda x: np.int32(x.ndim), [X3], grad=False),
    _case("reshape", lambda x: tf.reshape(x, [2, 6]), lambda x: x.reshape(2, 6), [X]),
    _case("reshape_minus_one", lambda x: tf.reshape(x, [-1, 2]), lambda x: x.reshape(-1, 2), [X3]),
    _case("reshape_to_scalar", lambda x: tf.reshape(x, []), lambda x: x.reshape(()), [np.array([[2.5]])]),
    _case("reshape_like_other", lambda x, y: tf.reshape(x, tf.shape(y)), lambda x, y: x.reshape(y.shape),
          [X3.reshape(6, 4), X3], grad_inputs=[0]),
    _case("expand_dims_0", lambda x: tf.expand_dims(x, 0), lambda x: x[None], [X]),
    _case("expand_dims_last", lambda x: tf.expand_dims(x, -1), lambda x: x[..., None], [X]),
    _case("expand_dims_dim_alias", lambda x: tf.expand_dims(x, dim=1), lambda x: x[:, None], [V]),
    _case("squeeze_all", tf.squeeze, np.squeeze, [X.reshape(1, 3, 1, 4)]),
    _case("squeeze_axis", lambda x: tf.squeeze(x, [2]), lambda x: np.squeeze(x, 2), [X.reshape(1, 3, 1, 4)]),
    _case("transpose_default", tf.transpose, np.transpose, [X3]),
    _case("transpose_matrix", tf.transpose, np.transpose, [X]),
    _case("transpose_perm", lambda x: tf.transpose(x, [1, 0, 2]), lambda x: x.transpose(1, 0, 2), [X3]),
    _case("identity", tf.identity, lambda x: x, [X]),
    _case("stop_gradient", tf.stop_gradient, lambda x: x, [X], grad=False),
]

FILLS = [
    _case("zeros_like", tf.zeros_like, np.zeros_like, [X], grad=False),
    _case("ones_like_int", tf.ones_like, np.ones_like, [I], grad=False),
    _case("zeros_like_other_dtype", lambda x: tf.zeros_like(x, dtype=tf.int32), lambda x: np.zeros(x.shape, np.int32),
          [X], grad=False),
    _case("fill", lambda v: tf.fill([2, 3], v), lambda v: np.full((2, 3), v), [np.float64(1.5)]),
    _case("fill_dynamic_dims", lambda x, v: tf.fill(tf.shape(x), v), lambda x, v: np.full(x.shape, v),
          [X, np.float64(-2.0)], grad_inputs=[1]),
    _case("zeros_dynamic", lambda x: tf.zeros(tf.shape(x)) + 1.0, lambda x: np.ones(x.shape, np.float32), [X],
          grad=False),
    _const("range", lambda: tf.range(2, 11, 3), lambda: np.arange(2, 11, 3, dtype=np.int32)),
    _const("range_float_limit", lambda: tf.range(4.0), lambda: np.arange(4.0, dtype=np.float32)),
    _const("range_negative_delta", lambda: tf.range(5, 0, -2), lambda: np.arange(5, 0, -2, dtype=np.int32)),
    _const("range_constant_tensor_bounds", lambda: tf.range(tf.constant(1), tf.constant(4, tf.int64)),
           lambda: np.arange(1, 4, dtype=np.int64)),
    _const("linspace", lambda: tf.linspace(0.0, 1.0, 5), lambda: np.linspace(0, 1, 5, dtype=np.float32)),
    _const("eye", lambda: tf.eye(2, 3), lambda: np.eye(2, 3, dtype=np.float32)),
    _const("eye_batch", lambda: tf.eye(2, batch_shape=[3], dtype=tf.float64), lambda: np.broadcast_to(np.eye(2),
           (3, 2, 2))),
]

JOINING = [
    _case("concat_axis0", lambda x, y: tf.concat([x, y], 0), lambda x, y: np.concatenate([x, y]), [X, X[:2] * 2]),
    _case("concat_axis_neg1_three", lambda x, y, z: tf.concat([x, y, z], -1),
          lambda x, y, z: np.concatenate([x, y, z], -1), [X, X[:, :1], X[:, :2]]),
    _case("concat_int", lambda x, y: tf.concat([x, y], 1), lambda x, y: np.concatenate([x, y], 1), [I, I],
          grad=False),
    _case("stack", lambda x, y: tf.stack([x, y]), lambda x, y: np.stack([x, y]), [X, X * 3]),
    _case("stack_axis1", lambda x, y: tf.stack([x, y], axis=1), lambda x, y: np.stack([x, y], 1), [X, X * 3]),
    _case("unstack_num", lambda x: tf.unstack(x, num=3, axis=1), lambda x: list(np.moveaxis(x, 1, 0)), [X3]),
    _case("unstack_int", lambda x: tf.unstack(x, num=2), list, [I], grad=False),
    _case("split_num", lambda x: tf.split(x, 2, axis=2), lambda x: np.split(x, 2, axis=2), [X3]),
    _case("split_num_int", lambda x: tf.split(x, 3, axis=-1), lambda x: np.split(x, 3, axis=-1), [I], grad=False),
    _case("split_sizes", lambda x: tf.split(x, [1, -1, 2], axis=-1), lambda x: np.split(x, [1, 2], axis=-1), [X]),
    _case("tile", lambda x: tf.tile(x, [2, 1]), lambda x: np.tile(x, (2, 1)), [X]),
    _case("tile_3d", lambda x: tf.tile(x, [1, 3, 2]), lambda x: np.tile(x, (1, 3, 2)), [X3]),
    _case("tile_int", lambda x: tf.tile(x, [3, 2]), lambda x: np.tile(x, (3, 2)), [I], grad=False),
    _case("tile_tensor_multiples", lambda x, m: tf.tile(x, m), lambda x, m: np.tile(x, m),
          [X, np.array([2, 3], np.int32)]),
    _case("reverse", lambda x: tf.reverse(x, [0]), lambda x: x[::-1], [X]),
    _case("reverse_two_axes", lambda x: tf.reverse(x, [-1, 0]), lambda x: x[::-1, :, ::-1], [X3]),
    _case("reverse_v2_int", lambda x: tf.reverse_v2(x, [1]), lambda x: x[:, ::-1], [I], grad=False),
    _case("broadcast_to", lambda x: tf.broadcast_to(x, [3, 4]), lambda x: np.broadcast_to(x, (3, 4)), [V]),
    _case("broadcast_to_3d", lambda x: tf.broadcast_to(x, [2, 3, 4]), lambda x: np.broadcast_to(x, (2, 3, 4)),
          [X[:, :1]]),
    _case("broadcast_to_dynamic", lambda x, y: tf.broadcast_to(x, tf.shape(y)),
          lambda x, y: np.broadcast_to(x, y.shape), [V, X3], grad_inputs=[0]),
]

PADS = [
    _case("pad_constant", lambda x: tf.pad(x, [[1, 0], [2, 1]]), lambda x: np.pad(x, ((1, 0), (2, 1))), [X]),
    _case("pad_constant_values", lambda x: tf.pad(x, [[0, 1], [1, 1]], constant_values=1.5),
          lambda x: np.pad(x, ((0, 1), (1, 1)), constant_values=1.5), [X]),
    _case("pad_constant_values_tensor", lambda x, c: tf.pad(x, [[1, 1], [0, 2]], constant_values=c),
          lambda x, c: np.pad(x, ((1, 1), (0, 2)), constant_values=c), [X, np.float64(-3.0)], grad_inputs=[0]),
    _case("pad_reflect", lambda x: tf.pad(x, [[2, 1], [3, 0]], "REFLECT"),
          lambda x: np.pad(x, ((2, 1), (3, 0)), mode="reflect"), [X]),
    _case("pad_symmetric_lowercase", lambda x: tf.pad(x, [[0, 3], [4, 2]], "symmetric"),
          lambda x: np.pad(x, ((0, 3), (4, 2)), mode="symmetric"), [X]),
    _case("pad_reflect_3d", lambda x: tf.pad(x, [[1, 1], [0, 2], [3, 3]], mode="REFLECT"),
          lambda x: np.pad(x, ((1, 1), (0, 2), (3, 3)), mode="reflect"), [X3]),
    _case("pad_int", lambda x: tf.pad(x, [[1, 1], [1, 1]], constant_values=9),
          lambda x: np.pad(x, 1, constant_values=9), [I], grad=False),
    _case("pad_tensor_paddings", lambda x, p: tf.pad(x, p), lambda x, p: np.pad(x, p),
          [X, np.array([[0, 2], [1, 0]], np.int32)]),
    _case("mirror_pad_grad_reflect", lambda g: layout_ops.mirror_pad_grad(g, tf.constant([[2, 1], [1, 3]]), "REFLECT"),
          lambda g: _mirror_pad_grad(g, [[2, 1], [1, 3]], "REFLECT"), [R.standard_normal((6, 8))]),
    _case("mirror_pad_grad_symmetric", lambda g: layout_ops.mirror_pad_grad(g, tf.constant([[0, 3], [2, 2]]),
                                                                           "SYMMETRIC"),
          lambda g: _mirror_pad_grad(g, [[0, 3], [2, 2]], "SYMMETRIC"), [R.standard_normal((6, 8))]),
]

SLICING = [
    _case("getitem_slices", lambda x: x[1:, ::-1], lambda x: x[1:, ::-1], [X]),
    _case("getitem_int_and_newaxis", lambda x: x[..., None, 1], lambda x: x[..., None, 1], [X3]),
    _case("getitem_negative_step_and_index", lambda x: x[::2, -1], lambda x: x[::2, -1], [X3]),
    _case("getitem_tensor_index", lambda x, i: x[i, 1:], lambda x, i: x[i, 1:], [X, np.int32(2)]),
    _case("scatter_into_zeros", lambda g, like: array_ops.scatter_into_zeros(g, like, (slice(None, None, 2), 1), []),
          lambda g, like: _scatter_reference(g, like.shape, (slice(None, None, 2), 1)),
          [R.standard_normal((1, 4)), X3], grad_inputs=[0]),
    _case("slice", lambda x: tf.slice(x, [1, 0, 2], [1, -1, 2]), lambda x: x[1:2, :, 2:4], [X3]),
    _case("slice_whole", lambda x: tf.slice(x, [0, 0], [-1, 4]), lambda x: x, [X]),
    _case("slice_tensor_begin", lambda x, b: tf.slice(x, b, [2, 2]), lambda x, b: x[b[0]:b[0] + 2, b[1]:b[1] + 2],
          [X, np.array([1, 2], np.int32)]),
    _case("slice_tensor_size_minus_one", lambda x, s: tf.slice(x, [1, 1], s), lambda x, s: x[1:, 1:3],
          [X, np.array([-1, 2], np.int32)]),
]


def _scatter_reference(g, shape, index):
    out = np.zeros(shape)
    out[index] = g
    return out


def _scatter_nd(indices, updates, shape):
    out = np.zeros(shape, updates.dtype)
    np.add.at(out, tuple(np.moveaxis(indices, -1, 0)), updates)
    return out


GATHERS = [
    _case("gather", lambda x, i: tf.gather(x, i), lambda x, i: x[i], [X, np.array([2, 0, 2], np.int32)]),
    _case("gather_axis1_matrix_indices", lambda x, i: tf.gather(x, i, axis=1), lambda x, i: np.take(x, i, axis=1),
          [X3, np.array([[2, 0], [1, 2]], np.int64)]),
    _case("gather_int", lambda x, i: tf.gather(x, i), lambda x, i: x[i], [I, np.array([1, 1], np.int32)], grad=False),
    _case("unsorted_segment_sum", lambda d, s: tf.unsorted_segment_sum(d, s, 3),
          lambda d, s: _scatter_nd(s[:, None], d, (3, 4)), [X, np.array([2, 0, 2], np.int32)]),
    _case("gather_nd_full_index", tf.gather_nd, lambda p, i: p[i[..., 0], i[..., 1]],
          [X, np.array([[0, 1], [2, 3], [0, 1]], np.int32)]),
    _case("gather_nd_slices", tf.gather_nd, lambda p, i: p[i[..., 0], i[..., 1]],
          [X3, np.array([[[1, 2]], [[0, 0]]], np.int64)]),
    _case("gather_nd_rows", tf.gather_nd, lambda p, i: p[i[..., 0]], [X, np.array([[2], [0]], np.int32)]),
    _case("scatter_nd", lambda i, u: tf.scatter_nd(i, u, [5, 4]), lambda i, u: _scatter_nd(i, u, (5, 4)),
          [np.array([[1], [3], [1]], np.int32), X]),
    _case("scatter_nd_elements_int", lambda i, u: tf.scatter_nd(i, u, tf.constant([2, 3])),
          lambda i, u: _scatter_nd(i, u, (2, 3)), [np.array([[0, 1], [1, 2], [0, 1]], np.int32),
                                                  np.array([5, 6, 7], np.int32)], grad=False),
    _case("boolean_mask", lambda x, m: tf.boolean_mask(x, m), lambda x, m: x[m],
          [X, np.array([True, False, True])], known_rank=True),
    _case("boolean_mask_2d_mask", lambda x, m: tf.boolean_mask(x, m), lambda x, m: x[m], [X, B], known_rank=True),
    _case("boolean_mask_axis1", lambda x, m: tf.boolean_mask(x, m, axis=1), lambda x, m: x[:, m],
          [X3, np.array([True, False, True])], known_rank=True),
    _case("boolean_mask_none_true", lambda x, m: tf.boolean_mask(x, m) * 2.0, lambda x, m: x[m] * 2,
          [X, np.zeros(3, bool)], known_rank=True),
    _case("where_indices", tf.where, np.argwhere, [B], grad=False),
    _case("where_indices_numeric", tf.where, np.argwhere, [I], grad=False),
    _case("where_indices_3d", lambda x: tf.where(x > 0), lambda x: np.argwhere(x > 0), [X3], grad=False),
    _case("one_hot", lambda i: tf.one_hot(i, 4), lambda i: np.eye(4, dtype=np.float32)[i],
          [np.array([0, 3, 1], np.int32)], grad=False),
    _case("one_hot_out_of_range_rows_off", lambda i: tf.one_hot(i, 3),
          lambda i: np.array([[0, 0, 0], [0, 1, 0], [0, 0, 0]], np.float32), [np.array([-1, 1, 3], np.int64)],
          grad=False),
    _case("one_hot_axis0_on_off", lambda i: tf.one_hot(i, 3, on_value=5.0, off_value=-1.0, axis=0),
          lambda i: np.where(np.arange(3)[:, None, None] == i, 5.0, -1.0).astype(np.float32), [I], grad=False),
    _case("one_hot_int_dtype", lambda i: tf.one_hot(i, 2, dtype=tf.int32), lambda i: np.eye(2, dtype=np.int32)[i],
          [np.array([[1], [0]], np.uint8)], grad=False),
    _case("one_hot_tensor_depth", lambda i, d: tf.one_hot(i, d, axis=1),
          lambda i, d: np.moveaxis(np.eye(d, dtype=np.float32)[i], -1, 1), [I % 4, np.int32(5)], grad=False),
]

CASES = SHAPES + FILLS + JOINING + PADS + SLICING + GATHERS
