"""Drawing from domains (conformance/strategies/domains.py, builder.py, schedule.py): each key draws what
docs/format.md says, valid cases are built rather than filtered, and each thing is drawn after what it reads."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.strategies import domains as dom
from conformance.strategies.builder import Builder
from conformance.strategies.cases import _bind_types, draw_once
from conformance.strategies.context import DrawContext
from conformance.strategies.hint_table import hint_for
from conformance.strategies.plan import plan_for
from conformance.strategies.schedule import schedule_for
from opset.formula import Formula
from opset.model import OpVersion, ValueDomain
from tests.helpers import registry

SETTINGS = settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))


def formula(text: str) -> Formula:
    return Formula.from_tree(Formula.checked(text).tree)


def test_indices_stay_inside_their_dims_negative_ones_included() -> None:
    rng = np.random.default_rng(0)
    idx = dom.in_bounds(rng, [200], 3, negative=True)
    assert idx.min() >= -3 and idx.max() <= 2 and (idx < 0).any() and (idx >= 0).any()
    tuples = dom.in_bounds(rng, [50, 2], [2, 5], negative=False)  # one size per entry of the last axis
    assert tuples[:, 0].max() <= 1 and tuples[:, 1].max() <= 4 and tuples.min() >= 0
    with pytest.raises(dom.Undrawable):
        dom.in_bounds(rng, [2], 0, negative=True)


@SETTINGS
@given(st.data())
def test_axes_are_distinct_inside_the_rank_and_as_many_as_count_says(data: st.DataObject) -> None:
    domain = ValueDomain(axes=formula("r"), count=(formula("0"), formula("r")))
    axes = dom.draw_axes(data.draw, domain, {"r": 4}, None)
    assert len({a % 4 for a in axes}) == len(axes) <= 4 and all(-4 <= a < 4 for a in axes)
    positive = ValueDomain(axes=formula("3"), negative=False)
    chosen = dom.draw_axes(data.draw, positive, {}, None)
    assert 1 <= len(chosen) <= 3 and all(0 <= a < 3 for a in chosen) and chosen == sorted(chosen)


@SETTINGS
@given(st.data(), st.integers(0, 9), st.integers(1, 4))
def test_parts_add_up(data: st.DataObject, total: int, count: int) -> None:
    parts = dom.parts(data.draw, total, count)
    assert len(parts) == count and sum(parts) == total and min(parts) >= 0


def test_excluded_values_are_never_drawn_and_unique_values_never_repeat() -> None:
    rng = np.random.default_rng(1)
    b = dom.from_candidates(rng, "int8", [400], -4, 4, (0,), unique=False)
    assert 0 not in b and b.min() == -4 and b.max() == 4
    u = dom.from_candidates(rng, "float", [9], -1, 1, (), unique=True)
    assert len(set(u.tolist())) == 9  # every quarter step of [-1, 1] once
    with pytest.raises(dom.Undrawable):
        dom.from_candidates(rng, "int8", [3], 0, 1, (), unique=True)


def test_a_step_puts_values_on_its_grid_and_per_element_unique_values_differ() -> None:
    rng = np.random.default_rng(4)
    halves = dom.from_candidates(rng, "float", [300], -0.5, 2, (), unique=False, step=0.5)
    assert set(halves.tolist()) == {-0.5, 0.0, 0.5, 1.0, 1.5, 2.0}  # every multiple of 0.5, no quarter
    with pytest.raises(dom.Undrawable):
        dom.from_candidates(rng, "float", [2], 0, 1, (), unique=False, step=0.0)

    @SETTINGS
    @given(st.data())
    def check(data: st.DataObject) -> None:  # MaxUnpool's indices: each inside its plane, none twice
        domain = ValueDomain(range=(formula("4 * (i // 3)"), formula("4 * (i // 3) + 3")), unique=formula("True"))
        flat = dom.per_element(data.draw, domain, {}, None, "int64", [2, 3]).ravel().tolist()
        assert len(set(flat)) == 6 and all(4 * (i // 3) <= v <= 4 * (i // 3) + 3 for i, v in enumerate(flat))

    check()


def test_fills_reach_what_they_name() -> None:
    full = dom.filled(3, "full", "int32", [500], -4, 4)
    assert np.abs(full.astype(np.int64)).max() > 2**24  # high bits take part
    ends = dom.filled(3, "ends", "int8", [500], -4, 4)
    assert {-128, 127} <= set(ends.tolist()) and (np.abs(ends) <= 4).any()
    specials = dom.filled(3, "specials", "float", [500], -4, 4)
    assert np.isnan(specials).any() and np.isinf(specials).any()
    assert (dom.filled(3, "full", "float", [50], -4, 4) <= 4).all()  # `full` concerns integers only


def test_probability_rows_add_up_to_one_and_repeats_repeat() -> None:
    rows = dom.probability_rows(np.random.default_rng(2), "float", [6, 5])
    assert np.allclose(rows.sum(axis=-1), 1) and (rows >= 0).all() and (rows == 0).any()

    @SETTINGS
    @given(st.data())
    def check(data: st.DataObject) -> None:
        x = dom.repeated_slices(data.draw, "float", [2, 7, 3], 1)
        assert len({x[:, j].tobytes() for j in range(7)}) <= 3  # at most 3 distinct slices along axis 1

    check()


def test_integer_and_float_keys_apply_by_element_type() -> None:
    domain = ValueDomain(range=(formula("-4"), formula("4")), integers=ValueDomain(exclude=(0,)))
    assert dom.for_element(domain, "int32").exclude == (0,)
    assert dom.for_element(domain, "int32").range == domain.range
    assert dom.for_element(domain, "float").exclude == ()


def _with_domains() -> list[tuple[str, str, int, str]]:
    """One cell of every version that states domains (and that the reference computes)."""
    from opset.cells import allowed_cells, drawable_cell, primary_param

    found = []
    for op in registry():
        if op.no_reference_kernel:
            continue
        for v in op.versions:
            stated = v.dims or any(p.domain for p in [*v.inputs, *v.outputs]) or any(
                a.domain for a in v.attributes.values())
            primary = primary_param(v)
            if not stated or primary is None or registry().try_resolve(v.domain, v.name, v.since) is None:
                continue
            cells = [c for c in allowed_cells(v, primary.type) if drawable_cell(c)]
            found += [(v.domain, v.name, v.since, cells[0])] if cells else []
    return found


BUILT = settings(max_examples=8, deadline=None, database=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize(("domain", "op", "since", "dtype"), _with_domains())
def test_domains_build_valid_cases_instead_of_filtering(domain: str, op: str, since: int, dtype: str) -> None:
    """Every draw of a version with domains is a valid case but rarely: the domains build what the constraints and
    shape formulas accept (a draw they refuse, or one a domain cannot complete, is the exception, never the way; a
    domain that cannot be drawn from half the time silently halves what a cell tests)."""
    version = registry().resolve(domain, op, since)
    outcomes: list[bool] = []

    @BUILT
    @given(st.data())
    def draw_one(data: st.DataObject) -> None:
        case = draw_once(data.draw, version, dtype)
        outcomes.append(case is not None)

    draw_one()
    refused = outcomes.count(False)
    assert refused <= 1, f"{version.signature}[{dtype}]: {refused} of {len(outcomes)} draws refused"


def test_a_dim_the_hint_shapes_is_not_redrawn_by_a_construction_rule() -> None:
    """VarlenCausalConvWithState's hint sets SL through initial_state's shape ((K - 1) * dilation, after it drew
    dilation itself); the construction rule `SL == (K - 1) * dilation` would derive SL again from the attribute before
    the hint's value is in place (12 of 30 draws refused without the rule that keeps it). The hint's dim stands."""
    version = registry().resolve("com.microsoft", "VarlenCausalConvWithState", 1)
    outcomes: list[bool] = []

    @settings(max_examples=30, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def draw_one(data: st.DataObject) -> None:
        case = draw_once(data.draw, version, "float")
        outcomes.append(case is not None)

    draw_one()
    assert outcomes.count(False) <= 1, outcomes


def test_each_item_is_drawn_after_what_its_domain_reads() -> None:
    """Conv: kernel_shape's value reads K, K's range reads S, pads read K and auto_pad, M is a multiple of group."""
    version = registry().resolve("ai.onnx", "Conv", 11)
    schedule = schedule_for(version, plan_for(version), hint_shapes=False)
    deps = schedule.deps
    assert ("dim", "K") in deps[("attr", "kernel_shape")]
    assert ("dim", "S") in deps[("dim", "K")]
    assert {("dim", "K"), ("attr", "auto_pad")} <= set(deps[("attr", "pads")])
    assert ("attr", "group") in deps[("dim", "M")] and ("attr", "group") in deps[("dim", "C")]
    drawn: list[tuple[str, str]] = []

    @settings(max_examples=5, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def run(data: st.DataObject) -> None:
        ctx = DrawContext(version, "float", _bind_types(data.draw, version, "float"), 5)
        builder = Builder(data.draw, ctx, plan_for(version), schedule, hint_for(version), 4)
        original = builder.ensure

        def record(item: tuple[str, str]) -> None:
            before = item in builder.done
            original(item)
            if not before:
                drawn.append(item)

        builder.ensure = record  # type: ignore[method-assign]
        try:
            builder.run()
        except dom.Undrawable:
            return
        for item, needs in deps.items():
            if item in drawn:
                assert all(drawn.index(n) < drawn.index(item) for n in needs if n in drawn), item
        drawn.clear()

    run()


def _with_zero_point_types(types: tuple[str, ...]) -> OpVersion:
    """MatMulNBits with its zero points' domain saying only `types`."""
    from dataclasses import replace

    version = registry().resolve("com.microsoft", "MatMulNBits", 1)
    zero_points = next(p for p in version.inputs if p.name == "zero_points")
    changed = replace(zero_points, domain=ValueDomain(types=types))
    return replace(version, inputs=tuple(changed if p is zero_points else p for p in version.inputs))


def test_types_draws_the_type_variable_among_the_listed_types() -> None:
    """`types: [uint8, T1]` on MatMulNBits' zero points: packed uint8 bytes or A's own type, both drawn in a float16
    cell, never another float type (without the key T3 stays at the cell's float16)."""
    version = _with_zero_point_types(("uint8", "T1"))
    seen: set[str] = set()

    @SETTINGS
    @given(st.data())
    def bind(data: st.DataObject) -> None:
        seen.add(_bind_types(data.draw, version, "float16")["T3"])

    bind()
    assert seen == {"uint8", "float16"}


def test_lint_reports_a_types_entry_the_variable_does_not_allow() -> None:
    """`opset lint`: an element type the input's variable does not allow is reported; another type variable is not."""
    from opset.domain_checks import check_domains

    found: list[str] = []
    check_domains(_with_zero_point_types(("int8", "T1")), lambda where, op, message: found.append(message),
                  lambda *args: None, frozenset())
    assert any("'int8'" in m for m in found) and not any("'T1'" in m for m in found), found


SCHEDULE_PROBE = """
from conformance.registry import current_registry
from conformance.strategies.plan import plan_for
from conformance.strategies.schedule import schedule_for
for domain, op in (("com.microsoft", "FusedConv"), ("com.microsoft.nchwc", "Conv")):
    version = current_registry().resolve(domain, op, 1)
    print(sorted(schedule_for(version, plan_for(version), hint_shapes=False).deps.items()))
"""


def test_a_schedule_is_the_same_in_every_process() -> None:
    """The order of a draw follows the schedule's dependencies: they must not follow the string hash, which Python
    seeds anew in each process (the same --seed drew other cases in another process: conform export differed)."""
    import os
    import subprocess
    import sys

    outputs = {subprocess.run([sys.executable, "-c", SCHEDULE_PROBE], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2", "3", "4")}
    assert len(outputs) == 1


def test_a_variadic_input_s_domain_reads_the_value_s_position() -> None:
    """`k` in the domain of a variadic input is the position of the value drawn: each value of IsAllFinite's input
    filled with its own position (without `k` every draw is undrawable)."""
    from dataclasses import replace

    version = registry().resolve("com.microsoft", "IsAllFinite", 1)
    changed = replace(version.inputs[0], domain=ValueDomain(one_of=(formula("k + 0 * i"),)))
    version = replace(version, inputs=(changed,))
    seen: list[list[float]] = []

    @SETTINGS
    @given(st.data())
    def draw_one(data: st.DataObject) -> None:
        case = draw_once(data.draw, version, "float")
        if case is not None:
            seen.append([float(np.unique(x)[0]) if x.size else float(k) for k, x in enumerate(case.inputs)])

    draw_one()
    assert seen and all(values == [float(k) for k in range(len(values))] for values in seen)
    assert max(len(values) for values in seen) > 1


# docs/format.md, "Domains": only what is procedural by nature keeps a Python hint (issue 28's budget)
HINT_OPS_AT_MOST = 60
HINT_LINES_BELOW = 2500


def test_the_hints_stay_within_their_budget() -> None:
    from pathlib import Path

    from conformance.strategies.hint_table import HINTS

    files = sorted((Path(__file__).resolve().parents[2] / "conformance" / "strategies").glob("hint*.py"))
    lines = sum(len(f.read_text(encoding="utf-8").splitlines()) for f in files)
    assert len(HINTS) <= HINT_OPS_AT_MOST, f"{len(HINTS)} ops draw through a Python hint: move one into its YAML"
    assert lines < HINT_LINES_BELOW, f"the hint files have {lines} lines: move a draw into the YAML's domains"


def test_the_ops_with_a_hint_are_the_ones_whose_yaml_says_why() -> None:
    from conformance.registry import current_registry
    from conformance.strategies.hint_table import HINTS

    said = {(op.domain, op.name) for op in current_registry() if op.drawn_by_hint}
    assert sorted(set(HINTS) - said) == [], "a hinted op needs `drawn_by_hint` in its YAML (docs/format.md)"
    assert sorted(said - set(HINTS)) == [], "`drawn_by_hint` on an op that draws from its YAML: remove the key"


def test_the_fills_are_the_meta_schemas_and_each_reads_on_the_op_pages() -> None:
    """One list of fills (opset.model.FILLS): the meta-schema's enum, what `fill_of` may give, what the pages say."""
    import json
    from pathlib import Path

    from gen.docs.domain_text import FILL_TEXT
    from opset.model import FILLS

    meta = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "meta" / "op.schema.json").read_text())

    def enums(node: object) -> list[list[str]]:
        if isinstance(node, dict):
            found = [node["fill"]["enum"]] if isinstance(node.get("fill"), dict) and "enum" in node["fill"] else []
            return found + [e for value in node.values() for e in enums(value)]
        return [e for value in node for e in enums(value)] if isinstance(node, list) else []

    assert enums(meta) and all(tuple(e) == FILLS for e in enums(meta))
    assert set(FILL_TEXT) == set(FILLS) - {"small"}


def test_hits_that_give_no_list_name_hits() -> None:
    base = np.zeros(4, dtype=np.int64)
    with pytest.raises(dom.Undrawable, match="hits gives 3"):
        dom.looked_up(np.random.default_rng(0), ValueDomain(hits=Formula.checked("3")), {}, None, "int64", base)
