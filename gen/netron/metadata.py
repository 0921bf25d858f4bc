"""Registry ops as Netron metadata entries (the JSON shape of netron's onnx- and tengine-metadata.json).

ONNX-style domains get one entry per op version (`name`, `module`, `version`, attributes with every
default, inputs/outputs with `option`/`list`, `type_constraints`, ...). Tengine gets one entry per op
whose attributes are the binary parameter fields in file order, as Netron's tmfile reader pairs
the i-th value it reads with the i-th attribute.

Unlike netron's own onnx file, a default is written whenever the registry has one, falsy or not
(0, 0.0, "", false, []). A default given as a formula (`default_expr`) has no single value: it goes
to `default_expr` (a key Netron ignores) and into the description.
"""

from __future__ import annotations

from typing import Any

from opset.attr_types import ATTR_TYPES
from opset.frozen import thaw
from opset.model import Attribute, BinaryField, OpSchema, OpVersion, Param

# tmfile field ctype -> Netron's type (offset fields point at a vector or string stored elsewhere)
CTYPES = {"int8": "int8", "uint8": "uint8", "int16": "int16", "uint16": "uint16", "int32": "int32",
          "uint32": "uint32", "float32": "float32", "offset_vector_int32": "int32[]",
          "offset_vector_float32": "float32[]", "offset_string": "string"}
# Tengine categories that mean "none" (seed 003 writes "/")
NO_CATEGORY = {"/", ""}
UNBOUNDED = 2147483647  # Netron's max_input for variadic inputs


class NetronError(Exception):
    """An op the generator cannot express in Netron's format (names the op version)."""


def onnx_entry(version: OpVersion) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": version.name, "module": version.domain, "version": version.since,
                             "description": version.doc.strip() or version.summary}
    if version.attributes:
        entry["attributes"] = [_onnx_attribute(version, a) for a in version.attributes.values()]
    entry["inputs"] = [_onnx_param(p) for p in version.inputs]
    entry["min_input"], entry["max_input"] = _arity(version.inputs)
    entry["outputs"] = [_onnx_param(p) for p in version.outputs]
    entry["min_output"], entry["max_output"] = _arity(version.outputs)
    for key, (low, high) in (("inputs_range", (entry["min_input"], entry["max_input"])),
                             ("outputs_range", (entry["min_output"], entry["max_output"]))):
        if low != high:
            entry[key] = f"{low} - {'&#8734;' if high == UNBOUNDED else high}"
    entry["type_constraints"] = [{"description": t.doc, "type_param_str": t.name, "allowed_type_strs": list(t.types)}
                                 for t in version.type_constraints.values()]
    if version.category:
        entry["category"] = version.category
    if version.status.state != "active":
        entry["status"] = version.status.state
    return entry


def tengine_entry(op: OpSchema) -> dict[str, Any]:
    """The newest version of a Tengine op, parameters in binary order."""
    version = op.versions[-1]
    if version.tengine is None:
        raise NetronError(f"{version.signature}: a tengine op needs a `tengine` block (op id and layout)")
    entry: dict[str, Any] = {"name": op.name}
    if version.tengine.category not in NO_CATEGORY:
        entry["category"] = version.tengine.category
    entry["description"] = version.summary
    entry["op_id"] = version.tengine.op_id
    attributes = []
    for f in version.tengine.layout:
        if f.ctype not in CTYPES:
            raise NetronError(f"{version.signature}: field {f.name} has ctype '{f.ctype}' that Netron cannot name")
        attribute: dict[str, Any] = {"name": f.name, "type": CTYPES[f.ctype]}
        default = _field_default(version, f)
        if default is not None:
            attribute["default"] = default
        attributes.append(attribute)
    if attributes:
        entry["attributes"] = attributes
    if version.inputs:
        entry["inputs"] = [_tengine_param(p) for p in version.inputs]
    if version.outputs:
        entry["outputs"] = [_tengine_param(p) for p in version.outputs]
    return entry


def _field_default(version: OpVersion, f: BinaryField) -> Any:
    """The registry's default of the attribute a binary field carries; none when it is required.

    Not the field's own `default` (Tengine's initial bytes): for a required attribute that is a
    value the op refuses (SpaceToBatchND's block size 0), and Netron hides a parameter equal to
    its default, so it would hide exactly the invalid value.
    """
    a = version.attributes.get(f.attribute or f.name)
    if a is None:
        raise NetronError(f"{version.signature}: field {f.name} carries no attribute of the op")
    if a.default is None:
        return None
    return thaw(a.default)


def _onnx_attribute(version: OpVersion, a: Attribute) -> dict[str, Any]:
    if a.type not in ATTR_TYPES:
        raise NetronError(f"{version.signature}: attribute {a.name} has type '{a.type}' that Netron cannot name")
    out: dict[str, Any] = {"name": a.name, "type": ATTR_TYPES[a.type].netron, "required": a.required}
    description = a.doc
    if a.default is not None:
        out["default"] = thaw(a.default)
    elif a.default_expr is not None:
        out["default_expr"] = a.default_expr.text
        description = f"{description} Default: `{a.default_expr.text}`.".strip()
    if a.allowed is not None:
        out["allowed"] = list(a.allowed)
    out["description"] = description
    return out


def _onnx_param(p: Param) -> dict[str, Any]:
    out: dict[str, Any] = {"name": p.name, "type": p.type}
    if p.variadic:
        out["list"] = True
        out["option"] = "variadic"
    elif p.optional:
        out["option"] = "optional"
    out["description"] = p.doc
    return out


def _tengine_param(p: Param) -> dict[str, Any]:
    out: dict[str, Any] = {"name": p.name}
    if p.variadic:
        out["option"] = "variadic"
    elif p.optional:
        out["option"] = "optional"
    return out


def _arity(params: tuple[Param, ...]) -> tuple[int, int]:
    low = sum(p.min_arity if p.variadic else 1 for p in params if not p.optional)
    high = UNBOUNDED if any(p.variadic for p in params) else len(params)
    return low, high
