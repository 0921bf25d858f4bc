"""Cases with graph attributes (If, Loop, Scan, FlexAttention): every drawn one-node model passes onnx's full check,
the reference runs them, a repro bundle keeps the graphs and the outer values they read, and node-level and
model-level backends both get those values."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.backends.protocol import Backend, Outer
from conformance.backends.reference import ReferenceBackend
from conformance.onnx_model import case_model
from conformance.registry import current_registry
from conformance.runner.checks import expected_outputs, make_call, output_problems
from conformance.runner.repro import load_bundle, write_bundle
from conformance.runner.settings import CheckSettings
from conformance.strategies.case import Case
from conformance.strategies.cases import op_cases

VERSIONS = [("ai.onnx", "If", 1, "bool"), ("ai.onnx", "If", 16, "bool"), ("ai.onnx", "Loop", 1, "int64"),
            ("ai.onnx", "Loop", 13, "int64"), ("ai.onnx", "Scan", 8, "int64"), ("ai.onnx", "Scan", 11, "float"),
            ("ai.onnx", "Scan", 19, "int8"), ("ai.onnx.preview", "FlexAttention", 1, "float")]


def _cases(domain: str, op: str, since: int, dtype: str) -> st.SearchStrategy[Case]:
    return op_cases(current_registry().op(domain, op).version(since), dtype)


@pytest.mark.parametrize(("domain", "op", "since", "dtype"), VERSIONS, ids=[f"{o}{v}" for _, o, v, _ in VERSIONS])
def test_drawn_models_pass_onnx_full_check(domain: str, op: str, since: int, dtype: str) -> None:
    @settings(max_examples=15, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(_cases(domain, op, since, dtype))
    def check(case: Case) -> None:
        expected = expected_outputs(case)
        assert expected is not None
        model = case_model(case, [x.dtype for x in expected], [list(x.shape) for x in expected])
        onnx.checker.check_model(model, full_check=True)
        names = {i.name for i in model.graph.input}
        assert set(case.outer) <= names  # the values the graphs read are graph inputs of the model

    check()


class NodeLevel:
    """A node-level backend: the reference, taking `outer` as the protocol offers it."""

    def __init__(self) -> None:
        self.reference = ReferenceBackend()
        self.outer_seen: list[Outer | None] = []

    def run(self, node: onnx.NodeProto, inputs: list[Any], opset_imports: dict[str, int] | None = None,
            outer: Outer | None = None) -> list[Any]:
        self.outer_seen.append(outer)
        return self.reference.run(node, inputs, opset_imports, outer)


class ModelLevel:
    """A model-level backend: runs the one-node model it is given with the model runner."""

    def run(self, model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[Any]:
        from conformance.models import run_model

        return list(run_model(model, feeds).values())


def _a_case_reading_outer_values() -> Case:
    found: list[Case] = []

    @settings(max_examples=50, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(_cases("ai.onnx", "If", 16, "bool"))
    def pick(case: Case) -> None:
        if case.outer and not found:
            found.append(case)

    pick()
    assert found, "no If case read an outer value in 50 draws"
    return found[0]


def test_both_kinds_of_backend_get_the_outer_values() -> None:
    case = _a_case_reading_outer_values()
    expected = expected_outputs(case)
    assert expected is not None
    call = make_call(case, [x.dtype.name for x in expected], [list(x.shape) for x in expected])
    node_level = NodeLevel()
    for target in (node_level, ModelLevel()):
        got = Backend(target, "test").run(call)
        assert not output_problems(case, got, expected)
    outer, *body_nodes = node_level.outer_seen  # the If node, then the nodes of its branch, through the same backend
    assert outer is not None and set(case.outer) <= set(outer.values) and outer.executor is node_level
    assert body_nodes and all(o is None for o in body_nodes)


def test_a_bundle_keeps_the_graphs_and_the_outer_values(tmp_path: Path) -> None:
    case = _a_case_reading_outer_values()
    expected = expected_outputs(case)
    bundle, _ = write_bundle(case, expected, CheckSettings(spec="reference", repro_dir=tmp_path), "testing")
    again, stored, _ = load_bundle(bundle)
    assert again.node_attributes["then_branch"] == case.node_attributes["then_branch"]
    assert again.node_attributes["else_branch"] == case.node_attributes["else_branch"]
    assert sorted(again.outer) == sorted(case.outer)
    for name, value in case.outer.items():
        np.testing.assert_array_equal(again.outer[name], value)
    assert stored is not None and expected is not None
    for got, want in zip(expected_outputs(again) or [], stored, strict=True):
        np.testing.assert_array_equal(got, want)
