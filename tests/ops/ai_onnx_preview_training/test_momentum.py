"""Momentum: the kernel against onnx.reference (standard and Nesterov, T = 0 and T > 0, two tensors, double), the
shape formula against the kernel, and rejected nodes."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import OracleCase, oracle_tests, problem_checks, run, version
from tests.ops.ai_onnx_preview_training._cases import DOMAIN, output_shapes, scalars, tensors

OP = "Momentum"
ONE = [tensors(3)[i] for i in (0, 2, 4)]
STANDARD = dict(alpha=0.9, beta=0.5, mode="standard", norm_coefficient=0.01)
NESTEROV = dict(STANDARD, mode="nesterov")
CASES = [
    OracleCase(OP, STANDARD, [*scalars(), *ONE], (1,), n_out=2, id="standard", domain=DOMAIN),
    OracleCase(OP, NESTEROV, [*scalars(), *ONE], (1,), n_out=2, id="nesterov", domain=DOMAIN),
    OracleCase(OP, STANDARD, [*scalars(0.2, 0), *tensors(3)], (1,), n_out=4, id="first_step", domain=DOMAIN),
    OracleCase(OP, NESTEROV, [*scalars(dtype=np.float64), *tensors(3, np.float64)], (1,), n_out=4, id="double",
               domain=DOMAIN),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_formula_gives_x_then_v() -> None:
    inputs = [*scalars(), *tensors(3)]
    got = run(DOMAIN, OP, 1, inputs, **STANDARD)
    assert output_shapes(version(DOMAIN, OP, 1), inputs, STANDARD, 4) == [list(x.shape) for x in got]


@pytest.mark.parametrize(("attrs", "check"), [(dict(STANDARD, mode="heavy_ball"), "attr_allowed"),
                                              ({"mode": "standard"}, "attr_required")])
def test_rejected_nodes_name_their_check(attrs: dict[str, object], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), [*scalars(), *tensors(3)], attrs, output_count=4)
