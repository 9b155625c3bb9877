"""The programs tests/data/nnops_tf/record.py runs with TensorFlow and tests/test_nnops_tf.py runs
with s2sgrad: ``value_cases(tf)`` and ``error_cases(tf)`` take the module (``tf.compat.v1`` or
``s2sgrad``), so both sides build the very same calls. Inputs come from record.py (stored in
reference.json)."""
import numpy as np

LABELS = np.array([[2, 7], [4, 0], [9, 2]], np.int64)
SAMPLED = np.array([7, 3, 5, 2, 8], np.int64)
EIDS = np.array([[6, 0, 4], [1, 1, 5]], np.int32)


def value_cases(tf, counts=None):
    """name -> (build(*placeholders), input positions to differentiate). ``counts``: the expected
    counts the sampled losses use (recorded by record.py)."""
    m, nn = tf.math, tf.nn
    cases = {op: (lambda d, i, op=op: getattr(m, op)(d, i), [0])
             for op in ["segment_sum", "segment_mean", "segment_max", "segment_min", "segment_prod"]}
    cases.update({op: (lambda d, i, op=op: getattr(m, op)(d, i, 5), [0])
                  for op in ["unsorted_segment_sum", "unsorted_segment_max", "unsorted_segment_min",
                             "unsorted_segment_prod", "unsorted_segment_mean", "unsorted_segment_sqrt_n"]})
    cases.update({
        "unsorted_segment_max_int32": (lambda d, i: m.unsorted_segment_max(d, i, 3), []),
        "fused_batch_norm_train": (lambda x, g, b: nn.fused_batch_norm(x, g, b), [0, 1, 2]),
        "fused_batch_norm_train_nchw": (lambda x, g, b: nn.fused_batch_norm(x, g, b, data_format="NCHW"), [0, 1, 2]),
        "fused_batch_norm_inference": (lambda x, g, b, mu, v: nn.fused_batch_norm(
            x, g, b, mu, v, epsilon=1e-3, is_training=False)[0], [0, 1, 2]),
        "fused_batch_norm_avg_factor": (lambda x, g, b, mu, v: nn.fused_batch_norm(
            x, g, b, mu, v, exponential_avg_factor=0.3), []),
        "batch_normalization": (lambda x, mu, v, b, g: nn.batch_normalization(x, mu, v, b, g, 1e-3), [0, 1, 2, 3, 4]),
        "moments": (lambda x: nn.moments(x, [0, 2]), [0]),
        "weighted_moments": (lambda x, w: nn.weighted_moments(x, [1], w), [0, 1]),
        "lrn": (lambda x: nn.lrn(x, depth_radius=2, bias=1.5, alpha=0.2, beta=0.75), [0]),
        "top_k_ties": (lambda x: nn.top_k(x, 3), [0]),
        "in_top_k_ties": (lambda p, t: nn.in_top_k(p, t, 1), []),
        "in_top_k_k2": (lambda p, t: nn.in_top_k(p, t, 2), []),
        "crelu": (lambda x: nn.crelu(x), [0]),
        "swish": (lambda x: nn.swish(x), [0]),
        "weighted_cross_entropy": (lambda z, x: nn.weighted_cross_entropy_with_logits(labels=z, logits=x,
                                                                                      pos_weight=2.5), [0, 1]),
        "embedding_mod": (lambda a, b, c: nn.embedding_lookup([a, b, c], EIDS), [0, 1, 2]),
        "embedding_div_max_norm": (lambda a, b, c: nn.embedding_lookup([a, b, c], EIDS, partition_strategy="div",
                                                                      max_norm=1.5), [0, 1, 2]),
        "compute_accidental_hits": (lambda t, s: nn.compute_accidental_hits(t, s, 2), []),
    })
    for loss in ["nce_loss", "sampled_softmax_loss"]:
        for hits in (False, True):
            cases[f"{loss}_hits{int(hits)}"] = (
                lambda w, b, x, loss=loss, hits=hits: getattr(nn, loss)(
                    w, b, LABELS, x, 5, 10, num_true=2, sampled_values=(SAMPLED, *counts),
                    remove_accidental_hits=hits), [0, 1, 2])
    return cases


def error_cases(tf):
    """name -> (build(*placeholders named as the inputs say), inputs as (name, value))."""
    x = ("x", np.array([1.0, -2.0, 3.0], np.float32))
    y = ("y", np.array([1.0, 2.0, 3.0], np.float32))
    cases = {}
    for op in ["assert_positive", "assert_negative", "assert_non_negative", "assert_non_positive"]:
        cases[op] = (lambda a, op=op: getattr(tf, op)(a), [x])
        cases[op + "_message"] = (lambda a, op=op: getattr(tf, op)(a, message="checked"), [x])
    for op in ["assert_equal", "assert_less", "assert_less_equal", "assert_greater", "assert_greater_equal",
               "assert_none_equal"]:
        cases[op] = (lambda a, b, op=op: getattr(tf, op)(a, b), [x, y])
    cases.update({
        "assert_equal_summarize": (lambda a, b: tf.assert_equal(a, b, summarize=1, message="m"), [x, y]),
        "Assert_data": (lambda a: tf.Assert(a[0] < 0, ["bad:", a, tf.constant(0.1), tf.constant(1 / 3, tf.float64),
                                                        tf.constant(True), tf.reshape(tf.range(6), [2, 3])]), [x]),
        "check_numerics_nan": (lambda a: tf.check_numerics(a * np.float32(np.nan), "nan here"), [x]),
        "check_numerics_inf": (lambda a: tf.check_numerics(a / 0.0, "inf here"), [x]),
        "check_numerics_both": (lambda a: tf.check_numerics(tf.concat([a / 0.0, a * np.nan], 0), "both"), [x]),
        "segment_not_increasing": (lambda d: tf.math.segment_sum(d, tf.constant([0, 2, 1])), [x]),
        "unsorted_segment_out_of_range": (lambda d: tf.math.unsorted_segment_sum(d, tf.constant([0, 5, 1]), 3), [x]),
    })
    return cases


def print_cases(tf, stdout):
    """name -> build(): what to run; each writes with tf.Print (to stderr) or tf.print (to ``stdout``)."""
    def x():
        return tf.constant([1.0, -2.0, 3.0])

    def y():
        return tf.constant([1, 2, 3])

    return {
        "Print_summarize": lambda: tf.Print(x(), [x(), y()], message="hi: ", summarize=2),
        "Print_nested": lambda: tf.Print(tf.constant(1), [tf.range(10), tf.constant([[1.5, 2.0], [3.0, 4.0]])],
                                         message="m"),
        "print_sep_end": lambda: tf.print("vals", x(), {"a": y()}, output_stream=stdout, sep="|", end="!\n",
                                          summarize=2),
        "print_matrix": lambda: tf.print(tf.reshape(tf.range(100), [10, 10]), output_stream=stdout),
        "print_kinds": lambda: tf.print(tf.range(10), tf.constant([[1.5, 2.0], [3.0, 4.25]]), tf.constant(True),
                                        tf.constant("s"), [x(), 7], output_stream=stdout, summarize=2),
        "print_all": lambda: tf.print(tf.range(8), output_stream=stdout, summarize=-1),
    }
