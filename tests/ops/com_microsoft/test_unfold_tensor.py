"""com.microsoft UnfoldTensor: the kernel against onnxruntime's CPU kernel (every dim, sizes and steps, the
types it runs), the shape formula against onnxruntime's shapes, and rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_examples_match_kernel_and_formula,
    formula_shapes,
    one_node_model,
    oracle_tests,
    problem_checks,
    run,
    run_onnxruntime,
    version,
)

DOMAIN = "com.microsoft"
OP = "UnfoldTensor"


def _case(inputs: list[np.ndarray | None], cid: str, n_out: int = 1, **attrs: Any) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), n_out=n_out, oracle="ort", rtol=1e-6, id=cid, domain=DOMAIN)


def _formula_matches_onnxruntime(inputs: list[np.ndarray | None], attrs: dict[str, Any], n_out: int = 1) -> None:
    """Every output shape by the formulas, the inputs' values known, against what onnxruntime computes."""
    v = version(DOMAIN, OP, 1)
    values = {p.name: a.reshape(-1).tolist() for p, a in zip(v.inputs, inputs, strict=False) if a is not None}
    mine = formula_shapes(v, inputs, attrs, values)[:n_out]
    model, feeds = one_node_model(OP, 1, inputs, attrs, n_out, domain=DOMAIN)
    theirs = [list(np.shape(o)) for o in run_onnxruntime(model, feeds)]
    assert mine == theirs, f"{OP} {attrs}: the formulas give {mine}, onnxruntime {theirs}"


def test_examples_match_kernel_and_formula() -> None:
    assert_examples_match_kernel_and_formula(DOMAIN, OP)


def _checks(shapes: list[list[int] | None], attrs: dict[str, Any], values: dict[str, list[Any]] | None = None
            ) -> list[str]:
    return problem_checks(version(DOMAIN, OP, 1), shapes, attrs, values)
f32 = Seeded(25).f32
X = f32(3, 7, 4)

CASES = [
    _case([X], "last-size2", size=2),
    _case([X], "dim1-size3-step2", dim=1, size=3, step=2),
    _case([X], "dim0-full", dim=0, size=3, step=5),
    _case([X], "dim-minus2-step3", dim=-2, size=1, step=3),
    _case([f32(6)], "rank1", size=4, step=1),
    *[_case([(X * 10).astype(t)], f"dtype-{np.dtype(t).name}", dim=1, size=2, step=2)
      for t in (np.float64, np.int32, np.int64)],
]
test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("attrs", [c.attrs for c in CASES[:5]], ids=[c.id for c in CASES[:5]])
def test_shape_formula_matches_onnxruntime(attrs: dict[str, Any]) -> None:
    _formula_matches_onnxruntime([X], attrs)


@pytest.mark.parametrize(("attrs", "check"), [
    pytest.param({"size": 2, "dim": 3}, "unfoldtensor_c1", id="dim-past-end"),
    pytest.param({"size": 2, "dim": -4}, "unfoldtensor_c1", id="dim-before-start"),
    pytest.param({"size": 5}, "unfoldtensor_c2", id="size-past-axis"),
    pytest.param({"size": 0}, "attr_range", id="size-0"),
    pytest.param({"size": 2, "step": 0}, "attr_range", id="step-0"),
])
def test_invalid_node_reports_the_check(attrs: dict[str, Any], check: str) -> None:
    assert check in _checks([[3, 7, 4]], attrs)


@pytest.mark.parametrize("attrs", [{"size": 2, "dim": 3, "step": 1}, {"size": 5, "dim": -1, "step": 1},
                                   {"size": 0, "dim": -1, "step": 1}, {"size": 2, "dim": -1, "step": 0}])
def test_kernel_rejects_invalid_input(attrs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        run(DOMAIN, OP, 1, [X], **attrs)
