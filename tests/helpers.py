"""What the op tests share: the registry, arrays, kernels as the runner calls them, formula shapes,
and the independent oracles (onnx.reference, onnxruntime, onnx.shape_inference).

An op's own tests live in `tests/ops/<domain module>/test_<op>.py` (the stem of its kernel file);
everything they have in common lives here, so no test module imports another.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx
import onnx.defs
from onnx import helper, numpy_helper

from conformance.kernels.registry import all_kernels, find_kernel, run_kernel
from conformance.strategies.examples import literal_array
from opset.formula import Sym
from opset.infer import InferResult, infer_shapes, validate_attributes
from opset.load import load_registry
from opset.model import OpVersion
from opset.registry import Registry

Shape = list[int] | None

# ---------------------------------------------------------------------------------------- registry


def registry() -> Registry:
    """The checkout's registry (loaded once per process by the loader's cache)."""
    return _registry()


@functools.cache
def _registry() -> Registry:
    return load_registry()


def version(domain: str, op: str, since: int) -> OpVersion:
    """The registry version that starts at `since` exactly (a LookupError names a version that does not)."""
    found = registry().resolve(domain, op, since)
    if found.since != since:
        raise LookupError(f"{domain}::{op}: opset {since} resolves to the registry version {found.since}")
    return found


@functools.cache
def onnx_versions(op: str) -> tuple[int, ...]:
    """Every since_version onnx.defs knows for an ai.onnx op."""
    return tuple(sorted(s.since_version for s in onnx.defs.get_all_schemas_with_history()
                        if s.name == op and s.domain == ""))


def all_since(op: str, lo: int = 1, hi: int = 99) -> tuple[int, ...]:
    """onnx's versions of `op` in [lo, hi]."""
    return tuple(v for v in onnx_versions(op) if lo <= v <= hi)


# ---------------------------------------------------------------------------------------- arrays

RNG = np.random.default_rng(1234)


def f32(*shape: int) -> np.ndarray:
    """Standard-normal float32 data of `shape`."""
    return RNG.standard_normal(shape).astype(np.float32)


def i64(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int64)


def array(literal: Mapping[str, Any]) -> np.ndarray:
    """An example's array literal `{dtype, shape, data}` (frozen or plain) as numpy."""
    return literal_array(literal)


# ---------------------------------------------------------------------------------------- kernels


def run(domain: str, op: str, since: int, inputs: Sequence[np.ndarray | None], **given: Any
        ) -> tuple[np.ndarray, ...]:
    """The reference kernel as the conformance runner calls it: attributes resolved through the registry."""
    if find_kernel(domain, op, since) is None:
        raise LookupError(f"{domain}@{since}::{op}: no reference kernel registered")
    return run_kernel(version(domain, op, since), list(inputs), given)


def kernel(domain: str, op: str, since: int = 1) -> Callable[..., tuple[np.ndarray, ...]]:
    """`run` bound to one op version: `kernel("tengine", "ReLU")(x, negative_slope=0.1)`."""
    return lambda *inputs, **given: run(domain, op, since, inputs, **given)


def kernel_ranges(domain: str, op: str) -> list[tuple[int, int | None]]:
    """The (since, until) ranges of the kernels registered for an op."""
    return [(e.since, e.until) for e in all_kernels().get((domain, op), ())]


def assert_ranges_exercised(op: str, tested_versions: set[int]) -> None:
    """Every registered kernel range of ai.onnx `op` serves some onnx version and some test runs one of those."""
    missing = []
    for since, until in kernel_ranges("ai.onnx", op):
        served = [v for v in onnx_versions(op) if since <= v and (until is None or v <= until)]
        if not served:
            missing.append(f"{op} {since}..{until} serves no schema version")
        elif not set(served) & tested_versions:
            missing.append(f"{op} {since}..{until}")
    assert not missing, f"registered kernels without a test case: {missing}"


# ---------------------------------------------------------------------------------------- formulas


def shapes_of(inputs: Sequence[np.ndarray | Shape]) -> list[list[int | Sym] | None]:
    """Input shapes of arrays or plain shapes (None stays None: an omitted input)."""
    shapes: list[list[int | Sym] | None] = []
    for x in inputs:
        dims = None if x is None else x.shape if isinstance(x, np.ndarray) else x
        shapes.append(None if dims is None else [d if isinstance(d, Sym) else int(d) for d in dims])
    return shapes


def inferred(v: OpVersion, inputs: Sequence[np.ndarray | Shape], attrs: Mapping[str, Any] | None = None,
             values: Mapping[str, Any] | None = None) -> InferResult:
    """The registry's inference for arrays (or plain shapes; None for an omitted input)."""
    return infer_shapes(v, shapes_of(inputs), dict(attrs or {}), values)


def formula_shapes(v: OpVersion, inputs: Sequence[np.ndarray | Shape], attrs: Mapping[str, Any] | None = None,
                   values: Mapping[str, Any] | None = None) -> list[list[int] | None]:
    """Output shapes by the registry's formulas; fails when inference reports any problem."""
    result = inferred(v, inputs, attrs, values)
    assert not result.problems, f"{v.signature}: {result.problems}"
    return [None if s is None else [int(str(d)) for d in s] for s in result.outputs]


def problem_checks(v: OpVersion, inputs: Sequence[np.ndarray | Shape], attrs: Mapping[str, Any] | None = None,
                   values: Mapping[str, Any] | None = None) -> list[str]:
    """Ids of every check the registry reports for a node: shapes and constraints, then attributes."""
    shapes = shapes_of(inputs)
    result = infer_shapes(v, shapes, dict(attrs or {}), values)
    return [p.check for p in result.problems + validate_attributes(v, dict(attrs or {}), shapes)]


def assert_kernel_agrees_with_formula(v: OpVersion, inputs: Sequence[np.ndarray | None],
                                      attrs: Mapping[str, Any] | None = None) -> tuple[np.ndarray, ...]:
    """Run the kernel and check its output shapes against the shape formula (input values are known)."""
    values = {p.name: x for p, x in zip(v.inputs, inputs, strict=False) if x is not None and not p.variadic}
    want = formula_shapes(v, list(inputs), attrs, values)
    got = run_kernel(v, list(inputs), dict(attrs or {}))
    shapes = [list(y.shape) for y in got]
    known = [(w, g) for w, g in zip(want, shapes, strict=False) if w is not None]
    assert all(w == g for w, g in known), f"{v.signature}: the formula gives {want}, the kernel {shapes} for {attrs}"
    return got


# ---------------------------------------------------------------------------------------- tengine
# (helpers only Tengine op tests share go here)


def _known_values(v: OpVersion, inputs: Sequence[np.ndarray | None]) -> dict[str, list[Any]]:
    return {p.name: x.reshape(-1).tolist() for p, x in zip(v.inputs, inputs, strict=False)
            if x is not None and not p.variadic}


def tengine_run(op: str, inputs: Sequence[np.ndarray | None], **given: Any) -> tuple[np.ndarray, ...]:
    """Tengine `op`'s kernel (as `run` calls it), once the registry's formulas gave exactly the shapes it
    returns, one formula per output, with no problem reported (input values are known)."""
    v = version("tengine", op, 1)
    want = formula_shapes(v, list(inputs), given, _known_values(v, inputs))
    got = run("tengine", op, 1, inputs, **given)
    shapes = [list(y.shape) for y in got]
    assert want == shapes, f"{v.signature}: the formula gives {want}, the kernel {shapes} for {given}"
    return got


def tengine_problems(op: str, inputs: Sequence[np.ndarray | None], **given: Any) -> list[str]:
    """`problem_checks` for a Tengine node whose input values are known (the kernel is not run)."""
    v = version("tengine", op, 1)
    return problem_checks(v, list(inputs), given, _known_values(v, inputs))


def pointwise(fn: Callable[[float], float], x: np.ndarray) -> np.ndarray:
    """`fn` applied to every element of `x` as a Python float: an independent elementwise computation."""
    return np.array([fn(float(v)) for v in x.reshape(-1)]).reshape(x.shape)


def assert_pointwise_kernel(op: str, x: np.ndarray, fn: Callable[[float], float], *, rtol: float = 1e-12,
                            atol: float = 1e-12, **given: Any) -> None:
    """Tengine `op` on `x` keeps its shape and dtype, and gives `fn` of every element."""
    (y,) = run("tengine", op, 1, [x], **given)
    assert y.shape == x.shape and y.dtype == x.dtype, f"tengine::{op}: {y.dtype}{y.shape} for {x.dtype}{x.shape}"
    np.testing.assert_allclose(y, pointwise(fn, x), rtol=rtol, atol=atol, err_msg=f"tengine::{op} {given}")


def first_extreme(x: np.ndarray, axis: int, better: Callable[[Any, Any], bool]) -> np.ndarray:
    """Index (int32) along `axis` of the first element no other is `better` than, found by a plain scan."""
    moved = np.moveaxis(x, axis, -1)
    found = np.zeros(moved.shape[:-1], np.int32)
    for idx in np.ndindex(*moved.shape[:-1]):
        best = 0
        for i in range(1, moved.shape[-1]):
            if better(moved[idx][i], moved[idx][best]):
                best = i
        found[idx] = best
    return found


def box_iou(p: Sequence[float], q: Sequence[float]) -> float:
    """Intersection over union of two boxes `x0, y0, x1, y1` (0 when they do not touch)."""
    if p[0] > q[2] or p[2] < q[0] or p[1] > q[3] or p[3] < q[1]:
        return 0.0
    inter = (min(p[2], q[2]) - max(p[0], q[0])) * (min(p[3], q[3]) - max(p[1], q[1]))
    return inter / ((p[2] - p[0]) * (p[3] - p[1]) + (q[2] - q[0]) * (q[3] - q[1]) - inter)


Scored = tuple[float, int, list[float]]  # (score, class or prior index, box)


def greedy_nms(candidates: Sequence[Scored], threshold: float) -> list[Scored]:
    """Greedy non-maximum suppression over candidates already in the order to keep them."""
    kept: list[Scored] = []
    for cand in candidates:
        if all(box_iou(cand[2], k[2]) <= threshold for k in kept):
            kept.append(cand)
    return kept


def consecutive_pieces(x: np.ndarray, axis: int, sizes: Sequence[int]) -> list[np.ndarray]:
    """`x` cut along `axis` into consecutive parts of `sizes`, element by element with np.take."""
    start, out = 0, []
    for s in sizes:
        out.append(np.take(x, list(range(start, start + s)), axis=axis))
        start += s
    return out


# the domain-wide checks of Tengine (and of ai.onnx.modified, whose tests live beside them)


def assert_kernel_or_documented_gap(v: OpVersion) -> None:
    """A kernel and an executable example, or an entry in NO_REFERENCE_KERNEL that the op's doc explains."""
    from conformance.kernels import NO_REFERENCE_KERNEL

    if (v.domain, v.name) in NO_REFERENCE_KERNEL:
        assert find_kernel(v.domain, v.name, v.since) is None, f"{v.signature} has a kernel: drop it from the table"
        assert "no reference kernel" in v.doc, f"{v.signature}: the doc does not say it has no reference kernel"
        return
    assert find_kernel(v.domain, v.name, v.since) is not None, f"{v.signature}: no kernel"
    assert v.examples, f"{v.signature}: no executable example"


def assert_example_holds(v: OpVersion, example: str) -> None:
    """The kernel gives the outputs of `v`'s example named `example` (dtype, shape, values within 1e-5), the
    formulas give their shapes, and no constraint rejects it."""
    from conformance.strategies.examples import example_arrays

    ex = next(e for e in v.examples if e.name == example)
    inputs, names = example_arrays(v.inputs, ex.inputs)
    while names and names[-1] == "":
        inputs.pop()
        names.pop()
    values = {n: x.reshape(-1).tolist() for n, x in zip(names, inputs, strict=True) if x is not None}
    result = inferred(v, inputs, ex.attributes, values)
    assert not result.problems, f"{v.signature} {ex.name}: {result.problems}"
    got = run(v.domain, v.name, v.since, inputs, **ex.attributes)
    wants, _ = example_arrays(v.outputs, ex.outputs)
    assert len(got) == len(wants), f"{v.signature} {ex.name}: {len(got)} outputs, the example states {len(wants)}"
    if not v.outputs[-1].variadic:
        assert len(got) == len(v.outputs), f"{v.signature} {ex.name}: {len(got)} outputs"
    for i, (y, want) in enumerate(zip(got, wants, strict=True)):
        param = v.outputs[min(i, len(v.outputs) - 1)]
        assert want is not None, f"{v.signature} {ex.name}: output {i} is not stated"
        if param.formula is not None:
            formula = result.outputs[i] if i < len(result.outputs) else None
            assert formula == list(want.shape), f"{v.signature} {ex.name}: formula gives {formula}"
        assert y.dtype == want.dtype and y.shape == want.shape, f"{ex.name}: {y.dtype}{y.shape} vs {want.shape}"
        np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6, err_msg=f"{v.signature} {ex.name}")


# ---------------------------------------------------------------------------------------- onnx oracles


def one_node_model(op: str, opset: int, inputs: Sequence[np.ndarray | None], attrs: Mapping[str, Any],
                   n_out: int, *, constants: Sequence[int] = (), domain: str = "") -> tuple[onnx.ModelProto,
                                                                                             dict[str, np.ndarray]]:
    """A one-node model and its feeds; inputs at the positions `constants` become initializers.

    Outputs carry no type, so both runtimes infer them. A com.microsoft node also imports ai.onnx 18.
    """
    names, graph_inputs, inits, feeds = [], [], [], {}
    for i, arr in enumerate(inputs):
        if arr is None:
            names.append("")
            continue
        name = f"in{i}"
        names.append(name)
        arr = np.asarray(arr)
        if i in constants:
            inits.append(numpy_helper.from_array(arr, name))
        else:
            graph_inputs.append(helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(arr.dtype),
                                                              arr.shape))
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


def run_onnx_reference(model: onnx.ModelProto, feeds: Mapping[str, np.ndarray]) -> list[np.ndarray]:
    from onnx.reference import ReferenceEvaluator

    return [np.asarray(x) for x in ReferenceEvaluator(model).run(None, dict(feeds))]


def run_onnxruntime(model: onnx.ModelProto, feeds: Mapping[str, np.ndarray]) -> list[np.ndarray]:
    import onnxruntime as ort

    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return [np.asarray(x) for x in session.run(None, dict(feeds))]


@dataclass
class OracleCase:
    """One kernel case checked against an independent oracle at each listed opset of its op."""

    op: str
    attrs: dict[str, Any]
    inputs: list[np.ndarray | None]
    since: tuple[int, ...]  # the schema versions this case applies to (each is run)
    n_out: int = 1
    # "ref" (onnx.reference), "ref@N" (the reference at opset N), "ort", or a function giving the outputs
    oracle: str | Callable[[], list[np.ndarray]] = "ref"
    rtol: float = 1e-4
    id: str = ""
    domain: str = "ai.onnx"

    def label(self, opset: int) -> str:
        return f"{self.domain}@{opset}::{self.op} ({self.id or 'basic'}, {self.attrs})"


def oracle_params(cases: Sequence[OracleCase]) -> list[Any]:
    """pytest params (case, opset) with ids like `v11-k3s2`."""
    import pytest

    return [pytest.param(c, v, id=f"v{v}-{c.id or 'basic'}") for c in cases for v in c.since]


def oracle_outputs(case: OracleCase, opset: int) -> list[np.ndarray]:
    if callable(case.oracle):
        return case.oracle()
    if "@" in case.oracle:
        opset = int(case.oracle.split("@")[1])
    node_domain = "" if case.domain == "ai.onnx" else case.domain
    model, feeds = one_node_model(case.op, opset, case.inputs, case.attrs, case.n_out, domain=node_domain)
    if case.oracle.startswith("ort"):
        return run_onnxruntime(model, feeds)
    return run_onnx_reference(model, feeds)


def kernel_outputs(case: OracleCase, opset: int) -> tuple[np.ndarray, ...]:
    """Our kernel on the case at `opset`; tensor attributes arrive as numpy arrays, as in a node."""
    given = {k: numpy_helper.to_array(v) if isinstance(v, onnx.TensorProto) else v for k, v in case.attrs.items()}
    resolved = registry().try_resolve(case.domain, case.op, opset)
    if resolved is None:  # Upsample-1 is in onnx but not in the registry: its cases state every attribute
        fn = find_kernel(case.domain, case.op, opset)
        assert fn is not None, f"no kernel for {case.label(opset)}"
        return fn(*case.inputs, **given)
    assert resolved.since == opset, f"{case.op}: opset {opset} resolves to the registry version {resolved.since}"
    return run_kernel(resolved, case.inputs, given, case.n_out)


def assert_matches_oracle(case: OracleCase, opset: int) -> None:
    """Our kernel's outputs equal the oracle's: count, shape, dtype, then values within `rtol`."""
    want = oracle_outputs(case, opset)
    got = kernel_outputs(case, opset)
    label = case.label(opset)
    assert isinstance(got, tuple), f"{label}: the kernel must return a tuple"
    assert len(got) >= len(want), f"{label}: {len(got)} outputs, expected at least {len(want)}"
    for k, (g, w) in enumerate(zip(got, want, strict=False)):
        if w.dtype == np.bool_ and g.dtype != np.bool_ and case.op == "Dropout":
            # Dropout before opset 10: the reference gives a bool mask where the schema's mask type is T
            first = case.inputs[0]
            assert first is not None and g.dtype == first.dtype, f"{label}: mask dtype {g.dtype}"
            w = w.astype(g.dtype)
        assert g.shape == w.shape, f"{label}: output {k} shape {g.shape} but expected {w.shape}"
        assert g.dtype == w.dtype, f"{label}: output {k} dtype {g.dtype} but expected {w.dtype}"
        if w.dtype.kind in "fc":
            np.testing.assert_allclose(g, w, rtol=case.rtol, atol=case.rtol, err_msg=f"{label}: output {k}")
        else:
            np.testing.assert_array_equal(g, w, err_msg=f"{label}: output {k}")


# ---------------------------------------------------------------------------------------- shape oracle


@dataclass
class ShapeCase:
    """A node whose output shapes onnx.shape_inference (strict) and the registry's formulas must agree on."""

    op: str
    opset: int
    inputs: list[np.ndarray | None]  # arrays: their shapes, and their values for `constants`
    attrs: dict[str, Any] = field(default_factory=dict)
    n_out: int = 1
    constants: tuple[int, ...] = ()  # inputs whose values both sides know (initializers)
    # outputs onnx infers no shape for: what our formula must give instead
    not_inferred_by_onnx: dict[int, list[int]] = field(default_factory=dict)

    def label(self) -> str:
        shapes = [list(x.shape) if x is not None else None for x in self.inputs]
        return f"ai.onnx@{self.opset}::{self.op} inputs {shapes} {self.attrs}"


def onnx_inferred_shapes(case: ShapeCase) -> list[list[int | str] | None]:
    """Output shapes by onnx's strict shape inference (None where it infers none; dim_param text for unknowns)."""
    model, _ = one_node_model(case.op, case.opset, case.inputs, case.attrs, case.n_out, constants=case.constants)
    model.ir_version = 10
    result = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    shapes: list[list[int | str] | None] = []
    for out in result.graph.output:
        t = out.type.tensor_type
        if not t.HasField("shape"):
            shapes.append(None)
        else:
            shapes.append([d.dim_value if d.HasField("dim_value") else d.dim_param for d in t.shape.dim])
    return shapes


def assert_shapes_match_onnx(case: ShapeCase) -> None:
    """No problem reported, and every dim onnx knows equals the formula's (onnx's unknown dims match anything)."""
    v = registry().resolve("ai.onnx", case.op, case.opset)
    values = {v.inputs[i].name: np.asarray(case.inputs[i]).reshape(-1).tolist() for i in case.constants}
    result = inferred(v, list(case.inputs), case.attrs, values)
    shapes = [list(x.shape) if x is not None else None for x in case.inputs]
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
        assert mine is not None and len(mine) == len(want), f"{label}: output {k} is {mine}, onnx says {want}"
        for got, expected in zip(mine, want, strict=True):
            if isinstance(expected, int):
                assert got == expected, f"{label}: output {k} has shape {mine} by the formula, {want} by onnx"


# ---------------------------------------------------------------------------------------- op modules
# (what the ai.onnx and com.microsoft op modules under tests/ops/ share)


class Seeded:
    """A module's own random case data: one fixed seed per module, so its values do not depend on which
    other modules were collected before it (the shared `f32` draws from one generator per process)."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def f32(self, *shape: int) -> np.ndarray:
        """Standard-normal float32 data of `shape`."""
        return self.rng.standard_normal(shape).astype(np.float32)

    def ints(self, low: int, high: int, shape: tuple[int, ...], dtype: type[np.integer[Any]]) -> np.ndarray:
        """Uniform integers in [low, high) of `shape`, as `dtype`."""
        return self.rng.integers(low, high, shape).astype(dtype)


def shape_case(op: str, opset: int, inputs: Sequence[Sequence[int] | np.ndarray | None],
               attrs: Mapping[str, Any] | None = None, n_out: int = 1,
               not_inferred_by_onnx: Mapping[int, list[int]] | None = None) -> ShapeCase:
    """A ShapeCase written compactly: a list is the shape of a float32 input, an array a constant (an
    initializer: both sides know its values), None an omitted optional input."""
    arrays: list[np.ndarray | None] = []
    constants: list[int] = []
    for i, x in enumerate(inputs):
        if isinstance(x, np.ndarray):
            arrays.append(x)
            constants.append(i)
        else:
            arrays.append(None if x is None else np.zeros(tuple(x), np.float32))
    return ShapeCase(op, opset, arrays, dict(attrs or {}), n_out, tuple(constants), dict(not_inferred_by_onnx or {}))


def shape_id(case: ShapeCase) -> str:
    """`v11-1x4x7x7,6x2x3x3-group=2,strides=[2,2]`: the version, the inputs (a constant by its values), the
    attributes."""
    def one(i: int, x: np.ndarray | None) -> str:
        if x is None:
            return "none"
        if i in case.constants:
            return "[" + ",".join(str(v) if isinstance(v, int) else f"{v:g}" for v in x.reshape(-1).tolist()) + "]"
        return "x".join(map(str, x.shape)) or "scalar"

    def value(v: Any) -> str:
        return "[" + ",".join(map(str, v)) + "]" if isinstance(v, list | tuple) else str(v)

    parts = [f"v{case.opset}", ",".join(one(i, x) for i, x in enumerate(case.inputs))]
    if case.attrs:
        parts.append(",".join(f"{k}={value(v)}" for k, v in case.attrs.items()))
    return "-".join(parts)


def shape_params(cases: Sequence[ShapeCase]) -> list[Any]:
    """pytest params of shape cases, ids like `v11-1x4x7x7,6x2x3x3-group=2`."""
    import pytest

    return [pytest.param(c, id=shape_id(c)) for c in cases]


def reported_checks(case: ShapeCase) -> list[str]:
    """Ids of every check the registry reports for a shape case's node (its constants' values known)."""
    v = registry().resolve("ai.onnx", case.op, case.opset)
    values = {v.inputs[min(i, len(v.inputs) - 1)].name: np.asarray(case.inputs[i]).reshape(-1).tolist()
              for i in case.constants}
    return problem_checks(v, list(case.inputs), case.attrs, values)


def rejection_params(cases: Sequence[tuple[ShapeCase, str]]) -> list[Any]:
    """pytest params (case, check id) of nodes the registry must reject, ids like `v11-2x3-axis=3-concat_c2`."""
    import pytest

    return [pytest.param(c, check, id=f"{shape_id(c)}-{check}") for c, check in cases]


def symbolic_shape(op: str, opset: int, shapes: Sequence[Sequence[Any] | None], attrs: Mapping[str, Any] | None = None,
                   values: Mapping[str, Any] | None = None) -> list[str] | None:
    """The formula's first output shape as text (symbolic dims by name); fails on any problem."""
    result = infer_shapes(registry().resolve("ai.onnx", op, opset), [None if s is None else list(s) for s in shapes],
                          dict(attrs or {}), values)
    assert result.problems == [], f"{op}@{opset} {shapes}: {result.problems}"
    out = result.outputs[0]
    return None if out is None else [str(d) for d in out]


def assert_versions_exercised(op: str, tested_versions: set[int]) -> None:
    """Every onnx version of ai.onnx `op` (not only every kernel range) has a kernel and a kernel case."""
    missing = [v for v in onnx_versions(op) if v not in tested_versions]
    assert not missing, f"{op}: versions without a kernel case: {missing}"
    no_kernel = [v for v in onnx_versions(op) if find_kernel("ai.onnx", op, v) is None]
    assert not no_kernel, f"{op}: versions without a kernel: {no_kernel}"


def assert_registry_ranges_exercised(domain: str, op: str, tested_versions: set[int]) -> None:
    """Every registered kernel range of a non-ai.onnx op serves some registry version and some test runs one."""
    known = [v.since for v in registry().ops[(domain, op)].versions]
    missing = []
    for since, until in kernel_ranges(domain, op):
        served = [v for v in known if since <= v and (until is None or v <= until)]
        if not served:
            missing.append(f"{op} {since}..{until} serves no registry version")
        elif not set(served) & tested_versions:
            missing.append(f"{op} {since}..{until}")
    assert kernel_ranges(domain, op), f"{domain}::{op}: no kernel registered"
    assert not missing, f"registered kernels without a test case: {missing}"


def assert_examples_match_kernel_and_formula(domain: str, op: str) -> None:
    """The op has examples, and each one's outputs equal the kernel's and their shapes the formula's."""
    from conformance.strategies.examples import example_case

    with_examples = [v for v in registry().ops[(domain, op)].versions if v.examples]
    assert with_examples, f"{op} has no example"
    for v in with_examples:
        for example in v.examples:
            case, want = example_case(v, example)
            given = {k: numpy_helper.to_array(a) if isinstance(a, onnx.TensorProto) else a
                     for k, a in example.attributes.items()}
            got = run_kernel(v, list(case.inputs), given)
            shapes = [list(x.shape) if x is not None else None for x in case.inputs]
            values = {p.name: x.reshape(-1).tolist() for p, x in zip(v.inputs, case.inputs, strict=False)
                      if x is not None}
            result = infer_shapes(v, shapes, dict(example.attributes), values)
            assert not result.problems, f"{v.signature} example {example.name}: {result.problems}"
            by_name = dict(zip([p.name for p in v.outputs], result.outputs, strict=False))
            for name, g, w in zip(case.output_names, got, want, strict=False):
                label = f"{v.signature} example {example.name}, output {name}"
                assert list(w.shape) == by_name[name], f"{label}: the formula gives {by_name[name]}, the example " \
                                                       f"{list(w.shape)}"
                assert g.dtype == w.dtype, f"{label}: dtype {g.dtype}, expected {w.dtype}"
                np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=label)


def assert_shapes_match_onnxruntime(domain: str, op: str, since: int, inputs: Sequence[np.ndarray | None],
                                    attrs: Mapping[str, Any] | None = None) -> None:
    """For a domain onnx infers no shapes for: the formula's first output shape (no problem reported) equals the
    shape of what onnxruntime computes for a one-node model."""
    attrs = dict(attrs or {})
    mine = formula_shapes(version(domain, op, since), list(inputs), attrs)
    model, feeds = one_node_model(op, since, inputs, attrs, 1, domain=domain)
    theirs = list(run_onnxruntime(model, feeds)[0].shape)
    assert mine[0] == theirs, f"{domain}@{since}::{op} {attrs}: the formula gives {mine[0]}, onnxruntime {theirs}"


def op_test_path(domain: str, op: str) -> str:
    """Where an op's tests live: `tests/ops/<domain module>/test_<stem>.py`, the stem of its kernel file (its
    name in snake_case when it has no kernel)."""
    import re

    entries = all_kernels().get((domain, op), ())
    stem = entries[0].fn.__module__.rsplit(".", 1)[1] if entries else \
        re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", op).lower()
    return f"tests/ops/{domain.replace('.', '_')}/test_{stem}.py"


def op_module_problems(domain: str, op: str, check: str, assertion: str) -> list[str]:
    """What keeps an op's test module from guarding its kernel ranges, read from its source (not imported): the
    module `op_test_path` names must exist, set `OP = "<op>"` and define `check()` calling `assertion(OP, ...)`."""
    import ast
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / op_test_path(domain, op)
    if not path.is_file():
        return [f"{domain}::{op}: no test module {op_test_path(domain, op)}"]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {t.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
             for t in node.targets if isinstance(t, ast.Name) and isinstance(node.value, ast.Constant)}
    if names.get("OP") != op:
        return [f"{path.name}: OP is {names.get('OP')!r}, expected {op!r}"]
    functions = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    if check not in functions:
        return [f"{path.name}: no {check}()"]
    calls = [c for c in ast.walk(functions[check]) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
             and c.func.id == assertion]
    if not any(isinstance(a, ast.Name) and a.id == "OP" for c in calls for a in c.args):
        return [f"{path.name}: {check}() does not call {assertion}(..., OP, ...)"]
    return []


def ramp(*shape: int) -> np.ndarray:
    """float32 values evenly spaced over [-3, 3] in `shape` (deterministic data where values hardly matter)."""
    return np.linspace(-3, 3, int(np.prod(shape)), dtype=np.float32).reshape(shape)


def stray_op_test_modules(domain: str) -> list[str]:
    """Modules in the domain's test folder that `op_test_path` names for no op of the registry."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    folder = f"tests/ops/{domain.replace('.', '_')}"
    expected = {op_test_path(d, op) for (d, op) in registry().ops if d == domain} | {f"{folder}/test_domain_wide.py"}
    found = {p.relative_to(root).as_posix() for p in (root / folder).glob("test_*.py")}
    return sorted(found - expected)
