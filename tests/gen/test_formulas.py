"""The generated formula functions (`gen formulas`, `opset/formula/generated/`): current, used only where fresh,
and equal to the walked evaluator (the oracle) on environments Hypothesis draws for every formula of every op
version: the same values, the same errors with the same messages."""

from __future__ import annotations

import copy
import dataclasses
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gen.formulas import generator
from opset.formula import Formula, FormulaError, Sym, Undecided
from opset.formula.emitted import evaluation
from opset.formula.evaluator import evaluate_tree
from opset.formula.graph_value import TYPES_KEY
from opset.formula.nodes import INPUT_FORMS, Node
from opset.generated_formulas import attach, generated_functions, inference_formulas
from opset.load import load_registry
from opset.model import OpVersion

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "opset" / "formula" / "generated"


def _run_check(out: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = generator.main(["--check", "--out", str(out)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_generated_formulas_are_current(capsys: pytest.CaptureFixture[str]) -> None:
    code, output = _run_check(GENERATED, capsys)
    if code != 0:
        pytest.fail(f"opset/formula/generated is stale; regenerate it with `gen formulas`.\n{output}")


def test_check_lists_stale_files_and_the_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "generated"
    shutil.copytree(GENERATED, out, ignore=shutil.ignore_patterns("__pycache__"))
    changed = out / "ai_onnx" / "Conv.py"
    changed.write_text(changed.read_text(encoding="utf-8") + "# edited by hand\n", encoding="utf-8")
    (out / "ai_onnx" / "Relu.py").unlink()
    code, output = _run_check(out, capsys)
    assert code == 1
    assert "ai_onnx/Conv.py (out of date)" in output and "ai_onnx/Relu.py (missing)" in output
    assert f"fix with: gen formulas --out {out}" in output


def _versions() -> list[OpVersion]:
    return list(load_registry().all_versions())


def test_every_version_has_fresh_functions_for_nearly_every_formula() -> None:
    versions = _versions()
    total = emitted = 0
    for version in versions:
        found = generated_functions(version)
        assert found is not None, f"{version.signature}: no fresh generated functions"
        functions = found[0]
        total += len(functions)
        emitted += sum(f is not None for f in functions)
    assert emitted >= 0.99 * total, (emitted, total)


def test_an_edited_version_falls_back_instead_of_running_a_stale_function() -> None:
    version = load_registry().resolve("ai.onnx", "Conv", 11)
    assert generated_functions(version) is not None
    output = version.outputs[0]
    assert output.formula is not None
    edited_output = dataclasses.replace(output, formula=Formula(output.formula.text + " + [1]"))
    edited = dataclasses.replace(version, outputs=(edited_output, *version.outputs[1:]))
    assert generated_functions(edited) is None
    assert attach(edited) is False
    moved = dataclasses.replace(version, since=version.since + 1000)  # no entry for such a version
    assert generated_functions(moved) is None


def test_the_facts_a_module_states_are_the_parsed_ones() -> None:
    """Validation learns a formula's free names and calls from its generated module (no parse): for every formula
    of every version they are what parsing its text gives, and an attached formula answers with them unparsed."""
    for version in _versions():
        found = generated_functions(version)
        assert found is not None
        for formula, (names, calls) in zip(inference_formulas(version), found[1], strict=True):
            parsed = Formula(formula.text)
            assert (frozenset(names), frozenset(calls)) == (parsed.names, parsed.calls), formula.text
    version = load_registry().resolve("ai.onnx", "Reshape", 14)  # decoded afresh: its formulas unparsed
    assert attach(version)
    stated = next(f for f in inference_formulas(version) if "value" in f.calls)
    assert stated._facts is None  # answered from the module, not parsed
    assert stated.uses_value and stated.names == Formula(stated.text).names


# ---- the oracle: generated function == walked evaluator ----------------------------------------------------------

TYPES = ["tensor(float)", "tensor(int64)", "tensor(uint8)", "seq(tensor(float))", "optional(tensor(int8))", None]
STRINGS = ["NOTSET", "SAME_UPPER", "VALID", "constant", "float", "", "tensor(float)"]
SCALARS = st.one_of(st.integers(-3, 12), st.integers(-(2**70), 2**70), st.none(), st.sampled_from(STRINGS),
                    st.floats(-4, 4, allow_nan=False), st.booleans(), st.sampled_from([Sym("N"), Sym("batch")]))
VALUES = st.one_of(
    SCALARS,
    st.lists(st.integers(-2, 12), max_size=6),
    st.lists(st.one_of(st.integers(0, 8), st.sampled_from([Sym("N"), Sym("M")])), max_size=5),
    st.lists(st.lists(st.integers(0, 6), max_size=4), max_size=3),
    st.lists(st.one_of(st.none(), st.lists(st.integers(1, 6), max_size=4)), max_size=3),
)


def _input_names(tree: Node | Any) -> set[str]:
    from opset.formula.nodes import Call, Name, child_nodes

    found = set()
    if isinstance(tree, Call) and tree.function in INPUT_FORMS and tree.args and isinstance(tree.args[0], Name):
        found.add(tree.args[0].id)
    for child in child_nodes(tree):
        found |= _input_names(child)
    return found


def _outcome(run: Any) -> tuple[str, str]:
    try:
        result = run()
    except (FormulaError, Undecided) as error:
        return type(error).__name__, error.message
    return type(result).__name__, repr(result)


def _cases() -> list[tuple[Formula, Any]]:
    """Each distinct formula of the registry once, with its generated function."""
    seen: dict[Node, tuple[Formula, Any]] = {}
    for version in _versions():
        found = generated_functions(version)
        assert found is not None
        for formula, function in zip(inference_formulas(version), found[0], strict=True):
            if function is not None and formula.tree not in seen:
                seen[formula.tree] = (formula, function)
    return list(seen.values())


CASES = _cases()


def _check_agree(formula: Formula, function: Any, data: st.DataObject) -> None:
    names = sorted(formula.names)
    env: dict[str, Any] = {name: data.draw(VALUES, label=name) for name in names if data.draw(st.integers(0, 9)) > 0}
    inputs = sorted(_input_names(formula.tree))
    if inputs:
        env[TYPES_KEY] = {name: data.draw(st.sampled_from(TYPES)) for name in inputs}
        for name in inputs:
            env.setdefault(name, data.draw(VALUES))
    values = {name: data.draw(st.lists(st.integers(-3, 9), max_size=5)) for name in inputs
              if data.draw(st.booleans())} if inputs else None
    walked = _outcome(lambda: evaluate_tree(formula.tree, copy.deepcopy(env), copy.deepcopy(values)))
    generated = _outcome(lambda: evaluation(function)(copy.deepcopy(env), copy.deepcopy(values)))
    assert generated == walked, (formula.text, env, values)


CHUNK = 25
CHUNKS = range(0, len(CASES), CHUNK)
_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]


@pytest.mark.parametrize("start", CHUNKS)
@settings(max_examples=4, deadline=None, derandomize=True, suppress_health_check=_HEALTH)
@given(data=st.data())
def test_generated_functions_agree_with_the_walker(start: int, data: st.DataObject) -> None:
    for formula, function in CASES[start:start + CHUNK]:
        _check_agree(formula, function, data)


@pytest.mark.slow
@pytest.mark.parametrize("start", CHUNKS)
@settings(max_examples=60, deadline=None, suppress_health_check=_HEALTH)
@given(data=st.data())
def test_generated_functions_agree_with_the_walker_at_length(start: int, data: st.DataObject) -> None:
    for formula, function in CASES[start:start + CHUNK]:
        _check_agree(formula, function, data)


# ---- the emitter's short paths, each against the walker on the values that take it and on those that do not ------

SHORT_PATHS = ["floor(a / b)", "ceil(a / b)", "floor(a / 3)", "ceil(-7 / b)", "floor(a / 0)", "a / b", "a // b",
               "a % b", "a + b", "a * b", "a - b", "a in ('x', 'y')", "a not in [1, 2, 3]", "a < b", "a == 'x'",
               "[a, b][1]", "(a, b)[a]", "[x for x in [a, b] if x]", "all(x > 0 for x in [a, b])",
               "any(x in ('y',) for x in [a, 'y'])", "a if b else 3",
               # a name read again where its first read surely ran (a local), or may not have (read again)
               "a + a if b else a * b", "[a for x in [1, 2] if b] + [a, b]", "(b or a) and a + b", "[a, a][b]",
               "all(a < x for x in [b, a]) or b == a"]
SHORT_VALUES = [0, 1, -7, 3, 2**256, -(2**256), 2**257, 2.5, "x", "y", None, True, [1, 2], Sym("N")]


@pytest.mark.parametrize("text", SHORT_PATHS)
def test_short_paths_agree_with_the_walker(text: str) -> None:
    import opset.formula.emitted as emitted
    from gen.formulas.emit import function_source
    from opset.formula import parse

    tree = parse(text).tree
    namespace: dict[str, Any] = {name: getattr(emitted, name) for name in emitted.VOCABULARY}
    exec(compile(function_source("_f0", tree), "<generated formula>", "exec"), namespace)
    for a in SHORT_VALUES:
        for b in SHORT_VALUES:
            env = {"a": a, "b": b}
            walked = _outcome(lambda env=env: evaluate_tree(tree, dict(env), None))
            generated = _outcome(lambda env=env: evaluation(namespace["_f0"])(dict(env), None))
            assert generated == walked, (text, env)
