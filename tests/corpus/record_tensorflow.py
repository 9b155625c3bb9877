"""Record what real TensorFlow prints for the corpus programs, into tests/corpus/expected/NAME.txt.

Run outside CI, with a Python that has TensorFlow and scikit-learn (never a dependency of s2sgrad):

    /tmp/tfvenv/bin/python tests/corpus/record_tensorflow.py [NAME ...]

Each program is run in its own process, with its '# corpus-argv:' arguments, and with a module named
``s2sgrad`` that is TensorFlow's TF-1.x API: ``tensorflow.compat.v1`` after ``disable_v2_behavior()``
(graph mode, and TF-1.x's TensorShape whose ``shape[i]`` is a Dimension), so the program's
``import s2sgrad as tf`` gets TensorFlow. Only stdout is recorded.
"""
import os
import runpy
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_programs import expected_path, program_argv, program_names, program_path  # noqa: E402

TF_ENV = {"TF_CPP_MIN_LOG_LEVEL": "3", "TF_ENABLE_ONEDNN_OPTS": "0", "CUDA_VISIBLE_DEVICES": ""}


def run_under_tensorflow(path: str, argv: list[str]) -> None:
    """Run one program in this process with ``s2sgrad`` standing for TensorFlow's TF-1.x API."""
    import tensorflow.compat.v1 as tf1
    tf1.disable_v2_behavior()
    sys.modules["s2sgrad"] = tf1
    sys.argv = [path] + argv
    sys.path.insert(0, os.path.dirname(path))
    runpy.run_path(path, run_name="__main__")


def record(name: str) -> None:
    command = [sys.executable, os.path.abspath(__file__), "--run", program_path(name)] + program_argv(name)
    result = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ, **TF_ENV))
    if result.returncode != 0:
        raise SystemExit(f"{name} failed under TensorFlow:\n{result.stderr}")
    with open(expected_path(name), "w") as f:
        f.write(result.stdout)
    print(f"{name}: {len(result.stdout.splitlines())} lines")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--run"]:
        run_under_tensorflow(sys.argv[2], sys.argv[3:])
    else:
        import tensorflow
        print("TensorFlow", tensorflow.__version__)
        for program in sys.argv[1:] or program_names():
            record(program)
