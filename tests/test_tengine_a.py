"""Tengine ops Absval .. HardSwish: registry entries, examples, shape formulas and kernels vs independent code.

The independent computations are plain loops or textbook formulas written here, not calls into
the kernels; each kernel test fails when the kernel's arithmetic, indexing or shape changes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conformance.kernels.registry import find_kernel, run_kernel
from opset.infer import infer_shapes
from opset.lint import lint
from opset.load import load_registry
from opset.model import OpVersion

OP_IDS = {
    "Absval": 68, "Accuracy": 0, "Addn": 49, "ArgMax": 42, "ArgMin": 43, "BatchNormalization": 1,
    "BatchToSpaceND": 53, "Bias": 61, "BilinearResize": 2, "BroadMul": 74, "Cast": 69, "Ceil": 83, "Clip": 87,
    "Comparison": 78, "Concat": 3, "Const": 4, "Crop": 56, "Deconvolution": 6, "DepthToSpace": 80,
    "DetectionOutput": 7, "DetectionPostProcess": 30, "DropOut": 8, "ELU": 73, "Embed": 65, "Expand": 92,
    "Expanddims": 60, "Flatten": 10, "Gather": 76, "Gemm": 31, "Generic": 32, "GRU": 48, "Hardsigmoid": 64,
    "HardSwish": 70,
}
NO_KERNEL = {"Accuracy", "Const", "Generic"}  # no meaningful numeric kernel: see each op's doc
RNG = np.random.default_rng(20240602)
REGISTRY = load_registry()
VERSIONS = {name: REGISTRY.resolve("tengine", name, 1) for name in OP_IDS}
EXAMPLES = [(v, ex) for v in VERSIONS.values() for ex in v.examples]


def _array(literal: dict[str, Any]) -> np.ndarray:
    arr = np.asarray(literal["data"], dtype=np.dtype(literal["dtype"]))
    return arr.reshape(literal["shape"]) if "shape" in literal else arr


def _run(op: str, inputs: Sequence[np.ndarray | None], **attrs: Any) -> tuple[np.ndarray, ...]:
    """The kernel with every attribute resolved from the schema, as the conformance runner calls it."""
    if find_kernel("tengine", op, 1) is None:
        pytest.fail(f"tengine::{op}: no reference kernel registered")
    return run_kernel(VERSIONS[op], inputs, attrs)


def _formula_shapes(op: str, inputs: Sequence[np.ndarray | None], *, values: Mapping[str, Any] | None = None,
                    **attrs: Any) -> list[list[int] | None]:
    v = VERSIONS[op]
    result = infer_shapes(v, [None if a is None else list(a.shape) for a in inputs], attrs, values)
    assert not result.problems, f"{v.signature}: {result.problems}"
    return [None if s is None else [int(str(d)) for d in s] for s in result.outputs]


# ---- the registry entries ----

@pytest.mark.parametrize("op", sorted(OP_IDS))
def test_op_is_registered_with_its_tengine_id(op: str) -> None:
    v = VERSIONS[op]
    assert v.tengine is not None and v.tengine.op_id == OP_IDS[op]
    fields = [f.attribute or f.name for f in v.tengine.layout]
    assert fields == list(v.attributes), f"{op}: layout fields {fields} vs attributes {list(v.attributes)}"
    for f in v.tengine.layout:
        attr = v.attributes[f.attribute or f.name]
        assert f.default == attr.default, f"{op}.{f.name}: layout default {f.default} vs attribute {attr.default}"
    assert (v.tengine.param_struct is None) == (not v.tengine.layout)


@pytest.mark.parametrize("op", sorted(OP_IDS))
def test_kernels_and_examples_exist_except_documented_gaps(op: str) -> None:
    v = VERSIONS[op]
    if op in NO_KERNEL:
        assert find_kernel("tengine", op, 1) is None
        assert "no reference kernel" in v.doc
    else:
        assert find_kernel("tengine", op, 1) is not None, f"{op}: no kernel"
        assert v.examples, f"{op}: no executable example"


def test_lint_reports_nothing_in_these_files() -> None:
    problems, _ = lint([])
    mine = [p for p in problems if Path(p.file).stem in OP_IDS and Path(p.file).parent.name == "tengine"]
    assert not mine, "\n".join(str(p) for p in mine)


@pytest.mark.parametrize(("v", "ex"), EXAMPLES, ids=lambda x: getattr(x, "name", ""))
def test_example_matches_kernel_formula_and_constraints(v: OpVersion, ex: Any) -> None:
    inputs = [None if ex.inputs.get(p.name) is None else _array(ex.inputs[p.name]) for p in v.inputs]
    while inputs and inputs[-1] is None:
        inputs.pop()
    values = {p.name: a.reshape(-1).tolist() for p, a in zip(v.inputs, inputs, strict=False) if a is not None}
    result = infer_shapes(v, [None if a is None else list(a.shape) for a in inputs], ex.attributes, values)
    assert not result.problems, f"{v.signature} {ex.name}: {result.problems}"
    got = _run(v.name, inputs, **ex.attributes)
    assert len(got) == len(v.outputs)
    for param, y, formula_shape in zip(v.outputs, got, result.outputs, strict=True):
        want = _array(ex.outputs[param.name])
        assert y.dtype == want.dtype and y.shape == want.shape, f"{ex.name}: {y.dtype}{y.shape} vs {want.shape}"
        if param.formula is not None:
            assert formula_shape == list(want.shape), f"{v.signature} {ex.name}: formula gives {formula_shape}"
        np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6, err_msg=f"{v.signature} {ex.name}")


# ---- elementwise kernels against textbook formulas ----

@pytest.mark.parametrize(("op", "attrs", "expect"), [
    ("Absval", {}, lambda x: [abs(v) for v in x]),
    ("Ceil", {}, lambda x: [math.ceil(v) for v in x]),
    ("DropOut", {}, lambda x: list(x)),
    ("ELU", {"alpha": 0.7}, lambda x: [v if v >= 0 else 0.7 * (math.exp(v) - 1) for v in x]),
    ("Hardsigmoid", {"alpha": 0.2, "beta": 0.5}, lambda x: [min(1.0, max(0.0, 0.2 * v + 0.5)) for v in x]),
    ("HardSwish", {}, lambda x: [v * min(6.0, max(0.0, v + 3)) / 6 for v in x]),
    ("HardSwish", {"alpha": 2.0, "beta": 1.0}, lambda x: [v * min(6.0, max(0.0, 2 * v + 1)) / 6 for v in x]),
    ("Clip", {"min": -0.5, "max": 1.25}, lambda x: [min(1.25, max(-0.5, v)) for v in x]),
    ("Clip", {"min": 1.0, "max": -1.0}, lambda x: [1.0 for _ in x]),
    ("Clip", {}, lambda x: list(x)),
])
def test_elementwise_kernels(op: str, attrs: dict[str, Any], expect: Any) -> None:
    x = RNG.uniform(-5, 5, (2, 3, 4))
    (y,) = _run(op, [x], **attrs)
    assert y.shape == x.shape and y.dtype == x.dtype
    np.testing.assert_allclose(y.reshape(-1), expect(x.reshape(-1).tolist()), rtol=1e-12, atol=1e-12)


def test_addn_sums_and_rejects_mixed_shapes() -> None:
    a, b, c = (RNG.standard_normal((2, 3)) for _ in range(3))
    (y,) = _run("Addn", [a, b, c])
    want = [[a[i, j] + b[i, j] + c[i, j] for j in range(3)] for i in range(2)]
    np.testing.assert_allclose(y, want, rtol=1e-12)
    assert _formula_shapes("Addn", [a, b, c]) == [[2, 3]]
    with pytest.raises(ValueError, match="Addn"):
        _run("Addn", [a, np.ones((3, 2))])
    assert infer_shapes(VERSIONS["Addn"], [[2, 3], [3, 2]], {}).problems


@pytest.mark.parametrize("op", ["ArgMax", "ArgMin"])
@pytest.mark.parametrize(("axis", "keepdims"), [(0, 1), (1, 1), (2, 0), (1, 0)])
def test_arg_reductions_take_the_first_extreme(op: str, axis: int, keepdims: int) -> None:
    x = RNG.integers(0, 3, (3, 4, 5)).astype(np.float32)  # many ties
    (y,) = _run(op, [x], axis=axis, keepdims=keepdims)
    better = (lambda a, b: a > b) if op == "ArgMax" else (lambda a, b: a < b)
    moved = np.moveaxis(x, axis, -1)
    want = np.zeros(moved.shape[:-1], np.int32)
    for idx in np.ndindex(*moved.shape[:-1]):
        best = 0
        for i in range(1, moved.shape[-1]):
            if better(moved[idx][i], moved[idx][best]):
                best = i
        want[idx] = best
    if keepdims:
        want = np.expand_dims(want, axis)
    assert y.dtype == np.int32
    np.testing.assert_array_equal(y, want)
    assert _formula_shapes(op, [x], axis=axis, keepdims=keepdims) == [list(y.shape)]


@pytest.mark.parametrize(("rescale", "caffe"), [(1.0, 0), (4.0, 0), (0.5, 1), (0.0, 0)])
def test_batch_normalization_per_channel(rescale: float, caffe: int) -> None:
    x = RNG.standard_normal((2, 3, 2, 2))
    gamma, beta, mean = RNG.standard_normal(3), RNG.standard_normal(3), RNG.standard_normal(3)
    var = RNG.uniform(0.5, 2, 3)
    (y,) = _run("BatchNormalization", [x, gamma, beta, mean, var], rescale_factor=rescale, eps=1e-3,
                caffe_flavor=caffe)
    r = 0.0 if rescale == 0 else 1 / rescale
    want = np.empty_like(x)
    for n, c, h, w in np.ndindex(*x.shape):
        v = (x[n, c, h, w] - mean[c] * r) / math.sqrt(var[c] * r + 1e-3)
        want[n, c, h, w] = v if caffe else gamma[c] * v + beta[c]
    np.testing.assert_allclose(y, want, rtol=1e-10)


@pytest.mark.parametrize(("dx", "dy", "crops"), [(2, 2, (0, 0, 0, 0)), (3, 1, (0, 0, 1, 2)), (1, 2, (1, 0, 0, 0))])
def test_batch_to_space_nd_matches_tengine_loop(dx: int, dy: int, crops: tuple[int, int, int, int]) -> None:
    x = RNG.standard_normal((2 * dx * dy, 2, 3, 2))
    top, bottom, left, right = crops
    attrs: dict[str, Any] = {"dilation_x": dx, "dilation_y": dy, "crop_top": top, "crop_bottom": bottom,
                             "crop_left": left, "crop_right": right}
    (y,) = _run("BatchToSpaceND", [x], **attrs)
    out_n, out_h, out_w = 2, 2 * dy - top - bottom, 3 * dx - left - right
    want = np.full((out_n, out_h, out_w, 2), np.nan)
    for b in range(x.shape[0]):  # transcribed from ref_batchtospacend_fp32
        offset = b // out_n
        for h in range(2):
            oh = h * dy + offset // dx - top
            for w in range(3):
                ow = w * dx + offset % dx - left
                if 0 <= oh < out_h and 0 <= ow < out_w:
                    want[b % out_n, oh, ow] = x[b, h, w]
    np.testing.assert_array_equal(y, want)
    assert _formula_shapes("BatchToSpaceND", [x], **attrs) == [list(y.shape)]


def test_bias_and_broadmul_are_per_channel() -> None:
    x, b = RNG.standard_normal((2, 3, 2, 2)), RNG.standard_normal(3)
    (added,) = _run("Bias", [x, b])
    (scaled,) = _run("BroadMul", [x, b.reshape(1, 3, 1, 1)])
    for n, c, h, w in np.ndindex(*x.shape):
        assert added[n, c, h, w] == x[n, c, h, w] + b[c]
        assert scaled[n, c, h, w] == x[n, c, h, w] * b[c]
    with pytest.raises(ValueError, match="BroadMul"):
        _run("BroadMul", [x, np.ones(2)])
    assert infer_shapes(VERSIONS["BroadMul"], [[2, 3, 2, 2], [2]], {}).problems


@pytest.mark.parametrize(("sx", "sy", "kind"), [(2.0, 2.0, 0), (0.5, 1.5, 0), (2.0, 3.0, 1), (0.75, 1.0, 1)])
def test_bilinear_resize_against_pointwise_sampling(sx: float, sy: float, kind: int) -> None:
    x = RNG.standard_normal((1, 2, 4, 5))
    (y,) = _run("BilinearResize", [x], scale_x=sx, scale_y=sy, type=kind)
    oh, ow = int(4 * sy), int(5 * sx)
    assert y.shape == (1, 2, oh, ow) and _formula_shapes("BilinearResize", [x], scale_x=sx, scale_y=sy) == [
        [1, 2, oh, ow]]

    def sample(c: int, i: int, j: int) -> float:
        if kind == 0:
            return float(x[0, c, min(int(i / sy), 3), min(int(j / sx), 4)])
        fy = min(max((i + 0.5) / sy - 0.5, 0.0), 3.0)
        fx = min(max((j + 0.5) / sx - 0.5, 0.0), 4.0)
        y0, x0 = int(fy), int(fx)
        y1, x1 = min(y0 + 1, 3), min(x0 + 1, 4)
        wy, wx = fy - y0, fx - x0
        return float((1 - wy) * ((1 - wx) * x[0, c, y0, x0] + wx * x[0, c, y0, x1]) +
                     wy * ((1 - wx) * x[0, c, y1, x0] + wx * x[0, c, y1, x1]))

    want = [[[sample(c, i, j) for j in range(ow)] for i in range(oh)] for c in range(2)]
    np.testing.assert_allclose(y[0], want, rtol=1e-12)


@pytest.mark.parametrize(("code", "dtype"), [(1, np.float32), (10, np.float16), (6, np.int32), (3, np.int8),
                                             (2, np.uint8), (5, np.int16)])
def test_cast_codes_are_onnx_types(code: int, dtype: type) -> None:
    x = np.array([-300.7, -2.5, -0.4, 0.0, 1.9, 40000.2])
    (y,) = _run("Cast", [x], type_from=1, type_to=code)
    assert y.dtype == np.dtype(dtype)
    if np.dtype(dtype).kind == "f":
        np.testing.assert_array_equal(y, x.astype(dtype))
    else:
        lo, hi = np.iinfo(dtype).min, np.iinfo(dtype).max
        np.testing.assert_array_equal(y, [min(hi, max(lo, math.trunc(v))) for v in x])
    (same,) = _run("Cast", [x])
    assert same.dtype == x.dtype


@pytest.mark.parametrize("code", range(6))
@pytest.mark.parametrize("b_shape", [(1,), (1, 3, 2, 2), (3,)])
def test_comparison_codes_and_broadcast(code: int, b_shape: tuple[int, ...]) -> None:
    a = RNG.integers(0, 3, (1, 3, 2, 2)).astype(np.float32)
    b = RNG.integers(0, 3, b_shape).astype(np.float32)
    (y,) = _run("Comparison", [a, b], type=code)
    ops = [lambda p, q: p == q, lambda p, q: p != q, lambda p, q: p > q, lambda p, q: p >= q,
           lambda p, q: p < q, lambda p, q: p <= q]
    flat_b = b.reshape(-1)
    for n, c, h, w in np.ndindex(*a.shape):
        other = flat_b[0] if b.size == 1 else flat_b[c] if b.size == 3 else b[n, c, h, w]
        assert y[n, c, h, w] == float(ops[code](a[n, c, h, w], other))
    assert _formula_shapes("Comparison", [a, b], type=code) == [list(y.shape)]
    (swapped,) = _run("Comparison", [b, a], type=code) if len(b_shape) < 4 else (y,)
    assert swapped.shape == a.shape


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_concat_joins_along_axis(axis: int) -> None:
    shapes = [[2, 3, 4], [2, 3, 4], [2, 3, 4]]
    a = axis % 3
    for k, size in enumerate((1, 2, 3)):
        shapes[k][a] = size
    parts = [RNG.standard_normal(s) for s in shapes]
    (y,) = _run("Concat", parts, axis=axis)
    offset = 0
    for p in parts:
        for idx in np.ndindex(*p.shape):
            moved = list(idx)
            moved[a] += offset
            assert y[tuple(moved)] == p[idx]
        offset += p.shape[a]
    assert _formula_shapes("Concat", parts, axis=axis) == [list(y.shape)]


def test_crop_modes() -> None:
    x = RNG.standard_normal((2, 4, 5, 6))
    ref = np.zeros((2, 2, 3, 3))
    (caffe,) = _run("Crop", [x, ref], axis=1, offset_c=1, offset_h=2, offset_w=3)
    np.testing.assert_array_equal(caffe, [[[[x[n, 1 + c, 2 + h, 3 + w] for w in range(3)] for h in range(3)]
                                           for c in range(2)] for n in range(2)])
    (spatial,) = _run("Crop", [x, ref], axis=2, offset_h=1, offset_w=0)
    assert spatial.shape == (2, 4, 3, 3) and spatial[1, 3, 0, 2] == x[1, 3, 1, 2]
    (centre,) = _run("Crop", [x], flag=1, num_args=1, crop_h=3, crop_w=2)
    assert centre.shape == (2, 4, 3, 2) and centre[0, 0, 0, 0] == x[0, 0, 1, 2]
    (mx2,) = _run("Crop", [x, ref], flag=1, num_args=2, offset_h=2, offset_w=1)
    assert mx2.shape == (2, 4, 3, 3) and mx2[0, 2, 2, 2] == x[0, 2, 4, 3]
    cases: list[tuple[dict[str, Any], list[np.ndarray], np.ndarray]] = [
        ({"axis": 1, "offset_c": 1, "offset_h": 2, "offset_w": 3}, [x, ref], caffe),
        ({"flag": 1, "num_args": 1, "crop_h": 3, "crop_w": 2}, [x], centre)]
    for attrs, inputs, got in cases:
        assert _formula_shapes("Crop", inputs, **attrs) == [list(got.shape)]
    with pytest.raises(ValueError, match="does not fit"):
        _run("Crop", [x, ref], axis=2, offset_h=4)
    assert infer_shapes(VERSIONS["Crop"], [[2, 4, 5, 6], [2, 2, 3, 3]], {"axis": 2, "offset_h": 4}).problems


def _naive_deconv(x: np.ndarray, w: np.ndarray, b: np.ndarray, stride: int, pad: tuple[int, int, int, int],
                  dilation: int, group: int, out_pad: int) -> np.ndarray:
    """Scatter every input pixel through the kernel, as Tengine's ref_deconv_fp32 does."""
    n, c, h, wd = x.shape
    kh, kw = w.shape[2:]
    mg = w.shape[1]
    oh = (h - 1) * stride + dilation * (kh - 1) + 1 - pad[0] - pad[2] + out_pad
    ow = (wd - 1) * stride + dilation * (kw - 1) + 1 - pad[1] - pad[3] + out_pad
    y = np.zeros((n, mg * group, oh, ow))
    cg = c // group
    for b_, ci, i, j in np.ndindex(n, c, h, wd):
        g = ci // cg
        for m in range(mg):
            for a in range(kh):
                for e in range(kw):
                    r, s = i * stride - pad[0] + a * dilation, j * stride - pad[1] + e * dilation
                    if 0 <= r < oh and 0 <= s < ow:
                        y[b_, g * mg + m, r, s] += x[b_, ci, i, j] * w[ci, m, a, e]
    return y + b.reshape(1, -1, 1, 1)


@pytest.mark.parametrize(("stride", "pad", "dilation", "group", "out_pad", "activation"), [
    (1, (0, 0, 0, 0), 1, 1, 0, -1), (2, (1, 0, 1, 2), 1, 2, 1, 0), (2, (0, 1, 0, 0), 2, 1, 1, 1),
    (3, (1, 1, 1, 1), 1, 4, 2, 6),
])
def test_deconvolution_matches_scatter_loop(stride: int, pad: tuple[int, int, int, int], dilation: int,
                                            group: int, out_pad: int, activation: int) -> None:
    x = RNG.standard_normal((1, 4, 3, 4)) * 3
    w = RNG.standard_normal((4, 2, 3, 2))
    b = RNG.standard_normal(2 * group)
    attrs: dict[str, Any] = {
        "num_output": 2 * group, "kernel_h": 3, "kernel_w": 2, "stride_h": stride, "stride_w": stride,
        "pad_h0": pad[0], "pad_w0": pad[1], "pad_h1": pad[2], "pad_w1": pad[3], "dilation_h": dilation,
        "dilation_w": dilation, "group": group, "activation": activation, "output_pad_h0": out_pad,
        "output_pad_w0": out_pad}
    (y,) = _run("Deconvolution", [x, w, b], **attrs)
    want = _naive_deconv(x, w, b, stride, pad, dilation, group, out_pad)
    want = {-1: want, 0: np.maximum(want, 0), 1: np.clip(want, 0, 1), 6: np.clip(want, 0, 6)}[activation]
    np.testing.assert_allclose(y, want, rtol=1e-10, atol=1e-10)
    assert _formula_shapes("Deconvolution", [x, w, b], **attrs) == [list(y.shape)]


@pytest.mark.parametrize("block", [1, 2, 3])
def test_depth_to_space_is_crd(block: int) -> None:
    x = RNG.standard_normal((2, 2 * block * block, 3, 2))
    (y,) = _run("DepthToSpace", [x], block_size=block)
    for n, s, h, w in np.ndindex(*y.shape):  # transcribed from ref_depthtospace_fp32
        d = s * block * block + (h % block) * block + (w % block)
        assert y[n, s, h, w] == x[n, d, h // block, w // block]
    assert _formula_shapes("DepthToSpace", [x], block_size=block) == [list(y.shape)]


def test_embed_clamps_words_and_adds_bias() -> None:
    weight, bias = RNG.standard_normal((5, 3)), RNG.standard_normal(3)
    words = np.array([[0.0, 4.0, 2.7], [-3.0, 9.0, 1.2]])
    (y,) = _run("Embed", [words, weight, bias], num_output=3, input_dim=5, bias_term=1)
    rows = [min(4, max(0, int(v))) for v in words.reshape(-1)]
    np.testing.assert_allclose(y, [weight[r] + bias for r in rows], rtol=1e-12)
    (plain,) = _run("Embed", [words, weight])
    np.testing.assert_array_equal(plain, weight[rows])
    assert _formula_shapes("Embed", [words, weight, bias]) == [[6, 3]]


@pytest.mark.parametrize(("in_shape", "target"), [((1, 3), (2, 3)), ((3, 1), (2, 1, 4)), ((2, 1, 4), (3, 1))])
def test_expand_broadcasts(in_shape: tuple[int, ...], target: tuple[int, ...]) -> None:
    x = RNG.standard_normal(in_shape)
    shape = np.array(target, np.int32)
    (y,) = _run("Expand", [x, shape])
    out = np.broadcast_shapes(in_shape, target)
    assert y.shape == out
    for idx in np.ndindex(*out):
        src = tuple(0 if d == 1 else i for i, d in zip(idx[len(out) - len(in_shape):], in_shape, strict=True))
        assert y[idx] == x[src]
    assert _formula_shapes("Expand", [x, shape], values={"shape": list(target)}) == [list(out)]
    (stored,) = _run("Expand", [x, np.zeros(2, np.int32)], ex_shape=list(target), dim_num=len(target))
    np.testing.assert_array_equal(stored, y)


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_expanddims_and_flatten_shapes(axis: int) -> None:
    x = RNG.standard_normal((2, 3))
    (y,) = _run("Expanddims", [x], axis=axis)
    want = list(x.shape)
    want.insert(axis, 1)
    assert list(y.shape) == want == _formula_shapes("Expanddims", [x], axis=axis)[0]
    np.testing.assert_array_equal(y.reshape(-1), x.reshape(-1))
    z = RNG.standard_normal((2, 3, 1, 4))
    (flat,) = _run("Flatten", [z])
    assert flat.shape == (2, 12) and flat[1, 5] == z[1, 1, 0, 1]
    assert _formula_shapes("Flatten", [z]) == [[2, 12]]
    (part,) = _run("Flatten", [z.reshape(2, 3, 4, 1)], axis=1, end_axis=2)
    assert [2, 12] == list(part.shape) == _formula_shapes("Flatten", [part.reshape(2, 3, 4, 1)], end_axis=2)[0]
    with pytest.raises(ValueError, match="Flatten"):
        _run("Flatten", [RNG.standard_normal((2, 3, 4))], axis=1, end_axis=1)


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_gather_onnx_and_indices_num(axis: int) -> None:
    x = RNG.standard_normal((3, 4, 5))
    idx = np.array([[2, 0], [1, 1]], np.int32)
    (y,) = _run("Gather", [x, idx], axis=axis, is_onnx=1)
    want_shape = [*x.shape[:axis], 2, 2, *x.shape[axis + 1:]]
    assert list(y.shape) == want_shape == _formula_shapes("Gather", [x, idx], axis=axis, is_onnx=1)[0]
    for out_idx in np.ndindex(*y.shape):
        src = (*out_idx[:axis], idx[out_idx[axis], out_idx[axis + 1]], *out_idx[axis + 2:])
        assert y[out_idx] == x[src]
    (first,) = _run("Gather", [x, idx], axis=axis, indices_num=3)
    assert first.shape[axis] == 3
    np.testing.assert_array_equal(np.take(first, 2, axis=axis), np.take(x, 1, axis=axis))
    with pytest.raises(ValueError, match="indices"):
        _run("Gather", [x, np.array([-1], np.int32)], axis=axis, is_onnx=1)


@pytest.mark.parametrize(("ta", "tb", "c_shape"), [(0, 0, None), (1, 0, (4,)), (0, 1, (3, 1)), (1, 1, (3, 4))])
def test_gemm_against_loops(ta: int, tb: int, c_shape: tuple[int, ...] | None) -> None:
    a = RNG.standard_normal((2, 3) if ta else (3, 2))
    b = RNG.standard_normal((4, 2) if tb else (2, 4))
    c = None if c_shape is None else RNG.standard_normal(c_shape)
    (y,) = _run("Gemm", [a, b, c], alpha=0.5, beta=2.0, transA=ta, transB=tb)
    am, bm = (a.T if ta else a), (b.T if tb else b)
    cb = np.zeros((3, 4)) if c is None else np.broadcast_to(c, (3, 4))
    want = [[0.5 * sum(am[i, k] * bm[k, j] for k in range(2)) + 2.0 * cb[i, j] for j in range(4)] for i in range(3)]
    np.testing.assert_allclose(y, want, rtol=1e-12)
    assert _formula_shapes("Gemm", [a, b, c], transA=ta, transB=tb) == [[3, 4]]


def test_gru_against_scalar_recurrence() -> None:
    seq, batch, size, hidden = 3, 2, 4, 3
    x = RNG.standard_normal((seq, batch, size))
    w, r = RNG.standard_normal((1, 3 * hidden, size)), RNG.standard_normal((1, 3 * hidden, hidden))
    b = RNG.standard_normal((1, 6 * hidden))
    (y,) = _run("GRU", [x, w, r, b], hidden_size=hidden)

    def sig(v: float) -> float:
        return 1 / (1 + math.exp(-v))

    want = np.zeros((seq, 1, batch, hidden))
    for n in range(batch):
        h = [0.0] * hidden
        for t in range(seq):
            def lin(gate: int, q: int, t: int = t, n: int = n) -> float:
                row = gate * hidden + q
                return float(sum(x[t, n, m] * w[0, row, m] for m in range(size)) + b[0, row])

            def rec(gate: int, q: int, h: list[float] = h) -> float:
                row = gate * hidden + q
                return float(sum(h[k] * r[0, row, k] for k in range(hidden)))

            z = [sig(lin(0, q) + rec(0, q) + b[0, 3 * hidden + q]) for q in range(hidden)]
            rs = [sig(lin(1, q) + rec(1, q) + b[0, 4 * hidden + q]) for q in range(hidden)]
            cand = [math.tanh(lin(2, q) + rs[q] * rec(2, q) + b[0, 5 * hidden + q]) for q in range(hidden)]
            h = [(1 - z[q]) * cand[q] + z[q] * h[q] for q in range(hidden)]
            want[t, 0, n] = h
    np.testing.assert_allclose(y, want, rtol=1e-10)
    assert _formula_shapes("GRU", [x, w, r, b]) == [[seq, 1, batch, hidden]]
    (no_bias,) = _run("GRU", [x, w, r])
    assert no_bias.shape == y.shape and not np.allclose(no_bias, y)


# ---- detection ops against a plain re-implementation ----

def _iou(p: list[float], q: list[float]) -> float:
    if p[0] > q[2] or p[2] < q[0] or p[1] > q[3] or p[3] < q[1]:
        return 0.0
    inter = (min(p[2], q[2]) - max(p[0], q[0])) * (min(p[3], q[3]) - max(p[1], q[1]))
    return inter / ((p[2] - p[0]) * (p[3] - p[1]) + (q[2] - q[0]) * (q[3] - q[1]) - inter)


def _greedy(cands: list[tuple[float, int, list[float]]], threshold: float) -> list[tuple[float, int, list[float]]]:
    kept: list[tuple[float, int, list[float]]] = []
    for cand in cands:
        if all(_iou(cand[2], k[2]) <= threshold for k in kept):
            kept.append(cand)
    return kept


def test_detection_output_against_plain_ssd() -> None:
    num_prior, num_classes = 12, 3
    centres = RNG.uniform(0.2, 0.8, (num_prior, 2))
    sizes = RNG.uniform(0.1, 0.3, (num_prior, 2))
    priors = np.concatenate([centres - sizes / 2, centres + sizes / 2], axis=1)
    variances = np.tile([0.1, 0.1, 0.2, 0.2], (num_prior, 1))
    priorbox = np.stack([priors.reshape(-1), variances.reshape(-1)])[None]
    loc = RNG.standard_normal((1, num_prior * 4)) * 0.5
    conf = RNG.uniform(0, 1, (1, num_prior * num_classes))
    attrs: dict[str, Any] = {"num_classes": num_classes, "keep_top_k": 6, "nms_top_k": 5, "confidence_threshold": 0.3,
             "nms_threshold": 0.3}
    (y,) = _run("DetectionOutput", [loc, conf, priorbox], **attrs)
    rows = []
    for cls in range(1, num_classes):
        cands = []
        for j in range(num_prior):
            score = conf[0, j * num_classes + cls]
            if score > 0.3:
                p, v, lo = priors[j], variances[j], loc[0, 4 * j:4 * j + 4]
                pw, ph = p[2] - p[0], p[3] - p[1]
                cx, cy = v[0] * lo[0] * pw + (p[0] + p[2]) / 2, v[1] * lo[1] * ph + (p[1] + p[3]) / 2
                bw, bh = pw * math.exp(v[2] * lo[2]), ph * math.exp(v[3] * lo[3])
                cands.append((score, j, [cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2]))
        cands.sort(key=lambda t: -t[0])
        rows += [[cls, s, *box] for s, _, box in _greedy(cands[:5], 0.3)]
    rows.sort(key=lambda t: -t[1])
    want = np.array(rows[:6]).reshape(1, -1, 6, 1)
    assert y.shape == want.shape
    np.testing.assert_allclose(y, want, rtol=1e-10)


def test_detection_post_process_against_plain_tflite() -> None:
    num_boxes, num_classes = 10, 2
    anchors = np.concatenate([RNG.uniform(0.3, 0.7, (num_boxes, 2)), RNG.uniform(0.1, 0.3, (num_boxes, 2))], axis=1)
    enc = RNG.standard_normal((num_boxes, 4)) * 0.5
    scores = RNG.uniform(0, 1, (num_boxes, num_classes + 1))
    scales = [10.0, 10.0, 5.0, 5.0]
    attrs: dict[str, Any] = {"max_detections": 3, "max_classes_per_detection": 2, "nms_score_threshold": 0.4,
             "nms_iou_threshold": 0.2, "num_classes": num_classes, "scales": scales}
    boxes, classes, scored, count = _run("DetectionPostProcess", [enc[None], scores[None], anchors[None]], **attrs)
    picked = []
    for cls in range(1, num_classes + 1):
        cands = []
        for j in range(num_boxes):
            ey, ex, eh, ew = enc[j]
            ay, ax, ah, aw = anchors[j]
            cy, cx = ey / scales[0] * ah + ay, ex / scales[1] * aw + ax
            hh, hw = 0.5 * math.exp(eh / scales[2]) * ah, 0.5 * math.exp(ew / scales[3]) * aw
            box = [cx - hw, cy - hh, cx + hw, cy + hh]
            if scores[j, cls] >= 0.4 and box[0] >= 0 and box[1] >= 0:
                cands.append((scores[j, cls], cls, box))
        cands.sort(key=lambda t: -t[0])
        picked += _greedy(cands[:6], 0.2)
    picked.sort(key=lambda t: -t[0])
    picked = picked[:3]
    assert boxes.shape == (1, 6, 4) and classes.shape == scored.shape == (1, 6) and count.shape == (1,)
    assert count[0] == len(picked)
    np.testing.assert_allclose(scored[0, :len(picked)], [p[0] for p in picked], rtol=1e-12)
    np.testing.assert_array_equal(classes[0, :len(picked)], [p[1] for p in picked])
    np.testing.assert_allclose(boxes[0, :len(picked)], [p[2] for p in picked], rtol=1e-10)
    assert not scored[0, len(picked):].any()
    assert _formula_shapes("DetectionPostProcess", [enc[None], scores[None], anchors[None]], **attrs) == [
        [1, 6, 4], [1, 6], [1, 6], [1]]
