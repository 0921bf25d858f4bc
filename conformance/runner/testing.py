"""What a generated test module calls: draw or load a case, run it on the session's backend, check it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import reject
from hypothesis import strategies as st

from conformance.backends.protocol import Unsupported
from conformance.runner import state
from conformance.runner.checks import ConformanceFailure, InvalidCase, check_case
from conformance.runner.random_laws import law_case
from conformance.strategies.cases import op_cases
from conformance.strategies.examples import example_case
from opset.model import OpVersion, op_label


def _version(domain: str, op: str, since: int) -> OpVersion:
    from conformance.registry import current_registry

    return current_registry().op(domain, op).version(since)


_STRATEGIES: dict[tuple[str, str, int, str], st.SearchStrategy[Any]] = {}
LAW_ATTEMPTS = 40  # draws per example before a law test's example is rejected (`draw_law_case`)


def _skip_without_reference(domain: str, op: str, since: int, dtype: str) -> None:
    """A cell of an op the reference states it has no kernel for is unsupported before anything is drawn: no
    expected outputs can be computed for it, and its cases may not even be drawable (a whole decoding loop's
    subgraphs)."""
    from conformance.kernels import no_reference_kernel

    why = no_reference_kernel(domain, op)
    if why is not None:
        pytest.skip(f"unsupported: no reference kernel for {op_label(domain, op, since, dtype)}: {why}")


def check_property_case(domain: str, op: str, since: int, dtype: str, data: st.DataObject) -> None:
    """One Hypothesis example: a drawn case of the cell `domain@since::op[dtype]`, checked on the backend."""
    _skip_without_reference(domain, op, since, dtype)
    key = (domain, op, since, dtype)
    if key not in _STRATEGIES:  # building a composite strategy is costly; one per cell and process
        _STRATEGIES[key] = op_cases(_version(domain, op, since), dtype)
    case = data.draw(_STRATEGIES[key], label="case")
    _check(case, None, drawn=True)


def check_law_case(domain: str, op: str, since: int, dtype: str, data: st.DataObject) -> None:
    """The law case of the cell: a drawn case whose law leaves something to chance, made large (`law_case`), run
    once on the backend and its draws tested against the registry's law (false-alarm rate `random_laws.ALPHA`)."""
    _skip_without_reference(domain, op, since, dtype)
    key = (domain, op, since, dtype)
    if key not in _STRATEGIES:
        _STRATEGIES[key] = op_cases(_version(domain, op, since), dtype)
    _check(draw_law_case(_STRATEGIES[key], data), None, law=True, drawn=True)


def draw_law_case(strategy: st.SearchStrategy[Any], data: st.DataObject) -> Any:
    """A law case drawn within one example: drawn cases whose law is certain or standard (scale 0, Dropout in
    inference or at ratio 0.5) are redrawn up to LAW_ATTEMPTS times. Some cells draw a telling case once in twelve
    (Dropout: training on, a ratio of 0.25 or 0.75, non-zero data); redrawn per example, Hypothesis' own filter
    (50 rejected examples fail the cell's health check) is never the one that gives up."""
    for _ in range(LAW_ATTEMPTS):
        case = law_case(data.draw(strategy, label="case"))
        if case is not None:
            return case
    reject()  # no telling case in LAW_ATTEMPTS draws: Hypothesis draws another example


def check_example(domain: str, op: str, since: int, name: str) -> None:
    """The YAML example `name` of the version, checked against the outputs it states."""
    version = _version(domain, op, since)
    example = next((e for e in version.examples if e.name == name), None)
    if example is None:
        raise LookupError(f"{version.signature} has no example '{name}'")
    case, expected = example_case(version, example)
    _check(case, expected)


def skip_unsupported_dtype(domain: str, op: str, since: int, dtype: str) -> None:
    pytest.skip(f"unsupported: {op_label(domain, op, since, dtype)}: numpy and the reference kernels have no {dtype}")


def _check(case: Any, expected: Any, law: bool = False, drawn: bool = False) -> None:
    """Check one case. A drawn case the backend cannot run is counted and passed over, the cell's other draws still
    run (the plugin reports the cell unsupported when none of them ran); a fixed example it cannot run skips its
    test."""
    backend, settings = state.current()
    try:
        check_case(case, backend, settings, expected, law=law)
    except Unsupported as e:
        if not drawn:
            pytest.skip(f"unsupported: {e}")
        settings.stats.unsupported(str(e))
    except InvalidCase as e:
        raise ConformanceFailure(str(e)) from e
