"""com.microsoft SparseAttention: the kernel against onnxruntime's CPU kernel, which runs only with past and present
caches in one buffer (an I/O binding here: dense and local block layouts, several layouts over the heads, decode
and prefill, packed QKV, rotary halves and interleaved pairs, scale, float16), the shape formulas, rejected nodes
under their constraint ids. onnxruntime's CPU kernel writes a shorter entry of a batch whose lengths differ where we
do but reads it elsewhere for heads after the first; each entry run alone agrees with the kernel."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from tests.helpers import Seeded, assert_registry_ranges_exercised, problem_checks, run, version

DOMAIN = "com.microsoft"
OP = "SparseAttention"
f32 = Seeded(73).f32
B, H, KVH, HS, M, BS = 2, 4, 2, 16, 64, 16
NAMES = ["query", "key", "value", "past_key", "past_value", "block_row_indices", "block_col_indices",
         "total_sequence_length", "key_total_sequence_lengths", "cos_cache", "sin_cache"]
RESOLVED = {"do_rotary": 0, "rotary_interleaved": 0, "scale": 0.0}


def _csr(masks: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    rows, cols = [], []
    for m in masks:
        r, c = [0], []
        for row in m:
            c += [int(i) for i in np.flatnonzero(row)]
            r.append(len(c))
        rows.append(r)
        cols.append(c)
    nnz = max(len(c) for c in cols)
    return np.array(rows, np.int32), np.array([c + [-1] * (nnz - len(c)) for c in cols], np.int32)


BLOCKS = M // BS
DENSE = np.tril(np.ones((BLOCKS, BLOCKS), int))
LOCAL = np.array([[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [1, 0, 1, 1]])


def _inputs(steps: int, lengths: tuple[int, int], *, layouts: tuple[np.ndarray, ...] = (DENSE, LOCAL),
            packed: bool = False, rotary: bool = False, dtype: type = np.float32) -> list[np.ndarray | None]:
    rows, cols = _csr(list(layouts))
    q, k, v = f32(B, steps, H * HS), f32(B, steps, KVH * HS), f32(B, steps, KVH * HS)
    angles = np.linspace(0.0, 3.0, M * HS // 2).reshape(M, HS // 2)
    cos: np.ndarray | None = np.cos(angles).astype(dtype) if rotary else None
    sin: np.ndarray | None = np.sin(angles).astype(dtype) if rotary else None
    qkv: list[np.ndarray | None] = [np.concatenate([q, k, v], -1).astype(dtype), None, None] if packed else \
        [q.astype(dtype), k.astype(dtype), v.astype(dtype)]
    return [*qkv, f32(B, KVH, M, HS).astype(dtype), f32(B, KVH, M, HS).astype(dtype), rows, cols,
            np.array(max(lengths), np.int32), np.array(lengths, np.int32), cos, sin]


def _onnxruntime(inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> list[np.ndarray]:
    """One node whose present caches are bound to its past caches' buffers (onnxruntime insists on it)."""
    present = [n for n, a in zip(NAMES, inputs, strict=True) if a is not None]
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(inputs[0].dtype)) if inputs[0] is not None else TensorProto.FLOAT
    node = helper.make_node(OP, [n if a is not None else "" for n, a in zip(NAMES, inputs, strict=True)],
                            ["output", "present_key", "present_value"], domain=DOMAIN, **attrs)
    graph = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), None)
         for n, a in zip(NAMES, inputs, strict=True) if a is not None],
        [helper.make_tensor_value_info(n, elem, None) for n in ("output", "present_key", "present_value")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid(DOMAIN, 1)])
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    binding = session.io_binding()
    caches, buffers = {}, {}  # the OrtValues borrow the numpy buffers: keep them alive
    for name, array in zip(NAMES, inputs, strict=True):
        if name in ("past_key", "past_value") and array is not None:
            buffers[name] = array.copy()
            caches[name] = ort.OrtValue.ortvalue_from_numpy(buffers[name])
            binding.bind_ortvalue_input(name, caches[name])
        elif name in present and array is not None:
            binding.bind_cpu_input(name, array)
    binding.bind_output("output")
    binding.bind_ortvalue_output("present_key", caches["past_key"])
    binding.bind_ortvalue_output("present_value", caches["past_value"])
    session.run_with_iobinding(binding)
    query = inputs[0]
    assert query is not None
    output = next(o for o in binding.get_outputs() if tuple(o.shape()) == (*query.shape[:2], H * HS))
    return [np.asarray(output.numpy()), buffers["past_key"], buffers["past_value"]]


BASE = {"num_heads": H, "kv_num_heads": KVH, "sparse_block_size": BS}
CASES = [
    pytest.param(_inputs(3, (20, 20)), {}, 1e-5, id="decode-dense-local"),
    pytest.param(_inputs(3, (35, 35)), {}, 1e-5, id="decode-later-block"),
    pytest.param(_inputs(20, (33, 33)), {}, 1e-5, id="prefill"),
    pytest.param(_inputs(3, (40, 40), layouts=(LOCAL,)), {}, 1e-5, id="one-layout"),
    pytest.param(_inputs(3, (30, 30), packed=True), {}, 1e-5, id="packed-qkv"),
    pytest.param(_inputs(3, (30, 30), rotary=True), {"do_rotary": 1}, 1e-5, id="rotary"),
    pytest.param(_inputs(3, (30, 30), rotary=True), {"do_rotary": 1, "rotary_interleaved": 1}, 1e-5,
                 id="rotary-interleaved"),
    pytest.param(_inputs(3, (25, 25)), {"scale": 0.3}, 1e-5, id="scale"),
    pytest.param(_inputs(3, (25, 25), dtype=np.float16), {}, 5e-3, id="float16"),
]


@pytest.mark.parametrize(("inputs", "attrs", "rtol"), CASES)
def test_kernel_matches_onnxruntime(inputs: list[np.ndarray | None], attrs: dict[str, Any], rtol: float) -> None:
    want = _onnxruntime(inputs, {**BASE, **attrs})
    got = run(DOMAIN, OP, 1, inputs, **{**RESOLVED, **BASE, **attrs})
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol, atol=rtol)


def test_entries_of_different_lengths_are_each_their_own_call() -> None:
    """The kernel on a batch whose totals differ equals the kernel on each entry alone, and onnxruntime on an entry
    alone (its mixed-length batch reads the shorter entry's later heads elsewhere)."""
    ins = _inputs(3, (20, 35))
    got = run(DOMAIN, OP, 1, ins, **RESOLVED, **BASE)
    for b, total in enumerate((20, 35)):
        alone: list[np.ndarray | None] = [None if a is None else a[b:b + 1] for a in ins[:5]]
        alone += [ins[5], ins[6], np.array(total, np.int32), np.array([total], np.int32), None, None]
        mine = run(DOMAIN, OP, 1, alone, **RESOLVED, **BASE)
        theirs = _onnxruntime(alone, BASE)
        for whole, single, ort_single in zip(got, mine, theirs, strict=True):
            np.testing.assert_allclose(whole[b:b + 1], single, rtol=1e-6)
            np.testing.assert_allclose(single, ort_single, rtol=1e-5, atol=1e-5)


def test_causal_block_mask_by_hand() -> None:
    """One head, one layout masking block 0 for block 1: the query at position 17 sees keys 16 and 17 only."""
    hs, m = 16, 32
    mask = np.array([[1, 0], [0, 1]])
    rows, cols = _csr([mask])
    q, k, v = np.zeros((1, 2, hs), np.float32), f32(1, 2, hs), f32(1, 2, hs)
    pk, pv = f32(1, 1, m, hs), f32(1, 1, m, hs)
    out = run(DOMAIN, OP, 1, [q, k, v, pk, pv, rows, cols, np.array(18, np.int32), np.array([18], np.int32), None,
                              None], **RESOLVED, num_heads=1, kv_num_heads=1, sparse_block_size=16)[0]
    # zero queries weigh the visible keys equally: position 16 sees only itself, position 17 sees 16 and 17
    np.testing.assert_allclose(out[0, 0], v[0, 0], rtol=1e-6)
    np.testing.assert_allclose(out[0, 1], (v[0, 0] + v[0, 1]) / 2, rtol=1e-6)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[B, 3, H * HS], [B, 3, KVH * HS], [B, 3, KVH * HS], [B, 3, M, HS], [B, 3, M, HS], [2, 5], [2, 9],
                  [], [B]], {}, "sparseattention_c1", id="kv_heads"),
    pytest.param([[B, 3, 3 * HS], [B, 3, KVH * HS], [B, 3, KVH * HS], [B, KVH, M, HS], [B, KVH, M, HS], [1, 5], [1, 9],
                  [], [B]], {"num_heads": 3}, "sparseattention_c2", id="gqa"),
    pytest.param([[B, 3, H * HS + 1], [B, 3, KVH * HS], [B, 3, KVH * HS], [B, KVH, M, HS], [B, KVH, M, HS], [2, 5],
                  [2, 9], [], [B]], {}, "sparseattention_c3", id="query_width"),
    pytest.param([[B, 3, H * HS], [B, 3, KVH * HS], [B, 3, KVH * HS], [B, KVH, M, HS], [B, KVH, M, HS], [3, 5], [3, 9],
                  [], [B]], {}, "sparseattention_c5", id="layouts"),
    pytest.param([[B, 3, H * HS], [B, 3, KVH * HS], [B, 3, KVH * HS], [B, KVH, M, HS], [B, KVH, M, HS], [2, 3], [2, 9],
                  [], [B]], {}, "sparseattention_c6", id="blocks"),
    pytest.param([[B, 3, H * HS], [B, 3, KVH * HS], [B, 3, KVH * HS], [B, KVH, M, HS], [B, KVH, M, HS], [2, 5], [2, 9],
                  [], [B]], {"do_rotary": 1}, "sparseattention_c7", id="rotary_caches"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {**BASE, **attrs})


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {1})  # every case above runs version 1
