"""Every op version whose outputs the registry calls random (its `random` key): the reference kernel's draws follow
the law the registry states, with the arguments it states; a seed fixes the draw; unseeded calls draw anew.

The statistical test is conform's law test (`conformance.runner.random_laws.law_test`, with the law and arguments of
the registry's key; `tests.helpers.random_draws.assert_follows` for a law given directly): DKW bound, each test's
false-alarm rate ALPHA = 1e-6 for any sample size; the draws use fixed seeds, so CI runs are deterministic. The last
tests show the same statistic rejecting draws of a slightly wrong law, so a passing law test means something.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from conformance.runner.random_laws import law_test, laws_with_a_test, normal_cdf, uniform_cdf
from conformance.runner.random_outputs import checked_laws, random_call
from conformance.strategies.attributes import node_values
from opset.infer import resolve_attributes
from opset.model import OpVersion
from opset.random_laws import LAWS
from tests.helpers import registry, run
from tests.helpers.random_draws import DRAWS, assert_follows, law_problems

RANDOM_VERSIONS = sorted((v for op in registry().ops.values() for v in op.versions if v.random is not None),
                         key=lambda v: (v.domain, v.name, v.since))


def _params() -> list[Any]:
    return [pytest.param(v, id=v.signature) for v in RANDOM_VERSIONS]


def telling_call(v: OpVersion, draws: int, seed: float | None) -> tuple[list[np.ndarray | None], dict[str, Any]]:
    """A call of `v` with `draws` random values and arguments away from the defaults (so a kernel ignoring one is
    caught), seeded by `seed` where the version has a seed attribute."""
    seeded = {} if seed is None or v.random is None or v.random.seed is None else \
        {v.random.seed: int(seed) if v.attributes[v.random.seed].type == "int" else seed}
    if v.name == "RandomNormal":
        return [], {"shape": [draws // 8, 8], "mean": 1.5, "scale": 2.0, **seeded}
    if v.name == "RandomNormalLike":
        return [np.zeros(draws, np.int32)], {"dtype": 11, "mean": -0.5, "scale": 0.25, **seeded}
    if v.name == "RandomUniform":
        return [], {"shape": [draws], "low": -1.0, "high": 3.0, "dtype": 11, **seeded}
    if v.name == "RandomUniformLike":
        return [np.zeros((draws // 4, 4), np.float32)], {"low": 0.5, "high": 0.75, **seeded}
    if v.name == "Bernoulli":
        return [np.full(draws, 0.3)], {"dtype": 7, **seeded}
    if v.name == "Multinomial":
        return [np.array([[0.0, 1.0, -np.inf, 2.0]], np.float32)], {"sample_size": draws, "dtype": 7, **seeded}
    if v.name == "Dropout":
        data = np.linspace(-3, 3, draws).astype(np.float32)
        if v.since < 7:
            return [data], {"ratio": 0.25, "is_test": 0}
        return [data, np.array(0.375, np.float32), np.array(True)], {**seeded}
    if v.name in ("BiasDropout", "BitmaskBiasDropout"):
        data = np.linspace(-3, 3, draws).astype(np.float32).reshape(-1, 8)
        bias, residual = np.linspace(0.5, 1.5, 8).astype(np.float32), np.full(data.shape, -0.25, np.float32)
        return [data, bias, residual, np.array(0.375, np.float32), np.array(True)], {**seeded}
    if v.name == "BitmaskDropout":
        return [np.linspace(-3, 3, draws).astype(np.float32), np.array(0.375, np.float32), np.array(True)], {**seeded}
    raise LookupError(f"{v.signature}: no telling call for this op yet; add one")


def _complete(v: OpVersion, inputs: list[np.ndarray | None], given: dict[str, Any]) -> dict[str, Any]:
    shapes = [list(x.shape) if x is not None else None for x in inputs]
    return node_values(resolve_attributes(v, given, shapes))


def test_every_law_has_its_conformance_check_and_law_test() -> None:
    assert checked_laws() == frozenset(LAWS)
    assert laws_with_a_test() == frozenset(LAWS)


def test_the_random_ops_are_all_covered() -> None:
    assert {v.name for v in RANDOM_VERSIONS} == {"RandomNormal", "RandomNormalLike", "RandomUniform",
                                                 "RandomUniformLike", "Bernoulli", "Multinomial", "Dropout",
                                                 "BiasDropout", "BitmaskBiasDropout", "BitmaskDropout"}


@pytest.mark.parametrize("v", _params())
def test_kernel_draws_follow_the_registry_law(v: OpVersion) -> None:
    """The law and arguments come from the registry (`random_call`), the draws from the kernel; conform's test."""
    inputs, given = telling_call(v, DRAWS, seed=11.0)
    outputs = run(v.domain, v.name, v.since, inputs, **given)
    attributes = _complete(v, inputs, given)
    call = random_call(v, inputs, attributes)
    assert v.random is not None and call is not None, f"{v.signature}: the telling call is not random"
    named = dict(zip((p.name for p in v.outputs), outputs, strict=False))
    assert law_problems(v, inputs, attributes, named) == [], f"{v.signature}: conform's law check fails the kernel"
    result = law_test(call, named)
    assert result is not None, f"{v.signature}: the telling call leaves nothing to chance"
    assert result.draws >= DRAWS // 2 and not result.rejected, f"{v.signature}: {result.describe()}"


@pytest.mark.parametrize("v", [p for p in _params() if p.values[0].random.seed is not None])
def test_the_same_seed_gives_the_same_draw(v: OpVersion) -> None:
    inputs, one = telling_call(v, 1000, seed=5.0)
    _, other = telling_call(v, 1000, seed=6.0)
    first = run(v.domain, v.name, v.since, inputs, **one)
    again = run(v.domain, v.name, v.since, inputs, **one)
    elsewhere = run(v.domain, v.name, v.since, inputs, **other)
    for a, b in zip(first, again, strict=True):
        np.testing.assert_array_equal(a, b, err_msg=f"{v.signature}: one seed, two draws")
    assert not np.array_equal(first[0], elsewhere[0]), f"{v.signature}: seeds 5 and 6 drew the same values"


@pytest.mark.parametrize("v", _params())
def test_unseeded_calls_draw_anew(v: OpVersion) -> None:
    inputs, given = telling_call(v, 1000, seed=None)
    first = run(v.domain, v.name, v.since, inputs, **given)
    second = run(v.domain, v.name, v.since, inputs, **given)
    assert not np.array_equal(first[0], second[0]), f"{v.signature}: two unseeded calls drew the same 1000 values"


# ---- the statistical test can fail ------------------------------------------------------------------------------

WRONG = np.random.default_rng(20240611)


@pytest.mark.parametrize(("draws", "law"), [
    pytest.param(lambda: WRONG.normal(0.0, 1.2, DRAWS), {"cdf": normal_cdf(0.0, 1.0)}, id="normal-scale-1.2-for-1"),
    pytest.param(lambda: WRONG.normal(0.05, 1.0, DRAWS), {"cdf": normal_cdf(0.0, 1.0)}, id="normal-mean-off-by-0.05"),
    pytest.param(lambda: WRONG.uniform(0.0, 1.1, DRAWS), {"cdf": uniform_cdf(0.0, 1.0)}, id="uniform-10%-too-wide"),
    pytest.param(lambda: (WRONG.random(DRAWS) < 0.33).astype(int), {"probabilities": [0.7, 0.3]},
                 id="bernoulli-0.33-for-0.3"),
    pytest.param(lambda: WRONG.choice(3, DRAWS, p=[0.2, 0.3, 0.5]), {"probabilities": [0.25, 0.3, 0.45]},
                 id="categorical-off-by-0.05"),
    pytest.param(lambda: WRONG.choice(3, DRAWS), {"probabilities": [0.5, 0.5]}, id="categorical-impossible-class"),
])
def test_the_law_test_rejects_a_wrong_law(draws: Any, law: dict[str, Any]) -> None:
    with pytest.raises(AssertionError, match="do not follow the law"):
        assert_follows(draws(), "wrong on purpose", **law)


@pytest.mark.parametrize(("draws", "law"), [
    pytest.param(lambda: WRONG.normal(0.0, 1.0, DRAWS), {"cdf": normal_cdf(0.0, 1.0)}, id="normal"),
    pytest.param(lambda: WRONG.uniform(0.0, 1.0, DRAWS), {"cdf": uniform_cdf(0.0, 1.0)}, id="uniform"),
    pytest.param(lambda: (WRONG.random(DRAWS) < 0.3).astype(int), {"probabilities": [0.7, 0.3]}, id="bernoulli"),
    pytest.param(lambda: WRONG.choice(3, DRAWS, p=[0.2, 0.3, 0.5]), {"probabilities": [0.2, 0.3, 0.5]},
                 id="categorical"),
])
def test_the_law_test_accepts_the_right_law(draws: Any, law: dict[str, Any]) -> None:
    assert_follows(draws(), "right law", **law)
