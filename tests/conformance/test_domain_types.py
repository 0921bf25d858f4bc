"""Domain keys that choose per draw: `dtype_where` (which element types a `dtype_of` attribute may name) and
`fill_of` (the fill of this draw, a formula), docs/format.md "Domains"; and `full` over the sub-byte integers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.strategies import domains as dom
from conformance.strategies.cases import op_cases
from opset.dtypes import CODE_TO_ELEMENT, ELEMENT_BITS
from opset.formula import Formula
from opset.model import ValueDomain
from tests.helpers import registry

SETTINGS = settings(max_examples=30, deadline=None, database=None, suppress_health_check=list(HealthCheck))


def formula(text: str) -> Formula:
    return Formula.from_tree(Formula.checked(text).tree)


@SETTINGS
@given(st.data())
def test_fill_of_picks_the_fill_a_formula_names(data: st.DataObject) -> None:
    domain = ValueDomain(fill_of=formula("'full' if wide == 1 else 'small'"))
    wide = dom.draw_tensor(data.draw, domain, {"wide": 1}, None, "int32", [400])
    small = dom.draw_tensor(data.draw, domain, {"wide": 0}, None, "int32", [400])
    assert np.abs(wide).max() > 1000 and np.abs(small).max() <= 4


def test_fill_of_naming_no_fill_cannot_be_drawn() -> None:
    with pytest.raises(dom.Undrawable, match="not one of"):
        dom.fill_of(ValueDomain(fill_of=formula("'wide'")), {}, None)


@pytest.mark.parametrize(("element", "low", "high"), [("int4", -8, 7), ("uint4", 0, 15), ("int2", -2, 1),
                                                      ("uint2", 0, 3)])
def test_full_reaches_both_ends_of_the_sub_byte_integers(element: str, low: int, high: int) -> None:
    values = dom.filled(5, "full", element, [400], -1, 1).astype(np.int64)
    assert values.min() == low and values.max() == high
@SETTINGS
@given(st.data())
def test_converts_to_draws_values_every_conversion_to_the_target_defines(data: st.DataObject) -> None:
    domain = ValueDomain(converts_to=formula("to"))
    to_uint8 = dom.draw_tensor(data.draw, domain, {"to": 2}, None, "float", [200])  # a DataType number
    assert to_uint8.min() >= 0 and to_uint8.max() <= 4  # no float outside the integer target's range
    to_e8m0 = dom.draw_tensor(data.draw, domain, {"to": "FLOAT8E8M0"}, None, "float", [200])  # Cast 1's names
    assert to_e8m0.min() > 0
    texts = dom.draw_tensor(data.draw, domain, {"to": "tensor(int8)"}, None, "string", [50])
    assert all(-128 <= int(t.strip()) <= 127 for t in texts.ravel())  # text that reads as int8 numbers
    with pytest.raises(dom.Undrawable, match="names no element type"):
        dom.draw_tensor(data.draw, domain, {"to": 99}, None, "float", [2])


@pytest.mark.parametrize("cell", ["int32", "uint8", "int4", "complex128", "float8e4m3fn", "bool"])
def test_dtype_where_keeps_the_bit_width_of_bitcast(cell: str) -> None:
    """BitCast's `to` is drawn among the T2 types of the input's width (`dtype_where`), never refused; a bool target
    gets the bytes 0 and 1 only; integer inputs reach past the small values in some draws (`fill_of`)."""
    version = registry().resolve("ai.onnx", "BitCast", 26)
    targets: set[str] = set()
    largest = [0.0]

    @SETTINGS
    @given(op_cases(version, cell))
    def check(case: object) -> None:
        target = CODE_TO_ELEMENT[case.node_attributes["to"]]  # type: ignore[attr-defined]
        (x,) = case.inputs  # type: ignore[attr-defined]
        assert ELEMENT_BITS[target] == ELEMENT_BITS[cell]
        if target == "bool":
            assert set(np.asarray(x, dtype=np.float64).ravel().tolist()) <= {0.0, 1.0}
        targets.add(target)
        if cell not in ("complex128",) and x.size:
            largest[0] = max(largest[0], float(np.abs(np.asarray(x, dtype=np.float64)).max()))

    check()
    assert len(targets) > 1 or cell == "complex128"  # the only 128-bit type
    if cell in ("int32", "uint8", "int4"):
        assert largest[0] > 4  # the whole range of the type in some draws
