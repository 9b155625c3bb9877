"""The version of s2sgrad (``s2sgrad.__version__`` and ``s2sgrad --version`` read it here; private, so that
``tf.version`` stays free for TensorFlow's namespace)."""

__version__ = "0.1.0"
