"""com.microsoft.nchwc as a whole: every registered kernel op has a test module checking its kernel ranges."""

from __future__ import annotations

import pytest

from conformance.kernels.registry import all_kernels
from tests.helpers import op_module_problems, stray_op_test_modules

DOMAIN = "com.microsoft.nchwc"
KERNEL_OPS = sorted(op for (domain, op) in all_kernels() if domain == DOMAIN)


@pytest.mark.parametrize("op", KERNEL_OPS)
def test_kernel_op_has_a_module_checking_its_ranges(op: str) -> None:
    """Its module (read, not imported) checks its kernel ranges: an untested kernel fails there."""
    problems = op_module_problems(DOMAIN, op)
    assert not problems, problems


def test_every_module_is_named_for_an_op() -> None:
    stray = stray_op_test_modules(DOMAIN)
    assert not stray, f"modules named for no {DOMAIN} op (tests/ops/<domain module>/test_<kernel stem>.py): {stray}"
