"""Check one node the moment it is written, with the model validator's own node check (`opset validate` runs
the same code on every node of a model): arity, attribute values, element types against the type constraints,
shape formulas and constraints. The outputs' types and shapes are what the check inferred."""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from opset.attr_types import ATTR_TYPES
from opset.graph.value import Dim, Value

if TYPE_CHECKING:  # imported where used: `import opset.ops...` stays light
    import onnx

    from opset.model import OpVersion
    from opset.registry import Registry
    from opset.validate.signatures import VersionInfo, VersionTable


class BuildError(ValueError):
    """A node that the registry rejects (a violated constraint, a type the op does not take, a bad attribute).

    `problems` holds (check id, message) pairs; the message names the line of the caller that wrote the node.
    """

    def __init__(self, where: str, signature: str, problems: Sequence[tuple[str, str]]) -> None:
        self.problems = list(problems)
        lines = "; ".join(f"[{check}] {message}" for check, message in self.problems)
        super().__init__(f"{where}{signature}: {lines}")


def registry() -> Registry:
    """The registry under `schemas_dir()` (OPSET_SCHEMAS, else the checkout's), loaded once per folder."""
    from opset.load import schemas_dir

    return _loaded(schemas_dir())


@functools.cache
def _loaded(root: Path) -> Registry:
    from opset.load import load_registry

    return load_registry(root)


@functools.cache
def _table(root: Path) -> VersionTable:
    from opset.validate.signatures import VersionTable

    return VersionTable(_loaded(root))


def version_info(domain: str, op_type: str, since: int) -> VersionInfo:
    from opset.load import schemas_dir

    table = _table(schemas_dir())
    return table.info(table.registry.op(domain, op_type).version(since))


def node_proto(version: OpVersion, node_domain: str, inputs: Sequence[str], outputs: Sequence[str],
               attributes: Mapping[str, Any], name: str = "") -> onnx.NodeProto:
    """A NodeProto: trailing omitted inputs dropped, only the given attributes written."""
    import onnx.helper

    names = list(inputs)
    while names and names[-1] == "":
        names.pop()
    node = onnx.helper.make_node(version.name, names, list(outputs), name=name or None, domain=node_domain)
    for key, value in attributes.items():
        attr_type = version.attributes[key].type
        value = _plain_numbers(value)
        try:
            if not ATTR_TYPES[attr_type].accepts(value):  # a bool for an int, a list for a float ...
                raise TypeError(f"not a {attr_type}")
            node.attribute.append(make_attribute(key, value, attr_type))
        except (TypeError, ValueError) as e:  # onnx.helper's own words name neither the attribute nor the op
            shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
            raise BuildError(caller_place(), version.signature, [(
                "attr_type", f"attribute '{key}' should be {attr_type} ({ATTR_TYPES[attr_type].annotation}), got "
                             f"{type(value).__name__} {shown}")]) from e
    return node


def _plain_numbers(value: Any) -> Any:
    """numpy scalars as Python numbers (`np.int64(3)` is an int to a reader), in a list too."""
    import numpy as np

    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, list | tuple) and any(isinstance(v, np.generic) for v in value):
        return [v.item() if isinstance(v, np.generic) else v for v in value]
    return value


def make_attribute(key: str, value: Any, attr_type: str) -> onnx.AttributeProto:
    """An AttributeProto of the registry's type; a numpy array is accepted where a tensor is."""
    import numpy as np
    import onnx.helper
    from onnx import numpy_helper

    if attr_type == "tensor" and isinstance(value, np.ndarray):
        value = numpy_helper.from_array(value)
    elif attr_type == "tensors" and isinstance(value, list | tuple):
        value = [numpy_helper.from_array(v) if isinstance(v, np.ndarray) else v for v in value]
    elif isinstance(value, tuple):
        value = list(value)
    if attr_type == "float" and isinstance(value, int):  # alpha=1 is the float 1.0 (onnx.helper would infer INT)
        value = float(value)
    elif attr_type == "floats" and isinstance(value, list):
        value = [float(v) if isinstance(v, int) else v for v in value]
    return onnx.helper.make_attribute(key, value, attr_type=ATTR_TYPES[attr_type].proto)


def check_node(version: OpVersion, node_domain: str, inputs: Sequence[Value | None], attributes: Mapping[str, Any],
               output_labels: Sequence[str]) -> list[tuple[str | None, tuple[Dim, ...] | None, tuple[int, ...] | None]]:
    """Per output: its type, shape and known values, as the validator infers them. Raises BuildError."""
    from opset.validate.facts import Facts, FreshDims
    from opset.validate.graph import NodeRec
    from opset.validate.node import NodeCheck, Scope

    in_names = [v.label if v is not None else "" for v in inputs]
    node = node_proto(version, node_domain, in_names, output_labels, attributes)
    facts = {v.label: Facts(v.type, v.dims) for v in inputs if v is not None}
    known = {v.label: v.known for v in inputs if v is not None and v.known is not None}
    scope = Scope(facts=facts, declared={}, values=known, fresh=FreshDims())
    diags: list[Any] = []
    NodeCheck(NodeRec(node), 0, "", version.signature, diags).check(version_info(
        version.domain, version.name, version.since), scope, {})
    errors = [(d.check, d.message) for d in diags if d.is_error]
    if errors:
        raise BuildError(caller_place(), version.signature, errors)
    out = []
    for label in output_labels:
        f = scope.facts.get(label)
        out.append((f.type, f.shape, scope.values.get(label)) if f is not None else (None, None, None))
    return out


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def caller_place() -> str:
    """`file:line: ` of the first frame outside this package: the user's line that wrote the node."""
    frame = inspect.currentframe()
    while frame is not None:
        path = os.path.abspath(frame.f_code.co_filename)
        if not path.startswith(_PACKAGE + os.sep):
            return f"{frame.f_code.co_filename}:{frame.f_lineno}: "
        frame = frame.f_back
    return ""
