"""conform's law test (`conformance.runner.random_laws`): the statistic and its bound, each law's test accepting right
draws and rejecting wrong ones (with the registry's arguments, per element where they differ), the rounding of narrow
float types, and the law case a drawn case grows into."""

from __future__ import annotations

import math
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from conformance.runner.core import LAW_ATTEMPTS, draw_law_case
from conformance.runner.random_laws import (
    ALPHA,
    LAW_DRAWS,
    LAW_SEED,
    cdf_gap,
    continuous_gap,
    discrete_gap,
    dkw_epsilon,
    law_case,
    law_test,
    normal_cdf,
    telling,
    uniform_cdf,
)
from conformance.runner.random_outputs import RandomCall, random_call
from conformance.strategies.attributes import node_values
from conformance.strategies.case import Case
from conformance.strategies.cases import op_cases
from opset.cells import cell_dtypes
from opset.infer import infer_shapes, resolve_attributes
from tests.helpers import registry, version

RNG = np.random.default_rng(20240612)
N = LAW_DRAWS


def call_of(op: str, since: int, inputs: list[np.ndarray | None], given: dict[str, Any]) -> RandomCall:
    v = version("ai.onnx", op, since)
    shapes = [list(x.shape) if x is not None else None for x in inputs]
    call = random_call(v, inputs, node_values(resolve_attributes(v, given, shapes)))
    assert call is not None, f"{v.signature}: not random here"
    return call


# ---- the statistic ---------------------------------------------------------------------------------------------------

def brute_force_ks(u: np.ndarray) -> float:
    """sup_t |G_n(t) - t| by evaluating just before and at every sample point."""
    n = u.size
    gaps = [max(abs(np.sum(u <= t) / n - t), abs(np.sum(u < t) / n - t)) for t in u]
    return float(max(gaps))


def test_the_gap_of_exact_values_is_the_kolmogorov_smirnov_distance() -> None:
    for n in (1, 7, 50):
        u = RNG.random(n) ** 2  # not uniform: a sizeable distance
        assert cdf_gap(u, u) == pytest.approx(brute_force_ks(u), abs=1e-12)


def test_intervals_bound_the_gap_of_every_sample_within_them() -> None:
    for _ in range(50):
        lo = RNG.random(40) * 0.9
        hi = lo + RNG.random(40) * 0.1
        inside = lo + RNG.random(40) * (hi - lo)
        assert cdf_gap(lo, hi) <= cdf_gap(inside, inside) + 1e-12


def test_the_bound_is_the_dkw_epsilon() -> None:
    assert dkw_epsilon(N) == pytest.approx(math.sqrt(math.log(2 / ALPHA) / (2 * N)))
    assert dkw_epsilon(N) == pytest.approx(0.019045, abs=1e-6)
    with pytest.raises(ValueError, match="alpha"):
        dkw_epsilon(10, alpha=0.0)


def test_the_false_alarm_rate_holds_for_laws_that_differ_per_element() -> None:
    """At alpha = 0.05, correct samples of 200 Bernoulli draws with a different p each (and 200 categorical draws
    with a different row each) are rejected in at most 5 % of 400 trials (DKW promises <= 5 %)."""
    alpha, n, trials = 0.05, 200, 400
    bound = dkw_epsilon(n, alpha)
    rejected = 0
    for _ in range(trials):
        p = RNG.random(n)
        rejected += discrete_gap((RNG.random(n) < p).astype(int), np.stack([1 - p, p], axis=-1)) > bound
        rows = RNG.dirichlet(np.ones(4), size=n)
        drawn = (RNG.random((n, 1)) > np.cumsum(rows, axis=1)).sum(axis=1)
        rejected += discrete_gap(np.minimum(drawn, 3), rows) > bound
    assert rejected <= alpha * 2 * trials, f"{rejected} false alarms in {2 * trials} tests at alpha {alpha}"


def test_narrow_types_are_tested_with_their_rounding() -> None:
    """Draws rounded to float16 and bfloat16 follow the law as the type holds it, even where the type's steps are
    coarse against the law (uniform on [1000, 1000.5] in float16: steps of 0.5); a wrong scale is still seen."""
    bound = dkw_epsilon(N)
    assert continuous_gap(RNG.uniform(1000, 1000.5, N).astype(np.float16), uniform_cdf(1000, 1000.5)) <= bound
    assert continuous_gap(RNG.uniform(0.1, 0.6, N).astype(np.float16), uniform_cdf(0.1, 0.6)) <= bound
    assert continuous_gap(RNG.normal(1.5, 2, N).astype(ml_dtypes.bfloat16), normal_cdf(1.5, 2)) <= bound
    assert continuous_gap(RNG.normal(1.5, 2.4, N).astype(ml_dtypes.bfloat16), normal_cdf(1.5, 2)) > bound
    assert continuous_gap(np.full(10, np.inf, np.float16), normal_cdf(0, 1)) == 1.0  # beyond the type: the tail
    assert continuous_gap(np.full(10, np.nan, np.float32), normal_cdf(0, 1)) == 1.0  # no law here draws NaN


# ---- each law, with the registry's arguments ---------------------------------------------------------------------

P = np.resize(np.array([0.25, 0.5, 0.75, 0.0, 1.0, 0.1]), N)
LOGITS = np.array([[0.0, 1.0, -np.inf, 2.0], [3.0, 3.0, 3.0, 3.0], [-np.inf, 0.0, -np.inf, -np.inf]], np.float32)
DATA = np.resize(np.array([1.0, -2.0, 0.0, 0.5], np.float32), N)


def categorical(probabilities: np.ndarray, size: int) -> np.ndarray:
    return np.stack([RNG.choice(len(row), size, p=row / row.sum()) for row in probabilities]).astype(np.int64)


def softmax_rows(logits: np.ndarray) -> np.ndarray:
    w = np.exp(logits.astype(np.float64) - logits.max(axis=1, keepdims=True))
    return np.asarray(w / w.sum(axis=1, keepdims=True))


def dropout_outputs(ratio: float, keep: float, mask: bool) -> dict[str, np.ndarray]:
    kept = RNG.random(N) < keep
    out = {"output": np.where(kept, DATA / (1 - ratio), 0).astype(np.float32)}
    return out | ({"mask": kept} if mask else {})


LAW_CASES = [  # (id, call, right draws, wrong draws)
    ("normal", lambda: call_of("RandomNormal", 22, [], {"shape": [N], "mean": 1.5, "scale": 2.0}),
     lambda: {"output": RNG.normal(1.5, 2.0, N).astype(np.float32)},
     lambda: {"output": RNG.normal(1.5, 2.4, N).astype(np.float32)}),
    ("normal-mean-ignored", lambda: call_of("RandomNormalLike", 22, [np.zeros(N, np.float32)],
                                            {"mean": -0.25, "scale": 0.5}),
     lambda: {"output": RNG.normal(-0.25, 0.5, N).astype(np.float32)},
     lambda: {"output": RNG.normal(0.0, 0.5, N).astype(np.float32)}),
    ("uniform", lambda: call_of("RandomUniform", 22, [], {"shape": [N], "low": -1.0, "high": 3.0}),
     lambda: {"output": RNG.uniform(-1, 3, N).astype(np.float32)},
     lambda: {"output": RNG.uniform(-1, 3.4, N).clip(-1, 3).astype(np.float32)}),
    ("bernoulli-complement", lambda: call_of("Bernoulli", 15, [P], {}),
     lambda: {"output": (RNG.random(N) < P).astype(np.float32)},
     lambda: {"output": np.where((P == 0) | (P == 1), P, RNG.random(N) < 1 - P).astype(np.float32)}),
    ("bernoulli-p-plus-0.05", lambda: call_of("Bernoulli", 22, [P], {"dtype": 9}),
     lambda: {"output": RNG.random(N) < P},
     lambda: {"output": RNG.random(N) < np.where((P > 0) & (P < 1), P + 0.05, P)}),
    ("multinomial", lambda: call_of("Multinomial", 7, [LOGITS], {"sample_size": N // 3}),
     lambda: {"output": categorical(softmax_rows(LOGITS), N // 3).astype(np.int32)},
     lambda: {"output": categorical(softmax_rows(LOGITS * 0.8), N // 3).astype(np.int32)}),
    ("dropout-mask", lambda: call_of("Dropout", 13, [DATA, np.array(0.25, np.float32), np.array(True)], {}),
     lambda: dropout_outputs(0.25, 0.75, mask=True),
     lambda: dropout_outputs(0.25, 0.7, mask=True)),
    ("dropout-output-only", lambda: call_of("Dropout", 1, [DATA], {"ratio": 0.25, "is_test": 0}),
     lambda: dropout_outputs(0.25, 0.75, mask=False),
     lambda: dropout_outputs(0.25, 0.5, mask=False)),
]


@pytest.mark.parametrize(("call", "right", "wrong"), [pytest.param(*c[1:], id=c[0]) for c in LAW_CASES])
def test_each_law_accepts_right_draws_and_rejects_wrong_ones(call: Any, right: Any, wrong: Any) -> None:
    c = call()
    accepted, rejected = law_test(c, right()), law_test(c, wrong())
    assert accepted is not None and rejected is not None
    assert not accepted.rejected, accepted.describe()
    assert rejected.rejected, rejected.describe()
    assert rejected.describe().startswith(f"law test rejects the draws of '{rejected.output}' as {c.spec.law}(")
    assert f"> bound {rejected.bound:.4f}" in rejected.describe() and "false-alarm rate 1e-06" in rejected.describe()
    report = rejected.as_report()
    assert report["rejected"] is True and report["alpha"] == ALPHA and report["draws"] == rejected.draws


def test_certain_elements_are_left_out_and_a_certain_law_is_not_tested() -> None:
    result = law_test(call_of("Bernoulli", 15, [P], {}), {"output": (RNG.random(N) < P).astype(np.float32)})
    assert result is not None and result.draws == int(((P > 0) & (P < 1)).sum())
    multinomial = law_test(call_of("Multinomial", 7, [LOGITS], {"sample_size": 10}),
                           {"output": np.zeros((3, 10), np.int32)})
    assert multinomial is not None and multinomial.draws == 20  # the third row has one possible class
    certain = call_of("Bernoulli", 15, [np.array([0.0, 1.0])], {})
    assert law_test(certain, {"output": np.array([0.0, 1.0], np.float32)}) is None
    flat = call_of("RandomNormal", 1, [], {"shape": [3], "scale": 0.0})
    assert law_test(flat, {"output": np.zeros(3, np.float32)}) is None


# ---- the law case ------------------------------------------------------------------------------------------------
def small_case(op: str, since: int, dtype: str, bindings: dict[str, str], inputs: list[np.ndarray | None],
               given: dict[str, Any], outputs: int = 1) -> Case:
    v = version("ai.onnx", op, since)
    shapes = [list(x.shape) if x is not None else None for x in inputs]
    expected = infer_shapes(v, shapes, given, output_count=outputs).outputs
    return Case(version=v, dtype=dtype, type_bindings=bindings,
                attributes=node_values(resolve_attributes(v, given, shapes)), node_attributes=given, inputs=inputs,
                input_names=[p.name for p in v.inputs[:len(inputs)]],
                output_names=[p.name for p in v.outputs[:outputs]],
                expected_shapes=[list(s) for s in expected])


RANDOM_CELLS = sorted({(v.name, v.since, cell_dtypes(v)[0][0]) for op in registry().ops.values()
                       for v in op.versions if v.random is not None and v.domain == "ai.onnx"})


@pytest.mark.parametrize(("op", "since", "dtype"), RANDOM_CELLS)
@settings(max_examples=3, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_a_law_case_is_the_drawn_case_grown(op: str, since: int, dtype: str, data: st.DataObject) -> None:
    """The law case keeps the drawn attributes and argument values, grows the random output until the law test
    counts LAW_DRAWS draws at least (elements whose law is certain left out: p of 0 or 1, Dropout's zeros, a
    Multinomial row with one possible class) and seeds a seedable version; conform's strategies reach one for every
    random version (else Hypothesis finds the assumption unsatisfiable)."""
    from conformance.backends.resolve import resolve_backend
    from conformance.runner.checks import check_case
    from conformance.runner.settings import CheckSettings

    v = version("ai.onnx", op, since)
    assert v.random is not None
    case = data.draw(op_cases(v, dtype))
    grown = law_case(case)
    assume(grown is not None)
    assert grown is not None
    drawn = random_call(v, case.inputs, case.attributes)
    assert drawn is not None
    call = random_call(v, grown.inputs, grown.attributes)
    assert call is not None and call.scalars == drawn.scalars
    for name in v.random.outputs:
        if name in grown.output_names:
            shape = grown.expected_shapes[grown.output_names.index(name)]
            assert shape is not None and int(np.prod(shape)) >= LAW_DRAWS
    kept = {k: val for k, val in case.node_attributes.items() if k not in ("shape", "sample_size")}
    assert {k: grown.node_attributes[k] for k in kept} == kept
    if v.random.seed is not None:
        assert grown.node_attributes[v.random.seed] == case.node_attributes.get(v.random.seed, LAW_SEED)
    for argument, name in v.random.tensors.items():  # a tensor argument's values, repeated
        if name in call.inputs and call.inputs[name].size >= LAW_DRAWS:
            small = drawn.inputs[name].reshape(-1)
            np.testing.assert_array_equal(call.inputs[name][:small.size], small, err_msg=argument)
    checked = CheckSettings(spec="reference")
    check_case(grown, resolve_backend("reference"), checked, law=True)
    assert checked.stats.law_test is not None and checked.stats.law_test["draws"] >= LAW_DRAWS, checked.stats.law_test


@pytest.mark.parametrize(("op", "since", "given"), [
    ("RandomNormal", 22, {"shape": [4], "mean": 0.0, "scale": 1.0}),  # the standard arguments
    ("RandomNormal", 22, {"shape": [4], "mean": 2.0, "scale": 0.0}),  # no spread
    ("RandomUniform", 22, {"shape": [4], "low": 0.0, "high": 1.0}),
    ("RandomUniform", 22, {"shape": [4], "low": 2.0, "high": 2.0}),
])
def test_no_law_case_where_the_law_is_certain_or_standard(op: str, since: int, given: dict[str, Any]) -> None:
    assert law_case(small_case(op, since, "float", {"T": "float"}, [], given)) is None


@pytest.mark.parametrize(("module", "case"), [
    ("random_normal_scale_too_wide",
     lambda: small_case("RandomNormal", 22, "float", {"T": "float"}, [], {"shape": [3], "mean": 0.5, "scale": 2.0})),
    ("bernoulli_complements_p",
     lambda: small_case("Bernoulli", 15, "float", {"T1": "float", "T2": "float"},
                        [np.array([0.0, 0.25, 1.0, 0.6], np.float32)], {})),
])
def test_only_the_law_case_catches_a_backend_drawing_from_the_wrong_law(module: str, case: Any) -> None:
    """The committed wrong backends draw values of the right support (and the certain ones right): every check but the
    law test passes their law case; the law test fails it, and passes the reference's."""
    from conformance.backends.resolve import resolve_backend
    from conformance.runner.checks import ConformanceFailure, check_case
    from conformance.runner.settings import CheckSettings

    grown = law_case(case())
    assert grown is not None
    wrong, reference = resolve_backend(f"tests.conformance.wrong_backends.{module}"), resolve_backend("reference")
    check_case(grown, wrong, CheckSettings(spec=module))
    with pytest.raises(ConformanceFailure, match=r"\(law case\): law test rejects the draws of 'output'"):
        check_case(grown, wrong, CheckSettings(spec=module), law=True)
    passed = CheckSettings(spec="reference")
    check_case(grown, reference, passed, law=True)
    assert passed.stats.law_test is not None and not passed.stats.law_test["rejected"]
    assert passed.stats.examples == 1


# ---- reports -----------------------------------------------------------------------------------------------------

def test_the_report_carries_each_cells_law_test() -> None:
    from conformance.runner.report import RunReport, summarize
    from conformance.runner.results import CellResult, Outcome

    cell = ("ai.onnx", "Bernoulli", 15, "float")
    rejected = {"law": "bernoulli", "arguments": "p from 'input' in {0.25}", "output": "output", "draws": 20000,
                "statistic": 0.5, "bound": 0.019, "alpha": ALPHA, "rejected": True}
    record = CellResult.of(cell, [Outcome("properties", "xfail", "expected: complement"),
                                  Outcome("law case", "xpass", examples=1,
                                              law_test=rejected | {"rejected": False})], "complement")
    assert record.status == "xfail"  # the expected failure still shows in a test of the cell
    entry = record.as_json()
    assert entry["law_test"]["rejected"] is False and entry["examples"] == 1
    report = RunReport("x")
    report.add(record)
    report.add(CellResult.of(("ai.onnx", "Bernoulli", 22, "float"),
                             [Outcome("law case", "fail", "law test rejects", law_test=rejected)]))
    lines = summarize(report).splitlines()
    assert "law tests (DKW, false-alarm rate 1e-06 per cell): 2 cells tested, 1 rejected" in lines


LAW_VERSIONS = sorted({(v.domain, v.name, v.since) for op in registry().ops.values() for v in op.versions
                       if v.random is not None and cell_dtypes(v)[0]})


@pytest.mark.parametrize(("domain", "op", "since"), LAW_VERSIONS)
def test_a_law_test_never_fails_hypothesis_health_check(domain: str, op: str, since: int) -> None:
    """conform's law test draws one example under Hypothesis' default health checks, which fail the cell after 50
    rejected examples. The share t of drawn cases whose law is telling is measured here (Dropout's need training on,
    a ratio of 0.25 or 0.75 and non-zero data: about one in twelve); an example redraws up to LAW_ATTEMPTS times, so
    the cell fails with probability (1 - t) ** (LAW_ATTEMPTS * 50), which must stay below 1e-9. With one draw per
    example it was about 1e-2 per Dropout cell, and CI failed on Dropout[float8e4m3fnuz]."""
    v = version(domain, op, since)
    strategy = op_cases(v, cell_dtypes(v)[0][-1])
    telling: list[bool] = []

    @settings(max_examples=120, deadline=None, database=None, derandomize=True, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(case=strategy)
    def draw(case: Case) -> None:
        telling.append(law_case(case) is not None)

    draw()
    share = sum(telling) / len(telling)
    assert share > 0, f"{v.signature}: none of {len(telling)} drawn cases has a telling law"
    assert (1 - share) ** (LAW_ATTEMPTS * 50) < 1e-9, f"{v.signature}: telling share {share:.3f}"


def test_a_law_example_redraws_until_its_law_is_telling() -> None:
    v = version("ai.onnx", "Dropout", 22)
    strategy = op_cases(v, "float8e4m3fnuz")
    drawn: list[Case] = []

    @settings(max_examples=20, deadline=None, database=None, derandomize=True)
    @given(data=st.data())
    def one_example(data: st.DataObject) -> None:
        drawn.append(draw_law_case(strategy, data))

    one_example()
    assert len(drawn) == 20
    for case in drawn:  # each a grown law case whose law is telling: training on, ratio 0.25 or 0.75, data not all 0
        call = random_call(v, case.inputs, case.attributes)
        assert call is not None and telling(call) and case.inputs[0].size >= LAW_DRAWS
