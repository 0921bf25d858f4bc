"""Graph attributes and types in formulas: `graph_shapes`, `graph_types`, `merge`, `type_of`."""

from __future__ import annotations

import pytest

from opset.formula import FormulaError, Sym, Undecided, evaluate, parse
from opset.formula.graph_value import TYPES_KEY, GraphValue, Port

BODY = GraphValue(inputs=(Port("x", "tensor(float)", (2,)),),
                  outputs=(Port("c", "tensor(bool)", ()), Port("y", "tensor(float)", (2, Sym("N")))))
HALF = GraphValue(inputs=(), outputs=(Port("a", "tensor(int64)", (3,)), Port("b", None, None)))


def test_graph_shapes_and_types_read_the_outputs() -> None:
    assert evaluate("graph_shapes(body)", {"body": BODY}) == [[], [2, Sym("N")]]
    assert evaluate("graph_types(body)[1:]", {"body": BODY}) == ["tensor(float)"]
    assert evaluate("[3] + graph_shapes(body)[1]", {"body": BODY}) == [3, 2, Sym("N")]
    assert evaluate("len(graph_types(body))", {"body": BODY}) == 2


def test_an_unknown_output_leaves_the_formula_undecided() -> None:
    for text in ("graph_shapes(g)", "graph_types(g)"):
        with pytest.raises(Undecided):
            evaluate(text, {"g": HALF})
    assert evaluate("graph_shapes(g) or [[7]]", {"g": HALF}) == [[7]]  # `or` skips the undecided operand


@pytest.mark.parametrize("value", [None, [1, 2], 3])
def test_the_accessors_take_a_graph_only(value: object) -> None:
    with pytest.raises(FormulaError, match="needs a graph attribute"):
        evaluate("graph_shapes(g)", {"g": value})


def test_merge_keeps_agreeing_dims_and_unknows_the_others() -> None:
    assert evaluate("merge([2, 3], [2, 3])", {}) == [2, 3]
    first, second = evaluate("merge([2, 3], [2, 4])", {})
    assert first == 2 and isinstance(second, Sym)
    n = Sym("N")
    assert evaluate("merge([N, 3], [N, 3])", {"N": n}) == [n, 3]
    assert isinstance(evaluate("merge([N], [M])", {"N": n, "M": Sym("M")})[0], Sym)
    with pytest.raises(Undecided):
        evaluate("merge([2], [2, 3])", {})
    with pytest.raises(FormulaError):
        evaluate("merge([2])", {})


def test_merge_of_two_sequences_merges_their_elements() -> None:
    """A sequence's shape is the list of its elements' shapes: two of them merge element by element."""
    assert evaluate("merge([[5], [2, 3]], [[5], [2, 3]])", {}) == [[5], [2, 3]]
    (first,), (second,) = evaluate("merge([[5], [2]], [[5], [4]])", {})
    assert first == 5 and isinstance(second, Sym)
    assert evaluate("merge([None], [[2]])", {}) == [None]  # an element without a shape (a map)
    with pytest.raises(Undecided):
        evaluate("merge([[5]], [[5], [5]])", {})  # element counts differ


def test_type_of_reads_the_types_the_caller_gives() -> None:
    env = {"X": [2, 3], "V": [[1], [2]], TYPES_KEY: {"X": "tensor(float)", "V": ["tensor(int64)", "tensor(bool)"]}}
    assert evaluate("type_of(X)", env) == "tensor(float)"
    assert evaluate("type_of(V)[1:]", env) == ["tensor(bool)"]
    with pytest.raises(Undecided):
        evaluate("type_of(X)", {"X": [2, 3]})  # types not given
    with pytest.raises(Undecided):
        evaluate("type_of(V)", {"V": [[1]], TYPES_KEY: {"V": ["tensor(int64)", None]}})
    with pytest.raises(FormulaError):
        evaluate("type_of(Y)", env)


@pytest.mark.parametrize("text", ["type_of(1)", "type_of(X, Y)", "type_of()"])
def test_type_of_takes_one_input_name(text: str) -> None:
    with pytest.raises(FormulaError, match="type_of"):
        parse(text)
