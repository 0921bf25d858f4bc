"""`unknown('tag')`: a dim only input values could size, standing in where those values are not known."""

from __future__ import annotations

import pytest

from opset.formula import FormulaError, Sym, Undecided, evaluate, parse

COUNT = "[len(S), sum(1 for x in value(X) if x != 0)] or [len(S), unknown('count')]"


def test_known_values_give_the_count() -> None:
    assert evaluate(COUNT, {"S": [2, 2]}, {"X": [1, 0, 0, 3]}) == [2, 2]
    assert evaluate(COUNT, {"S": [3]}, {"X": [0, 0, 0]}) == [1, 0]  # [1, 0] is a list, so `or` keeps it


def test_unknown_values_give_an_opaque_dim() -> None:
    shape = evaluate(COUNT, {"S": [2, 2]})
    assert shape[0] == 2 and isinstance(shape[1], Sym)
    assert str(shape[1]) == "?count" and not shape[1].symbols  # no named dim a model could also use


def test_one_tag_is_one_dim_and_arithmetic_keeps_it() -> None:
    first, second, doubled = evaluate("[unknown('n'), unknown('n'), 2 * unknown('n')]", {})
    assert first == second and doubled == 2 * first
    with pytest.raises(Undecided):  # two unknown dims may or may not be equal
        evaluate("unknown('n') == unknown('m')", {})


def test_without_a_fallback_unknown_values_stay_undecided() -> None:
    with pytest.raises(Undecided):
        evaluate("[len(S), sum(1 for x in value(X) if x != 0)]", {"S": [2]})


@pytest.mark.parametrize("text", ["unknown()", "unknown(n)", "unknown('')", "unknown('a', 'b')", "unknown(3)",
                                  "unknown('a', 1, 2)", "unknown('a', 1.0)"])
def test_unknown_takes_a_non_empty_string_and_an_int_index(text: str) -> None:
    with pytest.raises(FormulaError, match="unknown"):
        parse(text)


def test_an_index_makes_one_dim_of_several() -> None:
    dims = evaluate("[unknown('sliced', i) for i in range(3)] + [unknown('sliced', 1), unknown('sliced')]", {})
    assert len(set(dims[:3])) == 3 and dims[3] == dims[1] and dims[4] not in dims[:3]
    assert [str(d) for d in dims[:3]] == ["?sliced[0]", "?sliced[1]", "?sliced[2]"]
    with pytest.raises(FormulaError, match="index must be an int"):
        evaluate("unknown('sliced', x)", {"x": "a"})
