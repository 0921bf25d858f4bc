"""The node suite's sequence and optional cases: cells named by the container type their model declares, the
values read as lists and None, run through a backend and compared element by element (a wrong sequence fails)."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.backends import resolve_backend
from conformance.runner.checks import ConformanceFailure
from conformance.runner.settings import CheckSettings
from conformance.suites.onnx_node import check_suite_case, suite_cases


@pytest.mark.parametrize(("name", "dtype"), [
    ("test_identity_sequence", "seq(tensor(float))"),
    ("test_identity_opt", "optional(seq(tensor(float)))"),
    ("test_optional_has_element_empty_optional_input", "optional(tensor(int32))"),
    ("test_optional_get_element_optional_tensor", "optional(tensor(float))"),
    ("test_sequence_insert_at_front", "seq(tensor(int64))"),
    ("test_split_to_sequence_1", "float"),
])
def test_a_container_case_is_in_the_cell_of_its_declared_type(name: str, dtype: str) -> None:
    (case,) = [c for c in suite_cases([name]) if c.name == name]
    assert case.dtype == dtype


@pytest.mark.parametrize("name", ["test_sequence_insert_at_front", "test_optional_has_element_empty_optional_input",
                                  "test_identity_opt", "test_sequence_map_add_2_sequences",
                                  "test_sequence_map_identity_1_sequence_1_tensor_expanded"])
def test_the_reference_passes_container_cases(name: str) -> None:
    settings = CheckSettings(spec="reference")
    check_suite_case(name, resolve_backend("reference"), settings)
    assert settings.stats.examples >= 1


class _Reversed:
    """The reference, but every sequence output comes back reversed."""

    def __init__(self) -> None:
        self.reference = resolve_backend("reference")

    def supports(self, call: Any) -> bool:
        return True

    def run(self, call: Any) -> list[Any]:
        return [list(reversed(y)) if isinstance(y, list) else y for y in self.reference.run(call)]


def test_a_reversed_sequence_fails_its_case() -> None:
    with pytest.raises(ConformanceFailure, match="element 0"):
        check_suite_case("test_sequence_insert_at_front", _Reversed(), CheckSettings(spec="reversed"))
