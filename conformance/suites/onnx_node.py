"""onnx's node test suite as a conformance source: `conform --suite onnx-node --backend X`.

Each case of `onnx.backend.test.case.node.collect_testcases()` (a model, its inputs and onnx's expected
outputs) runs on the backend: a one-node model as one call, a multi-node model (the `_expanded` cases,
function bodies written out) node by node through the model runner, every node a call to the backend.
A case belongs to the cell of the op it tests (domain, op, the version its opset import resolves to,
the element type of its first input), so reports and expectations work as for the property tests.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import functools
import json
import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, Protocol

import numpy as np
import onnx

from conformance.backends.protocol import BackendCall, Outer, Unsupported
from conformance.compare import DEFAULT_TOLERANCE
from conformance.containers import as_value, cell_of_value, describe, shape_of
from conformance.element_types import element_of, is_ml_dtype
from conformance.models.runner import ModelRunner, NodeUnsupported
from conformance.runner.checks import ConformanceFailure
from conformance.runner.messages import exception_text
from conformance.runner.random_outputs import RandomCall, random_call, random_output_problems
from conformance.runner.readings import followed_reading
from conformance.runner.results import Failure
from conformance.runner.settings import CheckSettings
from conformance.runner.worker import RemoteError
from conformance.value_protos import save_value
from opset.dtypes import is_container
from opset.errors import ResolutionError
from opset.validate.facts import type_text


@dataclass(frozen=True, slots=True)
class SuiteCase:
    """One node-suite case and the cell it reports under."""

    name: str
    domain: str
    op: str
    since: int
    dtype: str


@functools.cache
def testcases() -> dict[str, Any]:
    from onnx.backend.test.case.node import collect_testcases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # onnx's case generators overflow casts on purpose
        cases = collect_testcases(None)
    return {c.name: dataclasses.replace(c, data_sets=[([_runtime_value(x) for x in inputs],
                                                      [_runtime_value(y) for y in outputs])
                                                     for inputs, outputs in (c.data_sets or [])])
            for c in cases}


def _runtime_value(value: Any) -> Any:
    """A case value as the runner holds it: onnx gives tensors of the types numpy lacks (bfloat16, float8, int4 ...)
    as TensorProtos, the rest as numpy values."""
    if isinstance(value, onnx.TensorProto):
        return onnx.numpy_helper.to_array(value)
    if isinstance(value, list):
        return [_runtime_value(x) for x in value]
    return value


def op_under_test(name: str, model: onnx.ModelProto, cases: Mapping[str, Any]) -> onnx.NodeProto | None:
    """The node whose op a case tests: the only node, or for an `_expanded` case its base case's node."""
    if len(model.graph.node) == 1:
        only: onnx.NodeProto = model.graph.node[0]
        return only
    base = re.sub(r"_expanded(_.*)?$", "", name)
    if base != name and base in cases and len(cases[base].model.graph.node) == 1:
        tested: onnx.NodeProto = cases[base].model.graph.node[0]
        return tested
    first: onnx.NodeProto | None = model.graph.node[0] if model.graph.node else None
    return first


def suite_cases(patterns: Sequence[str] = ()) -> list[SuiteCase]:
    """Every case (or those whose op or case name matches a glob of `patterns`) with its cell."""
    cases = testcases()
    out = []
    for name, case in sorted(cases.items()):
        node = op_under_test(name, case.model, cases)
        if node is None:
            continue
        if patterns and not any(fnmatch.fnmatchcase(node.op_type, p) or fnmatch.fnmatchcase(name, p)
                                for p in patterns):
            continue
        out.append(case_cell(name, case.model, node, case.data_sets[0][0] if case.data_sets else []))
    return out


def case_cell(name: str, model: onnx.ModelProto, node: onnx.NodeProto, inputs: Sequence[Any]) -> SuiteCase:
    """The cell a case of `model` reports under: the op of `node` (the one under test), the version its opset import
    resolves to, the element type (or container type) of the first input of `inputs` (its first data set)."""
    from conformance.onnx_model import registry_domain
    from conformance.registry import current_registry

    registry = current_registry()
    imports = {o.domain: o.version for o in model.opset_import}
    opset = imports.get(node.domain, imports.get("ai.onnx" if node.domain == "" else node.domain, 0))
    try:
        domain = registry_domain(node.domain)
    except ResolutionError:  # a domain the registry lacks: reported under the node's own spelling
        domain = node.domain or "ai.onnx"
    version = registry.try_resolve(domain, node.op_type, opset) if (domain, node.op_type) in registry.ops else None
    declared = [type_text(i.type) for i in model.graph.input]
    dtype = next((cell_of_value(x, t) for x, t in zip(inputs, declared, strict=False)), "none")
    return SuiteCase(name, domain, node.op_type, version.since if version is not None else opset, dtype)


class SuiteData(Protocol):
    """A case as onnx's TestCase holds it: a model, its data sets (inputs, expected outputs) and tolerances."""

    @property
    def model(self) -> onnx.ModelProto: ...

    @property
    def data_sets(self) -> Sequence[tuple[Sequence[Any], Sequence[Any]]] | None: ...

    @property
    def rtol(self) -> float: ...

    @property
    def atol(self) -> float: ...


def check_suite_case(name: str, backend: Any, settings: CheckSettings) -> None:
    """Run the case `name` on `backend`; raises Unsupported (NodeUnsupported) or ConformanceFailure."""
    case = testcases()[name]
    check_data_sets(f"onnx-node {name}", case, op_under_test(name, case.model, testcases()), backend, settings,
                    lambda k, what: _fail(name, k, settings, what))


def check_data_sets(label: str, case: SuiteData, node: onnx.NodeProto | None, backend: Any, settings: CheckSettings,
                    fail: Callable[[int, str], NoReturn], source: str = "onnx") -> None:
    """Run every data set of `case` on `backend` (its model node by node) and compare with the expected outputs;
    `node` is the node under test (whose op's random outputs are checked by their law), `fail(data set, what)`
    raises the failure, `source` names who states the expected outputs in messages."""
    model = case.model
    for k, (inputs, expected_values) in enumerate(case.data_sets or []):
        # sequences are lists, optionals None or their value, maps dicts (conformance.containers)
        feeds = dict(zip([i.name for i in model.graph.input], (as_value(x) for x in inputs), strict=False))
        expected = [as_value(y) for y in expected_values]
        runner = ModelRunner(model, _CallExecutor(backend, declared_types(model), settings.constant_inputs))
        try:
            got = runner.run(feeds)
        except NodeUnsupported:
            raise
        except Exception as e:  # the backend's error, a crash or a hang: a recorded failure of this case
            fail(k, e.text if isinstance(e, RemoteError) else exception_text(e))
        drawn = drawn_outputs(node, model, feeds) if node is not None else None
        problems = compare(list(got.values()), expected, case.rtol, case.atol, drawn, source=source)
        if problems:
            reading = _other_reading(model, feeds, expected)
            if reading is None:
                fail(k, "; ".join(problems))
            settings.stats.ambiguous.append(f"{label}: {source}'s expected outputs follow {reading}: "
                                            f"{'; '.join(problems)}")
            continue
        settings.stats.examples += 1


def _other_reading(model: onnx.ModelProto, feeds: dict[str, Any], expected: list[Any]) -> str | None:
    """For a one-node case, the registry reading (other than ours) that onnx's expected outputs follow."""
    from conformance.onnx_model import node_attributes, registry_domain
    from conformance.registry import current_registry

    if len(model.graph.node) != 1:
        return None
    node = model.graph.node[0]
    imports = {o.domain: o.version for o in model.opset_import}
    try:
        domain = registry_domain(node.domain)
        version = current_registry().try_resolve(domain, node.op_type, imports.get(node.domain, 0))
    except ResolutionError:
        return None
    if version is None:
        return None
    inits = {t.name: np.asarray(onnx.numpy_helper.to_array(t)) for t in model.graph.initializer}
    arrays = [feeds.get(n, inits.get(n)) if n else None for n in node.input]
    return followed_reading(version, arrays, node_attributes(node), [shape_of(x) for x in expected])


@dataclass(frozen=True, slots=True)
class Drawn:
    """The random outputs of a case (the registry's `random` key applies to the op under test): the call, and per
    graph output the op's output parameter it is, if random (None otherwise)."""

    call: RandomCall
    params: tuple[str | None, ...]


def _drawn(name: str, model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> Drawn | None:
    """The case's random outputs, when the op under test draws them here (RandomNormal, Bernoulli, Dropout in
    training ...): onnx's expected values come from one particular generator and cannot be matched value by
    value, so those outputs are checked for their shape, type and what the law determines."""
    nodes = model.graph.node
    node = nodes[0] if len(nodes) == 1 else op_under_test(name, model, testcases())
    return drawn_outputs(node, model, feeds) if node is not None else None


def drawn_outputs(node: onnx.NodeProto, model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> Drawn | None:
    """The random outputs `node` (the node under test of `model`) draws for `feeds`, if any (`_drawn`)."""
    from conformance.onnx_model import node_attributes, registry_domain
    from conformance.registry import current_registry
    from conformance.strategies.attributes import node_values
    from opset.infer import resolve_attributes

    imports = {o.domain: o.version for o in model.opset_import}
    try:
        domain = registry_domain(node.domain)
    except ResolutionError:
        return None
    registry = current_registry()
    version = registry.try_resolve(domain, node.op_type, imports.get(node.domain, 0)) \
        if (domain, node.op_type) in registry.ops else None
    if version is None or version.random is None:
        return None
    inits = {t.name: np.asarray(onnx.numpy_helper.to_array(t)) for t in model.graph.initializer}
    arrays = [feeds.get(n, inits.get(n)) if n else None for n in node.input]
    shapes = [list(x.shape) if x is not None else None for x in arrays]
    attributes = node_values(resolve_attributes(version, node_attributes(node), shapes))
    call = random_call(version, arrays, attributes)
    if call is None:
        return None
    param_of = {out: p.name for out, p in zip(node.output, version.outputs, strict=False) if out}
    params = tuple(param_of.get(o.name) if param_of.get(o.name) in call.outputs else None
                   for o in model.graph.output)
    return Drawn(call, params)


HALF_ATOL = 1e-3


def compare(got: Sequence[Any], expected: Sequence[Any], rtol: float, atol: float,
            drawn: Drawn | None = None, *, source: str = "onnx") -> list[str]:
    """onnx's node-suite rule: the same dtype and shape; floats within rtol/atol (NaN where NaN; float16 at
    least HALF_ATOL absolute); others equal. Sequences compare element by element, optionals empty where onnx's
    are, maps key by key. Outputs drawn at random (`drawn`) are not compared value by value: their law's checks
    (`random_outputs`) take the place of the values. `source` names who states `expected` in the messages."""
    problems: list[str] = []
    random_params = drawn.params if drawn is not None else ()
    for i, (y, want) in enumerate(zip(got, expected, strict=False)):
        if i < len(random_params) and random_params[i] is not None:
            y, want = np.asarray(y), np.asarray(want)
            if y.dtype != want.dtype or y.shape != want.shape:
                problems.append(f"output {i}: {y.dtype}{list(y.shape)}, {source} expects "
                                f"{want.dtype}{list(want.shape)}")
            continue  # drawn at random: checked by the law below
        problems += _compare_value(f"output {i}", y, want, rtol, atol, source)
    if len(got) < len(expected):
        problems.append(f"{len(got)} outputs, {source} expects {len(expected)}")
    if drawn is not None and not problems:
        by_param = {param: np.asarray(y) for param, y in zip(drawn.params, got, strict=False) if param is not None}
        problems += [f"drawn at random: {p}" for p in random_output_problems(drawn.call, by_param)]
    return problems


def _compare_value(where: str, y: Any, want: Any, rtol: float, atol: float, source: str = "onnx") -> list[str]:
    if want is None or y is None:
        return [] if want is None and y is None else \
            [f"{where}: {describe(y)}, {source} expects {describe(want)}"]
    if isinstance(want, list) or isinstance(y, list):
        if not (isinstance(want, list) and isinstance(y, list)) or len(y) != len(want):
            return [f"{where}: {describe(y)}, {source} expects {describe(want)}"]
        return [p for k, (a, b) in enumerate(zip(y, want, strict=True))
                for p in _compare_value(f"{where} element {k}", a, b, rtol, atol, source)]
    if isinstance(want, dict) or isinstance(y, dict):
        if not (isinstance(want, dict) and isinstance(y, dict)) or set(y) != set(want):
            return [f"{where}: {describe(y)}, {source} expects {describe(want)} (keys differ)"]
        return [p for key in want for p in _compare_value(f"{where} key {key!r}", np.asarray(y[key]),
                                                          np.asarray(want[key]), rtol, atol, source)]
    return _compare_tensor(where, np.asarray(y), np.asarray(want), rtol, atol, source)


def _compare_tensor(where: str, y: np.ndarray, want: np.ndarray, rtol: float, atol: float,
                    source: str = "onnx") -> list[str]:
    if y.dtype != want.dtype or y.shape != want.shape:
        return [f"{where}: {y.dtype}{list(y.shape)}, {source} expects {want.dtype}{list(want.shape)}"]
    narrow = DEFAULT_TOLERANCE.get(element_of(want.dtype) or "") if is_ml_dtype(want.dtype) else None
    if is_ml_dtype(want.dtype):  # bfloat16, float8, int4 ...: compared by value in a numpy type
        y, want = y.astype(np.float32), want.astype(np.float32)
    if want.dtype.kind in "fc":
        # half precision: onnx's expected values round at every step of a function body, a kernel once;
        # the registry's float16 tolerance (1e-3 absolute) covers the difference
        floor = HALF_ATOL if want.dtype == np.float16 else 0.0
        if narrow is not None:  # bfloat16, float8 ...: at least the registry's default tolerance of the type
            rtol, floor = max(rtol, narrow.rtol), max(floor, narrow.atol)
        if not np.allclose(y, want, rtol=rtol, atol=max(atol, floor), equal_nan=True):
            diff = np.abs(y.astype(np.float64) - want.astype(np.float64))
            return [f"{where}: max abs difference {np.nanmax(diff):.3g} (rtol {rtol:g}, atol {atol:g})"]
    elif not np.array_equal(y, want):
        return [f"{where}: {int(np.sum(y != want))} of {want.size} values differ"]
    return []


def _fail(name: str, data_set: int, settings: CheckSettings, what: str) -> NoReturn:
    command = ""
    if settings.repro_dir is not None:
        try:
            bundle = write_suite_bundle(name, data_set, settings, what)
            settings.stats.repro = str(bundle)
            command = (bundle / "command.txt").read_text(encoding="utf-8").strip()
        except OSError as e:
            settings.stats.write_error = f"cannot write a repro bundle in {settings.repro_dir}: {e.strerror or e}"
    raise suite_failure(f"onnx-node {name} (data set {data_set})", what, command)


def suite_failure(where: str, what: str, command: str) -> ConformanceFailure:
    """The failure of a suite's case `where` (`onnx-node NAME (data set 0)`), replayed by `command` ("" without a
    bundle)."""
    tail = f" | repro: {command}" if command else ""
    return ConformanceFailure(f"{where}: {what}{tail}", Failure(what, "", command, where))


def write_suite_bundle(name: str, data_set: int, settings: CheckSettings, what: str) -> Path:
    """model.onnx, input_<i>.pb and output_<i>.pb (conformance.value_protos), case.json and the command that re-runs
    the case."""
    import shlex

    assert settings.repro_dir is not None
    case = testcases()[name]
    bundle = settings.repro_dir / f"onnx-node__{name}"
    bundle.mkdir(parents=True, exist_ok=True)
    onnx.save_model(case.model, bundle / "model.onnx")
    inputs, expected = case.data_sets[data_set]
    for i, (v, x) in enumerate(zip(case.model.graph.input, inputs, strict=False)):
        save_value(bundle / f"input_{i}.pb", x, v.name, v.type)
    for i, (v, y) in enumerate(zip(case.model.graph.output, expected, strict=False)):
        save_value(bundle / f"output_{i}.pb", y, v.name, v.type)
    command = shlex.join(["conform", "--backend", settings.spec, "--suite", "onnx-node", "--op", name])
    meta = {"suite": "onnx-node", "case": name, "data_set": data_set, "backend": settings.spec, "failure": what,
            "command": command}
    (bundle / "case.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    (bundle / "command.txt").write_text(command + "\n", encoding="utf-8")
    return bundle


class _CallExecutor:
    """Runs each node of a case as one BackendCall on the session's backend (through its isolation worker)."""

    def __init__(self, backend: Any, declared: Mapping[str, str] | None = None, constant_inputs: str = "auto") -> None:
        self.backend = backend
        self.declared = dict(declared or {})  # value name -> type text the model states (containers' types)
        self.constant_inputs = constant_inputs  # `conform --constant-inputs`

    def run(self, node: onnx.NodeProto, inputs: list[Any],
            opset_imports: Mapping[str, int] | None = None, outer: Outer | None = None) -> list[Any]:
        from conformance.models.graphs import graph_reads
        from conformance.onnx_model import input_roles, registry_domain
        from conformance.registry import current_registry

        imports = dict(opset_imports or {})
        try:
            domain = registry_domain(node.domain)
        except ResolutionError as e:  # a domain the registry lacks
            raise Unsupported(f"{node.domain}::{node.op_type}: {e}") from e
        opset = imports.get(node.domain, 0)
        version = current_registry().try_resolve(domain, node.op_type, opset) \
            if (domain, node.op_type) in current_registry().ops else None
        if version is None:
            raise Unsupported(f"{domain}::{node.op_type} at opset {opset}: not in the registry")
        dtypes = sorted({element_of(x.dtype) or x.dtype.name for x in inputs if isinstance(x, np.ndarray)})
        # the values the node's graphs read from the enclosing graphs travel with the call (not the node's inputs)
        reads = {n: outer.values[n] for n in sorted(graph_reads(node)) if n in outer.values and n not in node.input} \
            if outer is not None else {}
        # a container's type a model must declare: what the case's model states for the value
        outputs: list[str | None] = [t if t is not None and is_container(t) else None
                                     for t in (self.declared.get(n) for n in node.output)]
        call = BackendCall(node_bytes=node.SerializeToString(), inputs=list(inputs), opset_imports=imports,
                           output_dtypes=outputs, domain=domain, op=node.op_type,
                           version=version.since, dtypes=dtypes, output_shapes=None, outer=reads or None,
                           input_types=[self.declared.get(n) for n in node.input],
                           input_roles=tuple(input_roles(version, len(inputs))), constant_inputs=self.constant_inputs)
        if not self.backend.supports(call):
            raise Unsupported(f"{version.signature}: the backend's supports() declines it")
        return list(self.backend.run(call))


def declared_types(model: onnx.ModelProto) -> dict[str, str]:
    """Every value a model types (graph inputs and outputs, value_info), by name: its type text."""
    found = {}
    for v in [*model.graph.input, *model.graph.value_info, *model.graph.output]:
        text = type_text(v.type)
        if text is not None:
            found[v.name] = text
    return found
