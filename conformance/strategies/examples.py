"""YAML examples as explicit cases: their attributes and inputs, with the expected outputs they state."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.strategies.attributes import as_node_value
from conformance.strategies.case import Case
from conformance.strategies.dtypes import element_of, primary_param
from opset.infer import infer_shapes, resolve_attributes
from opset.model import Example, OpVersion


def literal_array(literal: dict[str, Any]) -> np.ndarray:
    """`{dtype, shape, data}` (flat, C order) or `{dtype, data}` (nested) -> array."""
    dtype = np.dtype(literal["dtype"])
    data = np.asarray(literal["data"], dtype=dtype)
    if "shape" in literal:
        data = data.reshape([int(d) for d in literal["shape"]])
    return data


def example_case(version: OpVersion, example: Example) -> tuple[Case, list[np.ndarray]]:
    """The case an example describes and the outputs it expects (in output order)."""
    inputs: list[np.ndarray | None] = []
    names: list[str] = []
    for param in version.inputs:
        literal = example.inputs.get(param.name)
        inputs.append(None if literal is None else literal_array(literal))
        names.append("" if literal is None else param.name)
    while names and names[-1] == "":
        names.pop()
        inputs.pop()
    shapes = [list(x.shape) if x is not None else None for x in inputs]
    given = {name: as_node_value(value) for name, value in example.attributes.items()}
    outputs = [p.name for p in version.outputs if p.name in example.outputs]
    expected = [literal_array(example.outputs[name]) for name in outputs]
    inferred = infer_shapes(version, shapes, given).outputs
    by_name = dict(zip([p.name for p in version.outputs], inferred, strict=False))
    primary = primary_param(version)
    dtype = _dtype_of(primary.name if primary else "", inputs, names, expected)
    bindings = {primary.type: dtype} if primary is not None else {}
    case = Case(version=version, dtype=dtype, type_bindings=bindings,
                attributes=resolve_attributes(version, given, shapes), node_attributes=given, inputs=inputs,
                input_names=names, output_names=outputs,
                expected_shapes=[_int_shape(by_name.get(n)) for n in outputs], example=example.name)
    return case, expected


def _dtype_of(primary: str, inputs: list[np.ndarray | None], names: list[str], outputs: list[np.ndarray]) -> str:
    for name, x in zip(names, inputs, strict=True):
        if name == primary and x is not None:
            return element_of(x.dtype)
    return element_of(outputs[0].dtype) if outputs else "float"


def _int_shape(shape: Any) -> list[int] | None:
    if isinstance(shape, list) and all(isinstance(d, int) for d in shape):
        return shape
    return None
