"""com.microsoft Pad: the kernel against onnxruntime (the three modes, pads as [2r] and [1, 2r], negative pads that
crop, a given pad value; float and float16: onnxruntime has no double kernel), the output shape against
onnxruntime's, rejected nodes."""

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
    run_onnxruntime,
    version,
)

DOMAIN = "com.microsoft"
OP = "Pad"
X = np.arange(1, 13, dtype=np.float32).reshape(3, 4) / 4
CUBE = (np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 11) / 8


def pads(*values: int, rows: bool = False) -> np.ndarray:
    out = np.asarray(values, dtype=np.int64)
    return out.reshape(1, -1) if rows else out


SCENARIOS: list[tuple[str, np.ndarray, np.ndarray, np.ndarray | None]] = [
    ("grow", X, pads(1, 2, 0, 1), None),
    ("grow-rows", X, pads(0, 1, 2, 0, rows=True), None),
    ("crop-and-grow", X, pads(-1, 1, 1, -2), None),
    ("cube", CUBE, pads(1, 0, 2, 0, 2, 1), None),
    ("cube-crop", CUBE, pads(0, -1, 1, 1, 1, -2), None),
    ("value", X, pads(1, 1, 1, 1), np.asarray([2.5], np.float32)),
    ("value-scalar", CUBE, pads(0, 1, -1, 1, 0, 2), np.asarray(-1.5, np.float32)),
]
CASES = [OracleCase(OP, {"mode": mode} if mode else {}, [x.astype(dt), p, None if v is None else v.astype(dt)],
                    (1,), oracle="ort", id=f"{name}-{mode or 'default'}-{np.dtype(dt).name}", domain=DOMAIN)
         for name, x, p, v in SCENARIOS for mode in ("", "constant", "reflect", "edge")
         for dt in (np.float32, np.float16)
         if not (mode in ("reflect", "edge") and v is not None)]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_examples() -> None:
    assert_examples_match_kernel_and_formula(DOMAIN, OP)


@pytest.mark.parametrize(("name", "x", "p"), [(n, x, p) for n, x, p, _ in SCENARIOS])
def test_shape_formula_matches_onnxruntime(name: str, x: np.ndarray, p: np.ndarray) -> None:
    attrs = {"mode": "edge"}
    mine = formula_shapes(version(DOMAIN, OP, 1), [x, p], attrs, {"pads": p.ravel().tolist()})
    model, feeds = one_node_model(OP, 1, [x, p], attrs, 1, domain=DOMAIN)
    assert mine[0] == list(run_onnxruntime(model, feeds)[0].shape)


@pytest.mark.parametrize(("shape", "values", "attrs", "check"), [
    ([], [], {}, "pad_c1"),
    ([3, 4], [0, 0, 0], {}, "pad_c2"),
    ([3, 4], [-2, 0, -2, 0], {}, "pad_c4"),
    ([3, 4], [-2, 0, -1, 0], {"mode": "edge"}, "pad_c5"),
    ([3, 4], [3, 0, 0, 0], {"mode": "reflect"}, "pad_c6"),
    ([3, 4], [1, 0, 0, 0], {"mode": "wrap"}, "allowed"),
])
def test_invalid_node_is_reported(shape: list[int], values: list[int], attrs: dict[str, Any], check: str) -> None:
    checks = problem_checks(version(DOMAIN, OP, 1), [shape, [len(values)]], attrs, {"pads": values})
    assert any(check in c for c in checks), checks


def test_value_with_two_elements_is_reported() -> None:
    assert "pad_c3" in problem_checks(version(DOMAIN, OP, 1), [[3], [2], [2]], {}, {"pads": [1, 1]})
