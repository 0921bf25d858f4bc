"""com.microsoft Unique: the kernel against onnxruntime's CPU kernel (float only: first-occurrence order, -0.0 and
0.0 one value, every NaN its own), the data-dependent shape formulas against onnxruntime's shapes, and rejected
inputs."""

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
OP = "Unique"


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
f32 = Seeded(24).f32


def _x(values: Any) -> np.ndarray:
    return np.asarray(values, dtype=np.float32)


CASES = [
    _case([_x([2, 1, 1, 3, 4, 3])], "example", n_out=3),
    _case([_x([-0.0, 1, 0.0, -0.0])], "signed-zeros", n_out=3),
    _case([_x([5, 5, 5])], "all-equal", n_out=3),
    _case([_x([])], "empty", n_out=3),
    _case([np.round(f32(40) * 2)], "random-repeats", n_out=3),
]
test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_every_nan_is_its_own_value() -> None:
    """onnxruntime's counts for [nan, 1, nan] are [1, 1, 1]: NaN never equals an earlier NaN."""
    x = _x([np.nan, 1, np.nan])
    model, feeds = one_node_model(OP, 1, [x], {}, 3, domain=DOMAIN)
    theirs = run_onnxruntime(model, feeds)
    mine = run(DOMAIN, OP, 1, [x])
    assert theirs[1].tolist() == mine[1].tolist() == [0, 1, 2]
    assert theirs[2].tolist() == mine[2].tolist() == [1, 1, 1]
    np.testing.assert_array_equal(mine[0], theirs[0])


@pytest.mark.parametrize("x", [_x([2, 1, 1, 3, 4, 3]), _x([]), _x([-0.0, 0.0]), np.round(f32(30))],
                         ids=["example", "empty", "signed-zeros", "random"])
def test_shape_formulas_match_onnxruntime(x: np.ndarray) -> None:
    _formula_matches_onnxruntime([x], {}, n_out=3)


def test_shape_of_unknown_values_is_symbolic() -> None:
    assert not _checks([[6]], {})


@pytest.mark.parametrize("x", [f32(2, 3), np.float32(1).reshape(())], ids=["2d", "scalar"])
def test_kernel_rejects_invalid_input(x: np.ndarray) -> None:
    with pytest.raises(ValueError):
        run(DOMAIN, OP, 1, [x])


def test_non_1d_input_reports_the_rank() -> None:
    assert "rank" in _checks([[2, 3]], {})
