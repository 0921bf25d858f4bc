"""Independent oracles: one-node models on onnx.reference and onnxruntime, onnx's strict shape inference."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx
import onnx.defs
from onnx import helper, numpy_helper

from conformance.containers import as_value, describe, value_type
from conformance.kernels.registry import find_kernel, run_kernel
from conformance.string_arrays import normalized  # string outputs as object arrays of str, as kernels give them
from opset.infer import validate_attributes
from opset.validate.facts import type_proto
from tests.helpers.basics import inferred, registry, shapes_of

# ---------------------------------------------------------------------------------------- onnx oracles


def one_node_model(op: str, opset: int, inputs: Sequence[Any], attrs: Mapping[str, Any],
                   n_out: int, *, constants: Sequence[int] = (), domain: str = "",
                   input_types: Mapping[int, str] | None = None) -> tuple[onnx.ModelProto, dict[str, Any]]:
    """A one-node model and its feeds; inputs at the positions `constants` become initializers.

    An input may be a sequence (a list), a map (a dict) or an empty optional (None with its type in
    `input_types`, position -> type text; without one None is an omitted input); `input_types` also types an
    empty sequence, or makes an array a present optional. Outputs carry no type, so both runtimes infer them.
    A com.microsoft node also imports ai.onnx 18.
    """
    types = dict(input_types or {})
    names, graph_inputs, inits, feeds = [], [], [], {}
    for i, arr in enumerate(inputs):
        if arr is None and i not in types:
            names.append("")
            continue
        name = f"in{i}"
        names.append(name)
        if isinstance(arr, dict) and i not in types:  # a map input (DictVectorizer, CastMap)
            graph_inputs.append(helper.make_value_info(name, map_type_proto(arr)))
            feeds[name] = arr
            continue
        if i not in types and not isinstance(arr, list):
            arr = np.asarray(arr)
            if i in constants:
                inits.append(numpy_helper.from_array(arr, name))
                continue
            graph_inputs.append(helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(arr.dtype),
                                                              arr.shape))
        else:
            text = types.get(i) or value_type(arr)
            tp = type_proto(text, _held_shape(arr)) if text is not None else None
            assert tp is not None, f"input {i}: give its type in input_types ({describe(arr)})"
            graph_inputs.append(helper.make_value_info(name, tp))
        feeds[name] = arr
    outs = [f"out{k}" for k in range(n_out)]
    node = helper.make_node(op, names, outs, domain=domain, **attrs)
    graph = helper.make_graph([node], "g", graph_inputs, [onnx.ValueInfoProto(name=o) for o in outs],
                              initializer=inits)
    imports = [helper.make_opsetid("", opset)] if not domain else [helper.make_opsetid("", 18),
                                                                      helper.make_opsetid(domain, opset)]
    model = helper.make_model(graph, opset_imports=imports)
    model.ir_version = 8 if domain or opset <= 18 else 10
    return model, feeds


def _held_shape(value: Any) -> list[int | None] | None:
    """What a declared input's type states of its shape: a tensor's, or what a sequence's elements share (a dim
    they disagree on unknown)."""
    if isinstance(value, np.ndarray):
        return list(value.shape)
    shapes = [list(np.shape(e)) for e in value] if isinstance(value, list) and value and \
        all(isinstance(e, np.ndarray) for e in value) else None
    if not shapes or any(len(s) != len(shapes[0]) for s in shapes):
        return None
    return [d if all(s[k] == d for s in shapes) else None for k, d in enumerate(shapes[0])]


def map_type_proto(value: Mapping[Any, Any]) -> onnx.TypeProto:
    """The map type a dict stands for: int64 or string keys; values of the first value's type (a Python float is
    float, the only value type onnxruntime's Python binding feeds besides none)."""
    key = next(iter(value), "")
    first = next(iter(value.values()), 0.0)
    element = onnx.TensorProto.STRING if isinstance(first, str) else onnx.TensorProto.FLOAT \
        if isinstance(first, float) else helper.np_dtype_to_tensor_dtype(np.asarray(first).dtype)
    key_type = onnx.TensorProto.STRING if isinstance(key, str) else onnx.TensorProto.INT64
    return helper.make_map_type_proto(key_type, helper.make_tensor_type_proto(element, None))


def run_onnx_reference(model: onnx.ModelProto, feeds: Mapping[str, Any]) -> list[Any]:
    from onnx.reference import ReferenceEvaluator

    return [normalized(as_value(x)) for x in ReferenceEvaluator(model).run(None, dict(feeds))]


def run_onnxruntime(model: onnx.ModelProto, feeds: Mapping[str, Any]) -> list[Any]:
    import onnxruntime as ort

    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return [normalized(as_value(x)) for x in session.run(None, dict(feeds))]


@dataclass
class OracleCase:
    """One kernel case checked against an independent oracle at each listed opset of its op."""

    op: str
    attrs: dict[str, Any]
    inputs: list[Any]  # arrays, sequences (lists), maps (dicts); None: omitted, or empty where input_types types it
    since: tuple[int, ...]  # the schema versions this case applies to (each is run)
    n_out: int = 1
    # "ref" (onnx.reference), "ref@N" (the reference at opset N), "ort", or a function giving the outputs
    oracle: str | Callable[[], list[Any]] = "ref"
    rtol: float = 1e-4
    id: str = ""
    domain: str = "ai.onnx"
    input_types: dict[int, str] = field(default_factory=dict)  # position -> type text (see one_node_model)

    def label(self, opset: int) -> str:
        return f"{self.domain}@{opset}::{self.op} ({self.id or 'basic'}, {self.attrs})"


def oracle_params(cases: Sequence[OracleCase]) -> list[Any]:
    """pytest params (case, opset) with ids like `v11-k3s2` (`ReduceSum-v11-k3s2` in a table of several ops)."""
    import pytest

    several = len({c.op for c in cases}) > 1
    return [pytest.param(c, v, id=f"{c.op + '-' if several else ''}v{v}-{c.id or 'basic'}") for c in cases
            for v in c.since]


def oracle_outputs(case: OracleCase, opset: int) -> list[np.ndarray]:
    if callable(case.oracle):
        return case.oracle()
    if "@" in case.oracle:
        opset = int(case.oracle.split("@")[1])
    node_domain = "" if case.domain == "ai.onnx" else case.domain
    model, feeds = one_node_model(case.op, opset, case.inputs, case.attrs, case.n_out, domain=node_domain,
                                  input_types=case.input_types)
    if case.oracle.startswith("ort"):
        return run_onnxruntime(model, feeds)
    return run_onnx_reference(model, feeds)


def kernel_outputs(case: OracleCase, opset: int) -> tuple[np.ndarray, ...]:
    """Our kernel on the case at `opset`; tensor attributes arrive as numpy arrays, graph attributes as the graph
    callables the reference backend makes (reading the node's inputs by their one-node-model names), as in a node."""
    given = {k: numpy_helper.to_array(v) if isinstance(v, onnx.TensorProto) else v for k, v in case.attrs.items()}
    if any(isinstance(v, onnx.GraphProto) for v in given.values()):
        given = _graph_callables(case, opset, given)
    resolved = registry().try_resolve(case.domain, case.op, opset)
    if resolved is None:  # Upsample-1 is in onnx but not in the registry: its cases state every attribute
        fn = find_kernel(case.domain, case.op, opset)
        assert fn is not None, f"no kernel for {case.label(opset)}"
        return fn(*case.inputs, **given)
    assert resolved.since == opset, f"{case.op}: opset {opset} resolves to the registry version {resolved.since}"
    return run_kernel(resolved, case.inputs, given, case.n_out)


def _graph_callables(case: OracleCase, opset: int, given: dict[str, Any]) -> dict[str, Any]:
    from conformance.backends.protocol import Outer
    from conformance.backends.reference import ReferenceBackend
    from conformance.models.graphs import GraphFunction

    imports = {"": opset} if case.domain == "ai.onnx" else {"": 18, case.domain: opset}
    outer = Outer({f"in{i}": x for i, x in enumerate(case.inputs) if x is not None}, ReferenceBackend())
    return {k: GraphFunction(v, outer, imports, k) if isinstance(v, onnx.GraphProto) else v for k, v in given.items()}


def assert_matches_oracle(case: OracleCase, opset: int) -> None:
    """Our kernel's outputs equal the oracle's: count, shape, dtype, then values within `rtol`."""
    want = oracle_outputs(case, opset)
    got = kernel_outputs(case, opset)
    label = case.label(opset)
    assert isinstance(got, tuple), f"{label}: the kernel must return a tuple"
    assert len(got) >= len(want), f"{label}: {len(got)} outputs, expected at least {len(want)}"
    for k, (g, w) in enumerate(zip(got, want, strict=False)):
        if isinstance(w, list | dict) or w is None or isinstance(g, list | dict) or g is None:
            assert_same_value(f"{label}: output {k}", g, w, case.rtol)
            continue
        if w.dtype == np.bool_ and g.dtype != np.bool_ and case.op == "Dropout":
            # Dropout before opset 10: the reference gives a bool mask where the schema's mask type is T
            first = case.inputs[0]
            assert first is not None and g.dtype == first.dtype, f"{label}: mask dtype {g.dtype}"
            w = w.astype(g.dtype)
        if w.dtype.kind == "U":  # onnx.reference may give strings as numpy unicode; a string tensor is object str
            w = w.astype(object)
        assert g.shape == w.shape, f"{label}: output {k} shape {g.shape} but expected {w.shape}"
        assert g.dtype == w.dtype, f"{label}: output {k} dtype {g.dtype} but expected {w.dtype}"
        if w.dtype.kind in "fc":
            np.testing.assert_allclose(g, w, rtol=case.rtol, atol=case.rtol, err_msg=f"{label}: output {k}")
        else:
            np.testing.assert_array_equal(g, w, err_msg=f"{label}: output {k}")


def assert_same_value(label: str, got: Any, want: Any, rtol: float) -> None:
    """Two runtime values alike: sequences element by element, optionals empty together, maps key by key, tensors
    in shape, dtype and value (floats within `rtol`)."""
    if want is None or got is None:
        assert got is None and want is None, f"{label}: {describe(got)} but expected {describe(want)}"
        return
    if isinstance(want, list) or isinstance(got, list):
        assert isinstance(got, list) and isinstance(want, list) and len(got) == len(want), \
            f"{label}: {describe(got)} but expected {describe(want)}"
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_same_value(f"{label} element {i}", g, w, rtol)
        return
    if isinstance(want, dict) or isinstance(got, dict):
        assert isinstance(got, dict) and isinstance(want, dict) and set(got) == set(want), \
            f"{label}: {describe(got)} but expected {describe(want)}"
        for key in want:
            np.testing.assert_allclose(np.asarray(got[key], np.float64), np.asarray(want[key], np.float64),
                                       rtol=rtol, err_msg=f"{label} key {key!r}")
        return
    g, w = np.asarray(got), np.asarray(want)
    assert g.shape == w.shape and g.dtype == w.dtype, f"{label}: {describe(g)} but expected {describe(w)}"
    if w.dtype.kind in "fc":
        np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol, err_msg=label)
    else:
        np.testing.assert_array_equal(g, w, err_msg=label)


def assert_same_maps(got: Any, want: list[Mapping[Any, Any]], label: str, rtol: float) -> None:
    """A sequence of maps equal to `want`: as many maps, the same keys, values within `rtol`."""
    assert isinstance(got, list) and len(got) == len(want), f"{label}: {got!r} is no list of {len(want)} maps"
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert isinstance(g, dict) and sorted(g) == sorted(w), f"{label}[{i}]: keys {g!r}, expected {sorted(w)}"
        for key in w:
            np.testing.assert_allclose(np.float64(g[key]), np.float64(w[key]), rtol=rtol, atol=rtol,
                                       err_msg=f"{label}[{i}][{key!r}]")


# ---------------------------------------------------------------------------------------- shape oracle


@dataclass
class ShapeCase:
    """A node whose output shapes onnx.shape_inference (strict) and the registry's formulas must agree on."""

    op: str
    opset: int
    inputs: list[Any]  # arrays: their shapes, and their values for `constants`; a sequence: a list of arrays
    attrs: dict[str, Any] = field(default_factory=dict)
    n_out: int = 1
    constants: tuple[int, ...] = ()  # inputs whose values both sides know (initializers)
    # outputs onnx infers no shape for: what our formula must give instead
    not_inferred_by_onnx: dict[int, list[int]] = field(default_factory=dict)
    domain: str = "ai.onnx"
    input_types: dict[int, str] = field(default_factory=dict)  # position -> type text (see one_node_model)

    def label(self) -> str:
        shapes = shapes_of(self.inputs)
        return f"{self.domain}@{self.opset}::{self.op} inputs {shapes} {self.attrs}"


class SequenceShape(list[int | str]):
    """onnx's shape of a sequence output: the one element shape it infers for every element."""


def onnx_inferred_shapes(case: ShapeCase) -> list[list[int | str] | None]:
    """Output shapes by onnx's strict shape inference (None where it infers none; dim_param text for unknowns); a
    sequence's (or optional's) is what onnx states of its elements (a SequenceShape) or content."""
    model, _ = one_node_model(case.op, case.opset, case.inputs, case.attrs, case.n_out, constants=case.constants,
                              domain="" if case.domain == "ai.onnx" else case.domain, input_types=case.input_types)
    model.ir_version = 10
    result = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    shapes: list[list[int | str] | None] = []
    for out in result.graph.output:
        tp, sequence = out.type, False
        while tp.WhichOneof("value") in ("sequence_type", "optional_type"):
            sequence = sequence or tp.WhichOneof("value") == "sequence_type"
            tp = tp.sequence_type.elem_type if tp.WhichOneof("value") == "sequence_type" else tp.optional_type.elem_type
        t = tp.tensor_type
        if not t.HasField("shape"):
            shapes.append(None)
        else:
            dims = [d.dim_value if d.HasField("dim_value") else d.dim_param for d in t.shape.dim]
            shapes.append(SequenceShape(dims) if sequence else dims)
    return shapes


def assert_shapes_match_onnx(case: ShapeCase) -> None:
    """No problem reported, and every dim onnx knows equals the formula's (onnx's unknown dims match anything)."""
    v = registry().resolve(case.domain, case.op, case.opset)
    values = {v.inputs[i].name: np.asarray(case.inputs[i]).reshape(-1).tolist() for i in case.constants}
    result = inferred(v, list(case.inputs), case.attrs, values, case.n_out)
    shapes = shapes_of(case.inputs)
    problems = result.problems + validate_attributes(v, case.attrs, shapes)
    label = case.label()
    assert not problems, f"{label}: {[(p.check, p.message) for p in problems]}"
    theirs = onnx_inferred_shapes(case)
    for k in range(case.n_out):
        if k in case.not_inferred_by_onnx:
            assert theirs[k] is None, f"{label}: onnx now infers output {k}: drop it from not_inferred_by_onnx"
        want = case.not_inferred_by_onnx.get(k, theirs[k])
        mine = result.outputs[k]
        assert want is not None, f"{label}: onnx inferred no shape for output {k}"
        if isinstance(want, SequenceShape):  # every element of ours against the element shape onnx infers
            assert isinstance(mine, list), f"{label}: output {k} is {mine}, onnx says a sequence of {want}"
            for element in mine:
                assert len(element) == len(want) and all(
                    got == expected for got, expected in zip(element, want, strict=True) if isinstance(expected, int)
                ), f"{label}: output {k} has element shapes {mine} by the formula, {list(want)} by onnx"
            continue
        assert mine is not None and len(mine) == len(want), f"{label}: output {k} is {mine}, onnx says {want}"
        for got, expected in zip(mine, want, strict=True):
            if isinstance(expected, int):
                assert got == expected, f"{label}: output {k} has shape {mine} by the formula, {want} by onnx"


