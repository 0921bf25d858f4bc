"""com.microsoft Trilu: the kernel against onnxruntime's CPU kernel (upper and lower, k of both signs and past the
matrix, batches, every type it runs), the shape formula, and rejected nodes and inputs."""

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
OP = "Trilu"


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
f32 = Seeded(23).f32
X = f32(2, 3, 4)


def _k(v: int, shape: tuple[int, ...] = ()) -> np.ndarray:
    return np.full(shape, v, dtype=np.int64)


CASES = [
    *[_case([X, None if k is None else _k(k)], f"upper{u}-k{k}", upper=u)
      for u in (0, 1) for k in (None, -5, -1, 0, 2, 9)],
    _case([f32(4, 3), _k(1, (1,))], "k-one-element-vector"),
    *[_case([(X * 10).astype(t), _k(1)], f"dtype-{np.dtype(t).name}", upper=0)
      for t in (np.float16, np.float64, np.int64)],
]
test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("x", [f32(3, 4), f32(2, 1, 5, 2), np.zeros((0, 3), np.float32)], ids=["2d", "4d", "empty"])
def test_shape_formula_matches_onnxruntime(x: np.ndarray) -> None:
    _formula_matches_onnxruntime([x, _k(1)], {})


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[4], None], {}, "trilu_c1", id="rank1"),
    pytest.param([[3, 4], [2]], {}, "trilu_c2", id="k-vector"),
    pytest.param([[3, 4], None], {"upper": 2}, "attr_allowed", id="upper-2"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int] | None], attrs: dict[str, Any], check: str) -> None:
    assert check in _checks(shapes, attrs)


@pytest.mark.parametrize("inputs", [[f32(4), None], [f32(3, 4), _k(1, (2,))], [f32(3, 4), _k(1, (1, 1))]],
                         ids=["rank1", "k-vector", "k-matrix"])
def test_kernel_rejects_invalid_input(inputs: list[np.ndarray | None]) -> None:
    with pytest.raises(ValueError):
        run(DOMAIN, OP, 1, inputs, upper=1)
