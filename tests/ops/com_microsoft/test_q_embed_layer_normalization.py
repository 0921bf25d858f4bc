"""com.microsoft QEmbedLayerNormalization: the kernel against onnxruntime (uint8 and int8 tables, with and without
segments and mask, scalar and 1-element parameters, epsilon), both outputs' shape formulas against onnxruntime's,
rejected nodes and inputs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    assert_examples_match_kernel_and_formula,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    formula_shapes,
    node_diagnostics,
    one_node_model,
    problem_checks,
    run,
    run_onnxruntime,
    version,
)

DOMAIN = "com.microsoft"
OP = "QEmbedLayerNormalization"


def q_inputs(seed: int, *, batch: int = 2, steps: int = 3, hidden: int = 8, words: int = 10, positions: int = 5,
             segments: int = 2, tables: Any = np.uint8, segment: bool = True, mask: bool = True,
             vectors: bool = False) -> list[np.ndarray | None]:
    """The 18 inputs in onnxruntime's order; `vectors` gives every scale and zero point as a 1-element vector."""
    rng = np.random.default_rng(seed)
    lo, hi = (-128, 128) if tables == np.int8 else (0, 256)

    def table(*shape: int) -> np.ndarray:
        return rng.integers(lo, hi, shape).astype(tables)

    def scale() -> np.ndarray:
        return np.array(rng.uniform(0.005, 0.05), np.float32).reshape((1,) if vectors else ())

    def zero_point() -> np.ndarray:
        return np.array(rng.integers(lo, hi), tables).reshape((1,) if vectors else ())

    ids = rng.integers(0, words, (batch, steps)).astype(np.int32)
    segment_ids = rng.integers(0, segments, (batch, steps)).astype(np.int32) if segment else None
    mask_values = rng.integers(0, 2, (batch, steps)).astype(np.int32) if mask else None
    return [ids, segment_ids, table(words, hidden), table(positions, hidden),
            table(segments, hidden) if segment else None, table(hidden), table(hidden), mask_values,
            scale(), scale(), scale() if segment else None, scale(), scale(),
            zero_point(), zero_point(), zero_point() if segment else None, zero_point(), zero_point()]


def case(inputs: list[np.ndarray | None], attrs: dict[str, Any], id: str) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), n_out=2, oracle="ort", rtol=1e-5, id=id, domain=DOMAIN)


CASES = [
    case(q_inputs(1), {}, "uint8"),
    case(q_inputs(2, tables=np.int8), {}, "int8"),
    case(q_inputs(3, segment=False), {}, "no_segments"),
    case(q_inputs(4, mask=False), {}, "no_mask"),
    case(q_inputs(5, segment=False, mask=False, tables=np.int8), {}, "ids_only"),
    case(q_inputs(6, vectors=True), {}, "one_element_parameters"),
    case(q_inputs(7, steps=5, positions=5, hidden=3), {"epsilon": 0.5}, "epsilon_all_positions"),
    case(q_inputs(8, batch=1, steps=1, hidden=1), {}, "one_hidden"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_kernel_matches_onnxruntime(case: OracleCase) -> None:
    assert_matches_oracle(case, 1)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_mask_index_counts_ones() -> None:
    """Reading r1: a count of 1s, not the position of the first 0 (a 1 after a 0 counts)."""
    inputs = q_inputs(9, batch=1, steps=4)
    inputs[7] = np.array([[1, 0, 1, 2]], np.int32)
    assert run(DOMAIN, OP, 1, inputs, epsilon=1e-12)[1].tolist() == [2]


@pytest.mark.parametrize(("k", "value", "message"), [
    pytest.param(0, np.array([[0, 10, 1]], np.int32), "input_ids ids", id="id_past_table"),
    pytest.param(1, np.array([[0, 2, 1]], np.int32), "segment_ids ids", id="segment_past_table"),
    pytest.param(5, np.zeros(7, np.uint8), "gamma and beta", id="gamma_length"),
    pytest.param(8, np.ones(2, np.float32), "scalars or 1-element", id="scale_two_elements"),
    pytest.param(4, None, "come together", id="segment_table_missing"),
])
def test_kernel_rejects_invalid_input(k: int, value: np.ndarray | None, message: str) -> None:
    inputs = q_inputs(10, batch=1)
    inputs[k] = value
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, inputs, epsilon=1e-12)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_shape_formulas_match_onnxruntime(case: OracleCase) -> None:
    mine = formula_shapes(version(DOMAIN, OP, 1), case.inputs, case.attrs)
    model, feeds = one_node_model(OP, 1, case.inputs, case.attrs, 2, domain=DOMAIN)
    assert mine == [list(y.shape) for y in run_onnxruntime(model, feeds)]


GOOD: list[Any] = [[2, 3], [2, 3], [10, 8], [5, 8], [2, 8], [8], [8], [2, 3], [], [], [], [], [], [], [], [], [], []]


def shapes(**change: Any) -> list[Any]:
    out = list(GOOD)
    for k, v in change.items():
        out[int(k[1:])] = v
    return out


@pytest.mark.parametrize(("inputs", "values", "check"), [
    pytest.param(shapes(i1=None), {}, "qembedlayernormalization_c1", id="segment_ids_missing"),
    pytest.param(shapes(i15=None), {}, "qembedlayernormalization_c1", id="segment_zero_point_missing"),
    pytest.param(shapes(i1=[2, 4]), {}, "qembedlayernormalization_c2", id="segment_ids_shape"),
    pytest.param(shapes(i7=[1, 3]), {}, "qembedlayernormalization_c3", id="mask_shape"),
    pytest.param(shapes(i12=[2]), {}, "qembedlayernormalization_c4", id="beta_scale_two"),
    pytest.param(shapes(i13=[1, 1]), {}, "qembedlayernormalization_c4", id="word_zero_point_rank_2"),
    pytest.param(shapes(), {"input_ids": np.array([[0, 1, 10], [0, 0, 0]])}, "qembedlayernormalization_c5",
                 id="id_past_table"),
    pytest.param(shapes(), {"segment_ids": np.array([[0, 1, 2], [0, 0, -1]])}, "qembedlayernormalization_c6",
                 id="segment_past_table"),
    pytest.param(shapes(i0=[2, 6], i1=[2, 6], i7=[2, 6]), {}, "qembedlayernormalization_c7", id="too_few_positions"),
    pytest.param(shapes(i3=[5, 7]), {}, "binding", id="position_hidden"),
])
def test_invalid_node_reports_the_check(inputs: list[Any], values: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), inputs, {}, values)


def test_onnxruntimes_dynamic_quantization_of_embed_layer_normalization(tmp_path: Path) -> None:
    """The node as onnxruntime's quantize_dynamic writes it (as in the real-model corpus' BERT): the model validates
    clean, and the model runner on our kernel gives onnxruntime's outputs."""
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper
    from onnxruntime.quantization import quantize_dynamic

    from conformance.models import run_model
    from opset.validate import check_model

    rng = np.random.default_rng(11)
    hidden = 16
    tables = {"we": rng.normal(0, 1, (30, hidden)), "pe": rng.normal(0, 1, (8, hidden)),
              "se": rng.normal(0, 1, (2, hidden)), "g": rng.uniform(0.5, 1.5, hidden), "b": rng.normal(0, 0.1, hidden)}
    node = helper.make_node("EmbedLayerNormalization", ["ids", "seg", "we", "pe", "se", "g", "b", "mask"],
                            ["y", "mask_index"], domain=DOMAIN, epsilon=1e-12)
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info(n, TensorProto.INT32, [2, 5]) for n in ("ids", "seg", "mask")],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("mask_index", TensorProto.INT32, None)],
        initializer=[numpy_helper.from_array(v.astype(np.float32), k) for k, v in tables.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(DOMAIN, 1)])
    model.ir_version = 8
    onnx.save(model, tmp_path / "embed.onnx")
    quantize_dynamic(tmp_path / "embed.onnx", tmp_path / "embed.q.onnx")
    quantized = tmp_path / "embed.q.onnx"
    assert [n.op_type for n in onnx.load(quantized).graph.node] == [OP]
    errors = [str(d) for d in node_diagnostics(check_model(quantized).diagnostics) if d.is_error]
    assert not errors, errors
    feeds = {"ids": rng.integers(0, 30, (2, 5)).astype(np.int32), "seg": rng.integers(0, 2, (2, 5)).astype(np.int32),
             "mask": np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], np.int32)}
    theirs = ort.InferenceSession(str(quantized), providers=["CPUExecutionProvider"]).run(None, feeds)
    ours = list(run_model(quantized, feeds).values())
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(ours[1], theirs[1])


def test_examples_match_kernel_and_formula() -> None:
    assert_examples_match_kernel_and_formula(DOMAIN, OP)
