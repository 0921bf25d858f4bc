"""Adam: the kernel against onnx.reference (one and two tensors, T = 0 and T > 0, post-update regularization,
double), the shape formula against the kernel, and rejected nodes."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from tests.helpers import OracleCase, one_node_model, oracle_tests, problem_checks, run, run_onnx_reference, version
from tests.ops.ai_onnx_preview_training._cases import DOMAIN, output_shapes, scalars, tensors

OP = "Adam"
ONE = [tensors(4)[i] for i in (0, 2, 4, 6)]


def in_type(attrs: dict[str, float], inputs: list[np.ndarray], n_out: int) -> Callable[[], list[np.ndarray]]:
    """onnx.reference's Adam outputs in the tensors' type: it returns float64 for float tensors (and float32 for
    double ones) where the schema says T3; the values are compared in the type the schema gives."""
    def outputs() -> list[np.ndarray]:
        model, feeds = one_node_model(OP, 1, inputs, attrs, n_out, domain=DOMAIN)
        got = run_onnx_reference(model, feeds)
        return [np.asarray(y).astype(inputs[2].dtype) for y in got]

    return outputs
ONE_ATTRS = dict(alpha=0.8, beta=0.95, epsilon=1e-4, norm_coefficient=0.01, norm_coefficient_post=0.02)
FIRST = [*scalars(0.5, 0), *tensors(4)]
DOUBLE = [*scalars(dtype=np.float64), *tensors(4, np.float64)]
CASES = [
    OracleCase(OP, ONE_ATTRS, [*scalars(), *ONE], (1,), n_out=3, oracle=in_type(ONE_ATTRS, [*scalars(), *ONE], 3),
               id="one_tensor", domain=DOMAIN),
    OracleCase(OP, {}, FIRST, (1,), n_out=6, oracle=in_type({}, FIRST, 6), id="first_step", domain=DOMAIN),
    OracleCase(OP, dict(alpha=0.5), DOUBLE, (1,), n_out=6, oracle=in_type(dict(alpha=0.5), DOUBLE, 6), id="double",
               domain=DOMAIN),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_formula_gives_x_then_v_then_h() -> None:
    inputs = [*scalars(), *tensors(4)]
    got = run(DOMAIN, OP, 1, inputs)
    assert output_shapes(version(DOMAIN, OP, 1), inputs, {}, 6) == [list(x.shape) for x in got]


@pytest.mark.parametrize(("inputs", "n_out", "check"), [
    ([*scalars(), *tensors(3)], 3, "adam_c1"),  # six tensors: not four groups
    ([*scalars(), *tensors(4)], 4, "adam_c3"),  # two tensors need six outputs
])
def test_rejected_nodes_name_their_check(inputs: list[np.ndarray], n_out: int, check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), inputs, output_count=n_out)


def test_beta_outside_its_range_is_refused() -> None:
    inputs = [*scalars(), *tensors(4)]
    assert "attr_range" in problem_checks(version(DOMAIN, OP, 1), inputs, {"beta": 3.0}, output_count=6)
