"""The seed programs run unchanged and print exactly what TensorFlow prints."""
import os
import subprocess
import sys

import pytest

from conftest import DATA, EXAMPLES, checkout_env


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_seed_program_prints_tensorflow_output(n):
    script = os.path.join(EXAMPLES, f"seed_program_{n}.py")
    result = subprocess.run([sys.executable, script], capture_output=True, text=True, timeout=120,
                            env=checkout_env())
    assert result.returncode == 0, result.stderr
    with open(os.path.join(DATA, f"seed_program_{n}.tensorflow_output.txt")) as f:
        expected = f.read()
    assert result.stdout.strip() == expected.strip()
