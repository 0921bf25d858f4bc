"""LpPool: the kernel against onnx.reference and onnxruntime, shape formulas against onnx, rejected nodes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_outputs,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
)

OP = "LpPool"
f32 = Seeded(4321).f32
X = f32(1, 2, 7, 6)


def kernel_cases() -> list[OracleCase]:
    named: list[tuple[str, dict[str, Any], int]] = [
        ("k3", dict(kernel_shape=[3, 3]), 1),
        ("k3s2p1", dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]), 1),
        ("asym_pads_p1", dict(kernel_shape=[2, 3], strides=[2, 1], pads=[1, 0, 0, 2], p=1), 2),
        ("p3", dict(kernel_shape=[2, 2], p=3), 2),
        ("same_upper", dict(kernel_shape=[3, 2], strides=[2, 2], auto_pad="SAME_UPPER"), 1),
        ("same_lower", dict(kernel_shape=[3, 2], strides=[2, 2], auto_pad="SAME_LOWER"), 1),
        ("valid", dict(kernel_shape=[3, 3], strides=[2, 2], auto_pad="VALID"), 1),
        ("dil", dict(kernel_shape=[2, 2], dilations=[2, 2], pads=[1, 1, 1, 1]), 18),
    ]
    cases = [OracleCase(OP, attrs, [X], all_since(OP, max(lo, 2)), id=name) for name, attrs, lo in named]
    # version 1 (p a float) is in onnx.reference only through the later versions' code: the same cases at 2
    cases += [OracleCase(OP, {**attrs, "p": float(attrs.get("p", 2))}, [X], (1,), id=f"{name}_v1",
                         oracle=_at_version_2(attrs))
              for name, attrs, lo in named if lo <= 2]
    cases.append(OracleCase(OP, dict(kernel_shape=[2, 2], p=1.5), [X], (1,), id="fractional_p_v1",
                            oracle=lambda: [_lp_by_loops(X, 1.5)]))
    # SAME padding of a dilated kernel: both runtimes size it without the dilation (see the readings); the explicit
    # padding SAME_UPPER gives here (rows 1 + 1 for the extent 3, columns 0 + 1) is the oracle
    same = dict(kernel_shape=[2, 2], dilations=[2, 1], strides=[2, 1])
    cases.append(OracleCase(OP, {**same, "auto_pad": "SAME_UPPER"}, [X], all_since(OP, 18), id="dil_same",
                            oracle=lambda: oracle_outputs(OracleCase(OP, {**same, "pads": [1, 0, 1, 1]}, [X], (18,)),
                                                          18)))
    # ceil mode: onnx.reference scales the overhanging windows (see the readings); onnxruntime sums them
    cases.append(OracleCase(OP, dict(kernel_shape=[3, 2], strides=[2, 2], ceil_mode=1), [X], all_since(OP, 18),
                            oracle="ort", id="ceil"))
    cases.append(OracleCase(OP, dict(kernel_shape=[3], p=1), [f32(2, 3, 9)], all_since(OP, 2), id="1d"))
    cases.append(OracleCase(OP, dict(kernel_shape=[2, 2, 3], strides=[1, 2, 1], pads=[0, 1, 1, 1, 0, 1]),
                            [f32(1, 2, 4, 5, 5)], all_since(OP, 2), id="3d"))
    cases.append(OracleCase(OP, dict(kernel_shape=[2, 2]), [X.astype(np.float16)], all_since(OP, 2), rtol=2e-3,
                            id="fp16"))
    return cases


def _at_version_2(attrs: dict[str, Any]) -> Callable[[], list[np.ndarray]]:
    return lambda: oracle_outputs(OracleCase(OP, attrs, [X], (2,)), 2)


def _lp_by_loops(x: np.ndarray, p: float) -> np.ndarray:
    """A 2x2 window, stride 1, no padding, computed window by window (an oracle independent of the kernel)."""
    n, c, h, w = x.shape
    out = np.zeros((n, c, h - 1, w - 1), dtype=np.float64)
    for i in range(h - 1):
        for j in range(w - 1):
            window = np.abs(x[:, :, i:i + 2, j:j + 2].astype(np.float64)) ** p
            out[:, :, i, j] = window.sum(axis=(2, 3)) ** (1 / p)
    return out.astype(x.dtype)


CASES = kernel_cases()


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_padding_and_overhang_add_nothing() -> None:
    """A window over padding or the ceil-mode overhang is the norm of its input values only."""
    x = np.array([[[3.0, 4.0, 12.0]]], dtype=np.float32)
    (y,) = run("ai.onnx", OP, 18, [x], kernel_shape=[2], strides=[2], ceil_mode=1)
    np.testing.assert_allclose(y[0, 0], [5.0, 12.0])
    (y,) = run("ai.onnx", OP, 11, [x], kernel_shape=[2], pads=[1, 1], p=1)
    np.testing.assert_allclose(y[0, 0], [3.0, 7.0, 16.0, 12.0])


@pytest.mark.parametrize(("attrs", "message"), [
    pytest.param(dict(kernel_shape=[3]), "kernel_shape has 1 values", id="kernel_rank"),
    pytest.param(dict(kernel_shape=[2, 2], p=0), "p must be positive", id="p_zero"),
])
def test_kernel_rejects_invalid_input(attrs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run("ai.onnx", OP, 18, [X], **attrs)


SHAPES = [
    # onnx infers no shape for version 1: the formula's own value is stated
    shape_case(OP, 1, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "strides": [2, 2], "pads": [1, 1, 1, 1]},
               not_inferred_by_onnx={0: [1, 1, 3, 3]}),
    shape_case(OP, 2, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "strides": [2, 2], "auto_pad": "VALID"}),
    shape_case(OP, 2, [[1, 3, 6, 5]], {"kernel_shape": [3, 2], "strides": [2, 2], "auto_pad": "SAME_LOWER"}),
    shape_case(OP, 11, [[2, 3, 28, 28]], {"kernel_shape": [3, 3], "pads": [2, 2, 2, 2], "p": 3}),
    shape_case(OP, 11, [[1, 1, 4, 4, 4]], {"kernel_shape": [2, 2, 2], "auto_pad": "SAME_UPPER"}),
    shape_case(OP, 18, [[1, 1, 7]], {"kernel_shape": [2], "strides": [2], "pads": [1, 1], "ceil_mode": 1,
                                     "dilations": [2]}),
    shape_case(OP, 18, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "strides": [2, 2], "auto_pad": "VALID",
                                        "ceil_mode": 1}),
    shape_case(OP, 18, [[1, 1, 6, 6]], {"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "SAME_UPPER",
                                        "ceil_mode": 1}),
    shape_case(OP, 18, [[1, 1, 9, 9]], {"kernel_shape": [3, 3], "strides": [3, 3], "auto_pad": "SAME_LOWER",
                                        "dilations": [2, 2]}),
    shape_case(OP, 22, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "strides": [2, 2], "pads": [1, 1, 1, 1],
                                        "ceil_mode": 1}),
    shape_case(OP, 22, [[1, 1, 4]], {"kernel_shape": [1], "strides": [2], "auto_pad": "VALID", "ceil_mode": 1}),
    shape_case(OP, 22, [[1, 1, 7]], {"kernel_shape": [3], "strides": [2], "pads": [2, 0], "ceil_mode": 1}),
]

REJECTED = [
    (shape_case(OP, 2, [[1, 2]], {"kernel_shape": []}), "lppool_c1"),
    (shape_case(OP, 1, [[1, 1, 3, 3]], {"kernel_shape": [4, 4]}), "lppool_c2"),
    (shape_case(OP, 18, [[1, 1, 4, 4]], {"kernel_shape": [3, 3], "dilations": [2, 2]}), "lppool_c2"),
    (shape_case(OP, 11, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "auto_pad": "SAME_UPPER", "pads": [1, 1, 1, 1]}),
     "lppool_c3"),
    # version 18: a last window made only of end padding is kept by onnx's shape inference, dropped by the runtimes
    (shape_case(OP, 18, [[1, 1, 5, 5]], {"kernel_shape": [2, 2], "strides": [2, 2], "pads": [1, 1, 1, 1],
                                         "ceil_mode": 1}), "lppool_c4"),
    (shape_case(OP, 18, [[1, 1, 4]], {"kernel_shape": [1], "strides": [2], "auto_pad": "VALID", "ceil_mode": 1}),
     "lppool_c4"),
    (shape_case(OP, 1, [[1, 1, 3, 3]]), "lppool_c5"),
    (shape_case(OP, 2, [[1, 1, 3, 3]], {"kernel_shape": [2, 2], "p": 0}), "attr_range"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


@pytest.mark.parametrize(("spatial", "attrs"), [
    ([5], {"kernel_shape": [2], "dilations": [2], "auto_pad": "SAME_UPPER"}),
    ([9, 6], {"kernel_shape": [3, 2], "dilations": [2, 2], "strides": [3, 1], "auto_pad": "SAME_LOWER"}),
])
def test_same_padding_reading_gives_onnxruntimes_shape(spatial: list[int], attrs: dict[str, Any]) -> None:
    """lppool_r3 states the output shape onnxruntime gives a dilated kernel with SAME padding."""
    from opset.infer import infer_shapes
    from tests.helpers import registry

    x = f32(1, 1, *spatial)
    ort = oracle_outputs(OracleCase(OP, attrs, [x], (18,), oracle="ort"), 18)[0]
    result = infer_shapes(registry().resolve("ai.onnx", OP, 18), [list(x.shape)], attrs, {}, all_values_known=True)
    found = {r.reading.id: r.outputs[0] for r in result.readings}
    assert found["lppool_r3"] == list(ort.shape) != result.outputs[0]
