"""Test helper: run fetches of the default graph in a fresh Session (variables initialized)."""
import linecache
from typing import Any

import s2sgrad as tf


def evaluate(fetches: Any, feed_dict: dict | None = None) -> Any:
    """``sess.run(fetches, feed_dict)`` after running every variable's initializer."""
    graph = tf.get_default_graph()
    with tf.Session(graph=graph) as sess:
        initializers = [v.initializer for v in graph.get_collection("variables")]
        if initializers:
            sess.run(initializers)
        return sess.run(fetches, feed_dict)


def exec_program(text: str, filename: str = "prog.py") -> dict:
    """Run program ``text`` (``tf`` and ``np`` imported) as if it were the file ``filename``, so the
    recorded ops say ``prog.py:<line>``; returns the program's namespace."""
    import numpy as np
    namespace = {"tf": tf, "np": np}
    linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)  # as a real file
    exec(compile(text, filename, "exec"), namespace)  # test programs written in the tests
    return namespace
