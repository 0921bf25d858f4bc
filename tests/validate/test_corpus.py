"""Every broken model of the corpus gives its expected diagnostic; the clean ones give none."""

from __future__ import annotations

import pytest

from opset.validate import CHECKS, Diagnostic, validate_model
from tests.validate.corpus import CASES, CLEAN, Case


def _matches(d: Diagnostic, case: Case) -> bool:
    return d.check == case.check and d.severity == case.severity and all(w in d.message for w in case.words)


def test_corpus_is_large_and_distinct() -> None:
    assert len(CASES) >= 20
    assert len({c.name for c in CASES}) == len(CASES)
    assert len({c.check for c in CASES}) >= 15


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_broken_model(case: Case) -> None:
    diags = validate_model(case.build(), case.profile)
    found = [d for d in diags if _matches(d, case)]
    assert found, f"{case.name}: expected [{case.check}] with {case.words}, got:\n" + "\n".join(map(str, diags))
    if case.severity == "warning":
        assert not any(d.is_error for d in diags), "\n".join(map(str, diags))
    assert case.check in CHECKS or case.check.endswith(tuple(f"_c{k}" for k in range(1, 100)))


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_clean_model(name: str) -> None:
    build, profile = CLEAN[name]
    diags = validate_model(build(), profile)
    assert diags == [], "\n".join(map(str, diags))


def test_node_diagnostics_name_the_node_and_version() -> None:
    case = next(c for c in CASES if c.name == "fastgelu_three_inputs")
    (d,) = [d for d in validate_model(case.build()) if d.check == "arity"]
    assert (d.node_index, d.node_name, d.op) == (0, "fastgelu0", "com.microsoft@1::FastGelu")
    assert "node 0 'fastgelu0' (com.microsoft@1::FastGelu)" in str(d)


def test_subgraph_diagnostics_carry_the_graph_path() -> None:
    case = next(c for c in CASES if c.name == "subgraph_unknown_op")
    inner = [d for d in validate_model(case.build()) if "FooBar" in d.message]
    assert [d.graph for d in inner] == ["if0.then_branch"]


def test_symbolic_dims_flow_through() -> None:
    from opset.formula import Sym
    from opset.validate import check_model

    build, profile = CLEAN["symbolic_batch"]
    result = check_model(build(), profile)
    assert result.facts["Y"].shape == (Sym("N"), 3)
