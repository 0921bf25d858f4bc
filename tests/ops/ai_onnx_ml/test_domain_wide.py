"""ai.onnx.ml as a whole: every op of onnx's domain is in the registry, each kernel op's module
checks its ranges, and every version has a kernel or a stated reason it has none."""

from __future__ import annotations

import pytest

from conformance.kernels import no_reference_kernel
from conformance.kernels.registry import find_kernel
from opset.importers.onnx_defs import onnx_history
from tests.helpers import op_module_problems, registry, stray_op_test_modules

DOMAIN = "ai.onnx.ml"
OPS = sorted(onnx_history(DOMAIN))


def test_the_registry_holds_every_op_and_version_onnx_defines() -> None:
    ours = {(op.name, v.since) for (domain, _), op in registry().ops.items() if domain == DOMAIN for v in op.versions}
    theirs = {(name, int(s.since_version)) for name, schemas in onnx_history(DOMAIN).items() for s in schemas}
    assert ours == theirs


@pytest.mark.parametrize("op", OPS)
def test_every_version_has_a_kernel_or_a_reason(op: str) -> None:
    if no_reference_kernel(DOMAIN, op) is not None:
        return
    assert not op_module_problems(DOMAIN, op)
    gaps = [v.since for v in registry().op(DOMAIN, op).versions if find_kernel(DOMAIN, op, v.since) is None]
    assert not gaps, f"{op}: versions without a kernel: {gaps}"


def test_every_module_is_named_for_an_op() -> None:
    assert not stray_op_test_modules(DOMAIN)
