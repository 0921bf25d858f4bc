"""The tests most op modules have, made from the module's case tables: the module states its data and binds
each family of tests in one line, under the name pytest collects it by:

    test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)
    test_shape_formula_matches_onnx = shape_tests(SHAPES)
    test_invalid_node_reports_the_check = rejection_tests(REJECTED)

A module whose op needs a different check writes that test out instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from tests.helpers.basics import assert_ranges_exercised
from tests.helpers.op_modules import (
    assert_registry_ranges_exercised,
    rejection_params,
    reported_checks,
    shape_params,
)
from tests.helpers.oracles import OracleCase, ShapeCase, assert_matches_oracle, assert_shapes_match_onnx, oracle_params

OracleTest = Callable[[OracleCase, int], None]


def oracle_tests(op: str | Sequence[str], cases: Sequence[OracleCase], *, domain: str = "ai.onnx"
                 ) -> tuple[OracleTest, Callable[..., None]]:
    """Every case against its oracle at each opset it lists; and every registered kernel range of the op (of each op
    of a family's table) run by some case (an ai.onnx range must serve an onnx version, another domain's a registry
    version)."""
    ops = [op] if isinstance(op, str) else list(op)

    @pytest.mark.parametrize(("case", "opset"), oracle_params(cases))
    def test_kernel_matches_oracle(case: OracleCase, opset: int) -> None:
        assert_matches_oracle(case, opset)

    @pytest.mark.parametrize("name", ops)
    def test_every_kernel_range_is_exercised(name: str) -> None:
        tested = {v for c in cases if c.op == name for v in c.since}
        if domain == "ai.onnx":
            assert_ranges_exercised(name, tested)
        else:
            assert_registry_ranges_exercised(domain, name, tested)

    return test_kernel_matches_oracle, test_every_kernel_range_is_exercised


def shape_tests(cases: Sequence[ShapeCase]) -> Callable[[ShapeCase], None]:
    """Each node's output shapes by the registry's formulas equal onnx's strict shape inference."""

    @pytest.mark.parametrize("case", shape_params(cases))
    def test_shape_formula_matches_onnx(case: ShapeCase) -> None:
        assert_shapes_match_onnx(case)

    return test_shape_formula_matches_onnx


def rejection_tests(cases: Sequence[tuple[ShapeCase, str]]) -> Callable[[ShapeCase, str], None]:
    """Each invalid node is reported under the named check id (a constraint id or an inference check)."""

    @pytest.mark.parametrize(("case", "check"), rejection_params(cases))
    def test_invalid_node_reports_the_check(case: ShapeCase, check: str) -> None:
        assert check in reported_checks(case), f"{case.label()}: {check} not reported"

    return test_invalid_node_reports_the_check
