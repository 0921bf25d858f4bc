"""Symbolic dims: normalised polynomial arithmetic, opaque atoms, and Undecided comparisons."""

from __future__ import annotations

import pytest

from opset.formula import FormulaError, Sym, Undecided, evaluate
from opset.formula.symbolic import holds_unknown

AVERAGE_POOL_SHAPE = (
    "[N, C] + [floor((S[i] + pads[i] + pads[i + r] - kernel_shape[i]) / strides[i]) + 1 for i in range(r)]"
)
AVERAGE_POOL_ENV = {"C": 3, "S": [32, 32], "r": 2, "kernel_shape": [2, 2], "pads": [0, 0, 0, 0], "strides": [1, 1]}

N, M = Sym("N"), Sym("M")
ENV = {"N": N, "M": M}


def test_arithmetic_stays_symbolic_and_normalised() -> None:
    result = evaluate("N*2+1", ENV)
    assert isinstance(result, Sym)
    assert str(result) == "2*N + 1"
    assert result == N * 2 + 1
    assert evaluate("1 + 2*N", ENV) == result
    assert not result.is_constant


def test_cancellation_gives_a_plain_int() -> None:
    assert evaluate("N - N", ENV) == 0
    assert type(evaluate("N - N", ENV)) is int
    assert evaluate("(N + 1) * 2 - 2 * N", ENV) == 2
    assert evaluate("N / N", ENV) == 1


def test_floor_of_integral_polynomial_is_itself() -> None:
    assert evaluate("floor((N+2-3)/1+1)", ENV) == N


def test_ceil_of_a_fraction_is_an_opaque_atom() -> None:
    result = evaluate("ceil(N/2)", ENV)
    assert isinstance(result, Sym)
    assert str(result) == "ceil(N/2)"
    assert evaluate("ceil(N / 2) - ceil(N / 2)", ENV) == 0
    assert str(evaluate("floor(N / 2 + 3)", ENV)) == "floor(N/2) + 3"


def test_products_and_powers() -> None:
    assert str(evaluate("(N + 1) ** 2", ENV)) == "N**2 + 2*N + 1"
    assert str(evaluate("N * M * 3", ENV)) == "3*M*N"
    assert evaluate("(N * M) / M", ENV) == N


def test_decidable_comparisons() -> None:
    assert evaluate("N + 1 > N", ENV) is True
    assert evaluate("N >= N", ENV) is True
    assert evaluate("N == N", ENV) is True
    assert evaluate("2 * N != N + N", ENV) is False
    assert evaluate("N in [M, N]", ENV) is True


@pytest.mark.parametrize("text", ["N > M", "N == M", "N == 3", "N != M", "[N] == [M]", "N in [M]", "N and 1",
                                  "1 if N else 2", "range(N)", "[0] * N", "[1, 2][N]", "2 ** N"])
def test_undecidable_comparisons(text: str) -> None:
    with pytest.raises(Undecided):
        evaluate(text, ENV)


def test_one_false_element_decides_all() -> None:
    assert evaluate("all(x > 2 for x in [N, 1])", ENV) is False
    assert evaluate("any(x > 0 for x in [N, 1])", ENV) is True
    assert evaluate("[N, 1] == [M, 2]", ENV) is False
    with pytest.raises(Undecided):
        evaluate("all(x > 0 for x in [N, 1])", ENV)


def test_broadcast_with_symbolic_dims() -> None:
    assert evaluate("broadcast([N, 1, 3], [4, 1])", ENV) == [N, 4, 3]
    assert evaluate("broadcast([N], [N])", ENV) == [N]
    assert evaluate("broadcast([1], [N])", ENV) == [N]
    # dims whose equality is not known: what a valid broadcast gives, as onnx infers it (was: undecided, so a model's
    # whole tail of shapes after an Add of [batch, seq] and [batch, ?] had no rank)
    assert evaluate("broadcast([N], [3])", ENV) == [3]  # N can only be 1 or 3
    assert evaluate("broadcast([2, N], [M, 5])", ENV) == [2, 5]
    (either,) = evaluate("broadcast([N], [M])", ENV)
    assert holds_unknown(either) and not either.symbols  # N, M or both: a dim nobody knows
    with pytest.raises(FormulaError, match="cannot broadcast"):
        evaluate("broadcast([N, 2], [M, 3])", ENV)  # a pair known to differ still fails


def test_min_max_keep_only_undecided_candidates() -> None:
    assert evaluate("max(N + 1, N)", ENV) == N + 1
    assert str(evaluate("max(N, 3, 5)", ENV)) == "max(5, N)"
    assert evaluate("min(N, N)", ENV) == N


def test_average_pool_with_symbolic_batch() -> None:
    batch = Sym("batch")
    env = {**AVERAGE_POOL_ENV, "N": batch}
    assert evaluate(AVERAGE_POOL_SHAPE, env) == [batch, 3, 31, 31]
    spatial = {**env, "S": [Sym("H"), Sym("W")]}
    assert [str(dim) for dim in evaluate(AVERAGE_POOL_SHAPE, spatial)] == ["batch", "3", "H - 1", "W - 1"]


def test_sym_truthiness_is_undecided() -> None:
    with pytest.raises(Undecided):
        bool(N)


def test_sym_needs_a_name() -> None:
    with pytest.raises(FormulaError):
        Sym("")


def test_symbolic_blow_up_is_bounded() -> None:
    with pytest.raises(FormulaError, match="terms"):
        evaluate("(A + B + C + D + E + 1) ** 20", {name: Sym(name) for name in "ABCDE"})
