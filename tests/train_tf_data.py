"""TensorFlow's numbers for the tf.train / tf.losses / tf.metrics tests, recorded by running
tests/train_programs.py with TensorFlow (tests/data/train_tf/README.md), and how to compare
s2sgrad's run of the same programs with them."""
from __future__ import annotations

import json
import os
from typing import Any

import numpy as np

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "train_tf")


def load(name: str) -> dict:
    with open(os.path.join(DATA, name + ".json"), encoding="utf-8") as f:
        return json.load(f)


def assert_close(got: Any, want: Any, rtol: float = 2e-6, atol: float = 1e-7) -> None:
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64), rtol=rtol, atol=atol)


def assert_matches(got: Any, want: Any, rtol: float = 2e-6, atol: float = 1e-7, ignore: tuple = (),
                   path: str = "") -> None:
    """``got`` has ``want``'s structure, equal strings and ints, and floats within tolerance; keys named in
    ``ignore`` are not compared."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and set(got) - set(ignore) == set(want) - set(ignore), \
            f"{path}: keys {sorted(got)} != {sorted(want)}"
        for key in set(want) - set(ignore):
            assert_matches(got[key], want[key], rtol, atol, ignore, f"{path}.{key}")
    elif isinstance(want, (str, bool)) or want is None:
        assert got == want, f"{path}: {got!r} != {want!r}"
    elif isinstance(want, int):
        assert got == want and isinstance(got, int), f"{path}: {got!r} != {want!r}"
    elif isinstance(want, list) and any(isinstance(x, (str, dict)) for x in want):
        assert isinstance(got, (list, tuple)) and len(got) == len(want), f"{path}: {got!r} != {want!r}"
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_matches(g, w, rtol, atol, ignore, f"{path}[{i}]")
    elif isinstance(want, list) and not _rectangular(want):
        assert len(got) == len(want), f"{path}: {len(got)} items != {len(want)}"
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_matches(g, w, rtol, atol, ignore, f"{path}[{i}]")
    else:
        assert np.shape(got) == np.shape(want), f"{path}: shape {np.shape(got)} != {np.shape(want)}"
        np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64), rtol=rtol,
                                   atol=atol, err_msg=path)


def _rectangular(values: list) -> bool:
    try:
        np.asarray(values, np.float64)
    except ValueError:
        return False
    return True
