"""The registry's records are values: hashable, immutable, equal by content, with formulas parsed once."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import onnx
import pytest

from opset.attr_types import ATTR_TYPES, BY_PROTO, value_fits
from opset.formula import Formula
from opset.frozen import FrozenMap, freeze, thaw
from opset.load import load_registry
from opset.model import Attribute, op_label
from opset.registry import Registry

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def registry() -> Registry:
    return load_registry()


def test_every_record_hashes_and_equals_itself(registry: Registry) -> None:
    for op in registry:
        assert hash(op) == hash(dataclasses.replace(op))
        for v in op.versions:
            assert {v: 1}[v] == 1, v.signature
    for domain in registry.domains.values():
        hash(domain)


def test_records_refuse_changes(registry: Registry) -> None:
    v = registry.resolve("", "AveragePool", 11)
    with pytest.raises(TypeError):
        v.attributes["pads"] = None  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.since = 12  # type: ignore[misc]
    assert isinstance(v.attributes["strides"].default_expr, Formula)
    with_default = registry.resolve("", "Conv", 11).attributes["auto_pad"]
    assert with_default.default == "NOTSET"


def test_formulas_are_parsed_objects_that_keep_their_text(registry: Registry) -> None:
    for v in registry.all_versions():
        formulas = [p.formula for p in v.outputs if p.formula is not None] + [c.expr for c in v.constraints]
        formulas += list(v.lets.values())
        formulas += [f for a in v.attributes.values() for f in (a.default_expr, a.length) if f is not None]
        domains = [*v.dims.values(), *(x.domain for x in [*v.inputs, *v.attributes.values()] if x.domain)]
        formulas += [f for d in domains for _, f in d.formulas()]
        for f in formulas:
            assert isinstance(f, Formula) and f.text, v.signature


def test_no_formula_is_parsed_outside_the_registry_build() -> None:
    """Consumers read parsed formulas from the records; only the loader (and the formula package) parse."""
    allowed = {ROOT / "opset" / "build.py"}
    offenders = []
    for package in ("opset", "gen", "conformance", "bench"):
        for path in (ROOT / package).rglob("*.py"):
            if path in allowed or (ROOT / "opset" / "formula") in path.parents:
                continue
            text = path.read_text(encoding="utf-8")
            if re.search(r"\bparse\(|\bparse_tree\(|formula import [^\n]*\bparse\b", text):
                offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, f"formula text parsed outside opset/build.py: {offenders}"


def test_frozen_values_round_trip() -> None:
    plain = {"a": [1, [2, 3]], "b": {"c": "d"}}
    frozen = freeze(plain)
    assert isinstance(frozen, FrozenMap) and frozen["a"] == (1, (2, 3))
    assert hash(frozen) == hash(freeze(plain))
    assert thaw(frozen) == plain


def test_attribute_types_match_onnx() -> None:
    names = dict(onnx.AttributeProto.AttributeType.items())
    assert {t.proto_name: t.proto for t in ATTR_TYPES.values()} == {k: v for k, v in names.items() if v}
    attr = onnx.helper.make_attribute("x", [1, 2])
    assert BY_PROTO[attr.type].name == "ints" and list(getattr(attr, BY_PROTO[attr.type].field)) == [1, 2]


@pytest.mark.parametrize(("type_name", "value", "fits"), [
    ("int", 3, True), ("int", True, False), ("int", 1.5, False), ("float", 2, True), ("ints", [1, 2], True),
    ("ints", (1, 2), True), ("ints", [1, "a"], False), ("strings", ["a"], True), ("string", 1, False),
    ("tensor", object(), True), ("nonsense", 1, False),
])
def test_value_fits(type_name: str, value: object, fits: bool) -> None:
    assert value_fits(type_name, value) is fits


def test_the_meta_schema_takes_its_attribute_types_from_the_table() -> None:
    from opset.meta import _validator

    enum = _validator("op").schema["$defs"]["attribute"]["properties"]["type"]["enum"]
    assert enum == list(ATTR_TYPES)


def test_one_label_format() -> None:
    assert op_label("ai.onnx", "AveragePool", 11) == "ai.onnx@11::AveragePool"
    assert op_label("ai.onnx", "AveragePool", 11, "float") == "ai.onnx@11::AveragePool[float]"


def test_equal_records_hash_alike() -> None:
    attr = Attribute(name="x", type="ints", default=freeze([1]))
    assert attr == Attribute(name="x", type="ints", default=(1,))
    assert hash(attr) == hash(Attribute(name="x", type="ints", default=(1,)))
    assert attr != Attribute(name="x", type="ints", default=(2,))


_TWINS: dict[str, type] = {}


def _generated_twin(cls: type) -> type:
    """The same fields under a plain `@dataclass(frozen=True)`: what the shared methods of the records must match."""
    twin = _TWINS.get(cls.__qualname__)
    if twin is None:
        fields = [(f.name, Any) for f in dataclasses.fields(cls)]
        twin = _TWINS[cls.__qualname__] = dataclasses.make_dataclass(cls.__name__, fields, frozen=True)
        twin.__qualname__ = cls.__qualname__
    return twin


def test_records_compare_hash_and_print_as_generated_dataclass_methods_do(registry: Registry) -> None:
    from opset import record_table

    seen: set[type] = set()

    def check(value: object) -> None:
        cls = type(value)
        if isinstance(value, tuple):
            parts: Iterable[object] = value
        elif isinstance(value, FrozenMap):
            parts = value.values()
        elif cls in record_table.RECORDS:
            seen.add(cls)
            fields = [getattr(value, f.name) for f in dataclasses.fields(cls)]
            twin = _generated_twin(cls)(*fields)
            assert repr(value) == repr(twin)
            assert hash(value) == hash(twin)
            assert value == cls(*fields) and not value != cls(*fields)
            assert value != twin, "another class is never equal"
            changed = cls(*fields[:-1], "another" if fields[-1] != "another" else 0)
            assert value != changed and (value == changed) is False
            parts = fields
        else:
            return
        for part in parts:
            check(part)

    for op in registry:
        check(op)
    for domain in registry.domains.values():
        check(domain)
    assert seen == set(record_table.RECORDS)
