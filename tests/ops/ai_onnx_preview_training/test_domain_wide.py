"""ai.onnx.preview.training as a whole: each kernel op's module checks its kernel ranges, and every test module
is named for an op. (That every op and version onnx defines is here, with a kernel or a reason, is
tests/ops/test_onnx_domains_complete.py.)"""

from __future__ import annotations

import pytest

from conformance.kernels.registry import all_kernels
from tests.helpers import op_module_problems, stray_op_test_modules

DOMAIN = "ai.onnx.preview.training"
KERNEL_OPS = sorted(op for (domain, op) in all_kernels() if domain == DOMAIN)


@pytest.mark.parametrize("op", KERNEL_OPS)
def test_kernel_op_has_a_module_checking_its_ranges(op: str) -> None:
    assert not op_module_problems(DOMAIN, op)


def test_every_module_is_named_for_an_op() -> None:
    assert not stray_op_test_modules(DOMAIN)
