"""ai.onnx.preview FlexAttention: the kernel against onnx.reference (grouped heads, scale, softmax precision, score
and probability modifier graphs, outer values), the shape formula against onnx's shape inference, rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from tests.helpers import OracleCase, Seeded, oracle_tests, problem_checks, version
from tests.helpers.oracles import one_node_model

DOMAIN = "ai.onnx.preview"
OP = "FlexAttention"
f32 = Seeded(2718).f32


def modifier(name: str, op: str, shape: list[int], *, elem: int = TensorProto.FLOAT,
             other: np.ndarray | str | None = None) -> onnx.GraphProto:
    """(x) -> op(x, other): a constant `other`, the name of an enclosing value, or a unary op without one."""
    nodes = []
    operands = ["x"]
    if isinstance(other, np.ndarray):
        nodes.append(helper.make_node("Constant", [], ["c"], value=helper.make_tensor(
            f"{name}_c", elem, list(other.shape), other.reshape(-1).tolist())))
        operands.append("c")
    elif other is not None:
        operands.append(other)
    nodes.append(helper.make_node(op, operands, ["y"]))
    return helper.make_graph(nodes, name, [helper.make_tensor_value_info("x", elem, shape)],
                             [helper.make_tensor_value_info("y", elem, shape)])


Q, K, V = f32(1, 2, 3, 4), f32(1, 2, 5, 4), f32(1, 2, 5, 3)
QG, KG, VG = f32(2, 4, 3, 4), f32(2, 2, 5, 4), f32(2, 2, 5, 2)  # four query heads over two key/value heads
SCORES = [1, 2, 3, 5]
BIAS = np.linspace(-1, 1, 30, dtype=np.float32).reshape(SCORES[1:])[None]
CAUSAL = np.triu(np.full((3, 5), -np.inf, np.float32), 1)[None, None]


def case(inputs: list[np.ndarray], attrs: dict[str, Any], id: str, rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), rtol=rtol, id=id, domain=DOMAIN)


CASES = [
    case([Q, K, V], {}, "plain"),
    case([QG, KG, VG], {"scale": 0.25}, "grouped_heads_scaled"),
    case([Q, K, V], {"score_mod": modifier("score_mod", "Add", SCORES, other=BIAS)}, "score_bias"),
    case([Q, K, V], {"score_mod": modifier("score_mod", "Add", SCORES, other=np.broadcast_to(CAUSAL, SCORES).copy())},
         "causal_mask"),
    case([Q, K, V], {"prob_mod": modifier("prob_mod", "Mul", SCORES, other=np.full(SCORES, 0.5, np.float32))},
         "prob_scale"),
    case([Q.astype(np.float64), K.astype(np.float64), V.astype(np.float64)],
         {"score_mod": modifier("score_mod", "Neg", SCORES, elem=TensorProto.DOUBLE)}, "double"),
    # onnx.reference rounds Q·K to half precision first, the kernel computes it exactly: float16's tolerance
    case([Q.astype(np.float16), K.astype(np.float16), V.astype(np.float16)], {"softmax_precision": 1}, "half_in_float",
         rtol=1e-3),
    case([Q, K, V], {"softmax_precision": 11,
                     "score_mod": modifier("score_mod", "Abs", SCORES, elem=TensorProto.DOUBLE)}, "double_softmax"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_a_modifier_reads_an_enclosing_value() -> None:
    """score_mod adds a graph input of the model around the node, by name (ONNX scoping): the model runner gives
    what onnx.reference gives for the same bias written into the modifier as a constant."""
    from onnx.reference import ReferenceEvaluator

    from conformance.models import run_model

    model, feeds = one_node_model(OP, 1, [Q, K, V], {"score_mod": modifier("score_mod", "Add", SCORES, other="bias")},
                                  1, domain=DOMAIN)
    model.graph.input.append(helper.make_tensor_value_info("bias", TensorProto.FLOAT, SCORES))
    ours = run_model(model, {**feeds, "bias": BIAS})["out0"]
    inline, _ = one_node_model(OP, 1, [Q, K, V], {"score_mod": modifier("score_mod", "Add", SCORES, other=BIAS)}, 1,
                               domain=DOMAIN)
    theirs = ReferenceEvaluator(inline).run(None, feeds)[0]
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(("inputs", "attrs"), [
    ([Q, K, V], {}),
    ([QG, KG, VG], {"score_mod": modifier("score_mod", "Neg", [2, 4, 3, 5])}),
])
def test_shape_formula_matches_onnx(inputs: list[np.ndarray], attrs: dict[str, Any]) -> None:
    v = version(DOMAIN, OP, 1)
    from opset.infer import infer_shapes

    result = infer_shapes(v, [list(x.shape) for x in inputs], attrs)
    assert not result.problems, result.problems
    model, _ = one_node_model(OP, 1, inputs, attrs, 1, domain=DOMAIN)
    out = onnx.shape_inference.infer_shapes(model, strict_mode=True).graph.output[0].type.tensor_type
    assert result.outputs[0] == [d.dim_value for d in out.shape.dim]


@pytest.mark.parametrize(("inputs", "attrs", "check"), [
    ([f32(1, 3, 2, 4), f32(1, 2, 5, 4), f32(1, 2, 5, 3)], {}, "flexattention_c1"),  # 3 query heads over 2
    ([f32(2, 3, 4), K, V], {}, "rank"),
    ([Q, f32(1, 2, 5, 3), V], {}, "binding"),  # head sizes 4 and 3
    ([Q, K, V], {"score_mod": modifier("score_mod", "Neg", [1, 2, 3, 4])}, "graph_signature"),  # S is 5
])
def test_invalid_node_reports_the_check(inputs: list[np.ndarray], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), inputs, attrs)
