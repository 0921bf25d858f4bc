"""Outputs drawn at random (a version's `random` key): checked for what their law determines, never value by value.

Values drawn at random differ between implementations (onnx defines none, not even for a seed), so a backend's
random output is checked for its shape and type (as every output is) and for what the law determines
(`opset.random_laws.LAWS`): a uniform draw lies in [low, high], a Bernoulli draw is 0 or 1 (and certain where p is
0 or 1), a Multinomial draw is a class index of nonzero probability, a normal draw is no NaN (and the mean where
scale is 0), and Dropout's output is the data scaled by 1 / (1 - ratio) where its mask keeps an element and 0
elsewhere (BiasDropout's: data + bias scaled, plus the residual; a bit-packed mask unpacked first). Where the key's
`when` does not hold (Dropout in inference, or with ratio 0) the outputs are not random and are compared as usual.

`random_call` says whether (and how) a call's outputs are random; `random_output_problems` checks them. The
property runner (`checks.output_problems`) and the node suite (`suites.onnx_node`) both use these two. The law itself
is tested by `random_laws` on one large law case per cell.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance.compare import compare_arrays, tolerance_for
from conformance.element_types import compute_dtype
from conformance.strategies.dtypes import element_of
from opset.formula import FormulaError, Undecided
from opset.infer import formula_environment
from opset.model import OpVersion, RandomOutputs


@dataclass(frozen=True)
class RandomCall:
    """A call whose outputs `spec.outputs` are random: its law's scalar arguments evaluated, its input arrays."""

    version: OpVersion
    spec: RandomOutputs
    scalars: dict[str, float]
    inputs: dict[str, np.ndarray]  # input name -> array, for the law's tensor arguments

    @property
    def outputs(self) -> tuple[str, ...]:
        return self.spec.outputs


def random_call(version: OpVersion, inputs: Sequence[np.ndarray | None],
                attributes: Mapping[str, Any]) -> RandomCall | None:
    """The call's random outputs, or None when the version has none or its `when` does not hold here.

    `inputs` are positional (None for an omitted one) and `attributes` complete, as a kernel receives them.
    """
    spec = version.random
    if spec is None:
        return None
    arrays = {p.name: np.asarray(x) for p, x in zip(version.inputs, inputs, strict=False) if x is not None}
    shapes = [list(np.shape(x)) if x is not None else None for x in inputs]
    env = formula_environment(version, shapes, attributes)
    widened = {name: x.astype(compute_dtype(x.dtype)) for name, x in arrays.items()}  # ml_dtypes: bfloat16 ...
    values = {name: x for name, x in widened.items() if x.dtype.kind in "biuf"}
    if spec.when is not None and not bool(_evaluate(version, "when", spec.when.text, spec.when, env, values)):
        return None
    scalars = {name: float(_evaluate(version, name, formula.text, formula, env, values))
               for name, formula in spec.scalars.items()}
    return RandomCall(version, spec, scalars, arrays)


def _evaluate(version: OpVersion, what: str, text: str, formula: Any, env: Mapping[str, Any],
              values: Mapping[str, Any]) -> Any:
    try:
        return formula.evaluate(env, values)
    except (FormulaError, Undecided) as e:  # every value is known here: the registry's formula is at fault
        raise ValueError(f"{version.signature}: random {what} '{text}' cannot be evaluated: {e}") from e


def random_output_problems(call: RandomCall, outputs: Mapping[str, np.ndarray]) -> list[str]:
    """What `outputs` (output name -> the backend's array, for the outputs the node asked for) break of the
    call's law; empty when nothing. Shapes and types are checked by the caller before."""
    check = _CHECKS[call.spec.law]
    drawn = {name: np.asarray(outputs[name]) for name in call.outputs if name in outputs}
    return check(call, drawn)


def _tensor(call: RandomCall, argument: str) -> np.ndarray:
    """The input array a tensor argument names."""
    return call.inputs[call.spec.tensors[argument]]


def _first_bad(y: np.ndarray, bad: np.ndarray) -> str:
    i = int(np.flatnonzero(bad.reshape(-1))[0])
    return f"{int(bad.sum())} of {y.size}; first at flat index {i}: {y.reshape(-1)[i]!r}"


def _normal(call: RandomCall, drawn: dict[str, np.ndarray]) -> list[str]:
    problems = []
    mean, scale = call.scalars["mean"], call.scalars["scale"]
    for name, y in drawn.items():
        y64 = y.astype(np.float64)
        nan = np.isnan(y64)
        if nan.any():
            problems.append(f"output '{name}': values NaN ({_first_bad(y, nan)}), a normal draw is a number")
        elif scale == 0:  # no spread: every value is the mean (as the output type holds it)
            off = y64 != float(np.asarray(mean).astype(y.dtype))
            if off.any():
                problems.append(f"output '{name}': values other than the mean {mean:g} with scale 0 "
                                f"({_first_bad(y, off)})")
    return problems


def _uniform(call: RandomCall, drawn: dict[str, np.ndarray]) -> list[str]:
    problems = []
    low, high = call.scalars["low"], call.scalars["high"]
    for name, y in drawn.items():
        lo, hi = (float(np.asarray(b).astype(y.dtype)) for b in (low, high))  # the bounds as the output type has them
        y64 = y.astype(np.float64)
        bad = ~((y64 >= lo) & (y64 <= hi))
        if bad.any():
            problems.append(f"output '{name}': values outside [low, high] = [{lo:g}, {hi:g}] ({_first_bad(y, bad)})")
    return problems


def _bernoulli(call: RandomCall, drawn: dict[str, np.ndarray]) -> list[str]:
    problems = []
    p = _tensor(call, "p").astype(np.float64)
    for name, y in drawn.items():
        y64 = y.astype(np.float64)
        bad = ~((y64 == 0) | (y64 == 1))
        if bad.any():
            problems.append(f"output '{name}': values neither 0 nor 1 ({_first_bad(y, bad)})")
            continue
        if y.shape != p.shape:
            problems.append(f"output '{name}': shape {list(y.shape)}, p has {list(p.shape)}")
            continue
        certain = ((p == 0) & (y64 != 0)) | ((p == 1) & (y64 != 1))
        if certain.any():
            problems.append(f"output '{name}': values other than p where p is 0 or 1 ({_first_bad(y, certain)})")
    return problems


def _multinomial(call: RandomCall, drawn: dict[str, np.ndarray]) -> list[str]:
    problems = []
    logits = _tensor(call, "logits").astype(np.float64)
    classes = logits.shape[-1]
    # probability 0: -inf, or any class that is not +inf in a row with a +inf logit
    top = np.isposinf(logits)
    impossible = np.where(top.any(axis=-1, keepdims=True), ~top, np.isneginf(logits))
    for name, y in drawn.items():
        if y.dtype.kind not in "iu":
            problems.append(f"output '{name}': class indices need an integer type, not {y.dtype}")
            continue
        bad = (y < 0) | (y >= classes)
        if bad.any():
            problems.append(f"output '{name}': class indices outside [0, {classes}) ({_first_bad(y, bad)})")
            continue
        if y.ndim != 2 or y.shape[0] != logits.shape[0]:
            problems.append(f"output '{name}': shape {list(y.shape)}, the logits have {list(logits.shape)}")
            continue
        never = np.take_along_axis(impossible, y.astype(np.int64), axis=1)
        if never.any():
            problems.append(f"output '{name}': classes of probability 0 drawn ({_first_bad(y, never)})")
    return problems


def unpack_bits(mask: np.ndarray, count: int) -> np.ndarray:
    """The first `count` bits of uint32 words (element i is bit i % 32 of word i // 32), as 0 and 1."""
    words = np.asarray(mask).astype(np.uint32).reshape(-1)
    bits = (words[:, None] >> np.arange(32, dtype=np.uint32)) & np.uint32(1)
    return bits.reshape(-1)[:count].astype(np.float64)


def dropout_terms(call: RandomCall) -> tuple[np.ndarray, np.ndarray]:
    """(kept, dropped) of the dropout law in float64, data's shape: (data + bias) / (1 - ratio) + residual, and the
    residual (0 without one)."""
    data = _tensor(call, "data").astype(np.float64)
    scale = 1.0 / (1.0 - call.scalars["ratio"])
    bias_name, residual_name = call.spec.tensors.get("bias"), call.spec.tensors.get("residual")
    bias = call.inputs.get(bias_name) if bias_name is not None else None
    residual = call.inputs.get(residual_name) if residual_name is not None else None
    base = data if bias is None else data + np.asarray(bias).astype(np.float64)
    dropped = np.zeros_like(data) if residual is None else np.asarray(residual).astype(np.float64)
    return base * scale + dropped, dropped


def _dropout(call: RandomCall, drawn: dict[str, np.ndarray]) -> list[str]:
    output_name = next(name for name in call.outputs if name != call.spec.tensors.get("mask"))
    mask_name = call.spec.tensors.get("mask")
    data = _tensor(call, "data")
    packed = bool(call.scalars.get("packed", 0))
    y = drawn.get(output_name)
    mask = drawn.get(mask_name) if mask_name is not None else None
    problems: list[str] = []
    if mask is not None:
        if packed:
            words = -(-data.size // 32)
            if mask.shape != (words,):
                return [f"mask '{mask_name}': shape {list(mask.shape)}, {data.size} elements pack into [{words}]"]
            mask = unpack_bits(mask, data.size).reshape(data.shape)
        m64 = mask.astype(np.float64)
        bad = ~((m64 == 0) | (m64 == 1))
        if bad.any():
            return [f"mask '{mask_name}': values neither 0 nor 1 ({_first_bad(mask, bad)})"]
        if mask.shape != data.shape:
            return [f"mask '{mask_name}': shape {list(mask.shape)}, the data has {list(data.shape)}"]
    if y is None:
        return problems
    if y.shape != data.shape:
        return [f"output '{output_name}': shape {list(y.shape)}, the data has {list(data.shape)}"]
    kept_value, dropped_value = dropout_terms(call)
    tolerance = tolerance_for(call.version, element_of(y.dtype))
    if mask is not None:
        want = np.where(mask.astype(bool), kept_value, dropped_value).astype(y.dtype)
        result = compare_arrays(y, want, tolerance)
        if not result.ok:
            problems.append(f"output '{output_name}' disagrees with mask '{mask_name}' (output = (data + bias) * "
                            f"mask / (1 - ratio) + residual, ratio {call.scalars['ratio']:g}): {result.problem}")
        return problems
    y64 = y.astype(np.float64)
    kept = np.abs(y64 - kept_value.astype(y.dtype)) <= tolerance.atol + tolerance.rtol * np.abs(kept_value)
    dropped = np.abs(y64 - dropped_value.astype(y.dtype)) <= tolerance.atol + tolerance.rtol * np.abs(dropped_value)
    bad = ~(kept | dropped)
    if bad.any():
        plain = "bias" not in call.spec.tensors and "residual" not in call.spec.tensors
        what = "0 nor data / (1 - ratio)" if plain else "residual nor (data + bias) / (1 - ratio) + residual"
        problems.append(f"output '{output_name}': values neither {what} (ratio {call.scalars['ratio']:g}; "
                        f"{_first_bad(y, bad)})")
    return problems


_CHECKS: dict[str, Callable[[RandomCall, dict[str, np.ndarray]], list[str]]] = {
    "normal": _normal, "uniform": _uniform, "bernoulli": _bernoulli, "multinomial": _multinomial, "dropout": _dropout,
}


def checked_laws() -> frozenset[str]:
    """The laws this module checks (a test holds it equal to `opset.random_laws.LAWS`)."""
    return frozenset(_CHECKS)
