"""Explicit kernel registration: `@kernel("ai.onnx", "Concat", since=13)`.

A kernel takes every input position of the op positionally (None for an omitted optional input; a
variadic input arrives as its separate arrays) and every attribute of the version as a keyword
argument, resolved by `opset.infer.resolve_attributes` (None for an absent attribute without
default), except the attributes the schema marks `hint` (they never change the result). Kernels
declare no defaults: the schema is the one place they live. A kernel returns a tuple of numpy
arrays, one per output.

A kernel registered with `requested_outputs=True` also gets `requested_outputs=<n>`, how many
outputs the node asks for, so it can skip optional outputs nobody wants (MaxPool's Indices); it
must still return at least that many.

Kernels compute in the types numpy has. An input of a type `ml_dtypes` adds (bfloat16, float8, int4 ...) reaches
the kernel widened (`conformance.element_types.COMPUTE_AS`), and every output whose type variable that input
binds is rounded back to the narrow type: one rounding, as a correctly rounding backend gives. A kernel whose
meaning is the type itself (casts, quantization) registers with `exact_types=True` and gets the arrays as they are.

Where a registry `reading` says `kernel: true`, the values of that other reading are computed too: its op file
registers `@reading_kernel("ai.onnx", "Cast", "cast_r2")` on a function `(inputs, attributes, run) -> outputs`
that runs the op's own kernel (`run(inputs)`) on what it prepares and turns its outputs into the reading's.
`conform` then counts a case "ambiguous" only when the backend's outputs are that reading's values. Where a
reading's values depend on how precisely an implementation computes before it converts (a truncation turns a
float32 result of 2.9999998 into 2 where the exact value is 3), an output may be a `ValueRange`: every value
between `low` and `high` (elementwise, inclusive) is the reading's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance.containers import shape_of
from conformance.element_types import compute_dtype, is_ml_dtype
from opset.infer import resolve_attributes
from opset.model import OpVersion, Param

KernelFn = Callable[..., tuple[np.ndarray, ...]]


@dataclass(frozen=True)
class KernelEntry:
    domain: str
    op: str
    since: int
    until: int | None  # last version served (inclusive); None: every later version
    fn: KernelFn
    requested_outputs: bool = False
    exact_types: bool = False


_KERNELS: dict[tuple[str, str], list[KernelEntry]] = {}

@dataclass(frozen=True)
class ValueRange:
    """A reading's output known to lie between `low` and `high` (same shape and type), bounds included."""

    low: np.ndarray
    high: np.ndarray


RunKernel = Callable[[Sequence[Any]], tuple[Any, ...]]
ReadingFn = Callable[[Sequence[Any], Mapping[str, Any], RunKernel], tuple[Any, ...]]
_READINGS: dict[tuple[str, str, str], ReadingFn] = {}


class KernelRegistrationError(Exception):
    pass


def kernel(domain: str, op: str, *, since: int = 1, until: int | None = None,
           requested_outputs: bool = False, exact_types: bool = False) -> Callable[[KernelFn], KernelFn]:
    """Register `fn` for versions `since..until` (inclusive) of `domain::op`."""

    def register(fn: KernelFn) -> KernelFn:
        entries = _KERNELS.setdefault((domain, op), [])
        for e in entries:
            overlap = (e.until is None or since <= e.until) and (until is None or e.since <= until)
            if overlap:
                raise KernelRegistrationError(
                    f"{domain}::{op}: {fn.__module__}.{fn.__name__} overlaps {e.fn.__module__}.{e.fn.__name__}")
        entries.append(KernelEntry(domain, op, since, until, fn, requested_outputs, exact_types))
        return fn

    return register


def reading_kernel(domain: str, op: str, reading: str) -> Callable[[ReadingFn], ReadingFn]:
    """Register `fn` as the values of the registry reading `reading` of `domain::op` (every version that has it)."""

    def register(fn: ReadingFn) -> ReadingFn:
        if (domain, op, reading) in _READINGS:
            raise KernelRegistrationError(f"{domain}::{op}: reading {reading} is registered twice")
        _READINGS[(domain, op, reading)] = fn
        return fn

    return register


def all_reading_kernels() -> set[tuple[str, str, str]]:
    _load_all()
    return set(_READINGS)


def run_reading(version: OpVersion, reading: str, inputs: Sequence[Any], attrs: Mapping[str, Any],
                num_outputs: int | None = None) -> tuple[Any, ...]:
    """The outputs of `version` under its other reading `reading` (a `kernel: true` reading), for resolved
    `attrs`; LookupError when that reading or the op's kernel has no registration."""
    _load_all()
    fn = _READINGS.get((version.domain, version.name, reading))
    entry = find_entry(version.domain, version.name, version.since)
    if fn is None or entry is None:
        raise LookupError(f"{version.signature}: no kernel computes reading {reading}")
    return fn(list(inputs), dict(attrs), lambda given: call_kernel(entry, version, given, attrs, num_outputs))


def find_entry(domain: str, op: str, version: int) -> KernelEntry | None:
    """The registration serving `version` (an OpVersion.since) of `domain::op`, or None."""
    _load_all()
    for e in _KERNELS.get((domain, op), ()):
        if e.since <= version and (e.until is None or version <= e.until):
            return e
    return None


def find_kernel(domain: str, op: str, version: int) -> KernelFn | None:
    """The kernel function serving `version` of `domain::op`, or None."""
    entry = find_entry(domain, op, version)
    return entry.fn if entry is not None else None


def call_kernel(entry: KernelEntry, version: OpVersion, inputs: Sequence[Any], attrs: Mapping[str, Any],
                num_outputs: int | None = None) -> tuple[np.ndarray, ...]:
    """Run a registered kernel on `version` with resolved `attrs` (see `resolve_attributes`).

    Every input position is passed (None for an omitted trailing optional input); a kernel registered
    with requested_outputs gets `num_outputs`, or every output of the version when the caller gave none.
    """
    args = every_input_position(version, inputs)
    attrs = {name: value for name, value in attrs.items() if not version.attributes[name].hint}
    narrow = {} if entry.exact_types else _narrow_type_variables(version, args)
    if narrow:
        args = [compute_dtype_array(x) for x in args]
    if entry.requested_outputs:
        wanted = num_outputs if num_outputs is not None else len(version.outputs)
        outputs = entry.fn(*args, requested_outputs=wanted, **attrs)
    else:
        outputs = entry.fn(*args, **attrs)
    if not narrow:
        return outputs
    return tuple(_narrowed(x, _param_type(version.outputs, i), narrow) for i, x in enumerate(outputs))


def _param_type(params: Sequence[Param], position: int) -> str | None:
    if position < len(params):
        return params[position].type
    return params[-1].type if params and params[-1].variadic else None


def _narrow_type_variables(version: OpVersion, args: Sequence[Any]) -> dict[str, np.dtype]:
    """Type variable -> the ml_dtypes dtype an input binds it to (empty when no input has such a type)."""
    found: dict[str, np.dtype] = {}
    for i, x in enumerate(args):
        if isinstance(x, np.ndarray) and is_ml_dtype(x.dtype):
            variable = _param_type(version.inputs, i)
            if variable is not None:
                found.setdefault(variable, x.dtype)
    return found


def compute_dtype_array(x: Any) -> Any:
    """An ml_dtypes array widened to the type the kernels compute it in; anything else as it is."""
    if isinstance(x, np.ndarray) and is_ml_dtype(x.dtype):
        return x.astype(compute_dtype(x.dtype))
    return x


def _narrowed(x: Any, variable: str | None, narrow: Mapping[str, np.dtype]) -> Any:
    if variable is not None and variable in narrow and isinstance(x, np.ndarray | np.generic):
        return np.asarray(x).astype(narrow[variable])
    return x


def every_input_position(version: OpVersion, inputs: Sequence[Any]) -> list[Any]:
    """`inputs` padded with None up to the version's input count (a variadic input takes what is given, after the
    positions before it, padded too)."""
    if any(p.variadic for p in version.inputs):
        fixed = len(version.inputs) - 1  # the positions before the variadic input (Loop's M and cond)
        return [*inputs, *[None] * (fixed - len(inputs))]
    return [*inputs, *[None] * (len(version.inputs) - len(inputs))]


def all_kernels() -> dict[tuple[str, str], list[KernelEntry]]:
    _load_all()
    return {k: list(v) for k, v in _KERNELS.items()}


def run_kernel(version: OpVersion, inputs: Sequence[Any], given: Mapping[str, Any],
               num_outputs: int | None = None) -> tuple[np.ndarray, ...]:
    """The kernel of `version` on `inputs`, with the `given` attributes resolved through the registry."""
    entry = find_entry(version.domain, version.name, version.since)
    if entry is None:
        raise LookupError(f"no reference kernel for {version.signature}")
    unknown = sorted(set(given) - set(version.attributes))
    if unknown:
        raise TypeError(f"{version.signature}: unknown attributes {unknown}")
    shapes = [shape_of(x) for x in inputs]
    return call_kernel(entry, version, inputs, resolve_attributes(version, given, shapes), num_outputs)


_loaded = False


def _load_all() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        from conformance.kernels import load_kernel_modules

        load_kernel_modules()
