"""The shape formulas and constraints of Abs ... LeakyRelu checked against onnx's own shape inference.

Every case builds a one-node model at one opset, runs `onnx.shape_inference.infer_shapes` in strict
mode and compares each output shape with what `opset.infer.infer_shapes` computes from the registry.
Valid cases must raise no problem at all; invalid ones must report the named constraint.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from opset.infer import infer_shapes, validate_attributes
from opset.load import load_registry

Shape = list[int] | None


def onnx_shapes(op: str, opset: int, shapes: list[Shape], attrs: dict[str, Any], n_out: int,
                values: dict[int, np.ndarray] | None = None) -> list[list[int] | None]:
    """Output shapes by onnx's shape inference (None where onnx infers no shape)."""
    values = values or {}
    names = [f"x{i}" if s is not None else "" for i, s in enumerate(shapes)]
    inputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in zip(names, shapes, strict=True)
              if n and s is not None]
    inits = [numpy_helper.from_array(v, names[i]) for i, v in values.items()]
    outs = [f"y{i}" for i in range(n_out)]
    node = helper.make_node(op, names, outs, **attrs)
    graph = helper.make_graph([node], "g", inputs, [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None)
                                                    for o in outs], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 7 if opset < 15 else 10
    inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    result: list[list[int] | None] = []
    for out in inferred.graph.output:
        t = out.type.tensor_type
        result.append([d.dim_value for d in t.shape.dim] if t.HasField("shape") else None)
    return result


def ours(op: str, opset: int, shapes: list[Shape], attrs: dict[str, Any],
         values: dict[int, np.ndarray] | None = None):  # type: ignore[no-untyped-def]
    version = load_registry().resolve("ai.onnx", op, opset)
    named = {version.inputs[min(i, len(version.inputs) - 1)].name: v for i, v in (values or {}).items()}
    result = infer_shapes(version, shapes, attrs, named)
    problems = result.problems + validate_attributes(version, attrs, shapes)
    return result, problems


# op, opset, input shapes (None: omitted optional input), attributes, number of outputs
VALID: list[tuple[str, int, list[Shape], dict[str, Any], int]] = [
    ("Abs", 6, [[]], {}, 1),
    ("Abs", 13, [[2, 1, 4]], {}, 1),
    ("Elu", 6, [[2, 3, 4]], {}, 1),
    ("Elu", 22, [[5]], {}, 1),
    ("LeakyRelu", 6, [[2, 3]], {"alpha": 0.2}, 1),
    ("LeakyRelu", 16, [[7]], {}, 1),
    ("Identity", 1, [[2, 3]], {}, 1),
    ("Identity", 13, [[]], {}, 1),
    ("Identity", 14, [[4, 5, 6]], {}, 1),
    ("Identity", 25, [[1]], {}, 1),
    # Add: legacy broadcast (output is A's shape) and numpy broadcasting
    ("Add", 6, [[2, 3, 4, 5], [3, 4]], {"broadcast": 1, "axis": 1}, 1),
    ("Add", 6, [[2, 3, 4, 5], []], {"broadcast": 1}, 1),
    ("Add", 7, [[2, 1, 4], [3, 1]], {}, 1),
    ("Add", 13, [[5], [2, 3, 5]], {}, 1),
    ("Add", 14, [[2, 3], [2, 3]], {}, 1),
    ("Add", 14, [[], [4]], {}, 1),
    # Clip
    ("Clip", 6, [[2, 3]], {"min": 0.0, "max": 6.0}, 1),
    ("Clip", 11, [[2, 3], [], []], {}, 1),
    ("Clip", 12, [[4], None, []], {}, 1),
    ("Clip", 13, [[2, 3, 4]], {}, 1),
    # Flatten
    ("Flatten", 1, [[2, 3, 4]], {}, 1),
    ("Flatten", 1, [[2, 3, 4]], {"axis": 0}, 1),
    ("Flatten", 9, [[2, 3, 4]], {"axis": 3}, 1),
    ("Flatten", 11, [[2, 3, 4]], {"axis": -1}, 1),
    ("Flatten", 13, [[2, 3, 4, 5]], {"axis": -4}, 1),
    ("Flatten", 25, [[6]], {"axis": 1}, 1),
    # Concat
    ("Concat", 4, [[2, 3], [5, 3]], {"axis": 0}, 1),
    ("Concat", 11, [[2, 3], [2, 4], [2, 1]], {"axis": -1}, 1),
    ("Concat", 13, [[1, 2, 3]], {"axis": 2}, 1),
    ("Concat", 13, [[1, 2, 3], [1, 2, 3]], {"axis": -3}, 1),
    # Gemm
    ("Gemm", 6, [[3, 4], [4, 5], [3, 5]], {}, 1),
    ("Gemm", 7, [[4, 3], [5, 4], [1, 5]], {"transA": 1, "transB": 1}, 1),
    ("Gemm", 9, [[3, 4], [4, 5], [5]], {}, 1),
    ("Gemm", 11, [[3, 4], [4, 5]], {}, 1),
    ("Gemm", 13, [[3, 4], [5, 4], []], {"transB": 1, "alpha": 0.5}, 1),
    ("Gemm", 13, [[4, 3], [4, 5], [3, 1]], {"transA": 1}, 1),
    # GlobalAveragePool / GlobalMaxPool
    ("GlobalAveragePool", 1, [[2, 3, 4, 5]], {}, 1),
    ("GlobalAveragePool", 22, [[2, 3, 7]], {}, 1),
    ("GlobalMaxPool", 1, [[1, 3, 2, 2, 2]], {}, 1),
    ("GlobalMaxPool", 22, [[2, 3]], {}, 1),
    # BatchNormalization
    ("BatchNormalization", 6, [[2, 3, 4, 5], [3], [3], [3], [3]], {}, 1),
    ("BatchNormalization", 7, [[2, 3], [3], [3], [3], [3]], {}, 1),
    ("BatchNormalization", 7, [[2, 3, 4, 5], [3, 4, 5], [3, 4, 5], [3, 4, 5], [3, 4, 5]], {"spatial": 0}, 1),
    ("BatchNormalization", 7, [[2, 3, 4], [3, 4], [3, 4], [3, 4], [3, 4]], {"spatial": 0}, 5),
    ("BatchNormalization", 9, [[2, 3, 4, 5], [3], [3], [3], [3]], {}, 5),
    ("BatchNormalization", 14, [[2, 3, 4, 5], [3], [3], [3], [3]], {"training_mode": 1}, 3),
    ("BatchNormalization", 15, [[2, 3, 4], [3], [3], [3], [3]], {}, 1),
    ("BatchNormalization", 15, [[6], [1], [1], [1], [1]], {}, 1),
    # Conv
    ("Conv", 1, [[1, 4, 7, 7], [6, 4, 3, 3]], {"dilations": [2, 2], "pads": [1, 1, 1, 1]}, 1),
    ("Conv", 1, [[1, 4, 7, 7], [6, 4, 3, 3]], {"auto_pad": "VALID", "strides": [2, 2]}, 1),
    ("Conv", 11, [[1, 4, 7, 7], [6, 2, 3, 3]], {"group": 2, "strides": [2, 2], "auto_pad": "SAME_LOWER"}, 1),
    ("Conv", 11, [[2, 3, 10], [4, 3, 4], [4]], {"strides": [3], "pads": [0, 2]}, 1),
    ("Conv", 11, [[1, 2, 5, 6, 7], [3, 2, 2, 3, 1]], {"kernel_shape": [2, 3, 1], "dilations": [1, 2, 1]}, 1),
    ("Conv", 22, [[1, 4, 7, 7], [6, 4, 3, 3], [6]], {"auto_pad": "SAME_UPPER", "dilations": [2, 2]}, 1),
    ("Conv", 22, [[1, 1, 5, 5], [1, 1, 3, 3]], {"auto_pad": "SAME_UPPER", "strides": [2, 3]}, 1),
    # ConvTranspose
    ("ConvTranspose", 1, [[1, 4, 3, 3], [4, 2, 3, 3]], {"strides": [2, 2]}, 1),
    ("ConvTranspose", 1, [[1, 4, 3, 3], [4, 2, 3, 3]], {"strides": [2, 2], "output_shape": [8, 7]}, 1),
    ("ConvTranspose", 11, [[1, 4, 3, 3], [4, 2, 3, 3]],
     {"strides": [2, 2], "group": 2, "output_padding": [1, 1], "pads": [1, 0, 1, 0]}, 1),
    ("ConvTranspose", 11, [[1, 4, 3, 3], [4, 2, 3, 3]], {"strides": [2, 2], "auto_pad": "SAME_UPPER"}, 1),
    ("ConvTranspose", 11, [[1, 4, 3, 3], [4, 2, 3, 3], [2]],
     {"strides": [2, 2], "auto_pad": "SAME_LOWER", "output_padding": [1, 1]}, 1),
    ("ConvTranspose", 11, [[1, 4, 3, 3], [4, 2, 3, 3]],
     {"strides": [2, 2], "dilations": [2, 1], "auto_pad": "VALID"}, 1),
    ("ConvTranspose", 22, [[1, 4, 3, 3], [4, 2, 3, 3]], {"strides": [2, 2], "kernel_shape": [3, 3]}, 1),
    ("ConvTranspose", 22, [[2, 1, 5], [1, 3, 2]], {"strides": [3], "output_shape": [16]}, 1),
    # AveragePool: seed versions (1, 7, 10, 11) and current onnx (19, 22)
    ("AveragePool", 1, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "strides": [2, 2], "pads": [1, 1, 1, 1]}, 1),
    ("AveragePool", 1, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "strides": [2, 2], "auto_pad": "VALID"}, 1),
    ("AveragePool", 1, [[1, 3, 6, 5]], {"kernel_shape": [3, 2], "strides": [2, 2], "auto_pad": "SAME_LOWER"}, 1),
    ("AveragePool", 7, [[1, 3, 32]], {"kernel_shape": [2], "count_include_pad": 1}, 1),
    ("AveragePool", 7, [[1, 1, 4, 4, 4]], {"kernel_shape": [2, 2, 2], "auto_pad": "SAME_UPPER"}, 1),
    ("AveragePool", 10, [[1, 1, 4, 4]], {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1}, 1),
    ("AveragePool", 11, [[1, 1, 6, 6]], {"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "SAME_UPPER",
                                          "ceil_mode": 1}, 1),
    ("AveragePool", 11, [[2, 3, 28, 28]], {"kernel_shape": [3, 3], "pads": [2, 2, 2, 2]}, 1),
    ("AveragePool", 19, [[1, 1, 7]], {"kernel_shape": [2], "strides": [2], "pads": [1, 1], "ceil_mode": 1,
                                      "dilations": [2]}, 1),
    ("AveragePool", 19, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "strides": [2, 2], "auto_pad": "VALID",
                                          "ceil_mode": 1}, 1),
    ("AveragePool", 19, [[1, 1, 4, 4]], {"kernel_shape": [2, 2], "dilations": [2, 2]}, 1),
    ("AveragePool", 22, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "strides": [2, 2], "pads": [1, 1, 1, 1],
                                          "ceil_mode": 1}, 1),
    ("AveragePool", 22, [[1, 1, 4]], {"kernel_shape": [1], "strides": [2], "auto_pad": "VALID", "ceil_mode": 1}, 1),
    ("AveragePool", 22, [[1, 1, 7]], {"kernel_shape": [3], "strides": [2], "pads": [2, 0], "ceil_mode": 1}, 1),
    ("AveragePool", 22, [[1, 1, 9, 9]], {"kernel_shape": [3, 3], "strides": [3, 3], "auto_pad": "SAME_LOWER",
                                          "dilations": [2, 2]}, 1),
]

# Where onnx infers no shape, the expected shape is written here.
NO_ONNX_INFERENCE: list[tuple[str, int, list[Shape], dict[str, Any], list[list[int]]]] = [
    ("Gemm", 1, [[3, 4], [4, 5], [5]], {"broadcast": 1}, [[3, 5]]),
    ("Gemm", 1, [[4, 3], [4, 5], [3, 5]], {"transA": 1}, [[3, 5]]),
    ("Concat", 1, [[2, 3], [2, 4]], {}, [[2, 7]]),
    ("Clip", 1, [[2, 3]], {"min": -1.0}, [[2, 3]]),
    ("BatchNormalization", 1, [[2, 3, 4, 5], [3], [3], [3], [3]], {"consumed_inputs": [0, 0, 0, 1, 1]},
     [[2, 3, 4, 5], [3], [3], [3], [3]]),
    ("Abs", 1, [[2, 3]], {}, [[2, 3]]),
    ("Elu", 1, [[3]], {"alpha": 0.5}, [[3]]),
    ("LeakyRelu", 1, [[2, 2]], {}, [[2, 2]]),
    ("Add", 1, [[2, 3, 4, 5], [2, 3, 4, 5]], {}, [[2, 3, 4, 5]]),
    ("Add", 1, [[2, 3, 4, 5], [4, 5]], {"broadcast": 1}, [[2, 3, 4, 5]]),
]

# Seed 004's formulas where onnx 1.23's shape inference differs (see the seed_note of AveragePool).
SEED_DIVERGENCES: list[tuple[str, int, list[Shape], dict[str, Any], list[int]]] = [
    ("AveragePool", 10, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "strides": [2, 2], "auto_pad": "VALID",
                                          "ceil_mode": 1}, [1, 1, 2, 2]),
    ("AveragePool", 11, [[1, 1, 4]], {"kernel_shape": [1], "strides": [2], "auto_pad": "VALID", "ceil_mode": 1},
     [1, 1, 2]),
]

# op, opset, input shapes, attributes, the constraint id that must be reported
INVALID: list[tuple[str, int, list[Shape], dict[str, Any], str]] = [
    # ceil_mode: a last window made only of end padding is undefined before version 22 (which drops it)
    ("AveragePool", 10, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "strides": [2, 2], "pads": [1, 1, 1, 1],
                                          "ceil_mode": 1}, "averagepool_c3"),
    ("AveragePool", 11, [[1, 1, 7]], {"kernel_shape": [2], "strides": [2], "pads": [1, 1], "ceil_mode": 1},
     "averagepool_c3"),
    ("Add", 1, [[2, 3], [3]], {}, "add_c1"),
    ("Add", 6, [[2, 3, 4], [3]], {"broadcast": 1}, "add_c2"),
    ("Add", 6, [[2, 3, 4], [4]], {"broadcast": 1, "axis": 1}, "add_c2"),
    ("Add", 14, [[2, 3], [4]], {}, "add_c3"),
    ("Clip", 11, [[2, 3], [1], []], {}, "clip_c1"),
    ("Clip", 13, [[2, 3], [], [2]], {}, "clip_c2"),
    ("Flatten", 1, [[2, 3]], {"axis": -1}, "flatten_c1"),
    ("Flatten", 13, [[2, 3]], {"axis": 3}, "flatten_c1"),
    ("Concat", 4, [[2, 3], [2, 3]], {"axis": -1}, "concat_c2"),
    ("Concat", 13, [[2, 3], [2, 3]], {"axis": 2}, "concat_c2"),
    ("Concat", 13, [[2, 3], [2, 3, 1]], {"axis": 0}, "concat_c1"),
    ("Concat", 13, [[2, 3], [3, 4]], {"axis": 1}, "concat_c3"),
    ("Gemm", 13, [[3, 4], [5, 5]], {}, "gemm_c1"),
    ("Gemm", 13, [[3, 4], [4, 5], [2, 5]], {}, "gemm_c3"),
    ("Gemm", 6, [[3, 4], [4, 5], [5]], {}, "gemm_c2"),
    ("BatchNormalization", 7, [[2, 3, 4], [4], [3], [3], [3]], {}, "batchnormalization_c1"),
    ("BatchNormalization", 15, [[2, 3, 4], [4], [4], [4], [4]], {}, "batchnormalization_c2"),
    ("Conv", 11, [[1, 4, 7, 7], [6, 3, 3, 3]], {}, "conv_c2"),
    ("Conv", 11, [[1, 4, 7, 7], [6, 2, 3, 3]], {"group": 4}, "conv_c3"),
    ("Conv", 11, [[1, 4, 7, 7], [6, 4, 3]], {}, "conv_c1"),
    ("Conv", 11, [[1, 4, 7, 7], [6, 4, 3, 3]], {"kernel_shape": [2, 2]}, "conv_c4"),
    ("Conv", 22, [[1, 4, 3, 3], [6, 4, 3, 3]], {"dilations": [2, 2]}, "conv_c5"),
    ("Conv", 11, [[1, 4, 7, 7], [6, 4, 3, 3]], {"auto_pad": "VALID", "pads": [1, 1, 1, 1]}, "conv_c6"),
    ("ConvTranspose", 11, [[1, 3, 3, 3], [3, 2, 3, 3]], {"group": 2}, "convtranspose_c2"),
    ("ConvTranspose", 11, [[1, 4, 3, 3], [4, 2, 3, 3], [3]], {}, "convtranspose_c3"),
    ("ConvTranspose", 11, [[1, 4, 3, 3], [4, 2, 3, 3]], {"output_padding": [1, 1]}, "convtranspose_c6"),
    ("ConvTranspose", 1, [[1, 4, 3, 3], [4, 2, 3, 3]], {"auto_pad": "SAME_UPPER", "pads": [1, 1, 1, 1]},
     "convtranspose_c5"),
    ("AveragePool", 1, [[1, 1, 3, 3]], {"kernel_shape": [4, 4]}, "averagepool_c1"),
    ("AveragePool", 11, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "auto_pad": "SAME_UPPER", "pads": [1, 1, 1, 1]},
     "averagepool_c2"),
    ("AveragePool", 19, [[1, 1, 4, 4]], {"kernel_shape": [3, 3], "dilations": [2, 2]}, "averagepool_c1"),
    ("Constant", 12, [], {"value_int": 1, "value_ints": [1, 2]}, "constant_c1"),
]


def _id(case: tuple[Any, ...]) -> str:
    return f"{case[0]}-{case[1]}-{case[3]}"


@pytest.mark.parametrize("case", VALID, ids=_id)
def test_formula_matches_onnx(case: tuple[str, int, list[Shape], dict[str, Any], int]) -> None:
    op, opset, shapes, attrs, n_out = case
    expected = onnx_shapes(op, opset, shapes, attrs, n_out)
    result, problems = ours(op, opset, shapes, attrs)
    assert problems == []
    inferred = [s for s in expected if s is not None]
    assert inferred, f"onnx inferred nothing for {case}"
    for theirs, mine in zip(expected, result.outputs, strict=False):
        if theirs is not None:
            assert mine == theirs


@pytest.mark.parametrize("case", NO_ONNX_INFERENCE, ids=_id)
def test_formula_where_onnx_infers_nothing(case: tuple[str, int, list[Shape], dict[str, Any], list[list[int]]]) -> None:
    op, opset, shapes, attrs, want = case
    assert all(s is None for s in onnx_shapes(op, opset, shapes, attrs, len(want)))
    result, problems = ours(op, opset, shapes, attrs)
    assert problems == []
    assert result.outputs[:len(want)] == want


@pytest.mark.parametrize("case", SEED_DIVERGENCES, ids=_id)
def test_seed_formula_where_onnx_differs(case: tuple[str, int, list[Shape], dict[str, Any], list[int]]) -> None:
    op, opset, shapes, attrs, seed_shape = case
    result, problems = ours(op, opset, shapes, attrs)
    assert problems == []
    assert result.outputs == [seed_shape]
    assert onnx_shapes(op, opset, shapes, attrs, 1) != [seed_shape]


@pytest.mark.parametrize("case", INVALID, ids=_id)
def test_constraint_is_reported(case: tuple[str, int, list[Shape], dict[str, Any], str]) -> None:
    op, opset, shapes, attrs, check = case
    _, problems = ours(op, opset, shapes, attrs)
    assert check in {p.check for p in problems}, problems


def test_symbolic_dims_leave_constraints_unchecked() -> None:
    from opset.formula import Sym

    n, h = Sym("N"), Sym("H")
    result, problems = ours("Conv", 11, [[n, 4, h, 7], [6, 2, 3, 3]], {"group": 2})
    assert problems == []
    assert result.outputs[0][:2] == [n, 6] and result.outputs[0][3] == 5


def test_default_expressions() -> None:
    version = load_registry().resolve("ai.onnx", "ConvTranspose", 11)
    result = infer_shapes(version, [[1, 4, 3, 5], [4, 2, 2, 3]], {})
    assert result.attributes["kernel_shape"] == [2, 3]
    assert result.attributes["pads"] == [0, 0, 0, 0]
    assert result.attributes["strides"] == [1, 1]
    assert result.attributes["output_padding"] == [0, 0]
    concat = load_registry().resolve("ai.onnx", "Concat", 1)
    assert infer_shapes(concat, [[2, 3], [2, 3]], {}).attributes["axis"] == 1
