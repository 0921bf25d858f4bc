"""The store of node outcomes kept across validations stays bounded and can be emptied."""

from __future__ import annotations

import pytest

from opset.validate import check_model, forget_outcomes
from opset.validate.outcomes import Outcomes
from opset.validate.run import kept_outcomes
from tests.validate.corpus import CLEAN


def test_the_store_starts_afresh_at_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Outcomes, "LIMIT", 3)
    kept: Outcomes[str] = Outcomes()
    for k in range(3):
        kept.put(k, str(k))
    assert len(kept) == 3 and kept.get(0) == "0"
    kept.put(3, "3")
    assert len(kept) == 1 and kept.get(0) is None and kept.get(3) == "3"


def test_forget_outcomes_empties_the_store() -> None:
    from opset.validate import _table

    build, profile = next(iter(CLEAN.values()))
    check_model(build(), profile)
    kept = kept_outcomes(_table(None))
    assert len(kept) > 0
    forget_outcomes()
    assert len(kept) == 0

