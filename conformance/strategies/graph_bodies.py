"""A small library of graph bodies for the ops with graph attributes (If, Loop, Scan, FlexAttention).

A body is built node by node (`GraphBuilder`) from ops that exist, and accept the drawn element type, at the
case's opset (the registry says which), so every body is a valid ONNX graph at that opset: declared inputs
and outputs with their exact types and static shapes (the shape formulas read the declared outputs),
names unique in the whole model (each graph has its own prefix), values of the enclosing graph read by name.

`step` draws one elementwise computation of a value (an op with a constant or an outer value, or a unary
op): what the bodies are made of, so that every body's result depends on its inputs in a way a backend
that mixes them up gets wrong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import onnx
from hypothesis import strategies as st
from onnx import helper, numpy_helper

from conformance.strategies.attributes import DrawFn
from conformance.strategies.dtypes import FLOAT_ELEMENTS, numpy_dtype
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS, fill_array

# elementwise ops a body may use, by arity; each is used only where its version at the opset accepts the type,
# and arithmetic only on the types every backend implements it for (onnxruntime has Add, Sub and Mul for these,
# not for 8- and 16-bit integers, and Max/Min for few types): a body op a backend lacks makes the whole cell
# unsupported, so the bodies keep to what backends share
BINARY_OPS = ("Add", "Sub", "Mul", "And", "Or", "Xor")
UNARY_OPS = ("Neg", "Abs", "Not", "Identity")
ARITHMETIC_ELEMENTS = frozenset({"float16", "float", "double", "int32", "int64", "uint32", "uint64"})
_SHARED: dict[str, frozenset[str]] = {  # op -> the element types backends share it for (Identity: every type)
    **dict.fromkeys(("Add", "Sub", "Mul"), ARITHMETIC_ELEMENTS),
    "Neg": frozenset({"float16", "float", "double", "int8", "int16", "int32", "int64"}),
    "Abs": ARITHMETIC_ELEMENTS | {"int8", "int16", "uint8", "uint16"},
    **dict.fromkeys(("And", "Or", "Xor", "Not"), frozenset({"bool"})),
}
# element types the bodies of If and Loop give their values (Scan's follow its cell): those every backend holds
PLAIN_ELEMENTS = ("float", "double", "float16", "int32", "int64", "int8", "int16", "uint8", "uint16", "uint32",
                  "uint64", "bool")
# ops that need same-shaped operands before opset 7 (legacy broadcasting needs an attribute)

def accepts(op: str, opset: int, element: str) -> bool:
    """Does `op` (ai.onnx) at `opset` take `element` for its first input (and do backends share it for that type)?"""
    from conformance.registry import current_registry
    from opset.cells import allowed_elements

    if op in _SHARED and element not in _SHARED[op]:
        return False
    version = current_registry().try_resolve("ai.onnx", op, opset)
    if version is None or not version.inputs:
        return False
    return element in allowed_elements(version, version.inputs[0].type)


def constant_takes(opset: int, element: str) -> bool:
    """Can a Constant node at `opset` hold `element` (before opset 9 only floating-point types)?"""
    from conformance.registry import current_registry
    from opset.cells import allowed_elements

    version = current_registry().try_resolve("ai.onnx", "Constant", opset)
    return version is not None and element in allowed_elements(version, version.outputs[0].type)


def tensor_type(element: str) -> int:
    return int(helper.np_dtype_to_tensor_dtype(numpy_dtype(element)))


class GraphBuilder:
    """One graph under construction: `prefix` keeps its value names apart from every other graph's."""

    def __init__(self, name: str, opset: int, prefix: str) -> None:
        self.name = name
        self.opset = opset
        self.prefix = prefix
        self.nodes: list[onnx.NodeProto] = []
        self.inputs: list[onnx.ValueInfoProto] = []
        self.outputs: list[onnx.ValueInfoProto] = []
        self.count = 0

    def fresh(self) -> str:
        self.count += 1
        return f"{self.prefix}{self.count}"

    def input(self, element: str, shape: Sequence[int], name: str | None = None) -> str:
        name = name or self.fresh()
        self.inputs.append(helper.make_tensor_value_info(name, tensor_type(element), list(shape)))
        return name

    def output(self, value: str, element: str, shape: Sequence[int]) -> None:
        """Declare `value` an output; a value that already is one, or is a graph input, goes through Identity
        (a graph output names a value once)."""
        if value in {o.name for o in self.outputs} or value in {i.name for i in self.inputs}:
            value = self.op("Identity", [value])
        self.outputs.append(helper.make_tensor_value_info(value, tensor_type(element), list(shape)))

    def op(self, op_type: str, inputs: Sequence[str], **attrs: Any) -> str:
        out = self.fresh()
        self.nodes.append(helper.make_node(op_type, list(inputs), [out], **attrs))
        return out

    def const(self, array: np.ndarray) -> str:
        out = self.fresh()
        tensor = numpy_helper.from_array(np.asarray(array), name=f"{out}_value")
        self.nodes.append(helper.make_node("Constant", [], [out], value=tensor))
        return out

    def cast(self, value: str, element: str) -> str:
        """Cast with the `to` spelling of the opset (a type name before opset 6, its number from 6)."""
        to: Any = helper.tensor_dtype_to_string(tensor_type(element)).split(".")[-1] if self.opset < 6 \
            else tensor_type(element)
        return self.op("Cast", [value], to=to)

    def build(self) -> onnx.GraphProto:
        return helper.make_graph(self.nodes, self.name, self.inputs, self.outputs)


def small_array(draw: DrawFn, element: str, shape: Sequence[int], *, positive: bool = False) -> np.ndarray:
    """Small values (|x| <= 2, quarter steps for floats): repeated steps stay finite in every type."""
    low = 1.0 if positive else -2.0
    return fill_array(draw(SEEDS), element, shape, min_value=low, max_value=2.0)


def step(draw: DrawFn, g: GraphBuilder, value: str, element: str, shape: Sequence[int],
         outer: Mapping[str, np.ndarray]) -> str:
    """One elementwise computation of `value` (element type and shape kept): a binary op with a drawn constant or
    an outer value of the same type and shape, or a unary op; Identity where nothing else takes the type."""
    readable = [n for n, x in outer.items() if x.dtype == numpy_dtype(element) and list(x.shape) == list(shape)]
    binary = [op for op in BINARY_OPS if accepts(op, g.opset, element)]
    unary = [op for op in UNARY_OPS if accepts(op, g.opset, element)]
    if not readable and not constant_takes(g.opset, element):
        binary = []  # the other operand would be a constant, which this opset cannot hold in this type
    kinds = (["binary"] if binary else []) + (["unary"] if unary else [])
    if not kinds:
        return g.op("Identity", [value])
    if draw(st.sampled_from(kinds)) == "unary":
        return g.op(draw(st.sampled_from(unary)), [value])
    op = draw(st.sampled_from(binary))
    use_outer = bool(readable) and (not constant_takes(g.opset, element) or draw(BOOLEANS))
    other = draw(st.sampled_from(readable)) if use_outer else \
        g.const(small_array(draw, element, shape, positive=op == "Mul"))
    return g.op(op, [value, other] if draw(BOOLEANS) else [other, value])


def steps(draw: DrawFn, g: GraphBuilder, value: str, element: str, shape: Sequence[int],
          outer: Mapping[str, np.ndarray], *, most: int = 2) -> str:
    """One to `most` steps in a row."""
    for _ in range(draw(integers(1, most))):
        value = step(draw, g, value, element, shape, outer)
    return value


def numeric_elements(opset: int, allowed: Sequence[str]) -> list[str]:
    """Element types (of `allowed`, numpy-drawable) that some binary body op takes at `opset`, floats first."""
    found = [e for e in allowed if any(accepts(op, opset, e) for op in ("Add", "Mul", "Sub"))]
    return sorted(found, key=lambda e: (e not in FLOAT_ELEMENTS, e))


def outer_values(draw: DrawFn, prefix: str, wanted: Sequence[tuple[str, list[int]]]) -> dict[str, np.ndarray]:
    """Values of the enclosing graph the bodies may read: one per (element, shape) wanted, some of them."""
    found: dict[str, np.ndarray] = {}
    for k, (element, shape) in enumerate(wanted):
        if draw(BOOLEANS):
            found[f"{prefix}{k}"] = small_array(draw, element, shape)
    return found
