"""The corpus of classic TF-1.x programs (tests/corpus) runs with ``import s2sgrad as tf`` and prints
the numbers TensorFlow printed (tests/corpus/expected, recorded as tests/corpus/README.md says)."""
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import checkout_env
from corpus_programs import CORPUS, expected_path, output_differences, program_argv, program_names, program_path


@pytest.mark.parametrize("name", program_names())
def test_program_prints_what_tensorflow_printed(name, tmp_path):
    result = subprocess.run([sys.executable, program_path(name)] + program_argv(name), capture_output=True,
                            text=True, timeout=120, cwd=tmp_path, env=checkout_env())
    assert result.returncode == 0, result.stderr
    with open(expected_path(name)) as f:
        expected = f.read()
    assert output_differences(result.stdout, expected) == []


def test_every_program_has_expected_output():
    recorded = sorted(name[:-4] for name in os.listdir(os.path.join(CORPUS, "expected")))
    assert recorded == program_names()
    assert len(recorded) >= 10


def test_digits_are_scikit_learns_load_digits():
    sys.path.insert(0, CORPUS)
    try:
        from digits_input import load_digits
    finally:
        sys.path.remove(CORPUS)
    datasets = pytest.importorskip("sklearn.datasets")
    pixels, targets = load_digits()
    reference = datasets.load_digits()
    np.testing.assert_array_equal(pixels, reference.data)
    np.testing.assert_array_equal(targets, reference.target)


@pytest.mark.parametrize("actual, same", [
    ("loss 0.500000 at step 10", True),
    ("loss 0.500040 at step 10", True),     # within rtol 1e-4
    ("loss 0.500100 at step 10", False),    # outside it
    ("loss 0.500000 at step 11", False),    # integers are numbers too
    ("loss 0.500000 at epoch 10", False),   # the words must match
    ("loss   0.5 at step 10", True),        # spacing and number formatting do not matter
    ("loss 0.500000 at step 10\nmore", False),
])
def test_output_comparison(actual, same):
    assert (output_differences(actual, "loss 0.500000 at step 10") == []) is same


def test_output_comparison_allows_one_unit_in_the_last_printed_digit():
    assert output_differences("loss= 0.4349", "loss= 0.4348") == []
    assert output_differences("loss= 0.4350", "loss= 0.4348") != []
    assert output_differences("gradient 3.940e-10", "gradient 3.939e-10") == []
    assert output_differences("inertia 856.0518", "inertia 856.0517") == []
    assert output_differences("count 349", "count 348") != []


def test_output_comparison_near_zero_uses_atol():
    assert output_differences("gradient 3e-7", "gradient -2e-7") == []
    assert output_differences("gradient 3e-4", "gradient -2e-4") != []
