"""Check the GPU backends on a machine with an NVIDIA GPU: cupy and torch on CUDA.

    pip install -e ".[test,torch,cupy]"     # cupy: the wheel for your CUDA, e.g. cupy-cuda12x
    python tools/check_gpu_backends.py      # exit status 0 when every check passed

For each GPU backend that is installed and sees a GPU, trains the MLP, CNN and seed-regression
workloads of tests/test_backend_workloads.py for 4 steps and compares every fetched value and the
final variables with the numpy backend (rtol 1e-4: GPU reductions sum in another order), then runs
the op-table portability cases (tests/backend_cases.py) that array-api-strict runs. Prints one
line per check and a summary; a backend without a GPU is reported as skipped, not failed.
"""
from __future__ import annotations

import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), os.path.join(os.path.dirname(HERE), "tests")]

import numpy as np  # noqa: E402

import optable  # noqa: E402
import test_backend_workloads as workloads  # noqa: E402
from backend_cases import assert_same, run_case  # noqa: E402
from s2sgrad.codegen.xp import NotPortable  # noqa: E402


def gpu_available(backend: str) -> bool:
    try:
        if backend == "cupy":
            import cupy
            return cupy.cuda.runtime.getDeviceCount() > 0
        import torch
        return torch.cuda.is_available()
    except Exception:  # not installed, no driver
        return False


def check(backend: str) -> tuple[int, int]:
    passed = failed = 0
    for build in (workloads._seed_regression, workloads._mlp, workloads._cnn):
        try:
            got, expected = workloads._train(build, backend, 4), workloads._train(build, "numpy", 4)
            for g, e in zip(got, expected, strict=True):
                np.testing.assert_allclose(g, e, rtol=1e-4, atol=1e-5)
            print(f"ok    {backend:10} {build.__name__}")
            passed += 1
        except Exception as e:
            print(f"FAIL  {backend:10} {build.__name__}: {e!r}"[:300])
            failed += 1
    for case in optable.all_cases():
        try:
            assert_same(case, run_case(case, backend), run_case(case, "numpy"))
            passed += 1
        except NotPortable:
            pass   # listed NumPy-only
        except Exception as e:
            print(f"FAIL  {backend:10} {case.id}: {e!r}"[:300])
            failed += 1
    return passed, failed


def main() -> int:
    warnings.simplefilter("ignore")
    total_failed = 0
    for backend in ("cupy", "torch_cuda"):
        if not gpu_available(backend):
            print(f"skip  {backend:10} (not installed or no GPU)")
            continue
        passed, failed = check(backend)
        total_failed += failed
        print(f"{backend}: {passed} passed, {failed} failed")
    return 1 if total_failed else 0


if __name__ == "__main__":
    sys.exit(main())
