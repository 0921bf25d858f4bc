"""The backend protocol and the one call shape every backend is adapted to.

A backend is any object with either

    run(node, inputs, opset_imports=...) -> outputs     # node: onnx.NodeProto, inputs: arrays or None
    run(model, feeds) -> outputs                        # model: one-node onnx.ModelProto, feeds: name -> array

(`opset_imports`, node domain -> opset version, is passed when `run` accepts it or **kwargs; so is
`outer`, an `Outer`, for a node with graph attributes: the values its graphs read from the enclosing
graph and the executor to run their nodes with; a model-level backend gets those values as extra graph
inputs; and `constant_inputs`, the frozenset of input positions the run gives as constants, when `run` names it,
or takes **kwargs and some input is constant: a model-level backend gets those inputs as initializers), and
optionally `constant_inputs` ("none", "params" or "all": which inputs it wants as constants by their registry role
when `conform --constant-inputs` does not say), optionally `supports(domain, op, version, dtypes) -> bool` (registry
domain, op name, the
version's `since`, element type names such as "float"), and optionally a `name`: its identity, which picks
its expectations file (`conformance/expectations/<name>.yaml`; without one, the `--backend` text). Raising
`Unsupported` or NotImplementedError means "cannot run this", which is reported as unsupported, not as a failure.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx


@dataclass(frozen=True)
class Outer:
    """What a node's graph attributes see around them: the values of the enclosing graphs by name, the executor
    that runs their nodes (any object with `run(node, inputs, ...)`), the model's local functions, and where the
    node is (for messages). `conformance.models.graphs.GraphFunction(graph, outer, opset_imports)` makes a graph a
    callable over it."""

    values: Mapping[str, Any]
    executor: Any
    functions: Mapping[tuple[str, str], onnx.FunctionProto] = field(default_factory=dict)
    path: str = ""


class Unsupported(Exception):
    """The backend cannot run this op, version or dtype (not a failure)."""


class BackendError(Exception):
    """A backend or its loading failed in a way that is not the op's fault (bad spec, bad answer type)."""


@dataclass(frozen=True)
class BackendCall:
    """Everything a backend needs for one case; picklable, so it can cross into an isolation worker."""

    node_bytes: bytes
    inputs: list[Any]  # runtime values (conformance.containers): arrays, lists, dicts, None
    opset_imports: dict[str, int]
    # numpy dtype names of the expected outputs, or a container's type text (for typed model outputs)
    output_dtypes: list[str | None]
    domain: str  # registry domain
    op: str
    version: int
    dtypes: list[str]
    output_shapes: list[Any] | None = None  # expected output shapes (a sequence's: its element shapes), when known
    # each input's type text where a value cannot show it (an empty sequence or optional): typed model inputs
    input_types: list[str | None] | None = None
    outer: dict[str, Any] | None = None  # values of the enclosing graph the node's graph attributes read
    # the registry role of each input position (data, weight, parameter) and which of them the run feeds as constants
    # (`conform --constant-inputs`: auto, none, params, all; auto takes the backend's own `constant_inputs`)
    input_roles: tuple[str, ...] = ()
    constant_inputs: str = "auto"

    @property
    def node(self) -> onnx.NodeProto:
        node = onnx.NodeProto()
        node.ParseFromString(self.node_bytes)
        return node


_GRAPH_TYPES = (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS)


class Backend:
    """A uniform face over any backend object: `supports(call)` and `run(call) -> list of arrays`."""

    def __init__(self, target: Any, spec: str) -> None:
        self.target = target
        self.spec = spec
        run = getattr(target, "run", None)
        if not callable(run):
            raise BackendError(f"backend '{spec}' has no run() method")
        self._mode = _call_mode(run)
        self._takes_outer = _takes_outer(run)
        self._takes_constants = _takes_keyword(run, "constant_inputs")
        stated = getattr(target, "constant_inputs", None)
        if stated is not None and stated not in ("none", "params", "all"):
            raise BackendError(f"backend '{spec}': its constant_inputs is {stated!r}, not 'none', 'params' or 'all'")
        self._constant_inputs: str = stated or "none"

    def warm(self) -> None:
        """Load now what the backend's first call would load (its own optional `warm()`): a worker does this before
        it says it is ready, so a first case on a loaded machine is not timed out for the imports it starts."""
        warm = getattr(self.target, "warm", None)
        if callable(warm):
            warm()

    @property
    def identity(self) -> str:
        """Who the backend says it is (its `name`), else how it was named on the command line: the known gaps of
        `conformance/expectations/<identity>.yaml` are its own."""
        stated = getattr(self.target, "name", None)
        return stated if isinstance(stated, str) and stated else self.spec

    def supports(self, call: BackendCall) -> bool:
        check = getattr(self.target, "supports", None)
        if check is None:
            return True
        return bool(check(call.domain, call.op, call.version, list(call.dtypes)))

    @property
    def constant_inputs(self) -> str:
        """What the backend asks to get as constants when the run does not say (`--constant-inputs auto`): its own
        `constant_inputs` attribute (none, params or all), else none."""
        return self._constant_inputs

    def constant_positions(self, call: BackendCall) -> frozenset[int]:
        """The input positions of `call` that reach the backend as constants."""
        from conformance.onnx_model import constant_positions

        mode = self.constant_inputs if call.constant_inputs == "auto" else call.constant_inputs
        return constant_positions(mode, call.input_roles, call.inputs)

    def run(self, call: BackendCall) -> list[np.ndarray]:
        node = call.node
        constants = self.constant_positions(call)
        try:
            if self._mode == "model":
                from conformance.onnx_model import make_model

                outer = call.outer or {}
                model = make_model(node, call.inputs, call.opset_imports, call.output_dtypes, call.output_shapes or [],
                                   input_types=call.input_types or [], outer=outer, constant_inputs=constants)
                declared = {i.name for i in model.graph.input}
                feeds = {n: x for n, x in zip(node.input, call.inputs, strict=False) if n and n in declared}
                result = _by_position(self.target.run(model, {**outer, **feeds}), list(node.output))
            elif self._mode == "node+opsets":
                kwargs: dict[str, Any] = {"opset_imports": dict(call.opset_imports)}
                if self._takes_outer and any(a.type in _GRAPH_TYPES for a in node.attribute):
                    named = {n: x for n, x in zip(node.input, call.inputs, strict=False) if n}
                    kwargs["outer"] = Outer({**(call.outer or {}), **named}, self.target)
                if self._takes_constants == "named" or (self._takes_constants == "kwargs" and constants):
                    kwargs["constant_inputs"] = constants
                result = self.target.run(node, list(call.inputs), **kwargs)
            elif self._takes_constants == "named":
                result = self.target.run(node, list(call.inputs), constant_inputs=constants)
            else:
                result = self.target.run(node, list(call.inputs))
        except NotImplementedError as e:
            raise Unsupported(str(e) or "NotImplementedError") from e
        from conformance.containers import with_declared_type

        values = _as_arrays(result, list(node.output))
        types = list(call.output_dtypes) + [None] * len(values)  # a kernel may give more outputs than the node names
        return [with_declared_type(x, types[i]) for i, x in enumerate(values)]


def _by_position(result: Any, output_names: Sequence[str]) -> Any:
    """A one-node model's outputs (its named node outputs, in order) back at their node positions: None where the
    node omits an optional output (`""`), which the model does not declare."""
    if "" not in output_names or not isinstance(result, list | tuple):
        return result
    values = iter(result)
    return [next(values, None) if name else None for name in output_names]


def _call_mode(run: Any) -> str:
    try:
        params = inspect.signature(run).parameters
    except (TypeError, ValueError):
        return "node"
    names = list(params)
    if names and names[0] == "model":
        return "model"
    if "opset_imports" in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return "node+opsets"
    return "node"


def _takes_outer(run: Any) -> bool:
    try:
        params = inspect.signature(run).parameters
    except (TypeError, ValueError):
        return False
    return "outer" in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


def _takes_keyword(run: Any, name: str) -> str:
    """"named" when `run` names the keyword `name`, "kwargs" when it takes **kwargs only, else ""."""
    try:
        params = inspect.signature(run).parameters
    except (TypeError, ValueError):
        return ""
    if name in params:
        return "named"
    return "kwargs" if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()) else ""


def _as_arrays(result: Any, output_names: Sequence[str]) -> list[np.ndarray]:
    if isinstance(result, Mapping):
        result = [result[n] for n in output_names if n in result]
    if isinstance(result, np.ndarray):
        result = [result]
    if not isinstance(result, list | tuple):
        raise BackendError(f"run() returned {type(result).__name__}, not a list of arrays")
    from conformance.containers import as_value
    from conformance.string_arrays import normalized_value

    return [normalized_value(as_value(x)) for x in result]  # string tensors as object arrays of str, in lists too


def supports_signature_ok(target: Any) -> bool:
    """Whether `target.supports` takes the protocol's four arguments (a plugin contract check)."""
    check = getattr(target, "supports", None)
    if check is None:
        return True
    try:
        inspect.signature(check).bind("ai.onnx", "Relu", 14, ["float"])
    except TypeError:
        return False
    return True
