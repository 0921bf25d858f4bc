"""The registry holds every op and version of the installed onnxruntime's own domains (com.microsoft,
com.microsoft.nchwc); every output of those versions has a shape formula; and each version has a reference
kernel or a stated reason it has none (the op file's `no_reference_kernel`)."""

from __future__ import annotations

import pytest

from conformance.kernels import ops_without_kernel
from conformance.kernels.registry import find_kernel
from opset.importers.ort_contrib import ORT_SOURCE_DOMAINS, ort_history
from tests.helpers import registry

pytest.importorskip("onnxruntime")


@pytest.mark.parametrize("domain", ORT_SOURCE_DOMAINS)
def test_every_onnxruntime_version_is_in_the_registry(domain: str) -> None:
    ours = {(name, v.since) for (d, name), op in registry().ops.items() if d == domain for v in op.versions}
    theirs = {(name, int(s.since_version)) for name, schemas in ort_history(domain).items() for s in schemas}
    assert sorted(theirs - ours) == []


@pytest.mark.parametrize("domain", ORT_SOURCE_DOMAINS)
def test_every_output_has_a_shape_formula(domain: str) -> None:
    missing = [f"{name}@{v.since}.{out.name}" for (d, name), op in registry().ops.items() if d == domain
               for v in op.versions for out in v.outputs if out.formula is None]
    assert missing == []


@pytest.mark.parametrize("domain", ORT_SOURCE_DOMAINS)
def test_every_onnxruntime_version_has_a_kernel_or_a_reason(domain: str) -> None:
    gaps = [f"{name}@{int(s.since_version)}" for name, schemas in ort_history(domain).items() for s in schemas
            if (domain, name) not in ops_without_kernel() and find_kernel(domain, name, int(s.since_version)) is None]
    assert gaps == []
