"""`opset validate` on models edited field by field, so the protobuf stays readable and the damage reaches the
validator: op types and domains (also bytes that are not UTF-8), opset imports, attribute types and values, dims
(0, negative, 2^40), data types, raw_data sizes, dangling names, cycles, nodes wrapped in If/Loop subgraphs.

Each run ends with exit 0, 1 or 2 and no traceback; an invalid model's diagnostics name the file."""

from __future__ import annotations

import math

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from opset.validate.cli import main_validate
from tests.helpers.fuzz import assert_validate_outcome, fuzz, run_main
from tests.helpers.fuzz_models import MODELS, SMALL, edited

pytestmark = pytest.mark.fuzz


def test_the_small_light_models_are_there() -> None:
    assert len(MODELS) == len(SMALL)


@fuzz(300)
@given(data=st.data())
def test_field_edits(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    path = tmp_path_factory.mktemp("edits") / "model.onnx"
    path.write_bytes(data.draw(edited(), label="bytes"))
    outcome = run_main(main_validate, [str(path)])
    event(f"exit {outcome.code}")
    assert_validate_outcome(outcome, str(path))


def test_math_prod_of_huge_dims_is_exact() -> None:
    """The payload check multiplies dims as Python ints: 2^40 * 2^40 does not wrap around to a small size."""
    assert math.prod([2**40, 2**40]) == 2**80
