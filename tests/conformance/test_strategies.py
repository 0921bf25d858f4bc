"""The strategies on their own: bound checks, and that drawn cases are valid by the schema's own rules."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.kernels.registry import run_kernel
from conformance.registry import current_registry
from conformance.strategies import arrays, cell_dtypes, fill_array, op_cases
from conformance.strategies.plan import plan_for
from opset.infer import infer_shapes, validate_attributes
from opset.model import OpVersion

FAST = settings(max_examples=20, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def _version(domain: str, op: str, since: int):
    return current_registry().op(domain, op).version(since)


@pytest.mark.parametrize(("name", "value"), [("max_side", 0), ("max_rank", -1), ("max_elements", 0)])
def test_bounds_are_checked_up_front_naming_the_parameter(name: str, value: int) -> None:
    with pytest.raises(ValueError, match=name):
        op_cases(_version("ai.onnx", "Relu", 14), "float", **{name: value})


def test_a_dtype_outside_the_type_constraint_is_refused() -> None:
    with pytest.raises(ValueError, match="not allowed"):
        op_cases(_version("ai.onnx", "Relu", 6), "int8")


def test_array_bounds_are_checked() -> None:
    with pytest.raises(ValueError, match="min_value"):
        arrays("float", [2], min_value=3, max_value=1)


@given(seed=st.integers(0, 2**32 - 1), shape=st.lists(st.integers(0, 4), max_size=3))
def test_fill_array_stays_in_bounds_and_finite(seed: int, shape: list[int]) -> None:
    x = fill_array(seed, "float16", shape, min_value=-2, max_value=3)
    assert x.shape == tuple(shape) and x.dtype == np.float16
    assert np.all(np.isfinite(x)) and np.all((x >= -2) & (x <= 3))


CASES = [("ai.onnx", "AveragePool", 11, "float"), ("ai.onnx", "AveragePool", 19, "double"),
         ("ai.onnx", "Conv", 11, "float"), ("ai.onnx.modified", "Relu6", 1, "float16"),
         ("ai.onnx", "Reshape", 14, "int32"), ("ai.onnx", "Slice", 13, "float"), ("ai.onnx", "Gemm", 13, "double"),
         # built by the generic constant, bound, length and product rules, or by Tengine hints
         ("tengine", "L2Pool", 1, "float"), ("tengine", "Pad", 1, "float"),
         ("tengine", "SpatialTransformer", 1, "float"), ("tengine", "Scatter", 1, "float"),
         ("tengine", "Gather", 1, "float"), ("tengine", "SparseToDense", 1, "int32")]


@pytest.mark.parametrize(("domain", "op", "since", "dtype"), CASES)
def test_drawn_cases_satisfy_the_schema_and_the_kernel(domain: str, op: str, since: int, dtype: str) -> None:
    _check_drawn_cases(_version(domain, op, since), dtype)


def _versions_with_length_rules() -> list[tuple[str, str, int, str]]:
    found = []
    for v in current_registry().all_versions():
        drawable = cell_dtypes(v)[0]
        if plan_for(v).attr_length and drawable:
            found.append((v.domain, v.name, v.since, drawable[0]))
    return found


@pytest.mark.parametrize(("domain", "op", "since", "dtype"), _versions_with_length_rules())
def test_list_lengths_a_constraint_fixes_are_drawn(domain: str, op: str, since: int, dtype: str) -> None:
    """A length the plan reads from a constraint (`len(dims) == ...`) reaches the drawn attribute."""
    _check_drawn_cases(_version(domain, op, since), dtype)


def _check_drawn_cases(version: OpVersion, dtype: str) -> None:
    @FAST
    @given(case=op_cases(version, dtype))
    def check(case) -> None:
        shapes = [list(x.shape) if x is not None else None for x in case.inputs]
        assert not validate_attributes(version, case.node_attributes, shapes)
        assert not infer_shapes(version, shapes, case.node_attributes).problems
        assert sum(x.size for x in case.inputs if x is not None) <= 4096
        outputs = run_kernel(version, case.inputs, case.attributes)
        for y, want in zip(outputs, case.expected_shapes, strict=False):
            if want is not None:
                assert list(y.shape) == want, case

    check()


def test_every_registry_version_has_cells() -> None:
    missing = [v.signature for v in current_registry().all_versions() if not any(cell_dtypes(v))]
    assert missing == []


def test_plans_read_constraint_forms_as_construction_rules() -> None:
    from conformance.strategies.plan import plan_for

    l2pool = plan_for(_version("tengine", "L2Pool", 1))
    assert l2pool.attr_min.get("kernel_h", 0) >= 1 and l2pool.attr_min.get("stride_h", 0) >= 1
    transformer = plan_for(_version("tengine", "SpatialTransformer", 1))
    assert transformer.attr_fixed.get("sampler_type") == 1


def test_matmulnbitsmlp_asks_for_the_residual_sum_only_with_skip() -> None:
    """input_skip_bias_sum is A + skip: a drawn node without skip never names it (onnxruntime refuses such a node),
    and one with skip sometimes does."""
    version = current_registry().op("com.microsoft", "MatMulNBitsMlp").version(1)
    seen: set[tuple[bool, int]] = set()

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(case=op_cases(version, "float"))
    def check(case) -> None:
        with_skip = case.input_names[1:2] == ["skip"]
        seen.add((with_skip, len(case.output_names)))
        assert with_skip or case.output_names == ["Y"], case

    check()
    assert (True, 2) in seen
