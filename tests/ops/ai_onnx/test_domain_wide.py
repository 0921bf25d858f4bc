"""ai.onnx as a whole: each kernel op's module checks its ranges; each schema version has a kernel.

(Whether a kernel takes exactly its versions' attributes is tests/ops/test_kernel_signatures.py.)
"""

from __future__ import annotations

import pytest

from conformance.kernels.registry import all_kernels, find_kernel
from tests.helpers import onnx_versions, op_module_problems, stray_op_test_modules

DOMAIN = "ai.onnx"
KERNEL_OPS = sorted(op for (domain, op) in all_kernels() if domain == DOMAIN)


@pytest.mark.parametrize("op", KERNEL_OPS)
def test_kernel_op_has_a_module_checking_its_ranges(op: str) -> None:
    """Its module (read, not imported) checks its kernel ranges: an untested kernel range fails there."""
    problems = op_module_problems(DOMAIN, op)
    assert not problems, problems


def test_every_module_is_named_for_an_op() -> None:
    stray = stray_op_test_modules(DOMAIN)
    assert not stray, f"modules named for no {DOMAIN} op (tests/ops/<domain module>/test_<kernel stem>.py): {stray}"


@pytest.mark.parametrize("op", KERNEL_OPS)
def test_every_schema_version_has_a_kernel(op: str) -> None:
    gaps = [f"{op}@{v}" for v in onnx_versions(op) if find_kernel(DOMAIN, op, v) is None]
    assert not gaps, f"schema versions without a kernel: {gaps}"
