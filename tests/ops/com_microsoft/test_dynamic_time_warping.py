"""com.microsoft DynamicTimeWarping: the kernel against onnxruntime (square, tall, wide, single-row, single-column
and single-cell cost matrices, [M, N] and [1, M, N], random costs and ties that onnxruntime breaks its own way), the
shape formula against onnxruntime's shapes, rejected inputs."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    inferred,
    one_node_model,
    oracle_tests,
    problem_checks,
    run,
    run_onnxruntime,
    version,
)

DOMAIN = "com.microsoft"
OP = "DynamicTimeWarping"
data = Seeded(31)
MATRICES = {
    "square": np.abs(data.f32(6, 6)),
    "tall": np.abs(data.f32(9, 4)),
    "wide": np.abs(data.f32(3, 11)),
    "row": np.abs(data.f32(1, 5)),
    "column": np.abs(data.f32(4, 1)),
    "cell": np.array([[2.5]], np.float32),
    "ties": np.ones((5, 4), np.float32),  # every path through the same number of cells costs alike
    "zero-band": np.array([[0, 0, 9, 9], [0, 0, 0, 9], [9, 0, 0, 0]], np.float32),  # diagonal and side steps tie
    "small-integers": data.ints(0, 3, (7, 6), np.int32).astype(np.float32),  # ties among steps
    "negative": data.f32(5, 7),
}

CASES = [OracleCase(OP, {}, [m.reshape((1, *m.shape)) if three else m], (1,), oracle="ort",
                    id=f"{name}-{'1xMxN' if three else 'MxN'}", domain=DOMAIN)
         for name, m in MATRICES.items() for three in (False, True)]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_examples() -> None:
    """The examples' outputs are the kernel's, and their shapes fit the formula (2 rows; the path length is the
    formula's unknown, so the shared example check, which compares whole shapes, does not apply)."""
    from conformance.strategies.examples import example_case

    v = version(DOMAIN, OP, 1)
    assert v.examples
    for example in v.examples:
        case, want = example_case(v, example)
        got = run(DOMAIN, OP, 1, list(case.inputs))
        np.testing.assert_array_equal(got[0], want[0], err_msg=example.name)
        assert got[0].dtype == want[0].dtype
        result = inferred(v, list(case.inputs))
        assert result.outputs[0] is not None and str(result.outputs[0][0]) == str(want[0].shape[0])


@pytest.mark.parametrize("name", list(MATRICES))
def test_shape_formula_matches_onnxruntime(name: str) -> None:
    """The formula knows the 2 rows; the path length depends on the costs (between max(M, N) and M + N - 1)."""
    m = MATRICES[name]
    result = inferred(version(DOMAIN, OP, 1), [m])
    assert not result.problems and result.outputs[0] is not None
    first, length = (str(d) for d in result.outputs[0])
    model, feeds = one_node_model(OP, 1, [m], {}, 1, domain=DOMAIN)
    theirs = run_onnxruntime(model, feeds)[0].shape
    assert first == str(theirs[0]) == "2" and not length.isdigit()
    assert max(m.shape) <= theirs[1] <= sum(m.shape) - 1


@pytest.mark.parametrize("shape", [[5], [2, 3, 4], [1, 1, 3, 4]])
def test_input_of_wrong_rank_is_reported(shape: list[int]) -> None:
    assert "dynamictimewarping_c1" in problem_checks(version(DOMAIN, OP, 1), [shape])
