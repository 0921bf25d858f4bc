"""Every formula test runs twice: with the compiled closures (the default evaluation) and with the walked
evaluator (the reference), so both meet the same expectations, values and errors alike."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from opset.formula.formula import walked_evaluation


@pytest.fixture(autouse=True, params=["compiled", "walked"])
def evaluation(request: pytest.FixtureRequest) -> Iterator[str]:
    if request.param == "walked":
        with walked_evaluation():
            yield request.param
    else:
        yield request.param
