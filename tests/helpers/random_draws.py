"""Tests of ops that draw random values: statistical tests of a law, and draws of other implementations checked by it.

**The statistical test** is conform's law test (`conformance.runner.random_laws`, whose doc gives the statistic and
its bound): a sample of n draws follows a law when its CDF gap is at most `dkw_epsilon(n, alpha)` =
sqrt(ln(2 / alpha) / (2 n)); by the Dvoretzky-Kiefer-Wolfowitz inequality (with Massart's constant) a sample that
does follow the law exceeds it with probability at most `alpha`, for every n, for discrete laws too: `ALPHA` is each
test's false-alarm rate, stated, not estimated. The tests draw with fixed seeds, so in CI they are deterministic; the
bound says how unlikely a failure on a correct kernel would be for any seed. With n = 40 000 and alpha = 1e-6 the gap
allowed is 0.0135: a law off by a few hundredths in probability (a scale 1.2 for 1, an interval a tenth too wide,
p = 0.33 for 0.3) is rejected.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from conformance.runner.random_laws import ALPHA, Cdf, continuous_gap, discrete_gap, dkw_epsilon
from conformance.runner.random_outputs import random_call, random_output_problems
from opset.model import OpVersion

DRAWS = 40_000  # draws per statistical test


def assert_follows(samples: np.ndarray, label: str, *, cdf: Cdf | None = None,
                   probabilities: Sequence[float] | None = None, alpha: float = ALPHA) -> None:
    """The sample passes the law test against a continuous `cdf` or discrete `probabilities` (see the module doc)."""
    if cdf is not None:
        gap = continuous_gap(samples, cdf)
    elif probabilities is not None:
        gap = discrete_gap(samples, np.asarray(probabilities, dtype=np.float64))
    else:
        raise ValueError(f"{label}: give the law as a cdf or as probabilities")
    allowed = dkw_epsilon(int(np.asarray(samples).size), alpha)
    assert gap <= allowed, (f"{label}: the draws do not follow the law: CDF gap {gap:.4f} > {allowed:.4f} "
                            f"(false-alarm rate {alpha:g})")


def law_problems(version: OpVersion, inputs: Sequence[np.ndarray | None], attributes: Mapping[str, Any],
                 outputs: Mapping[str, np.ndarray]) -> list[str]:
    """What conform's law check finds wrong with `outputs` of one call (inputs positional, attributes complete)."""
    call = random_call(version, inputs, attributes)
    assert call is not None, f"{version.signature}: the call's outputs are not random"
    return random_output_problems(call, outputs)


def assert_draws_pass_the_law(op: str, opset: int, inputs: Sequence[np.ndarray | None], attrs: Mapping[str, Any],
                              n_out: int = 1, oracles: Sequence[str] = ("ref", "ort")) -> None:
    """Our kernel and each oracle (onnx.reference "ref", onnxruntime "ort") draw outputs of the same count, shapes and
    types for one random call, and conform's law check passes every one of them: the check does not fail a correct
    implementation, though their values differ."""
    from conformance.kernels.registry import run_kernel
    from conformance.strategies.attributes import node_values
    from opset.infer import resolve_attributes
    from tests.helpers.basics import registry
    from tests.helpers.oracles import one_node_model, run_onnx_reference, run_onnxruntime

    v = registry().resolve("ai.onnx", op, opset)
    ours = run_kernel(v, list(inputs), dict(attrs), n_out)[:n_out]
    shapes = [list(x.shape) if x is not None else None for x in inputs]
    complete = node_values(resolve_attributes(v, dict(attrs), shapes))
    names = [p.name for p in v.outputs[:n_out]]
    label = f"ai.onnx@{opset}::{op} {dict(attrs)}"
    assert law_problems(v, inputs, complete, dict(zip(names, ours, strict=True))) == [], f"{label}: ours"
    model, feeds = one_node_model(op, opset, inputs, attrs, n_out)
    for oracle in oracles:
        theirs = (run_onnx_reference if oracle == "ref" else run_onnxruntime)(model, feeds)
        assert [(x.shape, x.dtype) for x in theirs] == [(x.shape, x.dtype) for x in ours], \
            f"{label}: {oracle} draws {[(x.shape, x.dtype) for x in theirs]}"
        problems = law_problems(v, inputs, complete, dict(zip(names, theirs, strict=True)))
        assert problems == [], f"{label}: conform's law check fails {oracle}'s draw: {problems}"
