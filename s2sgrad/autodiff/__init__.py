"""Reverse-mode differentiation: the ``tf.gradients`` walk (``backprop``), ``custom_gradient`` and the
gradient rules of the primitives (``rules``), which are built from the public op functions."""
