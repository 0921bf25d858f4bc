"""What a generated class says about one op version: its arguments, annotations and docstring parts.

Everything the templates print is decided here, from the registry's complete `OpVersion`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from gen.ops.naming import argument_name, class_name
from opset.attr_types import ATTR_TYPES
from opset.graph.op import returned_outputs
from opset.model import Attribute, OpVersion, Param


class SpecError(Exception):
    """An op version the class generator cannot express."""


@dataclass(frozen=True)
class Argument:
    """One constructor argument: `declaration` is its text in the signature."""

    key: str  # the registry name (input or attribute)
    name: str  # the Python name
    declaration: str
    doc_head: str  # "X (T, optional)" as the docstring lists it
    doc: str


@dataclass(frozen=True)
class ClassSpec:
    name: str
    version: OpVersion
    node_domain: str  # what the node carries (the Domain record's node_domain)
    inputs: list[Argument]
    variadic: bool
    attributes: list[Argument]
    outputs: list[tuple[str, str]]  # (docstring head, doc)
    returns: str  # the return annotation: V, tuple[V, V], tuple[V, ...], or Value for an op without inputs
    renames: dict[str, str]  # Python argument name -> registry name, where they differ
    type_constraints: list[tuple[str, str]]  # (type variable, text)
    imports: set[str] = field(default_factory=set)  # which of Sequence Literal onnx Array Value V the function needs


# the keyword-only argument saying how many values a variadic output gives (Split's outputs)
N_OUTPUTS = "n_outputs"


def class_spec(v: OpVersion, node_domain: str) -> ClassSpec:
    imports: set[str] = set()
    inputs = _inputs(v, imports)
    attributes = [_attribute(v, attr, imports) for attr in sorted(v.attributes.values(), key=lambda a: a.name)]
    returns = _returns(v, imports)
    if returns.endswith(", ...]"):
        if N_OUTPUTS in v.attributes or any(p.name == N_OUTPUTS for p in v.inputs):
            raise SpecError(f"{v.signature}: '{N_OUTPUTS}' is the argument of a variadic output's count; "
                            "rename it in gen/ops/spec.py")
        attributes.append(Argument(N_OUTPUTS, N_OUTPUTS, f"{N_OUTPUTS}: int", f"{N_OUTPUTS} (int, required)",
                                   f"how many values the variadic output {v.outputs[-1].name} gives"))
    outputs = [(_param_head(p), p.doc) for p in v.outputs]
    constraints = [(tc.name, ", ".join(tc.types) + (f". {tc.doc}" if tc.doc else ""))
                   for tc in v.type_constraints.values()]
    renames = {a.name: a.key for a in inputs + attributes if a.name != a.key}
    return ClassSpec(name=class_name(v.domain, v.name), version=v, node_domain=node_domain, inputs=inputs,
                     variadic=bool(v.inputs) and v.inputs[-1].variadic, attributes=attributes, outputs=outputs,
                     returns=returns, renames=renames, type_constraints=constraints, imports=imports)


def _returns(v: OpVersion, imports: set[str]) -> str:
    """What the function returns (the rule of `opset.graph.op.returned_outputs`): the mode's value type V, or a
    graph `Value` for an op without inputs (there are no arrays to evaluate it on)."""
    value = "V" if v.inputs else "Value"
    imports.add(value)
    wanted = returned_outputs(v)
    if wanted is None:
        return f"tuple[{value}, ...]"
    if len(wanted) == 1:
        return value
    return f"tuple[{', '.join([value] * len(wanted))}]"


def _inputs(v: OpVersion, imports: set[str]) -> list[Argument]:
    """The first required input takes V, which fixes the mode of the call (graph values or arrays); the others
    take V or an array (a constant, in graph mode)."""
    out = []
    first = next((i for i, p in enumerate(v.inputs) if not p.optional), 0)
    for i, p in enumerate(v.inputs):
        if p.variadic and i != len(v.inputs) - 1:
            raise SpecError(f"{v.signature}: variadic input '{p.name}' is not the last input")
        name = argument_name(v.domain, v.name, p.name)
        later_required = any(not q.optional and not q.variadic for q in v.inputs[i + 1:])
        kind = "V" if i == first else "V | Array"
        imports.add("V")
        if kind != "V":
            imports.add("Array")
        if p.variadic:
            declaration = f"*{name}: {kind}"
        elif p.optional:
            declaration = f"{name}: {kind} | None" + ("" if later_required else " = None")
        else:
            declaration = f"{name}: {kind}"
        out.append(Argument(p.name, name, declaration, _param_head(p), p.doc))
    return out


def _param_head(p: Param) -> str:
    notes = [p.type]
    if p.optional:
        notes.append("optional")
    if p.variadic:
        notes.append(f"variadic, at least {p.min_arity}")
    return f"{p.name} ({', '.join(notes)})"


def _attribute(v: OpVersion, attr: Attribute, imports: set[str]) -> Argument:
    if attr.type not in ATTR_TYPES:
        raise SpecError(f"{v.signature}: attribute '{attr.name}' has type '{attr.type}' with no Python annotation")
    name = argument_name(v.domain, v.name, attr.name)
    annotation = ATTR_TYPES[attr.type].annotation  # strings get a Literal below when their values are listed
    if attr.type == "string" and attr.allowed:
        annotation = f"Literal[{', '.join(py_literal(a) for a in attr.allowed)}]"
        imports.add("Literal")
    if annotation.startswith("Sequence"):
        imports.add("Sequence")
    if "onnx." in annotation:
        imports.add("onnx")
    if attr.type == "int" and attr.allowed and all(isinstance(a, int) and not isinstance(a, bool)
                                                   for a in attr.allowed):
        annotation = f"Literal[{', '.join(str(a) for a in attr.allowed)}]"
        imports.add("Literal")
    if attr.type in ("tensor", "tensors"):
        annotation = annotation.replace("onnx.TensorProto", "onnx.TensorProto | Array")
        imports.add("Array")
    _default_text(v, attr)  # checks the default fits the annotation; the docstring states it
    # a default is never written into the node: None means "not given", and the op's default applies
    declaration = f"{name}: {annotation}" if attr.required else f"{name}: {annotation} | None = None"
    return Argument(attr.name, name, declaration, _attribute_head(attr), attr.doc)


def _default_text(v: OpVersion, attr: Attribute) -> str | None:
    """The default as Python source, or None when the schema supplies it at inference time."""
    if attr.default is None or not ATTR_TYPES[attr.type].literal:
        return None
    value = attr.default
    if attr.type == "string" and attr.allowed and value not in attr.allowed:
        raise SpecError(f"{v.signature}: attribute '{attr.name}' defaults to {value!r}, which is not allowed")
    if attr.type in ("ints", "floats", "strings"):
        if not isinstance(value, list | tuple):
            raise SpecError(f"{v.signature}: attribute '{attr.name}' has a default that is not a list")
        items = [_scalar(v, attr, attr.type[:-1], x) for x in value]
        return "()" if not items else f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    return _scalar(v, attr, attr.type, value)


def _scalar(v: OpVersion, attr: Attribute, scalar_type: str, value: Any) -> str:
    if scalar_type == "int" and isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if scalar_type == "float" and isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value)
        if math.isnan(number):
            return 'float("nan")'
        if math.isinf(number):
            return 'float("inf")' if number > 0 else '-float("inf")'
        return repr(number)
    if scalar_type == "string" and isinstance(value, str):
        return py_literal(value)
    raise SpecError(f"{v.signature}: attribute '{attr.name}' has default {value!r}, not a {scalar_type}")


def _attribute_head(attr: Attribute) -> str:
    notes = [attr.type]
    if attr.required:
        notes.append("required")
    elif attr.default is not None:
        notes.append(f"default {_plain(attr.default)}")
    elif attr.default_expr is not None:
        notes.append(f"default {attr.default_expr.text}")
    if attr.allowed:
        notes.append("one of " + ", ".join(_plain(a) for a in attr.allowed))
    if attr.range is not None:
        lo, hi = attr.range
        notes.append(f"in [{'-inf' if lo is None else _plain(lo)}, {'inf' if hi is None else _plain(hi)}]")
    if attr.length is not None:
        notes.append(f"length {attr.length.text}")
    return f"{attr.name} ({', '.join(notes)})"


def _plain(value: Any) -> str:
    if isinstance(value, str):
        return py_literal(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_plain(x) for x in value) + "]"
    return repr(value)


def py_literal(text: str) -> str:
    """A double-quoted Python string literal."""
    return json.dumps(text, ensure_ascii=False)
