"""Every op-table case (tests/cases_*.py) runs its forward values and gradients under array-api-strict
(the array API standard and nothing more) with NumPy's numbers, or is NumPy-only with a reason listed in
``s2sgrad.codegen.xp`` (``NUMPY_ONLY`` for NumPy names, ``NUMPY_ONLY_OPS`` for ops)."""
from __future__ import annotations

import pytest

from backend_cases import assert_same, case_fetches, run_case
from optable import all_cases
from s2sgrad.codegen.xp import NUMPY_ONLY, NUMPY_ONLY_OPS, NotPortable

pytest.importorskip("array_api_strict")
pytestmark = pytest.mark.filterwarnings("ignore")

CASES = all_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case_runs_under_array_api_strict_with_numpys_numbers(case):
    expected = run_case(case, "numpy")
    try:
        got = run_case(case, "array_api_strict")
    except NotPortable as e:
        assert e.name in NUMPY_ONLY, f"{case.id}: {e.name} is NumPy-only but has no reason in xp.NUMPY_ONLY"
        return
    except Exception as e:
        types = {op.type for op in case_fetches(case)[0].get_operations()}
        listed = sorted(types & set(NUMPY_ONLY_OPS))
        assert listed, f"{case.id} fails under array-api-strict and no op of it is listed NumPy-only: {e!r}"
        return
    assert_same(case, got, expected)

