"""The runtime base of the generated op classes (`opset.ops.<domain>.v<N>`).

A generated class only states what its op version looks like (names, attribute types) and how its
constructor maps Python arguments onto inputs and attributes; building a NodeProto, inferring shapes
and validating attributes live here, and the last two go through `opset.infer`, the same engine the
model validator uses, so an instance reports exactly what a model holding that node would.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import onnx
import onnx.helper

from opset.attr_types import ATTR_TYPES
from opset.formula import Sym
from opset.infer import InferResult, ShapeProblem, infer_shapes, validate_attributes
from opset.load import load_registry, schemas_dir
from opset.model import OpVersion, op_label

Dim = int | Sym
InputShape = Sequence[Dim] | None

class ShapeInferenceError(ValueError):
    """Shape inference found problems (a violated constraint, a rank mismatch, a bad formula)."""

    def __init__(self, signature: str, problems: Sequence[ShapeProblem]) -> None:
        self.problems = list(problems)
        lines = "\n".join(f"  [{p.check}] {p.message}" for p in self.problems)
        super().__init__(f"{signature}: shape inference failed:\n{lines}")


@functools.cache
def _schema(domain: str, op_type: str, since: int, root: Path) -> OpVersion:
    return load_registry(root).op(domain, op_type).version(since)


class Op:
    """One node of an op version: its input names and the attributes given (None: not given)."""

    domain: ClassVar[str]
    node_domain: ClassVar[str]  # what the NodeProto carries (the registry Domain's node_domain)
    op_type: ClassVar[str]
    since: ClassVar[int]
    attribute_types: ClassVar[Mapping[str, str]]
    default_outputs: ClassVar[tuple[str, ...]]

    def __init__(self, inputs: Sequence[str | None], attributes: Mapping[str, object]) -> None:
        self.inputs: tuple[str | None, ...] = tuple(inputs)
        self.attributes: dict[str, object] = {k: _plain(v) for k, v in attributes.items() if v is not None}

    def __repr__(self) -> str:
        args = [repr(i) for i in self.inputs] + [f"{k}={v!r}" for k, v in self.attributes.items()]
        return f"{type(self).__name__}({', '.join(args)})"

    @classmethod
    def signature(cls) -> str:
        return op_label(cls.domain, cls.op_type, cls.since)

    @classmethod
    def schema(cls) -> OpVersion:
        """The registry's complete record of this op version."""
        return _schema(cls.domain, cls.op_type, cls.since, schemas_dir())

    def to_onnx(self, name: str = "", outputs: Sequence[str] | None = None) -> onnx.NodeProto:
        """A NodeProto; absent optional inputs become empty names, unset attributes are left out."""
        inputs = [i if i is not None else "" for i in self.inputs]
        while inputs and inputs[-1] == "":
            inputs.pop()
        node = onnx.helper.make_node(
            self.op_type,
            inputs,
            list(self.default_outputs if outputs is None else outputs),
            name=name or None,
            domain=self.node_domain,
        )
        for key, value in self.attributes.items():
            node.attribute.append(_make_attribute(key, value, self.attribute_types[key]))
        return node

    def infer(self, input_shapes: Sequence[InputShape], values: Mapping[str, Sequence[Any]] | None = None
              ) -> InferResult:
        """The full inference result: output shapes, resolved attributes and every problem found."""
        shapes = [list(s) if s is not None else None for s in input_shapes]
        return infer_shapes(self.schema(), shapes, self.attributes, values)

    def infer_shapes(self, input_shapes: Sequence[InputShape], values: Mapping[str, Sequence[Any]] | None = None
                     ) -> list[list[Dim] | None]:
        """Output shapes (None where unknown); dims may be symbolic. Raises ShapeInferenceError on problems."""
        result = self.infer(input_shapes, values)
        if result.problems:
            raise ShapeInferenceError(self.signature(), result.problems)
        return result.outputs

    def validate(self, input_shapes: Sequence[InputShape] = ()) -> list[ShapeProblem]:
        """Attribute problems, as the model validator reports them; shapes allow the length checks."""
        shapes = [list(s) if s is not None else None for s in input_shapes]
        return validate_attributes(self.schema(), self.attributes, shapes)


def _plain(value: object) -> object:
    """Sequences become lists (owned by the instance), as the formula engine and the validator expect."""
    if isinstance(value, list | tuple):
        return list(value)
    return value


def _make_attribute(key: str, value: object, attr_type: str) -> onnx.AttributeProto:
    if attr_type not in ATTR_TYPES:
        raise ValueError(f"attribute '{key}' has unknown type '{attr_type}'")
    return onnx.helper.make_attribute(key, value, attr_type=ATTR_TYPES[attr_type].proto)
