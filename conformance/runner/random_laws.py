"""The law test: a backend's draws tested against the law the registry states (`random`), at a stated false-alarm rate.

`random_outputs` checks what a law determines for every draw (support, certain values, Dropout's mask against its
output); it cannot see a backend that draws from the wrong law (a normal of scale 1.2 for 1, a Bernoulli drawing 1
with probability 1 - p). This module tests the law itself, on one large draw per conformance cell (`law_case`).

**The statistic.** Each drawn value y_i of element i, whose law (the registry's law with the element's arguments:
p_i of a Bernoulli, the row's logits of a Multinomial) has the CDF F_i, gives an interval [lo_i, hi_i] of [0, 1].
For a continuous law (normal, uniform) it is [F_i(y_i - w_i), F_i(y_i + w_i)], w_i being two units in the last place
of the output type (the value drawn, rounded to that type after a few float operations); for a sample that follows
the law the values U_i = F_i(x_i) of the unrounded draws x_i are independent, uniform on [0, 1] and lie in their
intervals, and `cdf_gap(lo, hi)` = sup_t max(#{hi_i <= t} / n - t, t - #{lo_i <= t} / n) is at most their
sup_t |G_n(t) - t|. For a discrete law (bernoulli, multinomial, dropout's keep) the interval is the jump
[F_i(y_i - 1), F_i(y_i)] of the outcome, and U_i = lo_i + v_i (hi_i - lo_i) with v_i uniform on [0, 1] (the
randomised probability integral transform) are independent and uniform on [0, 1] again, whatever each element's own
law; the statistic is their sup_t |G_n(t) - t| (`cdf_gap(u, u)`). The v_i come from a fixed seed (`JITTER_SEED`), so
the statistic is a function of the backend's draws and a replay gives the same verdict for the same draws.

Either way, by the Dvoretzky-Kiefer-Wolfowitz inequality (with Massart's constant) the statistic exceeds
`dkw_epsilon(n, alpha)` = sqrt(ln(2 / alpha) / (2 n)) with probability at most `alpha`, for any arguments, identical
or differing laws per element. `ALPHA` = 1e-6 is conform's false-alarm rate per cell: a correct backend fails a
cell's law test with probability at most 1e-6. For one continuous law with exact values the statistic is the
Kolmogorov-Smirnov distance.

With `LAW_DRAWS` = 20 000 draws the bound is 0.019: a normal of scale 1.2 for 1 (a CDF gap of 0.044), an interval a
tenth too wide, p = 0.4 for 0.3 or 1 - p for p = 0.25 are rejected. Elements whose own law is certain (p of 0 or 1, a
row with one possible class, Dropout with ratio 0) carry no information and are left out (the determined checks
cover them); a law case with nothing left is not drawn (`law_case` returns None).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import ml_dtypes
import numpy as np

from conformance.runner.random_outputs import RandomCall, dropout_terms, random_call, unpack_bits
from conformance.strategies.attributes import node_values
from conformance.strategies.case import Case
from opset.infer import infer_shapes, resolve_attributes, validate_attributes

ALPHA = 1e-6  # false-alarm rate of one law test: conform's per cell
LAW_DRAWS = 20_000  # draws of a law case (its random output's elements; at least this many)
LAW_SEED = 7  # the seed a law case gives a version with a seed attribute the drawn case left out
JITTER_SEED = 20_240_611  # the v_i that place a discrete outcome within its jump (the module doc)
ULPS = 2  # a continuous draw stands for the values within this many units in the last place of the output type

Cdf = Callable[[np.ndarray], np.ndarray]
_FINFO: Any = ml_dtypes.finfo  # untyped in ml_dtypes; numpy's float types and ml_dtypes' alike


def dkw_epsilon(n: int, alpha: float = ALPHA) -> float:
    """The largest CDF gap a sample of `n` draws of the law exceeds with probability at most `alpha`."""
    if n < 1 or not 0 < alpha < 1:
        raise ValueError(f"n={n} must be >= 1 and alpha={alpha} in (0, 1)")
    return math.sqrt(math.log(2 / alpha) / (2 * n))


def cdf_gap(lo: np.ndarray, hi: np.ndarray) -> float:
    """sup_t max(#{hi_i <= t} / n - t, t - #{lo_i <= t} / n) over t in [0, 1] (the module doc): the CDF gap the
    intervals [lo_i, hi_i] of the law's CDF values force. With lo == hi it is the Kolmogorov-Smirnov distance of
    those values from the uniform law."""
    lo = np.sort(np.asarray(lo, dtype=np.float64).reshape(-1))
    hi = np.sort(np.asarray(hi, dtype=np.float64).reshape(-1))
    n = lo.size
    if n == 0 or hi.size != n:
        raise ValueError(f"cdf_gap needs as many lower as upper ends, at least one: {lo.size} and {hi.size}")
    rank = np.arange(1, n + 1) / n
    above = rank - hi  # at t = hi_(k) at least k values lie below t
    below = lo - (rank - 1 / n)  # just before t = lo_(k) at most k - 1 values can lie below t
    return float(max(0.0, above.max(), below.max()))


def normal_cdf(mean: float, scale: float) -> Cdf:
    """The normal law's CDF (a step at the mean when scale is 0)."""
    erfc = np.frompyfunc(math.erfc, 1, 1)
    if scale == 0:
        return lambda x: (np.asarray(x, dtype=np.float64) >= mean).astype(np.float64)

    def cdf(x: np.ndarray) -> np.ndarray:
        z = -(np.asarray(x, dtype=np.float64) - mean) / (scale * math.sqrt(2))
        return np.asarray(0.5 * erfc(z), dtype=np.float64)

    return cdf


def uniform_cdf(low: float, high: float) -> Cdf:
    """The uniform law's CDF on [low, high) (a step at low when high is low)."""
    if high == low:
        return lambda x: (np.asarray(x, dtype=np.float64) >= low).astype(np.float64)
    return lambda x: np.clip((np.asarray(x, dtype=np.float64) - low) / (high - low), 0.0, 1.0)


def class_probabilities(logits: np.ndarray) -> np.ndarray:
    """softmax over the last axis, in float64: a class of logit -inf has probability 0; where a row has +inf logits,
    those classes share the whole probability."""
    x = np.asarray(logits, dtype=np.float64)
    top = np.isposinf(x)
    has_top = top.any(axis=-1, keepdims=True)
    finite = np.where(np.isfinite(x), x, -np.inf)
    peak = np.max(finite, axis=-1, keepdims=True, initial=-np.inf)
    with np.errstate(invalid="ignore", over="ignore"):
        weights = np.where(has_top, top.astype(np.float64), np.exp(finite - np.where(np.isfinite(peak), peak, 0.0)))
    return np.asarray(weights / weights.sum(axis=-1, keepdims=True))


def softmax(logits: np.ndarray) -> np.ndarray:
    """The class probabilities of one row of logits."""
    return np.asarray(class_probabilities(np.asarray(logits).reshape(1, -1))[0])


def discrete_intervals(outcomes: np.ndarray, cumulative: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """(lo, hi, impossible): the CDF jump [F(y - 1), F(y)] of each outcome y of `outcomes` (shape [n]) under its own
    law, whose CDF at 0 .. K-1 is the matching row of `cumulative` ([n, K], or [K]: one law for all); `impossible`
    counts the outcomes outside 0 .. K-1 (not integers, or out of range), which get the interval [1, 1]: no uniform
    value lies below them, so they pull the statistic up by their share."""
    y = np.asarray(outcomes).reshape(-1)
    cdf = np.broadcast_to(np.asarray(cumulative, dtype=np.float64), (y.size, np.shape(cumulative)[-1]))
    k = cdf.shape[1]
    valid = (y >= 0) & (y < k) & (y == np.floor(y))
    index = np.where(valid, y, 0).astype(np.int64)
    rows = np.arange(y.size)
    hi = np.where(valid, cdf[rows, index], 1.0)
    lo = np.where(valid, np.where(index > 0, cdf[rows, np.maximum(index - 1, 0)], 0.0), 1.0)
    return lo, hi, int((~valid).sum())


def rounding_halfwidth(y: np.ndarray) -> np.ndarray:
    """w_i: how far the value the law drew may lie from y_i, as the output type holds it (`ULPS` units in the last
    place; a whole unit for an integer type)."""
    if y.dtype.kind in "iub":
        return np.full(y.shape, float(ULPS))
    info = _FINFO(y.dtype)
    y64 = np.abs(y.astype(np.float64))
    return np.asarray(ULPS * (float(info.eps) * y64 + float(info.smallest_subnormal)))


def continuous_intervals(y: np.ndarray, cdf: Cdf) -> tuple[np.ndarray, np.ndarray]:
    """[F(y - w), F(y + w)] of each value (an infinite value: the tail beyond the type's largest finite value; NaN,
    which no law here draws: [1, 1], as `discrete_intervals` places an impossible outcome)."""
    y64 = y.astype(np.float64).reshape(-1)
    w = rounding_halfwidth(y).reshape(-1)
    largest = math.inf if y.dtype.kind in "iub" else float(_FINFO(y.dtype).max)
    nan = np.isnan(y64)
    with np.errstate(invalid="ignore"):
        lo = np.where(np.isposinf(y64), largest, np.where(nan, 0.0, y64 - w))
        hi = np.where(np.isneginf(y64), -largest, np.where(nan, 0.0, y64 + w))
    return np.where(nan, 1.0, cdf(lo)), np.where(nan, 1.0, cdf(hi))


def jittered(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """lo_i + v_i (hi_i - lo_i), the v_i uniform from the fixed `JITTER_SEED`: the randomised probability integral
    transform of discrete outcomes whose CDF jumps are [lo_i, hi_i] (the module doc)."""
    v = np.random.default_rng(JITTER_SEED).random(np.size(lo))
    return np.asarray(lo + v * (np.asarray(hi) - np.asarray(lo)))


def continuous_gap(samples: np.ndarray, cdf: Cdf) -> float:
    """The statistic of draws of one continuous law (`cdf`), each value standing for its rounding interval."""
    return cdf_gap(*continuous_intervals(np.asarray(samples), cdf))


def discrete_gap(samples: np.ndarray, probabilities: np.ndarray) -> float:
    """The statistic of outcomes 0 .. K-1 of one discrete law (`probabilities`, or one row per outcome)."""
    cumulative = np.cumsum(np.asarray(probabilities, dtype=np.float64), axis=-1)
    lo, hi, _ = discrete_intervals(np.asarray(samples).astype(np.float64), cumulative)
    u = jittered(lo, hi)
    return cdf_gap(u, u)


@dataclass(frozen=True)
class LawTest:
    """One law test's outcome: the law and its arguments, how many draws, the statistic and the bound it is held to."""

    law: str
    arguments: str
    output: str
    draws: int
    statistic: float
    bound: float
    alpha: float = ALPHA

    @property
    def rejected(self) -> bool:
        return self.statistic > self.bound

    def describe(self) -> str:
        verdict = "rejects" if self.rejected else "accepts"
        relation = ">" if self.rejected else "<="
        return (f"law test {verdict} the draws of '{self.output}' as {self.law}({self.arguments}): CDF gap "
                f"{self.statistic:.4f} {relation} bound {self.bound:.4f} over {self.draws} draws (DKW, false-alarm "
                f"rate {self.alpha:g})")

    def as_report(self) -> dict[str, Any]:
        return {"law": self.law, "arguments": self.arguments, "output": self.output, "draws": self.draws,
                "statistic": round(self.statistic, 6), "bound": round(self.bound, 6), "alpha": self.alpha,
                "rejected": self.rejected}


def law_test(call: RandomCall, outputs: Mapping[str, np.ndarray], alpha: float = ALPHA) -> LawTest | None:
    """The law test of one call's random outputs (output name -> array; the outputs the node asked for), with the
    law and arguments the registry's `random` key gives; None when no draw carries information (every element's
    law is certain). The outputs' shapes and types must be right; values the law cannot give (outside the support)
    count as the most contradicting ones, whatever `random_output_problems` says of them."""
    found = _INTERVALS[call.spec.law](call, {n: np.asarray(outputs[n]) for n in call.outputs if n in outputs})
    if found is None:
        return None
    output, arguments, lo, hi, discrete = found
    n = int(lo.size)
    if discrete:  # the randomised probability integral transform
        lo = hi = jittered(lo, hi)
    return LawTest(call.spec.law, arguments, output, n, cdf_gap(lo, hi), dkw_epsilon(n, alpha), alpha)


# (output, arguments, lo, hi, discrete): the draws' intervals of CDF values (the module doc)
_Found = tuple[str, str, np.ndarray, np.ndarray, bool] | None


def _tensor(call: RandomCall, argument: str) -> tuple[str, np.ndarray]:
    name = call.spec.tensors[argument]
    return name, np.asarray(call.inputs[name]).astype(np.float64)


def _first(call: RandomCall, drawn: dict[str, np.ndarray]) -> tuple[str, np.ndarray] | None:
    name = call.outputs[0]
    return (name, drawn[name]) if name in drawn else None


def _normal(call: RandomCall, drawn: dict[str, np.ndarray]) -> _Found:
    mean, scale = call.scalars["mean"], call.scalars["scale"]
    first = _first(call, drawn)
    if first is None or not (scale > 0 and math.isfinite(scale) and math.isfinite(mean)) or first[1].size == 0:
        return None
    lo, hi = continuous_intervals(first[1], normal_cdf(mean, scale))
    return first[0], f"mean={mean:g}, scale={scale:g}", lo, hi, False


def _uniform(call: RandomCall, drawn: dict[str, np.ndarray]) -> _Found:
    low, high = call.scalars["low"], call.scalars["high"]
    first = _first(call, drawn)
    if first is None or not (high > low and math.isfinite(high - low)) or first[1].size == 0:
        return None
    lo, hi = continuous_intervals(first[1], uniform_cdf(low, high))
    return first[0], f"low={low:g}, high={high:g}", lo, hi, False


def _spread(values: np.ndarray) -> str:
    distinct = np.unique(values)
    if distinct.size <= 5:
        return "{" + ", ".join(f"{v:g}" for v in distinct) + "}"
    return f"[{distinct[0]:g}, {distinct[-1]:g}]"


# Which elements (rows) of a call's arguments leave their draw to chance: the law test tests these only, the law
# case grows until they come to LAW_DRAWS, and a case without any is not telling.

def _uncertain(p: np.ndarray) -> np.ndarray:
    """A Bernoulli's elements whose p is in (0, 1)."""
    result: np.ndarray = (p > 0) & (p < 1)
    return result


def _open_rows(probabilities: np.ndarray) -> np.ndarray:
    """A Multinomial's rows with two possible classes or more."""
    result: np.ndarray = (probabilities > 0).sum(axis=1) >= 2
    return result


def _dropout_values(call: RandomCall, dtype: np.dtype[Any]) -> tuple[np.ndarray, np.ndarray]:
    """Dropout's kept and dropped values (flat, float64) as `dtype` holds them."""
    kept, dropped = (v.astype(dtype).astype(np.float64).reshape(-1) for v in dropout_terms(call))
    return kept, dropped


def _told_apart(call: RandomCall, dtype: np.dtype[Any]) -> np.ndarray:
    """Dropout's elements (flat) whose kept and dropped values differ in `dtype`: the output alone shows their draw."""
    kept, dropped = _dropout_values(call, dtype)
    result: np.ndarray = kept != dropped
    return result


def _bernoulli(call: RandomCall, drawn: dict[str, np.ndarray]) -> _Found:
    first = _first(call, drawn)
    source, p = _tensor(call, "p")
    if first is None or first[1].shape != p.shape:
        return None
    uncertain = _uncertain(p)
    if not uncertain.any():
        return None
    q = p[uncertain]  # 0 comes with probability 1 - q, 1 with q
    outcomes = first[1][uncertain].astype(np.float64)
    lo, hi, _ = discrete_intervals(outcomes, np.stack([1 - q, np.ones_like(q)], axis=-1))
    return first[0], f"p from '{source}' in {_spread(q)}", lo, hi, True


def _multinomial(call: RandomCall, drawn: dict[str, np.ndarray]) -> _Found:
    first = _first(call, drawn)
    source, logits = _tensor(call, "logits")
    if first is None or logits.ndim != 2 or first[1].ndim != 2 or first[1].shape[0] != logits.shape[0]:
        return None
    probabilities = class_probabilities(logits)
    rows = _open_rows(probabilities)
    if not rows.any() or first[1].shape[1] == 0:
        return None
    cumulative = np.cumsum(probabilities[rows], axis=1)
    cumulative[:, -1] = 1.0
    samples = first[1][rows]
    per_draw = np.repeat(cumulative, samples.shape[1], axis=0)
    lo, hi, _ = discrete_intervals(samples.reshape(-1).astype(np.float64), per_draw)
    batch, classes = logits.shape
    return first[0], f"logits from '{source}', {int(rows.sum())} of {batch} rows of {classes} classes", lo, hi, True


def _dropout(call: RandomCall, drawn: dict[str, np.ndarray]) -> _Found:
    ratio = call.scalars["ratio"]
    _, data = _tensor(call, "data")
    mask_name = call.spec.tensors.get("mask")
    output_name = next(name for name in call.outputs if name != mask_name)
    if not 0 < ratio < 1:
        return None
    if mask_name is not None and mask_name in drawn:
        mask = drawn[mask_name]
        if call.scalars.get("packed", 0):
            name, kept = mask_name, unpack_bits(mask, data.size)
        else:
            name, kept = mask_name, mask.astype(np.float64).reshape(-1)
    elif output_name in drawn:  # without the mask: kept where the output is not the dropped value (where they differ)
        y = drawn[output_name]
        if y.shape != data.shape:
            return None
        kept_value, dropped_value = _dropout_values(call, y.dtype)
        known = kept_value != dropped_value  # (`_told_apart`)
        name, kept = output_name, (y.astype(np.float64).reshape(-1)[known] != dropped_value[known])
        kept = kept.astype(np.float64)
    else:
        return None
    if kept.size == 0:
        return None
    lo, hi, _ = discrete_intervals(kept, np.array([ratio, 1.0]))  # 0 (dropped) with probability ratio
    return name, f"ratio={ratio:g}", lo, hi, True


_INTERVALS: dict[str, Callable[[RandomCall, dict[str, np.ndarray]], _Found]] = {
    "normal": _normal, "uniform": _uniform, "bernoulli": _bernoulli, "multinomial": _multinomial, "dropout": _dropout,
}


def laws_with_a_test() -> frozenset[str]:
    """The laws this module tests (a test holds it equal to `opset.random_laws.LAWS`)."""
    return frozenset(_INTERVALS)


# ---- the law case of a cell ----------------------------------------------------------------------------------------

def law_case(case: Case, draws: int = LAW_DRAWS) -> Case | None:
    """`case` (a drawn case of a version with a `random` key) made large: the same attributes and arguments, its
    random output grown to at least `draws` elements; a seed (`LAW_SEED`) where the version has a seed attribute the
    case left out, so a replay of a seeded backend draws the same values. None when the case's outputs are not
    random, their law is certain (nothing to test) or their arguments are the standard ones (`telling`).

    What grows: a `shape` attribute (RandomNormal, RandomUniform) becomes [draws]; Multinomial's `sample_size`
    becomes ceil(draws / rows), counting the rows with two possible classes or more; otherwise the input the output's
    shape follows (the *Like ops' input, Bernoulli's p, Dropout's data) is repeated whole (`np.resize`: its values,
    cyclically) until the elements whose law leaves something to chance come to `draws` (`_informative_count`), so
    the law test always tests at least `draws` draws and holds them to the same bound.
    """
    version = case.version
    spec = version.random
    call = random_call(version, case.inputs, case.attributes)
    if spec is None or call is None or not telling(call):
        return None
    given = dict(case.node_attributes)
    inputs = list(case.inputs)
    if "shape" in version.attributes and not any(x is not None for x in inputs):
        given["shape"] = [draws]
    elif spec.law == "multinomial":
        given["sample_size"] = -(-draws // _informative_count(call))
    elif inputs and inputs[0] is not None:
        x = inputs[0]
        total = x.size * -(-draws // _informative_count(call)) if x.size and spec.law in _PER_ELEMENT else draws
        inputs[0] = np.resize(x, (total,)) if x.size else np.zeros((total,), x.dtype)
        if spec.law == "dropout":  # BiasDropout's bias and residual follow the data, element by element
            positions = {name: i for i, name in enumerate(case.input_names)}
            for argument in ("bias", "residual"):
                position = positions.get(spec.tensors.get(argument, ""))
                if position is not None and inputs[position] is not None:
                    inputs[position] = np.resize(inputs[position], (total,))
    else:
        raise ValueError(f"{version.signature}: law_case has no rule to grow the draw of this version; add one")
    if spec.seed is not None and spec.seed not in given:
        given[spec.seed] = LAW_SEED if version.attributes[spec.seed].type == "int" else float(LAW_SEED)
    shapes = [list(x.shape) if x is not None else None for x in inputs]
    problems = validate_attributes(version, given, shapes)
    if problems:
        raise ValueError(f"{version.signature}: the law case is invalid: {problems}")
    values = {n: x.ravel().tolist() for n, x in zip(case.input_names, inputs, strict=True)
              if x is not None and x.dtype.kind in "iub" and x.size <= 64}
    result = infer_shapes(version, shapes, given, values, output_count=len(case.output_names))
    if result.problems:
        raise ValueError(f"{version.signature}: the law case is invalid: {result.problems}")
    expected = [_concrete(s) for s in result.outputs[:len(case.output_names)]]
    packed = spec.law == "dropout" and "packed" in spec.scalars  # a bit-packed mask: 32 draws a word
    for name, shape in zip(case.output_names, expected, strict=False):
        per_element = 32 if packed and name == spec.tensors.get("mask") else 1
        if name in spec.outputs and (shape is None or int(np.prod(shape)) * per_element < draws):
            raise ValueError(f"{version.signature}: the law case's output '{name}' has shape {shape}, fewer than "
                             f"{draws} draws; law_case needs a rule for this version")
    return replace(case, attributes=node_values(resolve_attributes(version, given, shapes)), node_attributes=given,
                   inputs=inputs, expected_shapes=expected, values=values, example=None)


def _informative_count(call: RandomCall) -> int:
    """How many units of the drawn case carry information for the law test (`law_test` leaves the others out): the
    rows of a Multinomial with two possible classes or more; the elements of a Bernoulli's p in (0, 1); Dropout's
    elements whose kept and dropped values differ in the data's type (told apart without the mask too). The law case
    repeats the case until these come to `draws`. At least 1 (`telling`)."""
    law = call.spec.law
    if law == "multinomial":
        return max(1, int(_open_rows(class_probabilities(_tensor(call, "logits")[1])).sum()))
    if law == "bernoulli":
        return max(1, int(_uncertain(_tensor(call, "p")[1]).sum()))
    if law == "dropout":
        return max(1, int(_told_apart(call, _data_dtype(call)).sum()))
    raise ValueError(f"{call.version.signature}: the {law} law's draws are all informative; no count needed")


_PER_ELEMENT = frozenset({"bernoulli", "dropout"})  # laws whose elements' arguments may leave nothing to chance


def _data_dtype(call: RandomCall) -> np.dtype[Any]:
    return np.asarray(call.inputs[call.spec.tensors["data"]]).dtype


def _concrete(shape: Any) -> list[int] | None:
    if isinstance(shape, list) and all(isinstance(d, int) for d in shape):
        return [int(d) for d in shape]
    return None


# the arguments a backend ignoring an attribute falls back to: a law case away from them catches such a backend
_STANDARD: dict[str, dict[str, float]] = {"normal": {"mean": 0.0, "scale": 1.0}, "uniform": {"low": 0.0, "high": 1.0},
                                          "dropout": {"ratio": 0.5}}


def telling(call: RandomCall) -> bool:
    """Whether a law test of this call means something and catches a backend that ignores an argument: some element's
    law leaves something to chance, and its arguments are not the standard ones (mean 0 and scale 1, low 0 and high 1,
    ratio 0.5, p of 1/2, logits of equal classes), which a backend ignoring them would draw from as well."""
    law = call.spec.law
    scalars = call.scalars
    if any(scalars[name] == value for name, value in _STANDARD.get(law, {}).items()):
        return False
    if law == "normal":
        return scalars["scale"] > 0 and math.isfinite(scalars["scale"]) and math.isfinite(scalars["mean"])
    if law == "uniform":
        return scalars["high"] > scalars["low"] and math.isfinite(scalars["high"] - scalars["low"])
    if law == "bernoulli":
        p = _tensor(call, "p")[1]
        return bool((_uncertain(p) & (p != 0.5)).any())
    if law == "multinomial":
        logits = _tensor(call, "logits")[1]
        if logits.ndim != 2:
            return False
        probabilities = class_probabilities(logits)
        return bool((_open_rows(probabilities) & (np.ptp(probabilities, axis=1) > 0)).any())
    if law == "dropout":  # an element whose kept and dropped values agree shows nothing (zero data, no bias)
        return 0 < scalars["ratio"] < 1 and bool(_told_apart(call, _data_dtype(call)).any())
    raise ValueError(f"law '{law}' has no law test; add it to conformance.runner.random_laws")
