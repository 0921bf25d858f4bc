"""What an op test module is built from: seeded data, case tables and ids, coverage checks of ops and modules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import onnx
import onnx.defs
from onnx import numpy_helper

from conformance.kernels.registry import all_kernels, run_kernel
from opset.infer import infer_shapes
from opset.model import module_name
from tests.helpers.basics import formula_shapes, kernel_ranges, onnx_versions, problem_checks, registry, version
from tests.helpers.oracles import ShapeCase, one_node_model, run_onnxruntime

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


def shape_case(op: str, opset: int, inputs: Sequence[Sequence[Any] | np.ndarray | None],
               attrs: Mapping[str, Any] | None = None, n_out: int = 1,
               not_inferred_by_onnx: Mapping[int, list[int]] | None = None, *, domain: str = "ai.onnx",
               dtype: Any = np.float32) -> ShapeCase:
    """A ShapeCase written compactly: a list is the shape of an input of `dtype` (float32; `object` for a string
    tensor; a list of shapes a sequence of float32 tensors), an array a constant (an initializer: both sides know
    its values), None an omitted optional input; `domain` names the op's domain."""
    arrays: list[Any] = []
    constants: list[int] = []
    for i, x in enumerate(inputs):
        if isinstance(x, np.ndarray):
            arrays.append(x)
            constants.append(i)
        elif x is not None and len(x) and all(isinstance(s, list | tuple) for s in x):
            arrays.append([np.zeros(tuple(s), np.float32) for s in x])
        else:
            arrays.append(None if x is None else np.zeros(tuple(x), dtype))
    return ShapeCase(op, opset, arrays, dict(attrs or {}), n_out, tuple(constants), dict(not_inferred_by_onnx or {}),
                     domain)


def shape_id(case: ShapeCase) -> str:
    """`v11-1x4x7x7,6x2x3x3-group=2,strides=[2,2]`: the version, the inputs (a constant by its values), the
    attributes."""
    def one(i: int, x: Any) -> str:
        if x is None:
            return "none"
        if isinstance(x, list):
            return "seq[" + ";".join("x".join(map(str, e.shape)) or "scalar" for e in x) + "]"
        if i in case.constants:
            shown = (str(v) if isinstance(v, int | str) else f"{v:g}" for v in x.reshape(-1).tolist())
            return "[" + ",".join(shown) + "]"
        return "x".join(map(str, x.shape)) or "scalar"

    def value(v: Any) -> str:
        if isinstance(v, onnx.GraphProto):  # a graph attribute by its name and its nodes' ops
            return f"{v.name}({'+'.join(n.op_type for n in v.node)})"
        return "[" + ",".join(map(str, v)) + "]" if isinstance(v, list | tuple) else str(v)

    parts = [f"v{case.opset}", ",".join(one(i, x) for i, x in enumerate(case.inputs))]
    if case.attrs:
        parts.append(",".join(f"{k}={value(v)}" for k, v in case.attrs.items()))
    return "-".join(parts)


def shape_params(cases: Sequence[ShapeCase]) -> list[Any]:
    """pytest params of shape cases, ids like `v11-1x4x7x7,6x2x3x3-group=2` (`ReduceSum-v11-...` in a table of
    several ops)."""
    import pytest

    several = len({c.op for c in cases}) > 1
    return [pytest.param(c, id=(f"{c.op}-" if several else "") + shape_id(c)) for c in cases]


def reported_checks(case: ShapeCase) -> list[str]:
    """Ids of every check the registry reports for a shape case's node (its constants' values known)."""
    v = registry().resolve(case.domain, case.op, case.opset)
    values = {v.inputs[min(i, len(v.inputs) - 1)].name: np.asarray(case.inputs[i]).reshape(-1).tolist()
              for i in case.constants}
    return problem_checks(v, list(case.inputs), case.attrs, values, case.n_out)


def rejection_params(cases: Sequence[tuple[ShapeCase, str]]) -> list[Any]:
    """pytest params (case, check id) of nodes the registry must reject, ids like `v11-2x3-axis=3-concat_c2`."""
    import pytest

    return [pytest.param(c, check, id=f"{shape_id(c)}-{check}") for c, check in cases]


def symbolic_shape(op: str, opset: int, shapes: Sequence[Sequence[Any] | None], attrs: Mapping[str, Any] | None = None,
                   values: Mapping[str, Any] | None = None, *, domain: str = "ai.onnx") -> list[str] | None:
    """The formula's first output shape as text (symbolic dims by name); fails on any problem."""
    result = infer_shapes(registry().resolve(domain, op, opset), [None if s is None else list(s) for s in shapes],
                          dict(attrs or {}), values)
    assert result.problems == [], f"{op}@{opset} {shapes}: {result.problems}"
    out = result.outputs[0]
    return None if out is None else [str(d) for d in out]


def assert_versions_exercised(op: str, tested_versions: set[int]) -> None:
    """Every onnx version of ai.onnx `op` (not only every kernel range) has a kernel case (that each has a
    kernel is test_domain_wide's)."""
    missing = [v for v in onnx_versions(op) if v not in tested_versions]
    assert not missing, f"{op}: versions without a kernel case: {missing}"


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
            got = run_kernel(v, list(case.inputs), given, len(case.output_names))
            shapes = [list(x.shape) if x is not None else None for x in case.inputs]
            values = {p.name: x.reshape(-1).tolist() for p, x in zip(v.inputs, case.inputs, strict=False)
                      if x is not None}
            result = infer_shapes(v, shapes, dict(example.attributes), values, output_count=len(case.output_names))
            assert not result.problems, f"{v.signature} example {example.name}: {result.problems}"
            by_name = dict(zip(case.output_names, result.outputs, strict=False))
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


# sibling ops tested by one parametrised table (a module for the family, not one per op): domain -> stem -> ops
FAMILY_MODULES: dict[str, dict[str, tuple[str, ...]]] = {
    "ai.onnx": {
        "windows": ("BlackmanWindow", "HammingWindow", "HannWindow"),
        "reductions": ("ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean",
                       "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare"),
        "logical": ("And", "Or", "Xor"),
        "bitwise": ("BitwiseAnd", "BitwiseOr", "BitwiseXor"),
    },
}


def op_test_path(domain: str, op: str) -> str:
    """Where an op's tests live: its family's table `tests/ops/<domain module>/test_<family>.py` (FAMILY_MODULES),
    else `tests/ops/<domain module>/test_<stem>.py`, the stem of its kernel file (its name in snake_case when it has
    no kernel)."""
    import re

    family = next((stem for stem, ops in FAMILY_MODULES.get(domain, {}).items() if op in ops), None)
    if family is not None:
        return f"tests/ops/{module_name(domain)}/test_{family}.py"
    entries = all_kernels().get((domain, op), ())
    stem = entries[0].fn.__module__.rsplit(".", 1)[1] if entries else \
        re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", op).lower()
    return f"tests/ops/{module_name(domain)}/test_{stem}.py"


# the calls that make a module check that every kernel range of its op is run by some case
COVERAGE_CALLS = frozenset({"oracle_tests", "assert_ranges_exercised", "assert_registry_ranges_exercised"})


def op_module_problems(domain: str, op: str) -> list[str]:
    """What keeps an op's test module from guarding its kernel ranges, read from its source (not imported): the
    module `op_test_path` names must exist, set `OP = "<op>"` and pass OP to one of COVERAGE_CALLS."""
    import ast
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / op_test_path(domain, op)
    if not path.is_file():
        return [f"{domain}::{op}: no test module {op_test_path(domain, op)}"]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {t.id: ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
             for t in node.targets if isinstance(t, ast.Name) and isinstance(node.value, ast.Constant | ast.Tuple)
             and t.id in ("OP", "OPS")}
    variable = "OPS" if "OPS" in names else "OP"  # a family's table names its ops in OPS
    named = names.get(variable)
    if (op not in named) if isinstance(named, tuple) else (named != op):
        return [f"{path.name}: {variable} is {named!r}, expected {op!r} (in it)"]
    calls = [c for c in ast.walk(tree) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
             and c.func.id in COVERAGE_CALLS]
    if not any(isinstance(a, ast.Name) and a.id == variable for c in calls for a in c.args):
        return [f"{path.name}: passes {variable} to none of {', '.join(sorted(COVERAGE_CALLS))}"]
    return []


def ramp(*shape: int) -> np.ndarray:
    """float32 values evenly spaced over [-3, 3] in `shape` (deterministic data where values hardly matter)."""
    return np.linspace(-3, 3, int(np.prod(shape)), dtype=np.float32).reshape(shape)


def stray_op_test_modules(domain: str) -> list[str]:
    """Modules in the domain's test folder that `op_test_path` names for no op of the registry."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    folder = f"tests/ops/{module_name(domain)}"
    expected = {op_test_path(d, op) for (d, op) in registry().ops if d == domain} | {f"{folder}/test_domain_wide.py"}
    found = {p.relative_to(root).as_posix() for p in (root / folder).glob("test_*.py")}
    return sorted(found - expected)
