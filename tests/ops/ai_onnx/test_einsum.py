"""Einsum: the kernel against onnx.reference (products, transposes, diagonals, ellipses, broadcasting, implicit
output in ASCII order, spaces, integers), the formula's parse of the equation against onnx's shape inference,
rejected equations under their constraint ids, symbolic dims."""

from __future__ import annotations

from typing import Any

import numpy as np

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    symbolic_shape,
)

OP = "Einsum"
RAND = Seeded(1234)
f32 = RAND.f32
ALL = all_since(OP)


def case(equation: str, *inputs: np.ndarray, name: str) -> OracleCase:
    return OracleCase(OP, {"equation": equation}, list(inputs), ALL, id=name)


CASES = [
    case("ij,jk->ik", f32(2, 3), f32(3, 4), name="matmul"),
    case("ij,jk", f32(2, 3), f32(3, 4), name="implicit_matmul"),
    case("ba,ac", f32(2, 3), f32(3, 4), name="implicit_order"),
    case("bA", f32(2, 3), name="upper_case_first"),
    case("Ab,bc", f32(2, 3), f32(3, 4), name="upper_and_lower"),
    case("ii->i", f32(3, 3), name="diagonal"),
    case("ii", f32(3, 3), name="trace"),
    case("...ij,...jk->...ik", f32(5, 2, 3), f32(1, 3, 4), name="batched_broadcast"),
    case("ij...->...", f32(2, 3, 4, 5), name="ellipsis_kept"),
    case("...ii->...i", f32(2, 3, 3), name="batched_diagonal"),
    case("ij,j->i", f32(2, 3), f32(1), name="label_broadcast"),
    case(" i j , j k -> i k ", f32(2, 3), f32(3, 4), name="spaces"),
    case("i,i,i->", f32(4), f32(4), f32(4), name="three_operands"),
    case("ij,jk->ik", RAND.ints(-9, 9, (2, 3), np.int32), RAND.ints(-9, 9, (3, 2), np.int32), name="int32"),
    case("ij->ji", f32(2, 3).astype(np.float16), name="half"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def shapes(equation: str, *inputs: list[int], opset: int = 12) -> Any:
    return shape_case(OP, opset, list(inputs), {"equation": equation})


SHAPES = [shapes(eq, *inputs, opset=opset) for opset in ALL for eq, inputs in (
    ("ij,jk->ik", ([2, 3], [3, 4])), ("ij,jk", ([2, 3], [3, 4])), ("ba,ac", ([2, 3], [3, 4])), ("ii->i", ([3, 3],)),
    ("ii", ([3, 3],)), ("...ij,...jk->...ik", ([5, 2, 3], [1, 3, 4])), ("ij...->...", ([2, 3, 4, 5],)),
    ("...ii->...i", ([2, 3, 3],)), ("ij,j->i", ([2, 3], [1])), (" i j , j k -> i k ", ([2, 3], [3, 4])),
    ("Ab,bA", ([2, 3], [3, 2])), ("bA", ([2, 3],)), ("i...j", ([2, 4, 5, 3],)), ("k,ij", ([4], [2, 3])))]

REJECTED = [
    (shapes("ij,j2->i", [2, 3], [3, 1]), "einsum_c1"),
    (shapes("ij->i->j", [2, 3]), "einsum_c1"),
    (shapes("ij,jk->ik", [2, 3]), "einsum_c2"),
    (shapes("i..j", [2, 3]), "einsum_c3"),
    (shapes("i......j", [2, 3]), "einsum_c3"),
    (shapes("ijk", [2, 3]), "einsum_c4"),
    (shapes("...ij,...jk", [5, 2, 3], [3, 4]), "einsum_c5"),
    (shapes("...i,...i", [2, 3], [4, 3]), "einsum_c6"),
    (shapes("ij,jk->ik", [2, 3], [4, 4]), "einsum_c7"),
    (shapes("ii->i", [3, 1]), "einsum_c7"),
    (shapes("ij->k", [2, 3]), "einsum_c8"),
    (shapes("ij->ii", [2, 3]), "einsum_c8"),
    (shapes("i...,j...->ij", [2, 5], [3, 5]), "einsum_c9"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_dims_flow_through_labels_and_ellipses() -> None:
    n = Sym("N")
    assert symbolic_shape(OP, 12, [[n, 2, 3], [3, 4]], {"equation": "...ij,jk->...ik"}) == ["N", "2", "4"]
    assert symbolic_shape(OP, 12, [[n, 3], [3, n]], {"equation": "ij,jk"}) == ["N", "N"]
