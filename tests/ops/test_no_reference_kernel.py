"""An op file's `no_reference_kernel` is the one place that says why the reference computes nothing for an op: the
reason is never stale (no version of the op has a kernel) and conform's summary prints it from there."""

from __future__ import annotations

from pathlib import Path

from conformance.kernels import no_reference_kernel, ops_without_kernel
from conformance.kernels.registry import find_kernel
from tests.helpers import registry
from tests.helpers.conform_cli import run_and_report


def test_an_op_that_says_it_has_no_kernel_has_none() -> None:
    gaps = ops_without_kernel()
    assert len(gaps) >= 30 and all(reason.strip() for reason in gaps.values())
    stale = [v.signature for (domain, name) in gaps for v in registry().op(domain, name).versions
             if find_kernel(domain, name, v.since) is not None]
    assert not stale, f"these versions have a kernel but their op file says there is none: {stale}"
    assert no_reference_kernel("ai.onnx", "Relu") is None


def test_conform_prints_the_reason_from_the_op_file(tmp_path: Path) -> None:
    result, data = run_and_report(tmp_path, "reference", "--op", "GreedySearch")
    assert result.returncode == 0, result.stdout[-2000:]
    reason = " ".join(registry().op("com.microsoft", "GreedySearch").no_reference_kernel.split())
    assert all(c["status"] == "unsupported" for c in data["cells"].values())
    assert reason[:60] in " ".join(result.stdout.split())
