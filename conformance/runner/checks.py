"""The properties every case is checked for, with messages that start with the op and end with a repro.

Per case: output count, each output's shape against the shape formula, its dtype against the type
constraint and the reference kernel's dtype, its values against the reference within the op's
tolerance, then every algebraic property the version declares. Outputs drawn at random (the version's `random`
key) are checked for what their law determines instead of their values, and without the properties, whose reruns
would draw anew (`random_outputs`); a law case (one large draw per cell) is then tested against the law itself
(`random_laws`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NoReturn, Protocol

import numpy as np

from conformance.algebra import RERUNS, PropertyViolation, check_property
from conformance.backends.protocol import BackendCall, Outer, Unsupported
from conformance.backends.reference import ReferenceBackend, reference_outputs
from conformance.compare import EXACT, Comparison, compare_arrays, compare_values, tolerance_for
from conformance.containers import describe, shape_of, type_fits, value_type
from conformance.onnx_model import (
    input_roles,
    make_node,
    opset_imports_for,
    output_param,
    output_shapes,
    output_types,
)
from conformance.precision import Bound, integer_alternative, precision_bound, widened
from conformance.runner.messages import exception_text
from conformance.runner.random_laws import law_test
from conformance.runner.random_outputs import random_call, random_output_problems
from conformance.runner.readings import reading_followed_by_outputs
from conformance.runner.repro import write_bundle
from conformance.runner.results import Failure
from conformance.runner.settings import CellStats, CheckSettings, RecentCase
from conformance.runner.worker import BackendCrash, BackendTimeout, RemoteError, Unshipped
from conformance.strategies.case import Case
from conformance.strategies.dtypes import element_of
from opset.cells import allowed_cells, allowed_elements, cell_type
from opset.dtypes import is_container
from opset.infer import UNKNOWN_SHAPE
from opset.model import Param


class CaseBackend(Protocol):
    def supports(self, call: BackendCall) -> bool: ...

    def run(self, call: BackendCall) -> list[np.ndarray]: ...


class ConformanceFailure(AssertionError):
    """A case the backend got wrong; the message says what differs and how to re-run it, `failure` the same as data
    (None where only the message is known)."""

    def __init__(self, message: str, failure: Failure | None = None) -> None:
        super().__init__(message)
        self.failure = failure


class InvalidCase(Exception):
    """The reference kernel rejects a case the schema accepts: the schema or the kernel needs a fix."""


def make_call(case: Case, output_dtypes: list[str | None],
              output_shapes: list[Any] | None = None, constant_inputs: str = "auto") -> BackendCall:
    """The call of `case`; `constant_inputs` says which inputs reach the backend as constants (`--constant-inputs`)."""
    return BackendCall(node_bytes=make_node(case).SerializeToString(), inputs=list(case.inputs),
                       opset_imports=opset_imports_for(case.version), output_dtypes=output_dtypes,
                       domain=case.version.domain, op=case.version.name, version=case.version.since,
                       dtypes=sorted(set(case.type_bindings.values()) | {case.dtype}),
                       output_shapes=output_shapes if output_shapes is not None else list(case.expected_shapes),
                       input_types=case.input_types(), outer=dict(case.outer) or None,
                       input_roles=tuple(input_roles(case.version, len(case.inputs))), constant_inputs=constant_inputs)


def expected_outputs(case: Case) -> list[Any] | None:
    """The reference's outputs, None when there is no kernel; InvalidCase when the kernel rejects the case."""
    try:
        outputs = reference_outputs(case.version, list(case.inputs), case.attributes, len(case.output_names),
                                    outer=_outer(case), opset_imports=opset_imports_for(case.version))
    except Unsupported:
        return None
    except Exception as e:  # a kernel error on a schema-valid case is itself a finding
        raise InvalidCase(f"{case.label}: the reference kernel rejects a case the schema accepts "
                          f"({type(e).__name__}: {e}); {case.describe()}") from e
    return list(outputs[:len(case.output_names)])


def _outer(case: Case) -> Outer:
    """What the case's graph attributes see: the case's outer values and the node's inputs, run by the reference."""
    named = {n: x for n, x in zip(case.input_names, case.inputs, strict=False) if n}
    return Outer({**case.outer, **named}, ReferenceBackend())


def check_case(case: Case, backend: CaseBackend, settings: CheckSettings,
               expected: list[np.ndarray] | None = None, *, law: bool = False) -> None:
    """Run `case` on `backend` and check it; raises Unsupported or ConformanceFailure. A `law` case (`random_laws.
    law_case`) has its random outputs tested against their law too."""
    if expected is None:
        expected = expected_outputs(case)
    call = make_call(case, output_types(case, expected), output_shapes(case, expected), settings.constant_inputs)
    if not _supports(backend, call, case, settings, expected, law):
        raise Unsupported(f"{case.label}: the backend's supports() declines it")
    outputs = _run(backend, call, case, settings, expected, law)
    problems = output_problems(case, outputs, expected, settings.stats)
    if law:
        problems += law_problems(case, outputs, problems, settings.stats)
    elif not problems and random_call(case.version, case.inputs, case.attributes) is None:
        problems = _property_problems(case, outputs, backend, expected, settings)  # a random draw draws anew
    if problems:
        reading, missed = reading_followed_by_outputs(case.version, case.inputs, case.attributes, outputs,
                                           lambda values: output_problems(case, outputs, values),
                                           len(case.output_names))
        if reading is None:
            _fail(case, settings, expected, "; ".join(problems + missed), law)
        settings.stats.ambiguous.append(f"{case.label}: follows {reading}: {'; '.join(problems)}")
        return
    settings.stats.examples += 1


def law_problems(case: Case, outputs: list[np.ndarray], found: list[str], stats: CellStats) -> list[str]:
    """The law test of a law case's random outputs (recorded in `stats`): its message when it rejects them. It runs
    when the outputs' count, shapes and types are right (`found`, the problems seen so far, are at most what the law
    determines: a wrong certain value does not hide a wrong law)."""
    call = random_call(case.version, case.inputs, case.attributes)
    if call is None:  # law_case draws only random calls
        raise InvalidCase(f"{case.label}: the law case is not random; {case.describe()}")
    named = dict(zip(case.output_names, outputs, strict=False))
    if any(isinstance(y, Unshipped) for y in outputs):  # its shape is wrong already: no law to test
        return []
    if found and (len(outputs) < len(case.output_names) or found != random_output_problems(call, named)):
        return []
    result = law_test(call, named)
    if result is None:  # law_case draws only cases whose law leaves something to chance
        raise InvalidCase(f"{case.label}: the law case leaves nothing to chance; {case.describe()}")
    stats.law_test = result.as_report()
    return [result.describe()] if result.rejected else []


def _supports(backend: CaseBackend, call: BackendCall, case: Case, settings: CheckSettings,
              expected: list[np.ndarray] | None, law: bool = False) -> bool:
    try:
        return backend.supports(call)
    except (BackendCrash, BackendTimeout, RemoteError) as e:
        _fail(case, settings, expected, f"supports() failed: {e}", law)
    return False


def _run(backend: CaseBackend, call: BackendCall, case: Case, settings: CheckSettings,
         expected: list[np.ndarray] | None, law: bool = False) -> list[np.ndarray]:
    if settings.recent is not None:
        settings.recent.add(call, case, expected, law)
    try:
        return backend.run(call)
    except Unsupported:
        raise
    except BackendCrash as e:
        culprit = settings.recent.find(e.culprit) if settings.recent is not None and e.culprit is not None else None
        # the case crashes right after an earlier one: the bundle holds both, and its replay runs them in turn
        _fail(case, settings, expected, f"backend crashed: {e}", law, before=[culprit] if culprit else [])
    except BackendTimeout as e:
        _fail(case, settings, expected, f"backend hung: {e}", law)
    except RemoteError as e:  # the worker sent the whole message, already on one line
        _fail(case, settings, expected, f"backend raised {e.text}", law)
    except Exception as e:  # any other backend exception is a recorded failure of this case
        _fail(case, settings, expected, f"backend raised {exception_text(e)}", law)
    return []


def output_problems(case: Case, outputs: list[Any], expected: list[Any] | None,
                    stats: CellStats | None = None) -> list[str]:
    """What is wrong with `outputs` (empty when nothing is). Outputs drawn at random (the version's `random` key)
    are checked for what their law determines, not against the reference's values (`random_outputs`)."""
    want = len(case.output_names)
    if len(outputs) < want:
        return [f"{len(outputs)} outputs but the node has {want} ({', '.join(case.output_names)})"]
    drawn = random_call(case.version, case.inputs, case.attributes)
    problems: list[str] = []
    policy = PolicyBounds(case)
    for i, name in enumerate(case.output_names):
        y = outputs[i]
        formula = case.expected_shapes[i] if i < len(case.expected_shapes) else None
        if isinstance(y, Unshipped):  # the worker kept an answer of a wrong and large shape (`worker.Unshipped`)
            given = formula if formula is not None else y.expected
            problems.append(f"output {i} '{name}' has shape {list(y.shape)} ({y.describe()}) but the "
                            f"{'shape formula' if formula is not None else 'reference'} gives {given}")
            continue
        shape = shape_of(y)
        if formula is not None and shape is not UNKNOWN_SHAPE and shape != formula:
            what = "element shapes" if isinstance(y, list) else "shape"
            problems.append(f"output {i} '{name}' has {what} {shape} but the shape formula gives {formula}")
            continue
        problems += _dtype_problems(case, i, name, y, expected)
        if problems or expected is None or (drawn is not None and name in drawn.outputs):
            continue
        result = compare_values(y, expected[i], lambda dtype: tolerance_for(case.version, element_of(dtype)))
        if not result.ok:
            result = policy.compare(i, y, expected[i], result)
        if stats is not None:
            stats.add(result.max_abs, result.max_rel, result.max_ulp)
        if not result.ok:
            problems.append(f"output {i} '{name}': {result.problem}")
    if drawn is not None and not problems:
        problems += random_output_problems(drawn, dict(zip(case.output_names, outputs, strict=False)))
    return problems


class PolicyBounds:
    """A case's outputs compared again within the bounds its version's precision policy gives (`conformance.
    precision`), for an output that fails the plain tolerance: the reference is evaluated again only then."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self._bounds: dict[str, Bound | None] = {}
        self._alternatives: dict[str, list[Any] | None] = {}

    def _evaluate(self, inputs: list[Any], attributes: dict[str, Any]) -> Sequence[Any]:
        case = self.case
        return reference_outputs(case.version, inputs, attributes, len(case.output_names), outer=_outer(case),
                                 opset_imports=opset_imports_for(case.version))

    def compare(self, i: int, actual: Any, expected: Any, plain: Comparison) -> Comparison:
        """`plain` (the comparison within the tolerance), or the comparison within the policy's bound where it
        gives one for output `i`."""
        if not (isinstance(actual, np.ndarray) and isinstance(expected, np.ndarray)):
            return plain
        case, element = self.case, element_of(expected.dtype)
        if element is None:
            return plain
        if element not in self._bounds:
            self._bounds[element] = self._run(lambda: precision_bound(case.version, element, case.inputs,
                                                                      dict(case.attributes), self._evaluate))
            self._alternatives[element] = self._run(lambda: integer_alternative(
                case.version, element, case.inputs, dict(case.attributes), self._evaluate))
        bound, alternative = self._bounds[element], self._alternatives[element]
        if bound is not None and i < len(bound.slack) and bound.slack[i] > 0:
            base = tolerance_for(case.version, element)
            within = compare_arrays(actual, expected, widened(base, bound.slack[i]))
            if within.ok:
                return within
            return Comparison(False, within.max_abs, within.max_rel, within.max_ulp,
                              problem=f"{within.problem} ({bound.describe(i)})")
        if alternative is not None and i < len(alternative) and isinstance(alternative[i], np.ndarray):
            other = np.asarray(alternative[i]).astype(expected.dtype)
            if compare_arrays(actual, other, EXACT).ok:
                return Comparison(True)
            return Comparison(False, plain.max_abs, plain.max_rel, plain.max_ulp,
                              problem=f"{plain.problem} (nor does it equal the int64 accumulation the precision "
                                      f"policy allows)")
        return plain

    def _run(self, evaluate: Callable[[], Any]) -> Any:
        try:
            return evaluate()
        except Unsupported:
            return None  # the reference cannot evaluate the other precision: the tolerance alone applies
        except Exception as e:  # a kernel that rejects the wider evaluation is a finding, as in expected_outputs
            raise InvalidCase(f"{self.case.label}: the reference kernel rejects the evaluation the precision policy "
                              f"asks for ({type(e).__name__}: {e}); {self.case.describe()}") from e


def _dtype_problems(case: Case, i: int, name: str, y: Any, expected: list[Any] | None) -> list[str]:
    param = output_param(case.version, i)  # the values of a variadic (last) output all have its parameter
    if not isinstance(y, np.ndarray):
        return _container_type_problems(case, i, name, y, expected, param)
    element = element_of(y.dtype)
    if param is not None and is_container(cell_type(case.type_bindings.get(param.type, element))):
        return _container_type_problems(case, i, name, y, expected, param)  # an optional's content
    if param is not None:
        # a type variable is fixed by the case only when a present input carries it
        carried = {p.type for p, x in zip(case.version.inputs, case.inputs, strict=False) if x is not None}
        # a heterogeneous variadic type (Loop's and Scan's V) is bound per value, not by the case
        bound = case.type_bindings.get(param.type) if param.type in carried and param.homogeneous else None
        allowed = [bound] if bound else allowed_elements(case.version, param.type)
        if allowed and element not in allowed:
            return [f"output {i} '{name}' has dtype {element}, the type constraint {param.type} needs "
                    f"{' or '.join(allowed)}"]
    want = expected[i] if expected is not None and i < len(expected) else None
    if isinstance(want, np.ndarray) and y.dtype != want.dtype:
        return [f"output {i} '{name}' has dtype {element}, the reference gives {element_of(want.dtype)}"]
    return []


def _container_type_problems(case: Case, i: int, name: str, y: Any, expected: list[Any] | None,
                             param: Param | None) -> list[str]:
    """A sequence, optional or map output: of a type its parameter allows (the case's binding where it has one)."""
    if param is None:
        return []
    bound = case.type_bindings.get(param.type)
    allowed = [cell_type(bound)] if bound is not None else [cell_type(c) for c in allowed_cells(case.version,
                                                                                              param.type)]
    if allowed and not any(type_fits(y, t) for t in allowed):
        shown = value_type(y) or describe(y)
        return [f"output {i} '{name}' is {shown}, the type constraint {param.type} needs {' or '.join(allowed[:4])}"
                + (" ..." if len(allowed) > 4 else "")]
    return []


def _property_problems(case: Case, outputs: list[Any], backend: CaseBackend,
                       expected: list[Any] | None, settings: CheckSettings) -> list[str]:
    # a rerun's outputs have the types of the case's and (by the properties' nature) their ranks; their dims are
    # left to the backend (named, not fixed: a model-level backend's checker needs a shape, not its values)
    ranks = [[None] * y.ndim if isinstance(y, np.ndarray) else None for y in outputs]

    def rerun(inputs: list[Any]) -> list[Any]:
        rerun_case = case.with_inputs(inputs)
        call = make_call(rerun_case, output_types(case, expected), ranks, settings.constant_inputs)
        if settings.recent is not None:
            settings.recent.add(call, rerun_case, None, False)
        return backend.run(call)

    problems = []
    for prop in case.version.properties:
        try:
            check_property(prop, case, outputs, rerun)
        except PropertyViolation as e:
            problems.append(f"property {e}")
        except Unsupported:
            continue  # the backend cannot run the rerun's inputs; the property stays unchecked
        except Exception as e:  # a crash, hang or error while checking a property is a failure too
            rerun_on = RERUNS.get(prop.name, "inputs derived from the case")
            problems.append(f"property {prop.name}: the case's own outputs are right, but the backend failed when "
                            f"run again on {rerun_on} to check the property: {_error_text(e)}")
    return problems


def _error_text(error: Exception) -> str:
    return error.text if isinstance(error, RemoteError) else exception_text(error)


def _fail(case: Case, settings: CheckSettings, expected: list[np.ndarray] | None, what: str,
          law: bool = False, before: list[RecentCase] | None = None) -> NoReturn:
    """Raise the case's ConformanceFailure, with a repro bundle when the run writes them (holding `before`, the
    cases to run first in the same backend process, when the failure needs them). A bundle that cannot be written
    leaves the failure without one and says why in `settings.stats.write_error` (the run stops on it)."""
    command = ""
    if settings.repro_dir is not None:
        try:
            bundle, command = write_bundle(case, expected, settings, what, law=law, before=before or [])
            settings.stats.repro = str(bundle)
        except OSError as e:
            settings.stats.write_error = f"cannot write a repro bundle in {settings.repro_dir}: {e.strerror or e}"
    where = f"(example {case.example})" if case.example else "(law case)" if law else ""
    failure = Failure(what, case.describe(), command, where)
    tail = f" | repro: {command}" if command else ""
    raise ConformanceFailure(f"{case.label}{' ' + where if where else ''}: {failure.what}; {failure.case}{tail}",
                             failure)
