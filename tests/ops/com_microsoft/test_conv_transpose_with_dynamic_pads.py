"""com.microsoft ConvTransposeWithDynamicPads: the kernel against onnxruntime's CPU kernel (float, float16) with the
pads from the Pads input over strides, dilations, groups, output_padding, a bias and 1-D to 3-D; the shape formula
(data-dependent: it reads Pads) against onnxruntime; rejected nodes, Pads required as onnxruntime's kernel has it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    formula_shapes,
    inferred,
    one_node_model,
    oracle_tests,
    problem_checks,
    run,
    run_onnxruntime,
    version,
)

DOMAIN = "com.microsoft"
OP = "ConvTransposeWithDynamicPads"
f32 = Seeded(34).f32


def pads(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int64)


def _case(attrs: dict[str, Any], inputs: list[Any], ident: str, rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", rtol=rtol, id=ident, domain=DOMAIN)


CASES = [
    _case({}, [f32(1, 2, 4, 5), f32(2, 3, 3, 3), pads(0, 0, 0, 0)], "zero-pads"),
    _case({}, [f32(1, 2, 4, 5), f32(2, 3, 3, 3), pads(1, 0, 0, 2)], "pads"),
    _case({"strides": [2, 3], "output_padding": [1, 2]}, [f32(2, 2, 3, 3), f32(2, 2, 2, 3), pads(1, 1, 0, 2)],
          "strides-output-padding"),
    _case({"dilations": [2, 1], "group": 2}, [f32(1, 4, 3, 4), f32(4, 1, 2, 2), pads(1, 0, 1, 1), f32(2)],
          "dilations-group-bias"),
    _case({"strides": [2]}, [f32(2, 3, 5), f32(3, 2, 3), pads(2, 1), f32(2)], "1d"),
    _case({"strides": [1, 2, 1]}, [f32(1, 1, 2, 3, 2), f32(1, 2, 2, 2, 2), pads(0, 1, 0, 1, 0, 1)], "3d"),
    _case({"strides": [2, 2]}, [x.astype(np.float16) for x in (f32(1, 2, 3, 3), f32(2, 2, 3, 3))]
          + [pads(1, 1, 1, 0)], "fp16", rtol=5e-3),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES])
def test_shape_formula_matches_onnxruntime(case: OracleCase) -> None:
    """The formula reads Pads' values; onnxruntime's output (of the same one-node model) gives the shape."""
    mine = formula_shapes(version(DOMAIN, OP, 1), case.inputs, case.attrs, values={"Pads": case.inputs[2]})
    model, feeds = one_node_model(OP, 1, case.inputs, case.attrs, 1, domain=DOMAIN)
    assert mine[0] == list(run_onnxruntime(model, feeds)[0].shape)


def test_shape_formula_without_pads_values_is_partly_unknown() -> None:
    x, w = f32(1, 2, 4, 5), f32(2, 3, 3, 3)
    shape = inferred(version(DOMAIN, OP, 1), [x, w, pads(1, 0, 0, 2)]).outputs[0]
    assert shape is not None and [str(d) for d in shape[:2]] == ["1", "3"] and len(shape) == 4


def test_pads_are_read_from_the_input() -> None:
    x, w = f32(1, 2, 4, 5), f32(2, 3, 3, 3)
    (full,) = run(DOMAIN, OP, 1, [x, w, pads(0, 0, 0, 0)])
    (cropped,) = run(DOMAIN, OP, 1, [x, w, pads(1, 0, 0, 2)])
    np.testing.assert_array_equal(cropped, full[:, :, 1:, :-2])


def test_kernel_requires_pads() -> None:
    with pytest.raises(ValueError, match="requires the Pads input"):
        run(DOMAIN, OP, 1, [f32(1, 2, 4, 5), f32(2, 3, 3, 3)])


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[1, 2, 4, 5], [2, 3, 3], [4]], {}, "convtransposewithdynamicpads_c1", id="kernel-rank"),
    pytest.param([[1, 2, 4, 5], [3, 3, 3, 3], [4]], {}, "convtransposewithdynamicpads_c2", id="channels"),
    pytest.param([[1, 2, 4, 5], [2, 3, 3, 3], [4], [2]], {}, "convtransposewithdynamicpads_c3", id="bias"),
    pytest.param([[1, 2, 4, 5], [2, 3, 3, 3], [2]], {}, "convtransposewithdynamicpads_c4", id="pads-length"),
    pytest.param([[1, 2, 4, 5], [2, 3, 3, 3]], {}, "convtransposewithdynamicpads_c5", id="no-pads"),
    pytest.param([[1, 2, 4, 5], [2, 3, 3, 3], [4]], {"dilations": [2, 2], "output_padding": [1, 0]},
                 "convtransposewithdynamicpads_c6", id="output-padding-of-stride"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
