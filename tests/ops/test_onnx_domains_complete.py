"""The registry holds every op and version of every domain the pinned onnx defines (ai.onnx, ai.onnx.ml,
ai.onnx.preview.training, ai.onnx.preview), and each of those versions has a reference kernel or a stated
reason it has none (the op file's `no_reference_kernel`)."""

from __future__ import annotations

import pytest

from conformance.kernels import ops_without_kernel
from conformance.kernels.registry import find_kernel
from opset.importers.onnx_defs import onnx_history
from opset.importers.sources import ONNX_SOURCE_DOMAINS
from tests.helpers import registry


@pytest.mark.parametrize("domain", list(ONNX_SOURCE_DOMAINS))
def test_every_onnx_version_is_in_the_registry(domain: str) -> None:
    ours = {(name, v.since) for (d, name), op in registry().ops.items() if d == domain for v in op.versions}
    theirs = {(name, int(s.since_version)) for name, schemas in onnx_history(domain).items() for s in schemas}
    assert sorted(theirs - ours) == []


@pytest.mark.parametrize("domain", list(ONNX_SOURCE_DOMAINS))
def test_every_onnx_version_has_a_kernel_or_a_reason(domain: str) -> None:
    gaps = [f"{name}@{int(s.since_version)}" for name, schemas in onnx_history(domain).items() for s in schemas
            if (domain, name) not in ops_without_kernel() and find_kernel(domain, name, int(s.since_version)) is None]
    assert gaps == []
