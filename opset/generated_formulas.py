"""The functions `gen formulas` wrote for an op version's formulas, handed over only where they are fresh.

`inference_formulas(version)` lists, in a fixed order, the formulas shape inference and validation evaluate (attribute
defaults and lengths, graph signatures, output shapes, values and types, lets, constraints, readings). The generated
module of the op (`opset/formula/generated/<domain>/<Op>.py`) keeps per version the fingerprint of those formulas'
texts and one function per formula, in that order. `attach(version)` gives each formula its function when the
fingerprint of the version as loaded matches: a YAML edited since `gen formulas` ran changes the fingerprint, and
the version's formulas keep running compiled (`opset.formula.compiled`), never through a stale function.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from opset.formula import Formula
from opset.model import OpVersion

if TYPE_CHECKING:
    from opset.formula.emitted import Facts

GENERATED_PACKAGE = "opset.formula.generated"

try:  # hashlib's blake2b is this very type; importing hashlib also loads OpenSSL's bindings (3 ms of a cold command)
    from _blake2 import blake2b as _blake2b
except ImportError:  # an interpreter built without it: hashlib has its own fallbacks
    from hashlib import blake2b as _blake2b


def inference_formulas(version: OpVersion) -> list[Formula]:
    """The version's formulas that inference evaluates, in the order the generated modules keep them."""
    return list(_formulas(version))


def _formulas(version: OpVersion) -> Iterator[Formula]:
    for attribute in version.attributes.values():
        yield from _present(attribute.default_expr, attribute.length)
        if attribute.signature is not None:
            for part in (*attribute.signature.inputs, *attribute.signature.outputs):
                yield from _present(part.count, part.shape, part.types)
    for param in version.outputs:
        yield from _present(param.formula, param.value, param.types)
    yield from version.lets.values()
    for constraint in version.constraints:
        yield constraint.expr
    for reading in version.readings:
        yield reading.when
        yield from reading.outputs.values()


def _present(*formulas: Formula | None) -> Iterator[Formula]:
    return (f for f in formulas if f is not None)


def fingerprint(formulas: list[Formula]) -> str:
    """A hash of the formulas' texts as the registry gives them (any edit of one changes it)."""
    digest = _blake2b(digest_size=12)
    for formula in formulas:
        text = formula.text.encode("utf-8", "surrogatepass")
        digest.update(len(text).to_bytes(8, "little"))
        digest.update(text)
    return digest.hexdigest()


def generated_functions(version: OpVersion) -> tuple[tuple[Any, ...], tuple[Facts, ...]] | None:
    """The generated functions of the version, one per inference formula (None where a formula has none), with
    what each formula reads; or None: no generated module, no entry for the version, or an entry for other formulas
    than the version has now."""
    from opset.formula.generated import MODULES

    module_name = MODULES.get((version.domain, version.name))
    if module_name is None:
        return None
    module = importlib.import_module(f"{GENERATED_PACKAGE}.{module_name}")
    entry = module.VERSIONS.get(version.since)
    if entry is None:
        return None
    expected, functions, reads = entry
    formulas = inference_formulas(version)
    if fingerprint(formulas) != expected or len(functions) != len(formulas) or len(reads) != len(formulas):
        return None
    return tuple(functions), tuple(reads)


def attach(version: OpVersion) -> bool:
    """Give the version's formulas their generated functions and facts where they are fresh; True if they were.
    (Validation attaches a version when it first resolves to it, and shape inference when it first plans it: twice
    costs a fingerprint, and a table of attached versions would keep every registry ever loaded alive.)"""
    found = generated_functions(version)
    if found is None:
        return False
    from opset.formula.emitted import evaluation

    functions, reads = found
    for formula, function, (names, calls) in zip(inference_formulas(version), functions, reads, strict=True):
        formula.use_generated(evaluation(function) if function is not None else None,
                              frozenset(names), frozenset(calls))
    return True
