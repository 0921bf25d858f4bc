"""Expectations entries say what kind of gap they are (backend-bug or disputed); the loader refuses any other kind,
and every entry of the third-party backends' files states one."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.runner.expectations import KINDS, ExpectationsError, load_expectations

EXPECTATIONS = Path(__file__).resolve().parents[3] / "conformance" / "expectations"


def test_kind_is_read_and_checked(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text("- {op: Cast, version: 21, dtype: int64, kind: backend-bug, reason: keeps 32 bits}\n")
    assert load_expectations(good)[0].kind == "backend-bug"
    bad = tmp_path / "bad.yaml"
    bad.write_text("- {op: Cast, kind: bug, reason: keeps 32 bits}\n")
    with pytest.raises(ExpectationsError, match="kind 'bug', not one of backend-bug, disputed"):
        load_expectations(bad)


@pytest.mark.parametrize("name", ["openvino", "tract", "onnx2torch"])
def test_every_entry_of_a_third_party_backend_states_its_kind(name: str) -> None:
    entries = load_expectations(EXPECTATIONS / f"{name}.yaml")
    assert entries, f"{name}.yaml lists no gap"
    assert all(e.kind in KINDS and e.reason for e in entries), [e.describe() for e in entries if e.kind is None]
