"""`conform --suite onnx-node` generates onnx's node cases once: the pytest process reads the snapshot conform wrote
beside the test module instead of generating them again."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from conformance.suites import onnx_node
from conformance.suites.onnx_node import SNAPSHOT, suite_cases, use_snapshot, write_module


def test_the_test_module_reads_the_cases_conform_wrote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cases = suite_cases(["test_abs", "test_sequence_insert_at_back"])
    write_module(tmp_path, cases)
    assert (tmp_path / SNAPSHOT).is_file()
    generated = onnx_node.testcases()

    def no_generation() -> dict[str, object]:
        raise AssertionError("the cases were generated again")

    monkeypatch.setattr(onnx_node, "_generated_testcases", no_generation)
    use_snapshot(tmp_path / SNAPSHOT)
    try:
        read = onnx_node.testcases()
        assert read is not generated and set(read) == set(generated)
        for name in ("test_abs", "test_sequence_insert_at_back"):
            assert read[name].model == generated[name].model
            (inputs, outputs), = read[name].data_sets
            (want_inputs, want_outputs), = generated[name].data_sets
            for got, want in zip([*inputs, *outputs], [*want_inputs, *want_outputs], strict=True):
                got, want = (got, want) if isinstance(want, list) else ([got], [want])
                assert all(np.array_equal(g, w) and g.dtype == w.dtype for g, w in zip(got, want, strict=True))
    finally:
        use_snapshot(None)
