"""com.microsoft ExpandDims: the kernel against onnxruntime's CPU kernel for every type it runs and both
signs of axis, the data-dependent shape formula against onnxruntime's shapes, and rejected nodes and inputs."""

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
OP = "ExpandDims"


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
f32 = Seeded(21).f32
X = f32(2, 3)


def _axis(a: int, shape: tuple[int, ...] = ()) -> np.ndarray:
    return np.full(shape, a, dtype=np.int32)


CASES = [
    _case([X, _axis(0)], "axis0"),
    _case([X, _axis(2)], "axis-last"),
    _case([X, _axis(-1)], "axis-minus1"),
    _case([X, _axis(-3)], "axis-minus3"),
    _case([X, _axis(1, (1,))], "axis-one-element-vector"),
    _case([f32(4), _axis(0)], "rank1"),
    *[_case([(X * 10).astype(t), _axis(1)], f"dtype-{np.dtype(t).name}")
      for t in (np.uint8, np.uint16, np.uint32, np.uint64, np.int8, np.int16, np.int32, np.int64, np.float16,
                np.float64, np.bool_)],
    _case([np.array([["a", "bc", ""]], dtype=object), _axis(-2)], "string"),
]
test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("a", [-3, -2, -1, 0, 1, 2])
def test_shape_formula_matches_onnxruntime(a: int) -> None:
    _formula_matches_onnxruntime([X, _axis(a)], {})


@pytest.mark.parametrize(("axis", "check"), [
    pytest.param(_axis(3), "expanddims_c2", id="axis-past-end"),
    pytest.param(_axis(-4), "expanddims_c2", id="axis-before-start"),
    pytest.param(_axis(1, (2,)), "expanddims_c1", id="axis-vector"),
])
def test_invalid_node_reports_the_check(axis: np.ndarray, check: str) -> None:
    assert check in _checks([[2, 3], list(axis.shape)], {}, {"axis": axis.reshape(-1).tolist()})


@pytest.mark.parametrize("axis", [_axis(3), _axis(-4), _axis(1, (2,)), _axis(1, (1, 1))])
def test_kernel_rejects_invalid_input(axis: np.ndarray) -> None:
    with pytest.raises(ValueError):
        run(DOMAIN, OP, 1, [X, axis])
