"""Gradient: no reference kernel (its values depend on the enclosing graph), so the schema is what is tested: the
outputs take the shapes of the xs inputs, and nodes whose inputs or outputs do not match xs and zs are refused."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.kernels import NO_REFERENCE_KERNEL
from tests.helpers import problem_checks, version
from tests.ops.ai_onnx_preview_training._cases import DOMAIN, output_shapes

OP = "Gradient"
W, Z = np.zeros((2, 3), np.float32), np.zeros(4, np.float32)


def test_the_reference_says_why_it_has_no_kernel() -> None:
    assert "enclosing graph" in NO_REFERENCE_KERNEL[(DOMAIN, OP)]


def test_each_output_has_the_shape_of_its_x() -> None:
    v = version(DOMAIN, OP, 1)
    assert output_shapes(v, [W, Z], {"xs": ["w", "z"], "y": "loss"}, 2) == [[2, 3], [4]]
    assert output_shapes(v, [W, Z], {"xs": ["w"], "zs": ["z"], "y": "loss"}, 1) == [[2, 3]]


@pytest.mark.parametrize(("attrs", "n_out", "check"), [
    ({"xs": ["w"], "y": "loss"}, 1, "gradient_c1"),  # two inputs, one name
    ({"xs": ["w", "z"], "y": "loss"}, 1, "gradient_c2"),  # two xs, one output
    ({"xs": ["w", "z"]}, 2, "attr_required"),
])
def test_rejected_nodes_name_their_check(attrs: dict[str, object], n_out: int, check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), [W, Z], attrs, output_count=n_out)
