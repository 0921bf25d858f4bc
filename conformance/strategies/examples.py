"""YAML examples as explicit cases: their attributes and inputs, with the expected outputs they state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from conformance.strategies.attributes import as_node_value, node_values
from conformance.strategies.case import Case
from opset.cells import example_dtype, primary_param
from opset.frozen import thaw
from opset.infer import infer_shapes, resolve_attributes
from opset.model import Example, OpVersion


def literal_array(literal: Mapping[str, Any]) -> np.ndarray:
    """`{dtype, shape, data}` (flat, C order) or `{dtype, data}` (nested) -> array; dtype `string` gives an object
    array of str."""
    if literal["dtype"] == "string":
        data = np.asarray(literal["data"], dtype=object)
        if not all(isinstance(v, str) for v in data.reshape(-1).tolist()):
            raise ValueError(f"a string example array holds a value that is no string: {literal['data']!r}")
    else:
        data = np.asarray(literal["data"], dtype=np.dtype(literal["dtype"]))
    if "shape" in literal:
        data = data.reshape([int(d) for d in literal["shape"]])
    return data


def example_case(version: OpVersion, example: Example) -> tuple[Case, list[np.ndarray]]:
    """The case an example describes and the outputs it expects (in output order)."""
    example_inputs, example_outputs = thaw(example.inputs), thaw(example.outputs)
    inputs, names = example_arrays(version.inputs, example_inputs)
    while names and names[-1] == "":
        names.pop()
        inputs.pop()
    shapes = [list(x.shape) if x is not None else None for x in inputs]
    given = {name: as_node_value(value) for name, value in thaw(example.attributes).items()}
    stated = [p for p in version.outputs if p.name in example_outputs]
    expected_arrays, outputs = example_arrays(stated, example_outputs)
    expected = [x for x in expected_arrays if x is not None]
    values = {n: x.ravel().tolist() for n, x in zip(names, inputs, strict=True) if x is not None}
    all_names = example_arrays(version.outputs, example_outputs)[1] if stated else []
    inferred = infer_shapes(version, shapes, given, values, output_count=len(all_names) or None).outputs
    by_name = dict(zip(all_names, inferred, strict=False))
    primary = primary_param(version)
    dtype = example_dtype(version, example)
    bindings = {primary.type: dtype} if primary is not None else {}
    case = Case(version=version, dtype=dtype, type_bindings=bindings,
                attributes=node_values(resolve_attributes(version, given, shapes)), node_attributes=given,
                inputs=inputs,
                input_names=names, output_names=outputs,
                expected_shapes=[_int_shape(by_name.get(n)) for n in outputs], example=example.name)
    return case, expected


def example_arrays(params: Any, literals: Mapping[str, Any]) -> tuple[list[np.ndarray | None], list[str]]:
    """Arrays and node names of an example's inputs or outputs (frozen or plain), in parameter order.

    A variadic parameter may be given a list of arrays; they become `<name>_0`, `<name>_1` ... An absent
    optional parameter is None with the name "".
    """
    literals = thaw(literals)
    arrays: list[np.ndarray | None] = []
    names: list[str] = []
    for param in params:
        literal = literals.get(param.name)
        if isinstance(literal, list):
            arrays.extend(literal_array(item) for item in literal)
            names.extend(f"{param.name}_{i}" for i in range(len(literal)))
        else:
            arrays.append(None if literal is None else literal_array(literal))
            names.append("" if literal is None else param.name)
    return arrays, names


def _int_shape(shape: Any) -> list[int] | None:
    if isinstance(shape, list) and all(isinstance(d, int) for d in shape):
        return shape
    return None
