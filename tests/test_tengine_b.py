"""Tengine ops, part B (InstanceNorm .. RNN): registry examples, shape formulas and independent computations.

Every kernel is checked against a computation written here without the kernel's tricks (plain loops
or a different numpy route), every example against its kernel, formula and constraints.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from conformance.kernels.registry import find_kernel, run_kernel
from opset.infer import infer_shapes, resolve_attributes
from opset.lint import lint
from opset.load import load_registry
from opset.model import OpVersion

OPS = ("InstanceNorm", "Interp", "L2Normalization", "L2Pool", "Logical", "Logistic", "LogSoftmax", "LRN", "LSTM",
       "MatMul", "Max", "Mean", "Min", "Mish", "MVN", "Noop", "Normalize", "Pad", "Permute", "Prelu", "PriorBox",
       "Psroipooling", "ReduceL2", "Reduction", "Region", "ReLU1", "ReLU6", "Reorg", "Reshape", "Resize", "Reverse",
       "RNN")
OP_IDS = {"InstanceNorm": 66, "Interp": 71, "L2Normalization": 101, "L2Pool": 98, "Logical": 75, "Logistic": 33,
          "LogSoftmax": 99, "LRN": 13, "LSTM": 34, "MatMul": 91, "Max": 46, "Mean": 90, "Min": 47, "Mish": 97,
          "MVN": 67, "Noop": 62, "Normalize": 14, "Pad": 40, "Permute": 15, "Prelu": 17, "PriorBox": 18,
          "Psroipooling": 58, "ReduceL2": 89, "Reduction": 45, "Region": 19, "ReLU1": 100, "ReLU6": 21, "Reorg": 22,
          "Reshape": 23, "Resize": 54, "Reverse": 81, "RNN": 35}
RNG = np.random.default_rng(20240611)
F32 = np.float32


def _versions() -> dict[str, OpVersion]:
    registry = load_registry()
    return {s.name: s.versions[-1] for s in registry if s.domain == "tengine" and s.name in OPS}


VERSIONS = _versions()
EXAMPLES = [(VERSIONS[name], ex) for name in OPS if name in VERSIONS for ex in VERSIONS[name].examples]


def _kernel(op: str) -> Callable[..., tuple[np.ndarray, ...]]:
    """The kernel of `op` as the runner calls it: attributes resolved through the registry."""
    if find_kernel("tengine", op, 1) is None:
        pytest.fail(f"tengine::{op}: no reference kernel registered")
    return lambda *inputs, **given: run_kernel(VERSIONS[op], inputs, given)


def _array(literal: dict[str, Any]) -> np.ndarray:
    arr = np.asarray(literal["data"], dtype=np.dtype(literal["dtype"]))
    return arr.reshape(literal["shape"]) if "shape" in literal else arr


def _attrs(v: OpVersion, given: dict[str, Any], inputs: list[np.ndarray | None]) -> dict[str, Any]:
    """Every attribute as the kernel receives it, resolved through the registry."""
    return resolve_attributes(v, given, [None if a is None else list(a.shape) for a in inputs])


def _formula_shapes(v: OpVersion, inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> list[list[int]]:
    """Output shapes from the registry's formulas; any violated constraint fails the test."""
    shapes = [None if a is None else list(a.shape) for a in inputs]
    values = {p.name: a.reshape(-1).tolist() for p, a in zip(v.inputs, inputs, strict=False) if a is not None}
    result = infer_shapes(v, shapes, attrs, values)
    assert not result.problems, f"{v.signature}: {[(p.check, p.message) for p in result.problems]}"
    assert all(s is not None for s in result.outputs), f"{v.signature}: a formula gave no shape"
    return [[int(d) for d in s] for s in result.outputs if s is not None]


def _run(op: str, inputs: list[np.ndarray | None], **given: Any) -> np.ndarray:
    """Run the kernel with the schema's defaults applied and check its output shape against the formula."""
    v = VERSIONS[op]
    (y,) = _kernel(op)(*inputs, **given)
    assert [list(y.shape)] == _formula_shapes(v, inputs, _attrs(v, given, inputs)), f"{op}: kernel shape {y.shape}"
    return y


# ---- the registry side ----

def test_every_op_is_present_with_its_id_and_a_kernel() -> None:
    assert set(VERSIONS) == set(OPS)
    for name, v in VERSIONS.items():
        assert v.tengine is not None and v.tengine.op_id == OP_IDS[name], name
        assert find_kernel("tengine", name, 1) is not None, name
        assert v.examples, f"{name}: no example"


def test_layout_fields_map_to_attributes() -> None:
    for name, v in VERSIONS.items():
        assert v.tengine is not None
        fields = [f.attribute or f.name for f in v.tengine.layout]
        assert fields == list(v.attributes), f"{name}: layout {fields} vs attributes {list(v.attributes)}"
        assert (v.tengine.param_struct is None) == (not fields), name


def test_lint_is_clean() -> None:
    problems, count = lint([])
    assert count > 0
    assert not problems, "\n".join(str(p) for p in problems)


@pytest.mark.parametrize(("v", "ex"), EXAMPLES, ids=lambda x: getattr(x, "name", ""))
def test_example_matches_kernel_formula_and_constraints(v: OpVersion, ex: Any) -> None:
    inputs = [None if ex.inputs.get(p.name) is None else _array(ex.inputs[p.name]) for p in v.inputs]
    while inputs and inputs[-1] is None:
        inputs.pop()
    got = _kernel(v.name)(*inputs, **ex.attributes)
    shapes = _formula_shapes(v, inputs, _attrs(v, ex.attributes, inputs))
    for param, y, shape in zip(v.outputs, got, shapes, strict=True):
        want = _array(ex.outputs[param.name])
        assert shape == list(want.shape), f"{ex.name}: formula gives {shape}, example says {want.shape}"
        assert y.dtype == want.dtype and y.shape == want.shape, f"{ex.name}: {y.dtype}{y.shape} vs {want.shape}"
        np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6, err_msg=f"{v.signature} {ex.name}")


def test_a_violated_constraint_is_reported() -> None:
    v = VERSIONS["Reorg"]
    result = infer_shapes(v, [[1, 3, 4, 4]], {"stride": 2})
    assert [p.check for p in result.problems] == ["reorg_c1"]


# ---- elementwise ops ----

@pytest.mark.parametrize(("op", "expect"), [
    ("Logistic", lambda x: 1 / (1 + np.exp(-x))),
    ("Mish", lambda x: x * np.tanh(np.log1p(np.exp(x)))),
    ("ReLU1", lambda x: np.minimum(np.maximum(x, -1), 1)),
    ("ReLU6", lambda x: np.minimum(np.maximum(x, 0), 6)),
    ("Noop", lambda x: x),
])
def test_unary_ops(op: str, expect: Callable[[np.ndarray], np.ndarray]) -> None:
    x = (RNG.standard_normal((2, 3, 4, 5)) * 4).astype(F32)
    y = _run(op, [x])
    assert y.dtype == F32
    np.testing.assert_allclose(y, expect(x.astype(np.float64)), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(("op", "combine"), [("Max", lambda *v: max(v)), ("Min", lambda *v: min(v)),
                                             ("Mean", lambda *v: sum(v) / len(v))])
@pytest.mark.parametrize("count", [1, 2, 4])
def test_variadic_ops(op: str, combine: Callable[..., float], count: int) -> None:
    xs = [RNG.standard_normal((2, 3, 2)).astype(F32) for _ in range(count)]
    y = _run(op, list(xs))
    want = np.array([combine(*(float(x.flat[i]) for x in xs)) for i in range(xs[0].size)]).reshape(xs[0].shape)
    np.testing.assert_allclose(y, want, rtol=1e-6, atol=1e-6)
    with pytest.raises(ValueError, match=op):
        _kernel(op)(xs[0], np.zeros((3, 2), F32))


@pytest.mark.parametrize("op_type", [0, 1])
@pytest.mark.parametrize(("sa", "sb"), [((2, 3), (2, 3)), ((6,), (1,)), ((1,), (2, 3)), ((2, 3), (3, 2))])
def test_logical(op_type: int, sa: tuple[int, ...], sb: tuple[int, ...]) -> None:
    a = RNG.integers(0, 2, sa).astype(F32)
    b = RNG.integers(0, 2, sb).astype(F32)
    y = _run("Logical", [a, b], type=op_type)
    fa, fb = a.reshape(-1), b.reshape(-1)
    n = max(fa.size, fb.size)
    want = [float((bool(fa[i % fa.size]) and bool(fb[i % fb.size])) if op_type == 0
                  else (bool(fa[i % fa.size]) or bool(fb[i % fb.size]))) for i in range(n)]
    assert y.shape == (sa if a.size > b.size else sb)
    np.testing.assert_array_equal(y.reshape(-1), want)


def test_prelu_per_channel_and_shared() -> None:
    for shape in [(3, 4), (2, 4, 5), (2, 4, 3, 3)]:
        x = RNG.standard_normal(shape).astype(F32)
        slope = RNG.uniform(0, 1, 4).astype(F32)
        y = _run("Prelu", [x, slope])
        want = np.empty_like(x)
        for idx in np.ndindex(*shape):
            v = x[idx]
            want[idx] = v if v > 0 else v * slope[idx[1]]
        np.testing.assert_allclose(y, want, rtol=1e-6)
        np.testing.assert_allclose(_run("Prelu", [x, slope[:1]]), np.where(x > 0, x, x * slope[0]), rtol=1e-6)


# ---- normalisations ----

def test_instance_norm_matches_loops() -> None:
    x = RNG.standard_normal((2, 3, 4, 5)).astype(np.float64)
    gamma, beta = RNG.standard_normal(3), RNG.standard_normal(3)
    y = _run("InstanceNorm", [x, gamma, beta], eps=1e-3)
    for n in range(2):
        for c in range(3):
            plane = x[n, c]
            mean = sum(plane.flat) / plane.size
            var = sum((v - mean) ** 2 for v in plane.flat) / plane.size
            np.testing.assert_allclose(y[n, c], gamma[c] * (plane - mean) / math.sqrt(var + 1e-3) + beta[c],
                                       rtol=1e-10)


def test_l2_normalization_rows() -> None:
    x = RNG.standard_normal((3, 5)).astype(np.float64)
    y = _run("L2Normalization", [x])
    for i in range(3):
        norm = math.sqrt(sum(v * v for v in x[i]))
        np.testing.assert_allclose(y[i], x[i] / norm, rtol=1e-12)


@pytest.mark.parametrize("local_size", [1, 3, 4, 5])
def test_lrn_matches_caffe_loops(local_size: int) -> None:
    x = RNG.standard_normal((2, 6, 2, 3)).astype(np.float64)
    alpha, beta, k = 0.2, 0.75, 1.5
    y = _run("LRN", [x], local_size=local_size, alpha=alpha, beta=beta, k=k)
    want = np.empty_like(x)
    for n, c, h, w in np.ndindex(*x.shape):
        lo, hi = max(0, c - local_size // 2), min(5, c + local_size // 2)
        s = sum(x[n, j, h, w] ** 2 for j in range(lo, hi + 1))
        want[n, c, h, w] = x[n, c, h, w] * (k + alpha / local_size * s) ** -beta
    np.testing.assert_allclose(y, want, rtol=1e-10)


@pytest.mark.parametrize("across", [0, 1])
@pytest.mark.parametrize("variance", [0, 1])
def test_mvn_matches_tengine_loops(across: int, variance: int) -> None:
    x = RNG.standard_normal((2, 3, 2, 4)).astype(np.float64) + 1
    y = _run("MVN", [x], across_channels=across, normalize_variance=variance, eps=1e-9)
    want = np.empty_like(x)
    for n in range(2):
        groups = [list(range(3))] if across else [[c] for c in range(3)]
        for chans in groups:
            vals = [x[n, c, h, w] for c in chans for h in range(2) for w in range(4)]
            mean = sum(vals) / len(vals)
            rms = math.sqrt(sum(v * v for v in vals) / len(vals))
            for c in chans:
                want[n, c] = (x[n, c] - mean) / ((rms + 1e-9) if variance else 1)
    np.testing.assert_allclose(y, want, rtol=1e-10)


@pytest.mark.parametrize(("spatial", "shared"), [(0, 0), (0, 1), (1, 0), (1, 1)])
def test_normalize_matches_ssd_loops(spatial: int, shared: int) -> None:
    x = RNG.standard_normal((2, 3, 2, 2)).astype(np.float64)
    scale = RNG.uniform(1, 2, 1 if shared else 3)
    y = _run("Normalize", [x, scale], across_spatial=spatial, channel_shared=shared)
    want = np.empty_like(x)
    for n, c, h, w in np.ndindex(*x.shape):
        cells = [x[n, j, a, b] for j in range(3) for a in range(2) for b in range(2)] if spatial else \
            [x[n, j, h, w] for j in range(3)]
        want[n, c, h, w] = x[n, c, h, w] / math.sqrt(sum(v * v for v in cells)) * scale[0 if shared else c]
    np.testing.assert_allclose(y, want, rtol=1e-10)


def test_log_softmax_every_axis() -> None:
    x = RNG.standard_normal((2, 3, 4)).astype(np.float64) * 5
    for axis in (-3, -1, 0, 1, 2):
        y = _run("LogSoftmax", [x], axis=axis)
        moved = np.moveaxis(x, axis, -1)
        want = np.empty_like(moved)
        for idx in np.ndindex(*moved.shape[:-1]):
            row = moved[idx]
            want[idx] = [v - math.log(sum(math.exp(u) for u in row)) for v in row]
        np.testing.assert_allclose(y, np.moveaxis(want, -1, axis), rtol=1e-10, atol=1e-12)


# ---- reductions ----

@pytest.mark.parametrize("axis", [0, 1, 2, -1])
@pytest.mark.parametrize("keepdim", [0, 1])
def test_reduce_l2(axis: int, keepdim: int) -> None:
    x = RNG.standard_normal((2, 3, 4))
    y = _run("ReduceL2", [x], axis=axis, keepdim=keepdim)
    start = axis % 3
    lead = x.shape[:start]
    want = np.array([math.sqrt(sum(v * v for v in x[idx].flat)) for idx in np.ndindex(*lead)] if lead
                    else [math.sqrt(sum(v * v for v in x.flat))])
    np.testing.assert_allclose(y.reshape(-1), want, rtol=1e-12)


_REDUCE_ONE: dict[int, Callable[[list[float]], float]] = {
    0: sum, 1: lambda v: sum(v) / len(v), 2: lambda v: sum(abs(a) for a in v), 3: lambda v: sum(a * a for a in v),
    4: max, 5: min, 6: math.prod, 7: lambda v: sum(abs(a) for a in v), 8: lambda v: math.sqrt(sum(a * a for a in v)),
    9: lambda v: math.log(sum(v)), 10: lambda v: math.log(sum(math.exp(a) for a in v)),
}


@pytest.mark.parametrize("op_type", sorted(_REDUCE_ONE))
@pytest.mark.parametrize(("dims", "keepdim"), [((-2, -2, -2, -2), 0), ((1, -2, -2, -2), 1), ((0, -1, -2, -2), 0),
                                               ((2, 1, -2, -2), 1)])
def test_reduction(op_type: int, dims: tuple[int, int, int, int], keepdim: int) -> None:
    x = RNG.uniform(0.5, 1.5, (2, 3, 2))
    y = _run("Reduction", [x], dim_0=dims[0], dim_1=dims[1], dim_2=dims[2], dim_3=dims[3], type=op_type,
             keepdim=keepdim)
    axes = {d % 3 for d in dims if d != -2} or {0, 1, 2}
    kept = [i for i in range(3) if i not in axes]
    groups: dict[tuple[int, ...], list[float]] = {}
    for idx in np.ndindex(*x.shape):
        groups.setdefault(tuple(idx[i] for i in kept), []).append(float(x[idx]))
    want = [_REDUCE_ONE[op_type](groups[key]) for key in sorted(groups)]
    np.testing.assert_allclose(y.reshape(-1), want, rtol=1e-12)


# ---- pooling and resizing ----

def _naive_l2pool(x: np.ndarray, k: int, s: int, same: bool) -> np.ndarray:
    n, h, w, c = x.shape
    oh = -(-h // s) if same else (h - k) // s + 1
    ow = -(-w // s) if same else (w - k) // s + 1
    ph = max(0, int(((oh - 1) * s + k - h) / 2)) if same else 0
    pw = max(0, int(((ow - 1) * s + k - w) / 2)) if same else 0
    y = np.zeros((n, oh, ow, c))
    for b, i, j, ch in np.ndindex(n, oh, ow, c):
        cells = [x[b, r, q, ch] for r in range(max(0, i * s - ph), min(h, i * s - ph + k))
                 for q in range(max(0, j * s - pw), min(w, j * s - pw + k))]
        total = sum(v * v for v in cells)
        y[b, i, j, ch] = 0 if total == 0 else math.sqrt(total / len(cells))
    return y


@pytest.mark.parametrize(("k", "s", "padding"), [(2, 2, 0), (3, 1, 2), (3, 2, 1), (2, 1, 1), (1, 2, 1)])
def test_l2_pool_matches_loops(k: int, s: int, padding: int) -> None:
    x = RNG.standard_normal((2, 5, 6, 3))
    y = _run("L2Pool", [x], paddingType=padding, kernel_h=k, kernel_w=k, stride_h=s, stride_w=s)
    np.testing.assert_allclose(y, _naive_l2pool(x, k, s, padding == 1), rtol=1e-12)


def _naive_bilinear(x: np.ndarray, oh: int, ow: int, align: bool) -> np.ndarray:
    def coeffs(size: int, out: int) -> list[tuple[int, int, float]]:
        res = []
        for d in range(out):
            fx = d * (size - 1) / (out - 1) if align else (d + 0.5) * size / out - 0.5
            sx = math.floor(fx)
            frac = fx - sx
            if sx < 0:
                sx, frac = 0, 0.0
            if sx >= size - 1:
                sx, frac = size - 2, 1.0
            res.append((max(sx, 0), min(sx + 1, size - 1), frac))
        return res
    rows, cols = coeffs(x.shape[2], oh), coeffs(x.shape[3], ow)
    y = np.zeros((*x.shape[:2], oh, ow))
    for i, (r0, r1, fy) in enumerate(rows):
        for j, (c0, c1, fx) in enumerate(cols):
            top = x[:, :, r0, c0] * (1 - fx) + x[:, :, r0, c1] * fx
            bottom = x[:, :, r1, c0] * (1 - fx) + x[:, :, r1, c1] * fx
            y[:, :, i, j] = top * (1 - fy) + bottom * fy
    return y


@pytest.mark.parametrize(("h", "w", "oh", "ow"), [(3, 4, 6, 8), (4, 4, 3, 5), (1, 3, 2, 6), (5, 2, 5, 2)])
@pytest.mark.parametrize("resize_type", [2, 4])
def test_interp_bilinear_matches_loops(h: int, w: int, oh: int, ow: int, resize_type: int) -> None:
    x = RNG.standard_normal((2, 2, h, w)).astype(F32)
    y = _run("Interp", [x], resize_type=resize_type, width_scale=0.0, height_scale=0.0, output_width=ow,
             output_height=oh)
    np.testing.assert_allclose(y, _naive_bilinear(x.astype(np.float64), oh, ow, resize_type == 4), rtol=1e-5,
                               atol=1e-5)


@pytest.mark.parametrize(("hs", "ws"), [(2.0, 3.0), (1.5, 0.5), (0.75, 2.5)])
def test_interp_nearest_matches_loops(hs: float, ws: float) -> None:
    x = RNG.standard_normal((1, 2, 4, 6)).astype(F32)
    y = _run("Interp", [x], resize_type=1, width_scale=ws, height_scale=hs)
    oh, ow = int(4 * hs), int(6 * ws)
    want = np.array([[[x[0, c, min(int(i / hs), 3), min(int(j / ws), 5)] for j in range(ow)] for i in range(oh)]
                     for c in range(2)])[None]
    np.testing.assert_array_equal(y, want)


@pytest.mark.parametrize(("sx", "sy"), [(2.0, 2.0), (1.5, 3.0), (0.5, 1.0)])
def test_resize_is_nearest_with_scale_x_on_rows(sx: float, sy: float) -> None:
    x = RNG.standard_normal((2, 2, 4, 6)).astype(F32)
    y = _run("Resize", [x], scale_x=sx, scale_y=sy, type=1)
    oh, ow = int(4 * sx), int(6 * sy)
    assert y.shape == (2, 2, oh, ow)
    for i, j in np.ndindex(oh, ow):
        np.testing.assert_array_equal(y[:, :, i, j], x[:, :, min(int(i * (1 / sx)), 3), min(int(j * (1 / sy)), 5)])


def _naive_psroi(feat: np.ndarray, roi: list[float], ph: int, pw: int, scale: float, dim: int) -> np.ndarray:
    def c_round(v: float) -> float:
        return math.floor(v + 0.5) if v >= 0 else -math.floor(-v + 0.5)
    h, w = feat.shape[2:]
    x0, y0 = c_round(roi[0]) * scale, c_round(roi[1]) * scale
    x1, y1 = c_round(roi[2] + 1) * scale, c_round(roi[3] + 1) * scale
    rw, rh = int(max(x1 - x0, 0)), int(max(y1 - y0, 0))
    bw, bh = rw / pw, rh / ph
    y = np.zeros((1, dim, ph, pw))
    for c, i, j in np.ndindex(dim, ph, pw):
        hs, he = min(max(math.floor(y0 + i * bh), 0), h), min(max(math.ceil(y0 + (i + 1) * bh), 0), h)
        ws, we = min(max(math.floor(x0 + j * bw), 0), w), min(max(math.ceil(x0 + (j + 1) * bw), 0), w)
        cells = [feat[0, (c * ph + i) * pw + j, r, q] for r in range(hs, he) for q in range(ws, we)]
        y[0, c, i, j] = sum(cells) / len(cells) if cells else 0.0
    return y


@pytest.mark.parametrize(("roi", "scale"), [([0, 0, 7, 5], 1.0), ([2.4, 1.5, 12, 9.6], 0.5), ([-3, 2, 1, 2], 1.0),
                                            ([9, 9, 20, 20], 1.0)])
def test_psroipooling_matches_loops(roi: list[float], scale: float) -> None:
    feat = RNG.standard_normal((1, 2 * 3 * 2, 6, 8)).astype(F32)
    rois = np.array(roi, F32).reshape(1, 1, 4)
    y = _run("Psroipooling", [feat, rois], pooled_w=2, pooled_h=3, spatial_scale=scale, output_dim=2)
    np.testing.assert_allclose(y, _naive_psroi(feat.astype(np.float64), roi, 3, 2, scale, 2), rtol=1e-5, atol=1e-6)


# ---- layout ops ----

@pytest.mark.parametrize("mode", [0, 1, 2])
def test_pad_matches_loops(mode: int) -> None:
    x = RNG.standard_normal((2, 2, 3, 4)).astype(F32)
    pads = {"pad_c_0": 1, "pad_c_1": 2, "pad_h_0": 2, "pad_h_1": 1, "pad_w_0": 1, "pad_w_1": 3}
    y = _run("Pad", [x], mode=mode, value=-7.0, **pads)

    def source(i: int, size: int) -> int | None:
        if 0 <= i < size:
            return i
        if mode == 0:
            return None
        if mode == 1:
            return min(max(i, 0), size - 1)
        return -i if i < 0 else 2 * (size - 1) - i

    want = np.full((2, 5, 6, 8), -7.0, F32)
    for n, c, i, j in np.ndindex(2, 5, 6, 8):
        cc = c - 1
        if not 0 <= cc < 2:
            if mode == 0:
                continue
            cc = min(max(cc, 0), 1)
        r, q = source(i - 2, 3), source(j - 1, 4)
        if r is not None and q is not None:
            want[n, c, i, j] = x[n, cc, r, q]
    np.testing.assert_array_equal(y, want)
    with pytest.raises(ValueError, match="set"):
        _kernel("Pad")(x)  # the schema's default pads are -1: unset


@pytest.mark.parametrize("order", [(0, 2, 3, 1), (0, 3, 1, 2), (3, 2, 1, 0), (1, 0, 2, 3)])
def test_permute_4d(order: tuple[int, int, int, int]) -> None:
    x = RNG.standard_normal((2, 3, 4, 5)).astype(F32)
    y = _run("Permute", [x], order0=order[0], order1=order[1], order2=order[2], order3=order[3])
    for idx in np.ndindex(*y.shape):
        src = [0] * 4
        for out_axis, in_axis in enumerate(order):
            src[in_axis] = idx[out_axis]
        assert y[idx] == x[tuple(src)]


def test_permute_3d_ignores_order3() -> None:
    x = RNG.standard_normal((2, 3, 4)).astype(F32)
    y = _run("Permute", [x], order0=1, order1=0, order2=2, order3=3)
    np.testing.assert_array_equal(y, x.transpose(1, 0, 2))


@pytest.mark.parametrize("stride", [1, 2, 3])
def test_reorg_matches_darknet_loop(stride: int) -> None:
    n, c, h, w = 2, 2 * stride * stride, 2 * stride, 3 * stride
    x = RNG.standard_normal((n, c, h, w)).astype(F32)
    y = _run("Reorg", [x], stride=stride)
    flat_in, flat_out = x.reshape(-1), np.empty(x.size, F32)
    out_c = c // (stride * stride)
    for b, k, j, i in np.ndindex(n, c, h, w):  # darknet's reorg_cpu(forward = 0), verbatim
        in_index = i + w * (j + h * (k + c * b))
        c2, offset = k % out_c, k // out_c
        w2, h2 = i * stride + offset % stride, j * stride + offset // stride
        out_index = w2 + w * stride * (h2 + h * stride * (c2 + out_c * b))
        flat_out[in_index] = flat_in[out_index]
    np.testing.assert_array_equal(y.reshape(-1), flat_out)


@pytest.mark.parametrize(("shape", "re_shape", "flags", "want"), [
    ((2, 3, 4), [0, -1], {"is_onnx": 1}, (2, 12)),
    ((2, 3, 4), [0, -1], {}, (1, 24)),
    ((2, 3, 4), [4, 0, -1], {}, (4, 6)),
    ((2, 3, 4), [-3, -2], {"is_mxnet": 1}, (6, 4)),
    ((2, 3, 4), [0, -2], {"is_mxnet": 1, "reverse": 1}, (4, 3, 2)),
    ((2, 3, 4), [-1], {}, (24,)),
    ((6, 4), [2, -1, 4], {}, (2, 3, 4)),
])
def test_reshape_special_values(shape: tuple[int, ...], re_shape: list[int], flags: dict[str, int],
                                want: tuple[int, ...]) -> None:
    x = RNG.standard_normal(shape).astype(F32)
    y = _run("Reshape", [x], re_shape=re_shape, **flags)
    assert y.shape == want
    np.testing.assert_array_equal(y.reshape(-1), x.reshape(-1))


@pytest.mark.parametrize("axis", [-4, -1, 0, 1, 2, 3])
def test_reverse(axis: int) -> None:
    x = RNG.standard_normal((2, 3, 4, 5)).astype(F32)
    y = _run("Reverse", [x, np.array([axis, 0], np.int32)])
    a = axis % 4
    for idx in np.ndindex(*x.shape):
        src = list(idx)
        src[a] = x.shape[a] - 1 - idx[a]
        assert y[idx] == x[tuple(src)]


@pytest.mark.parametrize("shapes", [((3, 4), (4, 5)), ((2, 3, 4), (2, 4, 2)), ((2, 2, 3, 4), (2, 2, 4, 3))])
def test_matmul_matches_loops(shapes: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    a, b = RNG.standard_normal(shapes[0]), RNG.standard_normal(shapes[1])
    y = _run("MatMul", [a, b])
    for idx in np.ndindex(*y.shape):
        *batch, i, j = idx
        want = sum(a[(*batch, i, k)] * b[(*batch, k, j)] for k in range(a.shape[-1]))
        assert y[idx] == pytest.approx(want, rel=1e-10, abs=1e-12)


# ---- detection ----

def test_region_matches_darknet_loops() -> None:
    num_box, classes = 2, 3
    x = RNG.standard_normal((1, num_box * (5 + classes), 2, 3)).astype(np.float64)
    y = _run("Region", [x], num_classes=classes, num_box=num_box, coords=4)
    want = x.copy()
    per = 5 + classes
    for b, h, w in np.ndindex(num_box, 2, 3):
        base = b * per
        for e in (0, 1, 4):
            want[0, base + e, h, w] = 1 / (1 + math.exp(-x[0, base + e, h, w]))
        scores = [x[0, base + 5 + k, h, w] for k in range(classes)]
        total = sum(math.exp(s) for s in scores)
        for k in range(classes):
            want[0, base + 5 + k, h, w] = math.exp(scores[k]) / total
    np.testing.assert_allclose(y, want, rtol=1e-12)


def _naive_priors(fh: int, fw: int, ih: int, iw: int, mins: list[float], maxs: list[float], ratios: list[float],
                  flip: int, clip: int, variance: list[float]) -> list[float]:
    boxes: list[float] = []
    sw, sh = iw / fw, ih / fh
    for h in range(fh):
        for w in range(fw):
            cx, cy = (w + 0.5) * sw, (h + 0.5) * sh
            for s, m in enumerate(mins):
                mn = int(m)
                boxes += [(cx - mn / 2) / iw, (cy - mn / 2) / ih, (cx + mn / 2) / iw, (cy + mn / 2) / ih]
                if maxs:
                    side = math.sqrt(mn * int(maxs[s]))
                    boxes += [(cx - side / 2) / iw, (cy - side / 2) / ih, (cx + side / 2) / iw, (cy + side / 2) / ih]
                for ar in ratios:
                    bw, bh = mn * math.sqrt(ar), mn / math.sqrt(ar)
                    boxes += [(cx - bw / 2) / iw, (cy - bh / 2) / ih, (cx + bw / 2) / iw, (cy + bh / 2) / ih]
                    if flip:  # Tengine's flipped box: x over the image height, y over the width
                        boxes += [(cx - bh / 2) / ih, (cy - bw / 2) / iw, (cx + bh / 2) / ih, (cy + bw / 2) / iw]
    if clip:
        boxes = [min(max(v, 0.0), 1.0) for v in boxes]
    return boxes + variance * (len(boxes) // 4)


@pytest.mark.parametrize(("maxs", "ratios", "flip", "clip"), [([], [], 0, 0), ([60.0], [2.0], 1, 0),
                                                               ([60.0], [2.0, 3.0], 1, 1), ([], [0.5], 0, 1)])
def test_prior_box_matches_loops(maxs: list[float], ratios: list[float], flip: int, clip: int) -> None:
    feature, image = np.zeros((2, 4, 3, 5), F32), np.zeros((2, 3, 30, 60), F32)
    variance = [0.1, 0.1, 0.2, 0.2]
    y = _run("PriorBox", [feature, image], min_size=[20.5], max_size=maxs, variance=variance, aspect_ratio=ratios,
             flip=flip, clip=clip)
    want = _naive_priors(3, 5, 30, 60, [20.5], maxs, ratios, flip, clip, variance)
    for n in range(2):
        np.testing.assert_allclose(y[n].reshape(-1), want, rtol=1e-5, atol=1e-6)


# ---- recurrent ----

def _sig(v: float) -> float:
    return 1 / (1 + math.exp(-v))


@pytest.mark.parametrize("with_state", [False, True])
def test_rnn_matches_loops(with_state: bool) -> None:
    steps, batch, size, hid = 4, 2, 3, 2
    x = RNG.standard_normal((steps, batch, size))
    kern = RNG.standard_normal((size + hid, hid))
    bias = RNG.standard_normal(hid)
    init = RNG.standard_normal(hid) if with_state else None
    y = _run("RNN", [x, kern, bias, init], output_len=3, input_size=size, hidden_size=hid)
    outs = []
    for b in range(batch):
        h = list(init) if init is not None else [0.0] * hid
        seq = []
        for t in range(steps):
            v = list(x[t, b]) + h
            h = [math.tanh(sum(v[i] * kern[i, j] for i in range(size + hid)) + bias[j]) for j in range(hid)]
            seq.append(h)
        outs.append(seq[-3:])
    want = np.array(outs).transpose(1, 0, 2)
    np.testing.assert_allclose(y, want, rtol=1e-10)


@pytest.mark.parametrize("variant", ["plain", "bias_states", "peepholes", "mxnet"])
def test_lstm_matches_onnx_reference(variant: str) -> None:
    from onnx import TensorProto, helper
    from onnx.reference import ReferenceEvaluator

    steps, batch, size, hid = 3, 2, 3, 2
    x = RNG.standard_normal((steps, batch, size)).astype(F32)
    w = RNG.standard_normal((1, 4 * hid, size)).astype(F32)
    r = RNG.standard_normal((1, 4 * hid, hid)).astype(F32)
    b = RNG.standard_normal((1, 8 * hid)).astype(F32)
    h0 = RNG.standard_normal((1, batch, hid)).astype(F32)
    c0 = RNG.standard_normal((1, batch, hid)).astype(F32)
    p = RNG.standard_normal((1, 3 * hid)).astype(F32)
    feeds: dict[str, np.ndarray] = {"X": x, "W": w, "R": r}
    if variant in ("bias_states", "peepholes"):
        feeds |= {"B": b, "initial_h": h0, "initial_c": c0}
    if variant == "peepholes":
        feeds["P"] = p
    names = ["X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P"]
    node_inputs = [n if n in feeds else "" for n in names]
    while node_inputs[-1] == "":
        node_inputs.pop()
    node = helper.make_node("LSTM", node_inputs, ["Y"], hidden_size=hid)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in feeds],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    result: Any = ReferenceEvaluator(model).run(None, feeds)
    want = np.asarray(result[0])
    inputs: list[np.ndarray | None] = [feeds.get(n) for n in names]
    while inputs[-1] is None:
        inputs.pop()
    y = _run("LSTM", inputs, hidden_size=hid, mxnet_flag=1 if variant == "mxnet" else 0)
    np.testing.assert_allclose(y.reshape(want.shape), want, rtol=1e-4, atol=1e-5)
    assert y.shape == ((steps, batch, hid) if variant == "mxnet" else (steps, 1, batch, hid))
