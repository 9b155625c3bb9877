"""The version of s2sgrad (the package and the ``s2sgrad --version`` command read it here)."""

__version__ = "0.1.0"
