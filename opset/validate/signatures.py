"""Per-op-version facts the validator needs for every node, computed once per version and cached.

Everything here depends only on (domain, op, version): arity bounds, which type variable each
input position binds, the allowed types of each variable, whether formulas read input values.
"""

from __future__ import annotations

from dataclasses import dataclass

from opset.dtypes import canonical_type
from opset.errors import ResolutionError
from opset.formula.nodes import TYPE_FORMS
from opset.generated_formulas import attach
from opset.model import OpVersion, Param
from opset.registry import Registry
from opset.validate.outcomes import Outcomes


@dataclass(frozen=True, slots=True)
class Arity:
    low: int
    high: int | None  # None: unbounded (variadic last parameter)
    required: tuple[int, ...]  # positions that may not be empty


@dataclass(slots=True)
class VersionInfo:
    version: OpVersion
    key: int  # small int standing for the version in memo keys
    inputs: Arity
    outputs: Arity
    allowed: dict[str, frozenset[str]]  # type variable -> allowed type strings
    attr_types: dict[str, str]
    value_inputs: tuple[tuple[str, int], ...]  # (input name, position) whose values a formula reads
    needs_inference: bool  # any output formula, constraint, shape signature or attribute relation
    has_required: bool  # some attribute is required
    uses_types: bool = False  # formulas read input types (`type_of`, output `types`, graph signatures)
    deprecated: str | None = None  # why a node of this version is refused: the op is deprecated from its `since`

    def input_param(self, position: int) -> Param | None:
        return _param_at(self.version.inputs, position)

    def output_param(self, position: int) -> Param | None:
        return _param_at(self.version.outputs, position)


def _param_at(params: tuple[Param, ...], position: int) -> Param | None:
    if position < len(params):
        return params[position]
    if params and params[-1].variadic:
        return params[-1]
    return None


def _arity(params: tuple[Param, ...]) -> Arity:
    if not params:
        return Arity(0, 0, ())
    last = params[-1]
    high: int | None = None if last.variadic else len(params)
    required = tuple(i for i, p in enumerate(params) if not p.optional)
    low = max((i + 1 for i in required), default=0)
    if last.variadic and not last.optional:
        low = len(params) - 1 + last.min_arity
    return Arity(low, high, required)


def _value_inputs(v: OpVersion) -> tuple[tuple[str, int], ...]:
    """(input name, position) of each input whose values a formula reads; a variadic input is read from its
    position to the end (its values are then a list per value)."""
    formulas = [f for p in v.outputs for f in (p.formula, p.value) if f is not None] + \
        [c.expr for c in v.constraints] + [r.when for r in v.readings]
    names: set[str] = set()
    for formula in formulas:
        if formula.uses_value:
            names |= {p.name for p in v.inputs} & formula.names
    return tuple((p.name, i) for i, p in enumerate(v.inputs) if p.name in names)


def _reads_types(v: OpVersion) -> bool:
    """Does a formula of the version read an input's type (`type_of(X)`, `dtype(X)`)? A `let` counts wherever it
    is used: the validator then passes the input types to every formula of the version."""
    formulas = [c.expr for c in v.constraints] + list(v.lets.values()) + [
        f for p in v.outputs for f in (p.formula, p.value, p.types) if f is not None] + [r.when for r in v.readings]
    return any(not f.calls.isdisjoint(TYPE_FORMS) for f in formulas)


class VersionTable:
    """Resolution and `VersionInfo` cached per (registry domain, op, opset)."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self._resolved: dict[tuple[str, str, int], VersionInfo | ResolutionError] = {}
        self._info: dict[int, VersionInfo] = {}
        # (profile, model domain, imported version) -> what is wrong with the import, or None
        self.imports: Outcomes[str | None] = Outcomes()
        # (profile, a model's opset imports) -> {(domain, op): the VersionInfo its nodes resolve to, or None}
        self.plain_versions: Outcomes[dict[tuple[str, str], VersionInfo | None]] = Outcomes()

    def lookup(self, domain: str, op: str, opset: int) -> VersionInfo | ResolutionError:
        key = (domain, op, opset)
        found = self._resolved.get(key)
        if found is None:
            try:
                found = self.info(self.registry.resolve(domain, op, opset))
            except ResolutionError as e:
                found = e
            self._resolved[key] = found
        return found

    def _deprecation(self, v: OpVersion) -> str | None:
        """A version at or past its op's deprecation (onnx's checker and onnxruntime refuse such a node: "Op
        registered for Upsample is deprecated in domain_version of 10")."""
        op = self.registry.ops.get((v.domain, v.name))
        status = op.status if op is not None else None
        if status is None or status.state != "deprecated" or status.since is None or v.since < status.since:
            return None
        instead = f"; use {status.replacement}" if status.replacement else ""
        return f"{v.domain}::{v.name} is deprecated from opset {status.since}{instead}"

    def info(self, v: OpVersion) -> VersionInfo:
        known = self._info.get(id(v))
        if known is not None and known.version is v:
            return known
        attach(v)  # the generated functions, and what each formula reads: `_reads_types` then parses nothing
        allowed = {name: frozenset(canonical_type(t) for t in tc.types) for name, tc in v.type_constraints.items()}
        uses_types = (any(p.types is not None for p in v.outputs) or any(a.signature for a in v.attributes.values())
                      or _reads_types(v))
        needs = (any(p.formula or p.value for p in v.outputs) or bool(v.constraints) or any(p.shape for p in v.inputs)
                 or any(a.length or a.allowed or a.range for a in v.attributes.values()) or uses_types)
        info = VersionInfo(version=v, key=len(self._info), inputs=_arity(v.inputs), outputs=_arity(v.outputs),
                           allowed=allowed, attr_types={n: a.type for n, a in v.attributes.items()},
                           value_inputs=_value_inputs(v), needs_inference=needs,
                           has_required=any(a.required for a in v.attributes.values()), uses_types=uses_types,
                           deprecated=self._deprecation(v))
        self._info[id(v)] = info
        return info
