"""Every op case: forward against NumPy (specialized and generic code) and gradients."""
import pytest

from optable import all_cases, assert_matches, check_case_gradient, run_forward, run_generic

CASES = all_cases()
FORWARD = [c for c in CASES if c.reference is not None]
GRADIENT = [c for c in CASES if c.grad]


@pytest.mark.parametrize("case", FORWARD, ids=[c.id for c in FORWARD])
def test_forward_matches_numpy(case):
    assert_matches(case, run_forward(case), case.reference(*case.arrays()))


@pytest.mark.parametrize("case", FORWARD, ids=[c.id for c in FORWARD])
def test_forward_with_unknown_static_shapes(case):
    assert_matches(case, run_forward(case, static=False), case.reference(*case.arrays()))


@pytest.mark.parametrize("case", FORWARD, ids=[c.id for c in FORWARD])
def test_generic_module_matches_numpy(case):
    assert_matches(case, run_generic(case), case.reference(*case.arrays()))


@pytest.mark.parametrize("case", GRADIENT, ids=[c.id for c in GRADIENT])
def test_gradient_matches_finite_differences(case):
    check_case_gradient(case)
