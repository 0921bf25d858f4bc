"""com.microsoft GatherND: the kernel against onnxruntime's CPU kernel (negative indices, slices, k = 0,
int32 and int64 indices, every data type it runs), the shape formula against onnxruntime's shapes, and rejected
nodes."""

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
OP = "GatherND"


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
f32 = Seeded(22).f32
D = f32(2, 3, 4)


def _i(values: Any, dtype: type[np.integer[Any]] = np.int64) -> np.ndarray:
    return np.asarray(values, dtype=dtype)


CASES = [
    _case([D, _i([[0, 1, 2], [1, 2, 3]])], "elements"),
    _case([D, _i([[1, -1], [0, -3]])], "rows-negative"),
    _case([D, _i([[[1]], [[0]]], np.int32)], "slices-int32"),
    _case([D, _i(np.zeros((3, 0)))], "k0"),
    _case([f32(5), _i([[4], [-5], [0]])], "rank1"),
    *[_case([(D * 10).astype(t), _i([[0, 2], [1, 1]])], f"dtype-{np.dtype(t).name}")
      for t in (np.uint8, np.uint16, np.uint32, np.uint64, np.int8, np.int16, np.int32, np.int64, np.float16,
                np.float64, np.bool_)],
    _case([np.array([["a", "b"], ["c", "d"]], dtype=object), _i([[1, 0]])], "string"),
]
test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("indices", [_i([[0, 1, 2]]), _i([[[1]], [[0]]]), _i(np.zeros((3, 0))), _i([0, 1])],
                         ids=["k3", "k1-rank3", "k0", "rank1-indices"])
def test_shape_formula_matches_onnxruntime(indices: np.ndarray) -> None:
    _formula_matches_onnxruntime([D, indices], {})


@pytest.mark.parametrize(("shapes", "values", "check"), [
    pytest.param([[2, 3], [1, 3]], None, "gathernd_c2", id="k-past-rank"),
    pytest.param([[2, 3], []], None, "gathernd_c1", id="scalar-indices"),
    pytest.param([[2, 3], [1, 2]], {"indices": [0, 3]}, "gathernd_c3", id="index-past-end"),
    pytest.param([[2, 3], [1, 2]], {"indices": [-3, 0]}, "gathernd_c3", id="index-before-start"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], values: dict[str, list[Any]] | None,
                                        check: str) -> None:
    assert check in _checks([*shapes], {}, values)


@pytest.mark.parametrize("indices", [_i([[0, 0, 0, 0]]), _i([[2, 0]]), _i([[-3, 0]]), _i(0)])
def test_kernel_rejects_invalid_input(indices: np.ndarray) -> None:
    with pytest.raises(ValueError):
        run(DOMAIN, OP, 1, [D, indices])
