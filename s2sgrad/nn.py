"""``tf.nn``: neural-network ops (``import s2sgrad as tf; tf.nn.relu(x)``)."""
from .ops.conv_ops import (
                         atrous_conv2d,
                         conv1d,
                         conv2d,
                         conv2d_backprop_filter,
                         conv2d_backprop_input,
                         conv2d_transpose,
                         conv3d,
                         convolution,
                         depthwise_conv2d,
                         depthwise_conv2d_native,
                         separable_conv2d,
)
from .ops.embedding_ops import embedding_lookup
from .ops.math_ops import sigmoid, tanh
from .ops.nn_ops import (
                         bias_add,
                         crelu,
                         dropout,
                         elu,
                         l2_loss,
                         l2_normalize,
                         leaky_relu,
                         log_softmax,
                         relu,
                         relu6,
                         selu,
                         sigmoid_cross_entropy_with_logits,
                         softmax,
                         softmax_cross_entropy_with_logits,
                         softmax_cross_entropy_with_logits_v2,
                         softplus,
                         softsign,
                         sparse_softmax_cross_entropy_with_logits,
                         swish,
                         weighted_cross_entropy_with_logits,
                         xw_plus_b,
)
from .ops.normalization_ops import (
                         batch_norm_with_global_normalization,
                         batch_normalization,
                         fused_batch_norm,
                         local_response_normalization,
                         lrn,
                         moments,
                         weighted_moments,
)
from .ops.pool_ops import (
                         avg_pool,
                         avg_pool1d,
                         avg_pool3d,
                         max_pool,
                         max_pool1d,
                         max_pool3d,
                         max_pool_with_argmax,
                         pool,
)
from .ops.sampling_ops import (
                         compute_accidental_hits,
                         log_uniform_candidate_sampler,
                         nce_loss,
                         sampled_softmax_loss,
                         uniform_candidate_sampler,
)
from .ops.selection_ops import in_top_k, top_k
from .rnn import bidirectional_dynamic_rnn, dynamic_rnn, rnn_cell, static_bidirectional_rnn, static_rnn
from .tf1_api import missing_names as _missing_names

__all__ = ["bias_add", "dropout", "elu", "embedding_lookup", "l2_loss", "l2_normalize", "leaky_relu",
           "log_softmax", "moments", "relu", "relu6", "selu", "sigmoid", "sigmoid_cross_entropy_with_logits",
           "softmax", "softmax_cross_entropy_with_logits", "softmax_cross_entropy_with_logits_v2", "softplus",
           "softsign", "sparse_softmax_cross_entropy_with_logits", "tanh", "xw_plus_b"]
__all__ += ["atrous_conv2d", "avg_pool", "avg_pool1d", "avg_pool3d", "conv1d", "conv2d", "conv2d_backprop_filter",
            "conv2d_backprop_input", "conv2d_transpose", "conv3d", "convolution", "depthwise_conv2d",
            "depthwise_conv2d_native", "max_pool", "max_pool1d", "max_pool3d", "max_pool_with_argmax", "pool",
            "separable_conv2d"]
__all__ += ["bidirectional_dynamic_rnn", "dynamic_rnn", "rnn_cell", "static_bidirectional_rnn", "static_rnn"]

# nnops (issue 14)
__all__ += ["batch_norm_with_global_normalization", "batch_normalization", "compute_accidental_hits",
            "crelu", "fused_batch_norm", "in_top_k", "local_response_normalization", "log_uniform_candidate_sampler",
            "lrn", "nce_loss", "sampled_softmax_loss", "swish", "top_k", "uniform_candidate_sampler",
            "weighted_cross_entropy_with_logits", "weighted_moments"]

__getattr__ = _missing_names("nn", __name__)
