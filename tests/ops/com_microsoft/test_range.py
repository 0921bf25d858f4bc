"""com.microsoft Range: the kernel against onnxruntime's CPU kernel (every type, delta absent, negative and
fractional steps that accumulate rounding), the data-dependent shape formula against onnxruntime's lengths, and
rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
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
OP = "Range"


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


def _s(v: float, dtype: Any, shape: tuple[int, ...] = ()) -> np.ndarray:
    return np.full(shape, v, dtype=dtype)


CASES = [
    *[_case([_s(1, t), _s(11, t), _s(3, t)], f"step3-{np.dtype(t).name}")
      for t in (np.float32, np.float64, np.int16, np.int32, np.int64)],
    _case([_s(2, np.int32), _s(6, np.int32, (1,)), None], "no-delta-vector-limit"),
    _case([_s(10, np.int64), _s(4, np.int64), _s(-2, np.int64)], "negative-delta"),
    _case([_s(1, np.int16), _s(7, np.int16), _s(-1, np.int16)], "empty"),
    _case([_s(0, np.float32), _s(1, np.float32), _s(0.1, np.float32)], "float-accumulates"),
    _case([_s(0.5, np.float64), _s(-2.25, np.float64), _s(-0.3, np.float64)], "double-negative-fraction"),
    _case([_s(-3.5, np.float32), _s(3.5, np.float32), None], "float-no-delta"),
]
test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("case", [c for c in CASES if "accumulates" not in c.id], ids=lambda c: c.id)
def test_shape_formula_matches_onnxruntime(case: OracleCase) -> None:
    _formula_matches_onnxruntime(case.inputs, {})


def test_float_values_accumulate_in_float() -> None:
    """start + i * delta would give 0.7 exactly rounded; onnxruntime's value += delta in float gives 0.70000005."""
    (y,) = run(DOMAIN, OP, 1, [_s(0, np.float32), _s(1, np.float32), _s(0.1, np.float32)])
    assert y[7] == np.float32(0.70000005) and y[7] != np.float32(0.7)


@pytest.mark.parametrize(("shapes", "values", "check"), [
    pytest.param([[2], [], []], None, "range_c1", id="vector-start"),
    pytest.param([[], [], [1, 1]], None, "range_c1", id="matrix-delta"),
    pytest.param([[], [], []], {"start": [0], "limit": [3], "delta": [0]}, "range_c2", id="zero-delta"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], values: dict[str, list[Any]] | None,
                                        check: str) -> None:
    assert check in _checks([*shapes], {}, values)


@pytest.mark.parametrize("inputs", [
    [_s(0, np.int32), _s(3, np.int32), _s(0, np.int32)],
    [_s(0, np.int32, (2,)), _s(3, np.int32), None],
    [_s(0, np.int32), _s(3, np.int64), None],
], ids=["zero-delta", "vector-start", "mixed-types"])
def test_kernel_rejects_invalid_input(inputs: list[np.ndarray | None]) -> None:
    with pytest.raises(ValueError):
        run(DOMAIN, OP, 1, inputs)
