"""What holds for every ai.onnx.modified op: the domain's ops, lint, a kernel or a documented gap, its examples."""

from __future__ import annotations

from pathlib import Path

import pytest

from opset.lint import lint
from opset.model import OpVersion
from tests.helpers import assert_example_holds, assert_kernel_or_documented_gap, registry

OPS = {"Add_", "UpSampling2D", "Relu6", "LeakyRelu", "DepthwiseConv2d", "Dense"}

VERSIONS = [v for s in registry() if s.domain == "ai.onnx.modified" for v in s.versions]
EXAMPLES = [(v, ex.name) for v in VERSIONS for ex in v.examples]


def test_every_op_of_the_domain_is_present() -> None:
    assert {v.name for v in VERSIONS} == OPS


def test_lint_reports_nothing_in_the_domain() -> None:
    problems, count = lint([])
    assert count > 0
    mine = [p for p in problems if Path(p.file).parent.name == "ai.onnx.modified"]
    assert not mine, "\n".join(str(p) for p in mine)


@pytest.mark.parametrize("v", VERSIONS, ids=lambda v: v.signature)
def test_op_has_a_kernel_and_an_example_or_is_a_documented_gap(v: OpVersion) -> None:
    assert_kernel_or_documented_gap(v)


@pytest.mark.parametrize(("v", "example"), EXAMPLES, ids=lambda x: x if isinstance(x, str) else x.name)
def test_example_matches_kernel_formula_and_constraints(v: OpVersion, example: str) -> None:
    assert_example_holds(v, example)
