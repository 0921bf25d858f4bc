"""com.microsoft GatherBlockQuantized: the kernel against onnxruntime (int4/uint4 and float4 tables as
initializers, which onnxruntime's Python API cannot feed; packed uint8 tables with 2, 4 and 8 bits; float8
tables with broadcast scales and block_size 0; out-of-range indices), the shape formula (with the data's type:
a packed uint8 table's last dim grows) against onnxruntime, rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from opset.infer import infer_shapes
from tests.helpers import (
    OracleCase,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    problem_checks,
    run,
    run_onnxruntime,
    version,
)

DOMAIN = "com.microsoft"
OP = "GatherBlockQuantized"
RNG = np.random.default_rng(31)
DEFAULTS = {"bits": 4, "block_size": 128, "gather_axis": 0, "quantize_axis": 1}


def constant_table_outputs(inputs: list[Any], attrs: dict[str, Any]) -> list[Any]:
    """onnxruntime on a node whose data and zero points are initializers (indices and scales fed)."""
    names, graph_inputs, inits, feeds = [], [], [], {}
    for i, (name, x) in enumerate(zip(("data", "indices", "scales", "zero_points"), inputs, strict=False)):
        if x is None:
            names.append("")
            continue
        names.append(name)
        if i in (0, 3):
            inits.append(numpy_helper.from_array(x, name))
        else:
            graph_inputs.append(helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(x.dtype), x.shape))
            feeds[name] = x
    node = helper.make_node(OP, names, ["y"], domain=DOMAIN, **attrs)
    graph = helper.make_graph([node], "g", graph_inputs, [onnx.ValueInfoProto(name="y")], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid(DOMAIN, 1)])
    model.ir_version = 10
    return run_onnxruntime(model, feeds)


def case(inputs: list[Any], attrs: dict[str, Any], id: str) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), oracle=lambda: constant_table_outputs(inputs, attrs), rtol=1e-6,
                      id=id, domain=DOMAIN)


def table(dtype: Any, shape: tuple[int, ...], lo: int, hi: int) -> np.ndarray:
    return RNG.integers(lo, hi, shape).astype(dtype)


def scales(*shape: int, dtype: Any = np.float32) -> np.ndarray:
    return np.asarray(RNG.random(shape) + 0.1).astype(dtype)


def packed(values: np.ndarray, bits: int) -> np.ndarray:
    per = 8 // bits
    grouped = values.reshape(*values.shape[:-1], -1, per).astype(np.uint16)
    out = np.zeros(grouped.shape[:-1], np.uint16)
    for j in range(per):
        out |= grouped[..., j] << (bits * j)
    return out.astype(np.uint8)


def cases() -> list[OracleCase]:
    out = []
    idx = np.array([[0, 4], [-1, 7]], np.int64)
    for t, lo, hi in ((ml_dtypes.int4, -8, 8), (ml_dtypes.uint4, 0, 16)):
        name = np.dtype(t).name
        data, zp = table(t, (5, 40), lo, hi), table(t, (5, 3), lo, hi)
        out += [
            case([data, idx, scales(5, 3), zp], {"block_size": 16}, f"{name}_zero_points_out_of_range"),
            case([data, idx, scales(5, 3)], {"block_size": 16}, f"{name}_default_zero_point"),
            case([data, idx, scales(5, 3, dtype=np.float16), zp], {"block_size": 16}, f"{name}_fp16"),
        ]
        data3, zp3 = table(t, (3, 32, 4), lo, hi), table(t, (3, 2, 4), lo, hi)
        out += [
            case([data3, np.array([1, -3, 2], np.int32), scales(3, 2, 4), zp3],
                 {"block_size": 16, "gather_axis": 2, "quantize_axis": 1}, f"{name}_gather_after_quantize_axis"),
            case([data3, np.array([1, 31, 40], np.int32), scales(3, 2, 4), zp3],
                 {"block_size": 16, "gather_axis": -2, "quantize_axis": -2}, f"{name}_gather_on_quantize_axis"),
        ]
    for bits in (2, 4, 8):
        values, zp = RNG.integers(0, 1 << bits, (6, 48)), RNG.integers(0, 1 << bits, (6, 3))
        data = packed(values, bits) if bits < 8 else values.astype(np.uint8)
        zps = packed(np.concatenate([zp, np.zeros((6, (-3) % (8 // bits)), zp.dtype)], axis=1), bits) \
            if bits < 8 else zp.astype(np.uint8)
        attrs = {"bits": bits, "block_size": 16, "quantize_axis": -1}
        out += [
            case([data, np.array([5, 0, 2], np.int64), scales(6, 3), zps], attrs, f"uint8_{bits}bit"),
            case([data, np.array([5, 0, 9], np.int32), scales(6, 3)], attrs, f"uint8_{bits}bit_default_zero_point"),
        ]
    for t in (ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2, ml_dtypes.float8_e4m3fnuz, ml_dtypes.float8_e5m2fnuz,
              ml_dtypes.float4_e2m1fn):
        name = np.dtype(t).name
        data = (RNG.standard_normal((4, 40)) * 2).astype(t)
        out += [
            case([data, np.array([3, 1, -9], np.int64), scales(4, 3)], {"block_size": 16}, f"{name}_blocks"),
            case([data, np.array([3, 1], np.int64), scales(1, 1)], {"block_size": 0}, f"{name}_one_scale"),
            case([data, np.array([[0, 39]], np.int64), scales(1, 40)],
                 {"block_size": 16, "quantize_axis": 0, "gather_axis": 1}, f"{name}_broadcast_rows"),
        ]
    return out


CASES = cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_kernel_matches_onnxruntime(case: OracleCase) -> None:
    assert_matches_oracle(case, 1)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


TYPE_TEXT = {"float4_e2m1fn": "float4e2m1", "float8_e4m3fn": "float8e4m3fn", "float8_e5m2": "float8e5m2",
             "float8_e4m3fnuz": "float8e4m3fnuz", "float8_e5m2fnuz": "float8e5m2fnuz", "float32": "float"}


def type_text(x: np.ndarray) -> str:
    return f"tensor({TYPE_TEXT.get(x.dtype.name, x.dtype.name)})"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_shape_formula_matches_onnxruntime(case: OracleCase) -> None:
    shapes = [None if x is None else list(x.shape) for x in case.inputs]
    types = [None if x is None else type_text(x) for x in case.inputs]
    result = infer_shapes(version(DOMAIN, OP, 1), shapes, {**DEFAULTS, **case.attrs}, input_types=types)
    assert not result.problems, result.problems
    theirs = list(constant_table_outputs(case.inputs, case.attrs)[0].shape)
    assert [int(str(d)) for d in result.outputs[0] or []] == theirs


def typed_checks(shapes: list[Any], attrs: dict[str, Any], types: list[str]) -> list[str]:
    result = infer_shapes(version(DOMAIN, OP, 1), shapes, {**DEFAULTS, **attrs}, input_types=types)
    return [p.check for p in result.problems]


I4, U8, F8, F32, I64 = "tensor(int4)", "tensor(uint8)", "tensor(float8e4m3fn)", "tensor(float)", "tensor(int64)"


@pytest.mark.parametrize(("shapes", "attrs", "types", "check"), [
    pytest.param([[40], [2], [3]], {"block_size": 16, "quantize_axis": 0}, [I4, I64, F32], "gatherblockquantized_c1",
                 id="rank_1"),
    pytest.param([[5, 40], [2], [5, 3]], {"block_size": 16, "gather_axis": 2}, [I4, I64, F32],
                 "gatherblockquantized_c1", id="gather_axis"),
    pytest.param([[5, 40], [2], [5, 3]], {"block_size": 16, "quantize_axis": -3}, [I4, I64, F32],
                 "gatherblockquantized_c2", id="quantize_axis"),
    pytest.param([[5, 40], [2], [5, 1]], {"block_size": 0}, [I4, I64, F32], "gatherblockquantized_c3",
                 id="block_size_0_int4"),
    pytest.param([[5, 40], [2], [5, 2]], {"block_size": 16}, [I4, I64, F32], "gatherblockquantized_c4",
                 id="scales_blocks"),
    pytest.param([[5, 40], [2], [1, 3]], {"block_size": 16}, [I4, I64, F32], "gatherblockquantized_c4",
                 id="int4_scales_no_broadcast"),
    pytest.param([[5, 40], [2], [5, 3], [5, 3]], {"block_size": 16}, [F8, I64, F32, F8], "gatherblockquantized_c5",
                 id="float_table_zero_points"),
    pytest.param([[6, 24], [2], [6, 3], [6, 3]], {"block_size": 16, "bits": 4}, [U8, I64, F32, U8],
                 "gatherblockquantized_c5", id="uint8_zero_points_unpacked"),
    pytest.param([[6, 24], [2], [6, 3]], {"block_size": 16, "bits": 4, "gather_axis": 1}, [U8, I64, F32],
                 "gatherblockquantized_c6", id="uint8_gather_axis"),
    pytest.param([[5, 40], [2], [5, 3]], {"block_size": 16, "bits": 8}, [I4, I64, F32], "gatherblockquantized_c7",
                 id="int4_bits_8"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], attrs: dict[str, Any], types: list[str],
                                        check: str) -> None:
    assert check in typed_checks(shapes, attrs, types)


def test_attribute_values_are_checked() -> None:
    assert "attr_allowed" in problem_checks(version(DOMAIN, OP, 1), [[5, 40], [2], [5, 3]],
                                                 {**DEFAULTS, "block_size": 24})


@pytest.mark.parametrize(("inputs", "attrs", "message"), [
    pytest.param([np.zeros((5, 40), ml_dtypes.int4), np.zeros(1, np.int64), scales(5, 2)], {"block_size": 16},
                 "do not fit", id="scales_blocks"),
    pytest.param([np.zeros((5, 40), np.uint8), np.zeros(1, np.int64), scales(5, 5)],
                 {"block_size": 16, "gather_axis": 1, "quantize_axis": 1, "bits": 4}, "gather_axis", id="uint8_axis"),
    pytest.param([np.zeros((5, 40), ml_dtypes.float8_e4m3fn), np.zeros(1, np.int64), scales(5, 3),
                  np.zeros((5, 3), ml_dtypes.float8_e4m3fn)], {"block_size": 16}, "must not", id="float_zero_points"),
])
def test_kernel_rejects_invalid_input(inputs: list[Any], attrs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, inputs, **{**DEFAULTS, **attrs})
