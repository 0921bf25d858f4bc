"""Tengine ops ROIAlign ... ZerosLike and the later ids: examples, shape formulas, independent computations.

Every kernel is compared with a computation that does not share its code: a transcription of
Tengine's C reference loops, Python's math module, or onnx.reference where the ops agree.
"""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

from conformance.kernels.registry import find_kernel, run_kernel
from opset.infer import infer_shapes
from opset.load import load_registry
from opset.model import OpVersion

OP_IDS = {
    "ROIAlign": 57, "RoiPooling": 24, "Round": 85, "RPN": 25, "Scale": 26, "Scatter": 93, "SELU": 72, "Shape": 94,
    "ShuffleChannel": 55, "Sigmoid": 37, "Slice": 27, "SoftMax": 28, "SpaceToBatchND": 52, "SpaceToDepth": 79,
    "SparseToDense": 82, "Split": 29, "SquaredDifference": 84, "Squeeze": 38, "StridedSlice": 41, "SwapAxis": 50,
    "TanH": 36, "Threshold": 63, "TopKV2": 44, "Transpose": 77, "Unary": 59, "Unsqueeze": 88, "Upsample": 51,
    "Where": 95, "ZerosLike": 86, "Softplus": 102, "Reciprocal": 103, "SpatialTransformer": 105, "Gelu": 106,
    "LayerNorm": 107,
}
RNG = np.random.default_rng(20240611)


def _versions() -> dict[str, OpVersion]:
    return {s.name: s.versions[-1] for s in load_registry() if s.domain == "tengine" and s.name in OP_IDS}


VERSIONS = _versions()
EXAMPLES = [(v, ex) for name in sorted(VERSIONS) for v in [VERSIONS[name]] for ex in v.examples]


def _kernel(op: str) -> Callable[..., tuple[np.ndarray, ...]]:
    """The kernel of `op` as the runner calls it: attributes resolved through the registry."""
    if find_kernel("tengine", op, 1) is None:
        pytest.fail(f"tengine::{op}: no reference kernel registered")
    return lambda *inputs, **given: run_kernel(VERSIONS[op], inputs, given)


def _array(literal: dict[str, Any]) -> np.ndarray:
    arr = np.asarray(literal["data"], dtype=np.dtype(literal["dtype"]))
    return arr.reshape(literal["shape"]) if "shape" in literal else arr


def _run(op: str, inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> tuple[tuple[np.ndarray, ...], Any]:
    """Kernel outputs and the formula's inference for the same inputs and attributes."""
    v = VERSIONS[op]
    shapes = [None if a is None else list(a.shape) for a in inputs]
    values: dict[str, Any] = {p.name: a for p, a in zip(v.inputs, inputs, strict=False) if a is not None}
    result = infer_shapes(v, shapes, attrs, values)
    got = _kernel(op)(*inputs, **attrs)
    return got, result


def _problems(op: str, inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> list[str]:
    """Ids of the checks the registry's formulas report (the kernel is not run)."""
    v = VERSIONS[op]
    shapes = [None if a is None else list(a.shape) for a in inputs]
    values: dict[str, Any] = {p.name: a for p, a in zip(v.inputs, inputs, strict=False) if a is not None}
    return [p.check for p in infer_shapes(v, shapes, attrs, values).problems]


def _assert_formula(op: str, inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> tuple[np.ndarray, ...]:
    got, result = _run(op, inputs, attrs)
    assert not result.problems, f"{op}: {result.problems} for {attrs}"
    shapes = [list(y.shape) for y in got]
    assert result.outputs == shapes, f"{op}: the formula gives {result.outputs}, the kernel {shapes} for {attrs}"
    return got


# ---- registry facts ----

def test_every_op_is_present_with_its_id_and_a_kernel() -> None:
    assert set(VERSIONS) == set(OP_IDS)
    for name, v in VERSIONS.items():
        assert v.tengine is not None and v.tengine.op_id == OP_IDS[name], name
        assert find_kernel("tengine", name, v.since) is not None, f"{name}: no kernel"
        assert v.examples, f"{name}: no example"


def test_layout_fields_name_attributes() -> None:
    for name, v in VERSIONS.items():
        assert v.tengine is not None
        for field in v.tengine.layout:
            assert (field.attribute or field.name) in v.attributes, f"{name}: field {field.name} has no attribute"
        assert (v.tengine.param_struct is None) == (not v.tengine.layout), name


def test_lint_is_clean() -> None:
    tool = Path(sys.executable).with_name("opset")
    done = subprocess.run([str(tool), "lint"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(("v", "ex"), EXAMPLES, ids=lambda x: getattr(x, "name", ""))
def test_example_matches_kernel_and_formula(v: OpVersion, ex: Any) -> None:
    inputs = [None if ex.inputs.get(p.name) is None else _array(ex.inputs[p.name]) for p in v.inputs]
    got, result = _run(v.name, inputs, dict(ex.attributes))
    assert not result.problems, f"{v.signature} {ex.name}: {result.problems}"
    assert len(got) == len(v.outputs) or v.outputs[-1].variadic
    for i, (param, y) in enumerate(zip(v.outputs, got, strict=False)):
        want = _array(ex.outputs[param.name])
        if param.formula is not None:
            assert result.outputs[i] == list(want.shape), f"{ex.name}: formula gives {result.outputs[i]}"
        assert y.dtype == want.dtype and y.shape == want.shape, f"{ex.name}: {y.dtype}{y.shape} vs {want.shape}"
        np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6, err_msg=f"{v.signature} {ex.name}")


# ---- elementwise ops ----

def _elementwise(fn: Any, x: np.ndarray) -> np.ndarray:
    return np.array([fn(float(v)) for v in x.reshape(-1)]).reshape(x.shape)


def test_round_halves_away_from_zero() -> None:
    x = np.concatenate([np.arange(-5, 5.5, 0.5), RNG.uniform(-100, 100, 40), [0.49999997, -0.49999997]])
    for dtype in (np.float32, np.float64):
        xs = x.astype(dtype)
        (y,) = _kernel("Round")(xs)
        want = np.array([math.copysign(float(int(abs(v)) + (abs(v) - int(abs(v)) >= 0.5)), v) for v in xs.tolist()])
        np.testing.assert_array_equal(y, want.astype(dtype))
    assert _kernel("Round")(np.array([2.5, -2.5, 0.5], np.float32))[0].tolist() == [3.0, -3.0, 1.0]


def test_sigmoid_clamps_only_below() -> None:
    x = np.concatenate([RNG.uniform(-10, 10, 50), [-30, -31, -100, 40]]).astype(np.float32)
    (y,) = _kernel("Sigmoid")(x)
    want = _elementwise(lambda v: 1 / (1 + math.exp(-max(v, -30.0))), x)
    np.testing.assert_allclose(y, want, rtol=1e-6)
    assert y[-2] == y[-3] > 9e-14


@pytest.mark.parametrize(("op", "fn", "low", "high"), [
    ("TanH", math.tanh, -5, 5),
    ("Softplus", lambda v: math.log(math.exp(v) + 1), -20, 60),
    ("Reciprocal", lambda v: 1 / v, 0.1, 9),
    ("Gelu", lambda v: 0.5 * v * (1 + math.erf(v * float(np.float32(0.707106793288165)))), -9, 9),
])
def test_unary_activations_match_math(op: str, fn: Any, low: float, high: float) -> None:
    x = RNG.uniform(low, high, (3, 4, 5))
    (y,) = _kernel(op)(x)
    assert y.dtype == np.float64
    np.testing.assert_allclose(y, _elementwise(fn, x), rtol=1e-12, atol=1e-14)
    (y32,) = _kernel(op)(x.astype(np.float32))
    assert y32.dtype == np.float32


def test_selu_and_threshold() -> None:
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    (y,) = _kernel("SELU")(x, alpha=1.5, gamma=2.0)
    np.testing.assert_allclose(y, _elementwise(lambda v: 2.0 * v if v >= 0 else 3.0 * (math.exp(v) - 1), x),
                               rtol=1e-5, atol=1e-6)
    (t,) = _kernel("Threshold")(x, threshold=0.25)
    np.testing.assert_array_equal(t, _elementwise(lambda v: 1.0 if v > np.float32(0.25) else 0.0, x))


_UNARY = [abs, lambda v: -v, math.floor, math.ceil, lambda v: v * v, math.sqrt, lambda v: 1 / math.sqrt(v), math.exp,
          math.log, math.sin, math.cos, math.tan, math.asin, math.acos, math.atan, lambda v: 1 / v, math.tanh]


@pytest.mark.parametrize("code", range(17))
def test_unary_types(code: int) -> None:
    x = RNG.uniform(0.05, 0.95, 20) * (1 if code in (5, 6, 8) else RNG.choice([-1, 1], 20))
    (y,) = _kernel("Unary")(x, type=code)
    np.testing.assert_allclose(y, _elementwise(_UNARY[code], x), rtol=1e-12)
    with pytest.raises(ValueError, match="type"):
        _kernel("Unary")(x, type=17)


def test_squared_difference_where_zeros_like_shape() -> None:
    a, b = RNG.standard_normal((2, 3, 2, 2)), RNG.standard_normal((2, 3, 2, 2))
    np.testing.assert_allclose(_kernel("SquaredDifference")(a, b)[0], _elementwise(lambda v: v, (a - b) * (a - b)))
    with pytest.raises(ValueError, match="differ"):
        _kernel("SquaredDifference")(a, b[:1])
    cond = RNG.choice([0.0, 1.0, -2.0], (6,))
    (w,) = _kernel("Where")(cond.reshape(2, 3), a.reshape(-1)[:6], b.reshape(-1)[:6])
    assert w.shape == (2, 3)
    assert w.reshape(-1).tolist() == [a.reshape(-1)[i] if cond[i] else b.reshape(-1)[i] for i in range(6)]
    assert not _kernel("ZerosLike")(a)[0].any()
    (s,) = _kernel("Shape")(a)
    assert s.dtype == np.int32 and s.tolist() == [2, 3, 2, 2]


def test_softmax_matches_loops() -> None:
    x = RNG.standard_normal((2, 3, 4))
    for axis in (0, 1, 2, -1, -3):
        (y,) = _assert_formula("SoftMax", [x], {"axis": axis})
        ax = axis % 3
        lines_in = np.moveaxis(x, ax, -1).reshape(-1, x.shape[ax])
        lines_out = np.moveaxis(y, ax, -1).reshape(-1, x.shape[ax])
        for line_in, line_out in zip(lines_in.tolist(), lines_out.tolist(), strict=True):
            row = [math.exp(v) for v in line_in]
            assert line_out == pytest.approx([v / sum(row) for v in row], rel=1e-12)
    checks = _problems("SoftMax", [x], {"axis": 3})
    assert checks == ["softmax_c1"]


def test_layernorm_matches_loops() -> None:
    x, g, b = RNG.standard_normal((2, 3, 5)), RNG.standard_normal(5), RNG.standard_normal(5)
    (y,) = _assert_formula("LayerNorm", [x, g, b], {"eps": 1e-5})
    for i, j in itertools.product(range(2), range(3)):
        row = x[i, j].tolist()
        mean = sum(row) / 5
        var = sum(v * v for v in row) / 5 - mean * mean
        want = [(v - mean) / math.sqrt(var + 1e-5) * g[k] + b[k] for k, v in enumerate(row)]
        np.testing.assert_allclose(y[i, j], want, rtol=1e-10)


# ---- channel and layout ops ----

def test_scale_per_channel() -> None:
    x, g, b = RNG.standard_normal((2, 3, 2, 2)), RNG.standard_normal(3), RNG.standard_normal(3)
    (y,) = _assert_formula("Scale", [x, g, b], {})
    (y0,) = _kernel("Scale")(x, g)
    for n, c in itertools.product(range(2), range(3)):
        np.testing.assert_allclose(y[n, c], x[n, c] * g[c] + b[c])
        np.testing.assert_allclose(y0[n, c], x[n, c] * g[c])


def test_shuffle_channel_transcribes_tengine() -> None:
    x = RNG.standard_normal((2, 6, 2, 3))
    for group in (1, 2, 3, 6):
        (y,) = _assert_formula("ShuffleChannel", [x], {"group": group})
        want = np.empty_like(x)
        per = 6 // group
        for n, i, j in itertools.product(range(2), range(group), range(per)):
            want[n, group * j + i] = x[n, per * i + j]
        np.testing.assert_array_equal(y, want)


def test_transpose_and_swap_axis() -> None:
    x = RNG.standard_normal((2, 3, 4, 1))
    for perm in itertools.permutations(range(4)):
        (y,) = _assert_formula("Transpose", [x], {"perm": list(perm)})
        for idx in itertools.product(*[range(d) for d in y.shape]):
            src = [0] * 4
            for i, p in enumerate(perm):
                src[p] = idx[i]
            assert y[idx] == x[tuple(src)]
    checks = _problems("Transpose", [x], {"perm": [0, 1, 1, 2]})
    assert "transpose_c2" in checks
    for d0, d1 in ((0, 1), (2, 0), (1, 3)):
        (y,) = _assert_formula("SwapAxis", [x], {"dim_0": d0, "dim_1": d1})
        lo, hi = min(d0, d1), max(d0, d1)
        dims = [math.prod(x.shape[:lo]), x.shape[lo], math.prod(x.shape[lo + 1:hi]), x.shape[hi],
                math.prod(x.shape[hi + 1:])]
        flat_in, want = x.reshape(-1), np.empty(x.size)
        for i, j, p, q in itertools.product(range(dims[0]), range(dims[3]), range(dims[2]), range(dims[1])):
            out = i * dims[1] * dims[2] * dims[3] * dims[4] + j * dims[2] * dims[1] * dims[4] + p * dims[1] * dims[4] \
                + q * dims[4]
            src = i * dims[1] * dims[2] * dims[3] * dims[4] + q * dims[2] * dims[3] * dims[4] + p * dims[3] * dims[4] \
                + j * dims[4]
            want[out:out + dims[4]] = flat_in[src:src + dims[4]]
        np.testing.assert_array_equal(y.reshape(-1), want)


@pytest.mark.parametrize(("shape", "attrs", "want"), [
    ((1, 3, 1, 2), {}, (3, 2)),
    ((1, 3, 1, 2), {"dim_0": 0}, (3, 1, 2)),
    ((1, 3, 1, 2), {"dim_0": 1, "dim_1": 0}, (3, 2)),
    ((1, 1, 4, 1), {"dim_0": 3}, (1, 4, 1)),
    ((2, 3, 4, 5), {"dim_0": 2}, (2, 3, 4, 5)),
])
def test_squeeze_reads_tensorflow_numbering(shape: tuple[int, ...], attrs: dict[str, int],
                                            want: tuple[int, ...]) -> None:
    x = RNG.standard_normal(shape)
    (y,) = _assert_formula("Squeeze", [x], attrs)
    assert y.shape == want
    np.testing.assert_array_equal(y.reshape(-1), x.reshape(-1))


@pytest.mark.parametrize(("axises", "want"), [
    ([0], (1, 2, 3)), ([2], (2, 3, 1)), ([-1], (2, 1, 3)), ([-2], (1, 2, 3)), ([0, 3], (1, 2, 3, 1)),
    ([1, 2], (2, 1, 1, 3)),
])
def test_unsqueeze_positions(axises: list[int], want: tuple[int, ...]) -> None:
    x = RNG.standard_normal((2, 3))
    (y,) = _assert_formula("Unsqueeze", [x], {"axises": axises})
    assert y.shape == want
    np.testing.assert_array_equal(y.reshape(-1), x.reshape(-1))


@pytest.mark.parametrize("scale", [1.0, 2.0, 3.0, 1.5, 0.5])
def test_upsample_transcribes_tengine(scale: float) -> None:
    x = RNG.standard_normal((1, 2, 3, 4)).astype(np.float32)
    (y,) = _assert_formula("Upsample", [x], {"scale": scale})
    f = np.float32(scale)
    for c, h, w in itertools.product(range(2), range(y.shape[2]), range(y.shape[3])):
        assert y[0, c, h, w] == x[0, c, int(np.float32(h) / f), int(np.float32(w) / f)]


def _onnx_run(op: str, inputs: dict[str, np.ndarray], **attrs: Any) -> np.ndarray:
    node = helper.make_node(op, list(inputs), ["Y"], **attrs)
    types = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.int64): TensorProto.INT64}
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info(k, types[v.dtype], None)
                                            for k, v in inputs.items()],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    result: Any = ReferenceEvaluator(model).run(None, inputs)
    return np.asarray(result[0])


@pytest.mark.parametrize("block", [1, 2, 3])
def test_space_to_depth_matches_onnx(block: int) -> None:
    x = RNG.standard_normal((2, 3, 6, 12)).astype(np.float32)
    (y,) = _assert_formula("SpaceToDepth", [x], {"block_size": block})
    np.testing.assert_array_equal(y, _onnx_run("SpaceToDepth", {"X": x}, blocksize=block))


@pytest.mark.parametrize(("by", "bx", "pads"), [(1, 1, (0, 0, 0, 0)), (2, 2, (0, 0, 0, 0)), (2, 3, (1, 1, 0, 2)),
                                                 (3, 1, (0, 2, 1, 1))])
def test_space_to_batch_nd_transcribes_tensorflow(by: int, bx: int, pads: tuple[int, int, int, int]) -> None:
    x = RNG.standard_normal((2, 4, 4, 3))
    attrs = {"dilation_y": by, "dilation_x": bx, "pad_top": pads[0], "pad_bottom": pads[1], "pad_left": pads[2],
             "pad_right": pads[3]}
    (y,) = _assert_formula("SpaceToBatchND", [x], attrs)
    n = x.shape[0]
    for ob, oh, ow, c in itertools.product(*[range(d) for d in y.shape]):
        b, shift_w, shift_h = ob % n, (ob // n) % bx, (ob // n) // bx
        h, w = oh * by + shift_h - pads[0], ow * bx + shift_w - pads[2]
        inside = 0 <= h < x.shape[1] and 0 <= w < x.shape[2]
        assert y[ob, oh, ow, c] == (x[b, h, w, c] if inside else 0.0)


def test_sparse_to_dense_loops() -> None:
    fn = _kernel("SparseToDense")
    idx = np.array([4, 0, 2], np.int32)
    (y,) = _assert_formula("SparseToDense", [idx, np.array([6], np.int32), np.array([5, 6, 7], np.int32)],
                           {"output_shape_size0": 6, "default_value": 9})
    want = [9.0] * 6
    for i, v in zip(idx.tolist(), [5, 6, 7], strict=True):
        want[i] = float(v)
    assert y.dtype == np.float32 and y.tolist() == want
    idx2 = np.array([[0, 1], [2, 0], [0, 1]], np.int32)
    (y2,) = fn(idx2, np.zeros((1, 2), np.int32), np.array([1, 2, 3], np.int32), output_shape_size0=3,
               output_shape_size1=2, default_value=0)
    assert y2.tolist() == [[0, 3], [0, 0], [2, 0]]
    with pytest.raises(ValueError, match="outside"):
        fn(np.array([6], np.int32), np.array([6], np.int32), np.array([1], np.int32), output_shape_size0=6)
    checks = _problems("SparseToDense", [np.array([6], np.int32), np.array([6], np.int32), np.array([1], np.int32)],
                     {"output_shape_size0": 6})
    assert checks == ["sparsetodense_c5"]


def test_topkv2_against_sorted() -> None:
    x = RNG.permutation(60).reshape(3, 4, 5).astype(np.float32)
    for k in (1, 3, 5):
        values, indices = _assert_formula("TopKV2", [x], {"k": k})
        assert indices.dtype == np.int32
        for i, j in itertools.product(range(3), range(4)):
            ranked = sorted(range(5), key=lambda t: -x[i, j, t])[:k]
            assert indices[i, j].tolist() == ranked
            assert values[i, j].tolist() == [x[i, j, t] for t in ranked]
    checks = _problems("TopKV2", [x], {"k": 6})
    assert checks == ["topkv2_c1"]


# ---- slicing ----

def _pieces(x: np.ndarray, axis: int, sizes: list[int]) -> list[np.ndarray]:
    start, out = 0, []
    for s in sizes:
        out.append(np.take(x, list(range(start, start + s)), axis=axis))
        start += s
    return out


@pytest.mark.parametrize(("attrs", "axis", "sizes"), [
    ({"is_onnx": 1, "axis": 1, "split_sizes": [1, 3, 2]}, 1, [1, 3, 2]),
    ({"is_onnx": 1, "axis": 2, "split_dim": 2}, 2, [2, 2]),
    ({"axis": 2, "split_dim": 2}, 0, [2, 2]),
    ({"is_onnx": 0, "axis": 1, "split_sizes": [3, 1]}, 0, [3, 1]),
])
def test_split_parts(attrs: dict[str, Any], axis: int, sizes: list[int]) -> None:
    x = RNG.standard_normal((4, 6, 4))
    parts = _assert_formula("Split", [x], attrs)
    assert len(parts) == len(sizes)
    for got, want in zip(parts, _pieces(x, axis, sizes), strict=True):
        np.testing.assert_array_equal(got, want)


def test_split_caffe_copies() -> None:
    x = RNG.standard_normal((2, 3))
    parts = _assert_formula("Split", [x], {"is_caffe": 1, "split_dim": 3, "axis": 1, "split_sizes": [1, 2]})
    assert len(parts) == 3 and all(np.array_equal(p, x) for p in parts)
    checks = _problems("Split", [x], {"is_onnx": 1, "axis": 1, "split_sizes": [1, 1]})
    assert checks == ["split_c2"]


def test_slice_flavours() -> None:
    x = RNG.standard_normal((3, 7, 4))
    parts = _assert_formula("Slice", [x], {"iscaffe": 1, "axis": 1, "slice_points": [2, 3, 6]})
    for got, want in zip(parts, _pieces(x, 1, [2, 1, 3, 1]), strict=True):
        np.testing.assert_array_equal(got, want)
    (m,) = _assert_formula("Slice", [x], {"ismxnet": 1, "axis": -1, "begin": 1, "end": 3})
    np.testing.assert_array_equal(m, np.take(x, [1, 2], axis=2))
    for begin, end, step, want_idx in ((1, 5, 1, [1, 2, 3, 4]), (1, 100, 3, [1, 4]), (0, -2, 2, [0, 2, 4]),
                                       (2, 0, 1, [2, 3, 4, 5, 6])):
        (o,) = _assert_formula("Slice", [x], {"isonnx": 1, "axis": 1, "begin": begin, "end": end, "step": step})
        np.testing.assert_array_equal(o, np.take(x, want_idx, axis=1))
    (t,) = _assert_formula("Slice", [x], {"begins": [1, 2, 0], "sizes": [2, -1, 3]})
    np.testing.assert_array_equal(t, np.array([[[x[i, j, k] for k in range(3)] for j in range(2, 7)] for i in (1, 2)]))
    checks = _problems("Slice", [x], {"isonnx": 1, "axis": 1, "begin": 3, "end": 3})
    assert checks == ["slice_c4"]


@pytest.mark.parametrize(("begin", "end", "stride"), [
    ((0, 0, 0, 0), (0, 0, 0, 0), (1, 1, 1, 1)),
    ((1, 0, 2, 1), (0, -1, 0, -1), (1, 2, 1, 2)),
    ((0, 1, 0, 0), (0, 0, -2, 0), (2, 1, 3, 4)),
])
def test_strided_slice_transcribes_tengine(begin: tuple[int, ...], end: tuple[int, ...],
                                           stride: tuple[int, ...]) -> None:
    x = RNG.standard_normal((2, 4, 5, 6))
    names = ("n", "c", "h", "w")
    attrs = {f"{k}_{a}": v for k, vals in (("begin", begin), ("end", end), ("stride", stride))
             for a, v in zip(names, vals, strict=True)}
    (y,) = _assert_formula("StridedSlice", [x], attrs)
    dims = [max(math.ceil((x.shape[i] - abs(end[i] - begin[i])) / stride[i]), 1) for i in range(4)]
    assert list(y.shape) == dims
    for idx in itertools.product(*[range(d) for d in dims]):
        assert y[idx] == x[tuple(begin[i] + idx[i] * stride[i] for i in range(4))]


# ---- scatter, ROI and detection ops ----

@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_scatter_matches_onnx_scatter_elements(axis: int) -> None:
    data = RNG.standard_normal((3, 4, 5)).astype(np.float32)
    ax = axis % 3
    upd_shape = [2, 3, 4]
    # distinct targets along the axis for every line, so the order of writes does not matter
    draw = RNG.random([data.shape[ax] if i == ax else upd_shape[i] for i in range(3)])
    indices = np.take(np.argsort(draw, axis=ax), range(upd_shape[ax]), axis=ax)
    updates = RNG.standard_normal(upd_shape).astype(np.float32)
    (y,) = _assert_formula("Scatter", [data, indices.astype(np.int32), updates], {"axis": axis, "is_onnx": 1})
    want = _onnx_run("ScatterElements", {"data": data, "indices": indices.astype(np.int64), "updates": updates},
                     axis=axis)
    np.testing.assert_array_equal(y, want)
    with pytest.raises(ValueError, match="ONNX"):
        _kernel("Scatter")(data, indices.astype(np.int32), updates, axis=axis, is_onnx=0)


def _bilinear_ncnn(plane: np.ndarray, x: float, y: float) -> float:
    h, w = plane.shape
    x0, y0 = int(x), int(y)
    x1, y1 = x0 + 1, y0 + 1
    a0, a1, b0, b1 = x1 - x, x - x0, y1 - y, y - y0
    if x1 >= w:
        x1, a0, a1 = w - 1, 1.0, 0.0
    if y1 >= h:
        y1, b0, b1 = h - 1, 1.0, 0.0
    r0 = plane[y0, x0] * a0 + plane[y0, x1] * a1
    r1 = plane[y1, x0] * a0 + plane[y1, x1] * a1
    return float(r0 * b0 + r1 * b1)


def _roialign_loops(x: np.ndarray, roi: list[float], pw: int, ph: int, scale: float) -> np.ndarray:
    _, c, h, w = x.shape
    x1, y1, x2, y2 = (v * scale for v in roi)
    bw, bh = max(x2 - x1, 1) / pw, max(y2 - y1, 1) / ph
    out = np.zeros((1, c, ph, pw))
    for q, i, j in itertools.product(range(c), range(ph), range(pw)):
        hs, ws = min(max(y1 + i * bh, 0), h), min(max(x1 + j * bw, 0), w)
        he, we = min(max(y1 + (i + 1) * bh, 0), h), min(max(x1 + (j + 1) * bw, 0), w)
        gh, gw = math.ceil(he - hs), math.ceil(we - ws)
        if he <= hs or we <= ws:
            continue
        total = sum(_bilinear_ncnn(x[0, q], ws + (bx + 0.5) * bw / gw, hs + (by + 0.5) * bh / gh)
                    for by in range(gh) for bx in range(gw))
        out[0, q, i, j] = total / (gh * gw)
    return out


@pytest.mark.parametrize(("roi", "pooled", "scale"), [
    ([0, 0, 8, 6], (2, 3), 1.0), ([3, 2, 29, 21], (3, 4), 0.25), ([-4, -4, 40, 12], (2, 2), 0.125),
    ([10, 10, 11, 11], (2, 2), 0.5),
])
def test_roialign_transcribes_ncnn(roi: list[float], pooled: tuple[int, int], scale: float) -> None:
    x = RNG.standard_normal((1, 2, 6, 8))
    attrs = {"pooled_height": pooled[0], "pooled_width": pooled[1], "spatial_scale": scale}
    (y,) = _assert_formula("ROIAlign", [x, np.asarray(roi, np.float64)], attrs)
    np.testing.assert_allclose(y, _roialign_loops(x, roi, pooled[1], pooled[0], scale), rtol=1e-9, atol=1e-12)


def _roipool_loops(x: np.ndarray, rois: np.ndarray, ph: int, pw: int, scale: float) -> np.ndarray:
    _, c, h, w = x.shape
    out = np.zeros((rois.shape[1], c, ph, pw))
    for n in range(rois.shape[1]):
        bx0, by0, bx1, by1 = (int(math.copysign(math.floor(abs(v * scale) + 0.5), v)) for v in rois[0, n].tolist())
        # C: float bin sizes, multiplied in double
        bin_w = float(np.float32(max(bx1 - bx0 + 1, 1)) / np.float32(pw))
        bin_h = float(np.float32(max(by1 - by0 + 1, 1)) / np.float32(ph))
        for q, i, j in itertools.product(range(c), range(ph), range(pw)):
            h0 = min(max(by0 + math.floor(i * bin_h), 0), h)
            h1 = min(max(by0 + math.ceil((i + 1) * bin_h), 0), h)
            w0 = min(max(bx0 + math.floor(j * bin_w), 0), w)
            w1 = min(max(bx0 + math.ceil((j + 1) * bin_w), 0), w)
            out[n, q, i, j] = 0.0 if h1 <= h0 or w1 <= w0 else x[0, q, h0:h1, w0:w1].max()
    return out


def test_roipooling_transcribes_tengine() -> None:
    x = RNG.standard_normal((1, 3, 7, 9))
    rois = np.array([[[0, 0, 16, 12], [4, 2, 30, 26], [-8, 3, 5, 40], [33, 20, 40, 40]]], np.float64)
    (y,) = _assert_formula("RoiPooling", [x, rois], {"pooled_h": 3, "pooled_w": 2, "spatial_scale": 0.25})
    np.testing.assert_allclose(y, _roipool_loops(x, rois, 3, 2, 0.25))


def _rpn_loops(score: np.ndarray, bbox: np.ndarray, info: list[float], ratios: list[float], scales: list[float],
               base: int, stride: int, min_size: float, pre: int, post: int, thresh: float) -> list[list[float]]:
    """Tengine's generate_anchors, bbox_tranform_inv, filter, selection sort and NMS, element by element."""
    def rnd(v: float) -> float:
        return math.copysign(math.floor(abs(v) + 0.5), v)

    cx = cy = (base - 1) * 0.5
    anchors = []
    for r in ratios:
        nw = rnd(math.sqrt(base * base / r))
        nh = rnd(nw * r)
        for s in scales:
            aw, ah = nw * s, nh * s
            anchors.append((cx - 0.5 * (aw - 1), cy - 0.5 * (ah - 1), cx + 0.5 * (aw - 1), cy + 0.5 * (ah - 1)))
    a_count, (_, _, h, w) = len(anchors), bbox.shape
    boxes = []
    for i, j, a in itertools.product(range(h), range(w), range(a_count)):
        x0, y0 = anchors[a][0] + j * stride, anchors[a][1] + i * stride
        aw, ah = anchors[a][2] + j * stride - x0 + 1, anchors[a][3] + i * stride - y0 + 1
        dx, dy, dw, dh = (float(bbox[0, 4 * a + k, i, j]) for k in range(4))
        pcx, pcy, pw, ph = dx * aw + x0 + 0.5 * aw, dy * ah + y0 + 0.5 * ah, math.exp(dw) * aw, math.exp(dh) * ah
        if pw >= min_size * info[2] and ph >= min_size * info[2]:
            boxes.append([min(max(pcx - 0.5 * pw, 0), info[1]), min(max(pcy - 0.5 * ph, 0), info[0]),
                          min(max(pcx + 0.5 * pw, 0), info[1]), min(max(pcy + 0.5 * ph, 0), info[0]),
                          float(score[0, a_count + a, i, j])])
    boxes.sort(key=lambda b: -b[4])  # scores are distinct in the test, so any sort agrees
    boxes = boxes[:pre] if pre > 0 else boxes
    kept: list[list[float]] = []
    for b in boxes:
        area = (b[2] - b[0] + 1) * (b[3] - b[1] + 1)
        if all(max(0, min(b[2], k[2]) - max(b[0], k[0]) + 1) * max(0, min(b[3], k[3]) - max(b[1], k[1]) + 1)
               / (area + (k[2] - k[0] + 1) * (k[3] - k[1] + 1)
                  - max(0, min(b[2], k[2]) - max(b[0], k[0]) + 1) * max(0, min(b[3], k[3]) - max(b[1], k[1]) + 1))
               < thresh for k in kept):
            kept.append(b)
    return [k[:4] for k in (kept[:post] if post > 0 else kept)]


@pytest.mark.parametrize(("pre", "post", "thresh"), [(0, 0, 0.7), (20, 5, 0.5), (0, 3, 0.3)])
def test_rpn_transcribes_tengine(pre: int, post: int, thresh: float) -> None:
    ratios, scales = [0.5, 1.0, 2.0], [1.0, 2.0]
    score = RNG.permutation(2 * 6 * 3 * 4).reshape(1, 12, 3, 4).astype(np.float32) / 100
    bbox = (RNG.standard_normal((1, 24, 3, 4)) * 0.3).astype(np.float32)
    info = [48.0, 64.0, 1.0]
    attrs = {"ratios": ratios, "anchor_scales": scales, "feat_stride": 16, "basesize": 16, "min_size": 4,
             "per_nms_topn": pre, "post_nms_topn": post, "nms_thresh": thresh}
    (y,) = _kernel("RPN")(score, bbox, np.asarray(info, np.float32), **attrs)
    want = _rpn_loops(score, bbox, info, ratios, scales, 16, 16, 4, pre, post, thresh)
    assert y.shape == (1, len(want), 4, 1)
    np.testing.assert_allclose(y.reshape(-1, 4), np.asarray(want).reshape(-1, 4), rtol=1e-4, atol=1e-3)
    assert VERSIONS["RPN"].outputs[0].formula is None


def test_spatial_transformer_transcribes_tengine() -> None:
    x = RNG.standard_normal((1, 2, 5, 6))
    theta = np.array([0.8, -0.3, 0.1, 0.2, 1.1, -0.2])
    (y,) = _assert_formula("SpatialTransformer", [x, theta], {"sampler_type": 1, "transformer_type": 0,
                                                              "target_shape": [4, 7]})
    for c, i, j in itertools.product(range(2), range(4), range(7)):
        xt, yt = -1 + j * 2.0 / 6, -1 + i * 2.0 / 3
        xs = theta[0] * xt + theta[1] * yt + theta[2]
        ys = theta[3] * xt + theta[4] * yt + theta[5]
        yr, xr = float(np.float32((ys + 1) * 4 / 2)), float(np.float32((xs + 1) * 5 / 2))
        ty, tx = math.floor(yr), math.floor(xr)
        wy, wx = 1 - (yr - ty), 1 - (xr - tx)
        total = 0.0
        for dy, dx, f in ((0, 0, wy * wx), (0, 1, wy * (1 - wx)), (1, 0, (1 - wy) * wx), (1, 1, (1 - wy) * (1 - wx))):
            if 0 <= ty + dy <= 4 and 0 <= tx + dx <= 5:
                total += x[0, c, ty + dy, tx + dx] * f
        assert y[0, c, i, j] == pytest.approx(total, rel=1e-9, abs=1e-12)
