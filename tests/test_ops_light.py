"""ConstantOfShape, Dropout, LRN and Unsqueeze (the ops the onnx light models add): kernels and shapes.

Each kernel runs against onnx.reference on one-node models at every schema version (onnxruntime
where the reference is wrong or absent), and each output shape formula against
`onnx.shape_inference.infer_shapes(strict_mode=True)`; the constraints must name the violated id.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx
import onnx.defs
import pytest
from onnx import helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from conformance.kernels.registry import find_kernel, run_kernel
from conformance.strategies.examples import example_case
from opset.infer import Shape, infer_shapes, validate_attributes
from opset.load import load_registry
from opset.model import OpVersion

OPS = ("ConstantOfShape", "Dropout", "LRN", "Unsqueeze")
RNG = np.random.default_rng(2024)


def f32(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def i64(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int64)


@functools.cache
def versions(op: str) -> tuple[int, ...]:
    return tuple(sorted(s.since_version for s in onnx.defs.get_all_schemas_with_history()
                        if s.name == op and s.domain == ""))


def between(op: str, lo: int = 1, hi: int = 99) -> tuple[int, ...]:
    return tuple(v for v in versions(op) if lo <= v <= hi)


def registry_version(op: str, since: int) -> OpVersion:
    version = load_registry().resolve("ai.onnx", op, since)
    if version.since != since:
        raise LookupError(f"{op}: opset {since} resolves to the registry version {version.since}")
    return version


def one_node_model(op: str, opset: int, inputs: list[np.ndarray | None], attrs: dict[str, Any], n_out: int,
                   constants: tuple[int, ...] = ()) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    """A model of one node; inputs at the positions `constants` become initializers, the rest feeds."""
    names, graph_inputs, inits, feeds = [], [], [], {}
    for i, arr in enumerate(inputs):
        if arr is None:
            names.append("")
            continue
        name = f"in{i}"
        names.append(name)
        if i in constants:
            inits.append(numpy_helper.from_array(arr, name))
        else:
            graph_inputs.append(helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(arr.dtype),
                                                              arr.shape))
            feeds[name] = arr
    outs = [f"out{k}" for k in range(n_out)]
    node = helper.make_node(op, names, outs, **attrs)
    graph = helper.make_graph([node], "g", graph_inputs, [onnx.ValueInfoProto(name=o) for o in outs],
                              initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 7 if opset < 15 else 10
    return model, feeds


# ----------------------------------------------------------------------------------------------- kernels


@dataclass
class KernelCase:
    op: str
    attrs: dict[str, Any]
    inputs: list[np.ndarray | None]
    since: tuple[int, ...]
    n_out: int = 1
    # "ref" (onnx.reference), "ort" (onnxruntime), or a function giving the expected outputs
    oracle: str | Callable[[], list[np.ndarray]] = "ref"
    id: str = ""


def _legacy_mask(x: np.ndarray) -> Callable[[], list[np.ndarray]]:
    return lambda: [x, np.ones_like(x)]


def kernel_cases() -> list[KernelCase]:
    x = f32(2, 3, 4)
    cube = f32(5, 5, 3, 2)  # the reference LRN loops over range(N) for the channels: N >= C keeps it right
    tensor = helper.make_tensor("value", onnx.TensorProto.INT32, [1], [7])
    return [
        KernelCase("ConstantOfShape", {}, [i64(2, 3)], versions("ConstantOfShape"), id="default"),
        KernelCase("ConstantOfShape", dict(value=tensor), [i64(4, 1, 2)], versions("ConstantOfShape"),
                   id="int32"),
        KernelCase("ConstantOfShape", {}, [i64()], versions("ConstantOfShape"), id="scalar"),
        KernelCase("ConstantOfShape", {}, [i64(3, 0)], versions("ConstantOfShape"), id="empty"),
        KernelCase("Dropout", dict(is_test=1), [x], between("Dropout", 1, 6), n_out=2, oracle=_legacy_mask(x),
                   id="is_test"),
        KernelCase("Dropout", dict(ratio=0.0), [x], between("Dropout", 1, 6), n_out=2, oracle=_legacy_mask(x),
                   id="ratio0"),
        # the reference's mask is bool where the schema says T; the comparison casts it
        KernelCase("Dropout", {}, [x], between("Dropout", 7), n_out=2, id="default"),
        KernelCase("Dropout", dict(ratio=0.3), [x], between("Dropout", 7, 11), n_out=2, id="ratio"),
        KernelCase("Dropout", {}, [x, np.array(0.3, np.float32)], between("Dropout", 12), n_out=2, id="ratio"),
        KernelCase("Dropout", dict(seed=3), [x, np.array(0.3, np.float32), np.array(False)], between("Dropout", 12),
                   n_out=2, id="inference"),
        KernelCase("Dropout", {}, [x, np.array(0.0, np.float32), np.array(True)], between("Dropout", 12),
                   n_out=2, id="train_ratio0"),
        KernelCase("Dropout", {}, [x], between("Dropout", 7), id="no_mask"),
        KernelCase("LRN", dict(size=3), [cube], versions("LRN"), id="size3"),
        KernelCase("LRN", dict(size=2, alpha=0.01, beta=0.5, bias=2.0), [cube], versions("LRN"), id="even"),
        KernelCase("LRN", dict(size=5, alpha=1e-4, beta=0.75, bias=1.0), [f32(2, 7, 5, 4)], versions("LRN"),
                   oracle="ort", id="alexnet"),
        KernelCase("LRN", dict(size=9, alpha=0.5), [f32(1, 4, 3, 3)], versions("LRN"), oracle="ort",
                   id="window_wider_than_c"),
        KernelCase("Unsqueeze", dict(axes=[0, 4]), [x], between("Unsqueeze", 1, 12), id="attr"),
        # the reference expands the axes one by one in the given order, which the spec says must not matter
        KernelCase("Unsqueeze", dict(axes=[2, 1]), [x], between("Unsqueeze", 1, 12), oracle="ort", id="unsorted"),
        KernelCase("Unsqueeze", dict(axes=[-1, -5]), [x], between("Unsqueeze", 11, 12), oracle="ort",
                   id="negative"),
        KernelCase("Unsqueeze", {}, [x, i64(0, 4)], between("Unsqueeze", 13), id="input"),
        KernelCase("Unsqueeze", {}, [x, i64(-1, 1, -6)], between("Unsqueeze", 13), id="negative"),
        KernelCase("Unsqueeze", {}, [np.array(2.5, np.float32), i64(0)], between("Unsqueeze", 13), id="scalar"),
    ]


KERNEL_CASES = kernel_cases()


def expected(c: KernelCase, version: int) -> list[np.ndarray]:
    if callable(c.oracle):
        return c.oracle()
    model, feeds = one_node_model(c.op, version, c.inputs, c.attrs, c.n_out)
    if c.oracle == "ort":
        import onnxruntime as ort

        session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        return list(session.run(None, feeds))
    return list(ReferenceEvaluator(model).run(None, feeds))


def ours(op: str, version: int, inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> tuple[np.ndarray, ...]:
    given = {k: numpy_helper.to_array(v) if isinstance(v, onnx.TensorProto) else v for k, v in attrs.items()}
    return run_kernel(registry_version(op, version), inputs, given)


@pytest.mark.parametrize(("case", "version"), [pytest.param(c, v, id=f"{c.op}@{v}-{c.id}")
                                               for c in KERNEL_CASES for v in c.since])
def test_kernel_matches_oracle(case: KernelCase, version: int) -> None:
    want = expected(case, version)
    got = ours(case.op, version, case.inputs, case.attrs)
    label = f"{case.op}@{version} ({case.id}, {case.attrs})"
    assert isinstance(got, tuple), f"{label}: the kernel must return a tuple"
    assert len(got) >= len(want), f"{label}: {len(got)} outputs, expected at least {len(want)}"
    for k, w in enumerate(want):
        g = got[k]
        assert g.shape == w.shape, f"{label}: output {k} has shape {g.shape}, expected {w.shape}"
        if w.dtype == np.bool_ and g.dtype != np.bool_:
            # Dropout before opset 10: the reference gives a bool mask where the schema's mask type is T
            assert g.dtype == case.inputs[0].dtype, f"{label}: mask dtype {g.dtype}, expected the data's"  # type: ignore[union-attr]
            w = w.astype(g.dtype)
        assert g.dtype == w.dtype, f"{label}: output {k} dtype {g.dtype}, expected {w.dtype}"
        if w.dtype.kind == "f":
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=f"{label}: output {k}")
        else:
            np.testing.assert_array_equal(g, w, err_msg=f"{label}: output {k}")


def test_every_version_has_a_kernel_case() -> None:
    tested = {(c.op, v) for c in KERNEL_CASES for v in c.since}
    missing = [f"{op}@{v}" for op in OPS for v in versions(op) if (op, v) not in tested]
    assert not missing, f"versions without a kernel case: {missing}"
    no_kernel = [f"{op}@{v}" for op in OPS for v in versions(op) if find_kernel("ai.onnx", op, v) is None]
    assert not no_kernel, f"versions without a kernel: {no_kernel}"


def test_dropout_returns_mask_typed_by_version() -> None:
    x = f32(3, 2)
    for version, dtype in ((1, np.float32), (7, np.float32), (10, np.bool_), (12, np.bool_), (22, np.bool_)):
        out = ours("Dropout", version, [x], {"is_test": 1} if version < 7 else {})
        assert len(out) == 2, f"Dropout@{version}: {len(out)} outputs, expected output and mask"
        assert out[1].dtype == dtype and bool(np.all(out[1])), f"Dropout@{version}: mask {out[1]!r}"


def test_lrn_matches_the_definition_on_any_rank() -> None:
    """The windowed sum of squares, written as the doc states it, on a rank-3 and a rank-5 input."""
    for x, size in ((f32(2, 6, 5), 4), (f32(1, 5, 2, 3, 2), 3)):
        channels = x.shape[1]
        square_sum = np.zeros_like(x)
        for c in range(channels):
            lo, hi = max(0, c - (size - 1) // 2), min(channels - 1, c + size // 2)
            square_sum[:, c] = np.sum(x[:, lo:hi + 1] ** 2, axis=1)
        want = x / (1.0 + 0.1 / size * square_sum) ** 0.75
        (got,) = ours("LRN", 13, [x], dict(size=size, alpha=0.1))
        np.testing.assert_allclose(got, want, rtol=1e-5, err_msg=f"LRN rank {x.ndim} size {size}")


@pytest.mark.parametrize(("op", "version", "inputs", "attrs", "message"), [
    ("Dropout", 12, [f32(2, 3), np.array(0.5, np.float32), np.array(True)], {}, "training_mode"),
    ("Dropout", 12, [f32(2, 3), None, np.array(True)], {}, "training_mode"),
    ("Dropout", 1, [f32(2, 3)], {}, "is_test"),
    ("Dropout", 7, [f32(2, 3)], {"ratio": 1.0}, "ratio"),
    ("ConstantOfShape", 9, [i64(2, -1)], {}, "negative"),
    ("ConstantOfShape", 9, [i64(2)], {"value": helper.make_tensor("v", onnx.TensorProto.FLOAT, [2], [1, 2])},
     "one element"),
    ("Unsqueeze", 11, [f32(2, 3)], {"axes": [3]}, "out of range"),
    ("Unsqueeze", 13, [f32(2, 3), i64(1, -3)], {}, "repeated"),
    ("LRN", 13, [f32(4)], {"size": 3}, "rank"),
])
def test_kernel_rejects_invalid_input(op: str, version: int, inputs: list[np.ndarray | None], attrs: dict[str, Any],
                                      message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ours(op, version, inputs, attrs)


@pytest.mark.parametrize("op", OPS)
def test_examples_match_kernel_and_formula(op: str) -> None:
    op_versions = [v for v in load_registry().ops[("ai.onnx", op)].versions if v.examples]
    assert op_versions, f"{op} has no example"
    for version in op_versions:
        for example in version.examples:
            case, want = example_case(version, example)
            got = ours(op, version.since, list(case.inputs), dict(example.attributes))
            shapes = [list(x.shape) if x is not None else None for x in case.inputs]
            values = {p.name: x.reshape(-1).tolist() for p, x in zip(version.inputs, case.inputs, strict=False)
                      if x is not None}
            inferred = infer_shapes(version, shapes, dict(example.attributes), values)
            assert not inferred.problems, f"{version.signature} example {example.name}: {inferred.problems}"
            by_name = dict(zip([p.name for p in version.outputs], inferred.outputs, strict=False))
            for name, g, w in zip(case.output_names, got, want, strict=False):
                shape = by_name[name]
                label = f"{version.signature} example {example.name}, output {name}"
                assert list(w.shape) == shape, f"{label}: the formula gives {shape}, the example {list(w.shape)}"
                assert g.dtype == w.dtype, f"{label}: dtype {g.dtype}, expected {w.dtype}"
                np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=label)


# ----------------------------------------------------------------------------------------------- shapes


@dataclass
class ShapeCase:
    op: str
    opset: int
    inputs: list[np.ndarray | None]
    attrs: dict[str, Any]
    n_out: int = 1
    constants: tuple[int, ...] = ()  # inputs whose values both sides know (initializers)
    # outputs onnx infers no shape for: what our formula must give instead
    not_inferred_by_onnx: dict[int, list[int]] = field(default_factory=dict)


def shape_cases() -> list[ShapeCase]:
    x = f32(2, 3, 4)
    cases = [ShapeCase("ConstantOfShape", v, [shape], {}, constants=(0,))
             for v in versions("ConstantOfShape") for shape in (i64(2, 3), i64(), i64(5, 0, 1))]
    for v in versions("Dropout"):
        if v < 12:
            missing = {0: [2, 3, 4], 1: [2, 3, 4]} if v == 1 else {1: [2, 3, 4]} if v < 10 else {}
            cases.append(ShapeCase("Dropout", v, [x], {}, n_out=2, not_inferred_by_onnx=missing))
        else:
            cases.append(ShapeCase("Dropout", v, [x, np.array(0.2, np.float32), np.array(False)], {}, n_out=2))
            cases.append(ShapeCase("Dropout", v, [f32(5)], {}, n_out=1))
    cases += [ShapeCase("LRN", v, [f32(*s)], {"size": 3}) for v in versions("LRN") for s in ((1, 4, 5, 5), (2, 3, 4))]
    for v in between("Unsqueeze", 1, 12):
        cases += [ShapeCase("Unsqueeze", v, [x], {"axes": axes}) for axes in ([0], [4, 0], [1, 2, 5], [3])]
    for v in between("Unsqueeze", 11, 12):
        cases += [ShapeCase("Unsqueeze", v, [x], {"axes": axes}) for axes in ([-1], [-5, 2])]
    for v in between("Unsqueeze", 13):
        cases += [ShapeCase("Unsqueeze", v, [x, i64(*axes)], {}, constants=(1,))
                  for axes in ((0,), (-1, 0), (1, -2, 5))]
        cases.append(ShapeCase("Unsqueeze", v, [np.array(1.0, np.float32), i64(0, -1)], {}, constants=(1,)))
    return cases


def onnx_output_shapes(c: ShapeCase) -> list[list[int] | None]:
    model, _ = one_node_model(c.op, c.opset, c.inputs, c.attrs, c.n_out, c.constants)
    inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    shapes: list[list[int] | None] = []
    for out in inferred.graph.output:
        t = out.type.tensor_type
        shapes.append([d.dim_value for d in t.shape.dim] if t.HasField("shape") else None)
    return shapes


def registry_output_shapes(c: ShapeCase) -> tuple[list[Any], list[str]]:
    version = load_registry().resolve("ai.onnx", c.op, c.opset)
    shapes = [list(x.shape) if x is not None else None for x in c.inputs]
    values = {version.inputs[i].name: c.inputs[i].reshape(-1).tolist() for i in c.constants}  # type: ignore[union-attr]
    result = infer_shapes(version, shapes, c.attrs, values)
    problems = [f"{p.check}: {p.message}" for p in result.problems + validate_attributes(version, c.attrs, shapes)]
    return result.outputs, problems


@pytest.mark.parametrize("case", [pytest.param(c, id=f"{c.op}@{c.opset}-{i}") for i, c in enumerate(shape_cases())])
def test_shape_formula_matches_onnx(case: ShapeCase) -> None:
    theirs = onnx_output_shapes(case)
    mine, problems = registry_output_shapes(case)
    label = f"{case.op}@{case.opset} inputs {[list(x.shape) for x in case.inputs if x is not None]} {case.attrs}"
    assert not problems, f"{label}: {problems}"
    for k in range(case.n_out):
        want = theirs[k] if k not in case.not_inferred_by_onnx else case.not_inferred_by_onnx[k]
        assert theirs[k] is None or k not in case.not_inferred_by_onnx, f"{label}: onnx now infers output {k}"
        assert want is not None, f"{label}: onnx inferred no shape for output {k}"
        assert mine[k] == want, f"{label}: output {k} has shape {mine[k]} by the formula, {want} by onnx"


def test_data_dependent_shapes_are_unknown_without_values() -> None:
    cases: list[tuple[str, int, list[Shape | None]]] = [("ConstantOfShape", 9, [[2]]),
                                                        ("Unsqueeze", 13, [[2, 3], [1]])]
    for op, opset, shapes in cases:
        result = infer_shapes(load_registry().resolve("ai.onnx", op, opset), shapes, {})
        assert result.outputs == [None], f"{op}@{opset}: {result.outputs} without values"
        assert not result.problems, f"{op}@{opset}: {result.problems}"


@pytest.mark.parametrize(("op", "opset", "shapes", "attrs", "values", "check"), [
    ("ConstantOfShape", 20, [[2]], {}, {"input": [3, -1]}, "constantofshape_c1"),
    ("Dropout", 7, [[2, 3]], {"ratio": 1.0}, {}, "dropout_c1"),
    ("Dropout", 13, [[2, 3], [], []], {}, {"ratio": [1.5]}, "dropout_c2"),
    ("Dropout", 13, [[2, 3], [1], []], {}, {}, "rank"),
    ("Unsqueeze", 1, [[2, 3]], {"axes": [1, 1]}, {}, "unsqueeze_c2"),
    ("Unsqueeze", 11, [[2, 3]], {"axes": [-4]}, {}, "unsqueeze_c1"),
    ("Unsqueeze", 13, [[2, 3], [2]], {}, {"axes": [0, -4]}, "unsqueeze_c2"),
    ("Unsqueeze", 13, [[2, 3], [1]], {}, {"axes": [3]}, "unsqueeze_c1"),
    ("LRN", 13, [[1, 3, 2, 2]], {"size": 0}, {}, "attr_range"),
    ("Unsqueeze", 1, [[2, 3]], {"axes": [-1]}, {}, "attr_range"),
])
def test_invalid_node_reports_the_check(op: str, opset: int, shapes: list[Shape | None], attrs: dict[str, Any],
                                        values: dict[str, list[int]], check: str) -> None:
    version = load_registry().resolve("ai.onnx", op, opset)
    result = infer_shapes(version, shapes, attrs, values)
    found = {p.check for p in result.problems + validate_attributes(version, attrs, shapes)}
    assert check in found, f"{op}@{opset} {shapes} {attrs} {values}: expected {check}, got {sorted(found)}"
