"""com.microsoft SampleOp: the kernel against onnxruntime (float and float16, the types its CPU kernel serves; the
integer and double types against ai.onnx Identity run by onnxruntime; scalars, empty and multi-axis tensors), the
shape formula against onnxruntime's (the op has no attribute or constraint to reject)."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pytest
from onnx import helper

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_examples_match_kernel_and_formula,
    assert_shapes_match_onnxruntime,
    oracle_tests,
)
from tests.helpers.ai_onnx_graphs import run_ai_onnx_graph

DOMAIN = "com.microsoft"
OP = "SampleOp"
data = Seeded(41)
SHAPES = [(), (0,), (5,), (2, 3, 4)]
ORT_TYPES = [np.float16, np.float32]
OTHER_TYPES = [np.uint32, np.uint64, np.int32, np.int64, np.float64]


def identity(x: np.ndarray) -> list[Any]:
    """What onnxruntime's ai.onnx Identity gives for x: SampleOp's meaning, for the types its kernel lacks."""
    return run_ai_onnx_graph([helper.make_node("Identity", ["x"], ["y"])], {"x": x}, ["y"])


def values(dt: Any, shape: tuple[int, ...]) -> np.ndarray:
    return np.asarray(np.abs(data.f32(*shape)) * 1000 if np.dtype(dt).kind == "u" else data.f32(*shape) * 1000
                      ).astype(dt)


def label(dt: Any, shape: tuple[int, ...]) -> str:
    return f"{np.dtype(dt).name}-{'x'.join(map(str, shape)) or 'scalar'}"


CASES = [OracleCase(OP, {}, [values(dt, shape)], (1,), oracle="ort", id=label(dt, shape), domain=DOMAIN)
         for dt in ORT_TYPES for shape in SHAPES]
CASES += [OracleCase(OP, {}, [x], (1,), oracle=partial(identity, x), id=label(x.dtype, x.shape), domain=DOMAIN)
          for dt in OTHER_TYPES for shape in SHAPES for x in [values(dt, shape)]]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_examples() -> None:
    assert_examples_match_kernel_and_formula(DOMAIN, OP)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_shape_formula_matches_onnxruntime(shape: tuple[int, ...]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [data.f32(*shape)])
