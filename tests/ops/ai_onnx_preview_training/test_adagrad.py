"""Adagrad: the kernel against onnx.reference (one and two tensors, decay, regularization, double), the shape
formula against the kernel, and rejected nodes (groups that do not add up, shapes that differ)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import OracleCase, oracle_tests, problem_checks, run, version
from tests.ops.ai_onnx_preview_training._cases import DOMAIN, output_shapes, scalars, tensors

OP = "Adagrad"
ONE = [tensors(3)[i] for i in (0, 2, 4)]
CASES = [
    OracleCase(OP, dict(decay_factor=0.1, epsilon=1e-5, norm_coefficient=0.01), [*scalars(), *ONE], (1,), n_out=2,
               id="one_tensor", domain=DOMAIN),
    OracleCase(OP, dict(norm_coefficient=0.5), [*scalars(0.5, 0), *tensors(3)], (1,), n_out=4, id="two_tensors",
               domain=DOMAIN),
    OracleCase(OP, dict(decay_factor=2.0), [*scalars(dtype=np.float64), *tensors(3, np.float64)], (1,), n_out=4,
               id="double", domain=DOMAIN),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_formula_gives_the_new_values_then_the_new_accumulators() -> None:
    inputs = [*scalars(), *tensors(3)]
    got = run(DOMAIN, OP, 1, inputs)
    assert output_shapes(version(DOMAIN, OP, 1), inputs, {}, 4) == [list(x.shape) for x in got]


@pytest.mark.parametrize(("inputs", "check"), [
    ([*scalars(), *tensors(3)[:5]], "adagrad_c1"),  # five tensors: not three groups
    ([*scalars(), np.zeros((2, 3), np.float32), np.zeros(4, np.float32), np.zeros((2, 3), np.float32)],
     "adagrad_c2"),  # X [2, 3], G [4]
])
def test_rejected_nodes_name_their_check(inputs: list[np.ndarray], check: str) -> None:
    count = len(inputs) - 2 - (len(inputs) - 2) // 3
    assert check in problem_checks(version(DOMAIN, OP, 1), inputs, output_count=count)
