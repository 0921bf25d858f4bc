"""STFT: the kernel against onnx.reference, onnxruntime and frames transformed by the defining sum (written out
here, no FFT); the value-dependent shape formula against onnx's shape inference; invalid nodes; the reading of
onnx's shape inference (an absent onesided read as 0)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    inferred,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    symbolic_shape,
    version,
)

OP = "STFT"
rand = Seeded(1718)


def scalar(value: int, dtype: type = np.int64) -> np.ndarray:
    return np.array(value, dtype)


def by_definition(signal: np.ndarray, step: int, window: np.ndarray | None, frame: int | None,
                  onesided: int) -> Callable[[], list[np.ndarray]]:
    """Frame t holds samples t * step .. t * step + frame - 1 times the window; bin k of it is
    sum_n frame[n] exp(-2 pi j k n / frame), for k < frame (or k <= frame / 2 when onesided)."""

    def outputs() -> list[np.ndarray]:
        wide = signal.astype(np.float64)
        z = wide[..., 0] if signal.shape[-1] == 1 else wide[..., 0] + 1j * wide[..., 1]
        size = frame if frame is not None else (len(window) if window is not None else z.shape[1])
        w = np.ones(size) if window is None else window.astype(np.float64)
        count = (z.shape[1] - size) // step + 1
        n = np.arange(size)
        kernel = np.exp(-2j * np.pi * np.outer(n, n) / size)  # [k, n]
        frames = np.stack([z[:, t * step:t * step + size] * w for t in range(count)], axis=1)
        y = frames @ kernel.T
        if onesided:
            y = y[..., :size // 2 + 1]
        return [np.stack([y.real, y.imag], axis=-1).astype(signal.dtype)]

    return outputs


def case(signal: np.ndarray, step: int, window: np.ndarray | None = None, frame: int | None = None,
         onesided: int | None = None, oracle: str = "ref", rtol: float = 1e-4, id: str = "",
         by_sum: bool = False) -> OracleCase:
    t2 = np.int32 if step % 2 else np.int64  # frame_step and frame_length share T2
    inputs = [signal, scalar(step, t2), window, None if frame is None else scalar(frame, t2)]
    while inputs[-1] is None:
        inputs.pop()
    attrs = {} if onesided is None else {"onesided": onesided}
    if by_sum:
        expected = by_definition(signal, step, window, frame, 1 if onesided is None else onesided)
        return OracleCase(OP, attrs, inputs, (17,), oracle=expected, rtol=rtol, id=id)
    return OracleCase(OP, attrs, inputs, (17,), oracle=oracle, rtol=rtol, id=id)


REAL, COMPLEX = rand.f32(2, 16, 1), rand.f32(2, 16, 2)
WINDOW = rand.f32(6)
CASES = [
    case(REAL, 3, frame=6, id="frame_length"),
    case(REAL, 3, WINDOW, id="window"),
    case(REAL, 3, WINDOW, 6, onesided=0, id="both_full"),
    case(REAL, 4, frame=7, onesided=1, id="odd_frame"),
    case(REAL, 5, onesided=1, id="frame_is_signal"),
    case(COMPLEX, 3, WINDOW, onesided=0, id="complex"),
    case(COMPLEX, 2, WINDOW, onesided=1, id="complex_onesided"),
    case(REAL, 20, frame=5, id="one_frame"),
    case(REAL, 1, frame=1, onesided=0, id="unit_frames"),
    case(REAL.astype(np.float64), 3, WINDOW.astype(np.float64), id="double"),
    case(REAL.astype(np.float16), 4, WINDOW.astype(np.float16), rtol=5e-3, id="half"),
    case(REAL, 3, WINDOW, 6, oracle="ort", id="ort_both"),
    case(COMPLEX, 2, None, 5, onesided=0, oracle="ort", id="ort_complex"),
    case(REAL.astype(np.float64), 5, frame=8, oracle="ort", id="ort_double"),
    case(REAL, 3, WINDOW, id="sum_window", by_sum=True),
    case(COMPLEX, 4, None, 5, onesided=0, id="sum_complex", by_sum=True),
    case(REAL, 2, WINDOW[:5], 5, onesided=1, id="sum_odd", by_sum=True),
    case(REAL, 7, onesided=0, id="sum_whole_signal", by_sum=True),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def s64(value: int) -> np.ndarray:
    return np.array(value, np.int64)


# onesided stated: onnx's shape inference reads an absent one as 0 (stft_r1)
SHAPES = [
    shape_case(OP, 17, [[2, 16, 1], s64(4), None, s64(8)], {"onesided": 1}),
    shape_case(OP, 17, [[2, 16, 1], s64(4), None, s64(9)], {"onesided": 1}),
    shape_case(OP, 17, [[2, 16, 1], s64(3), [6]], {"onesided": 1}),
    shape_case(OP, 17, [[2, 16, 1], s64(3), [6]], {"onesided": 0}),
    shape_case(OP, 17, [[1, 16, 2], s64(5), [6], s64(6)], {"onesided": 0}),
    shape_case(OP, 17, [[3, 10, 1], s64(20), None, s64(10)], {"onesided": 1}),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


REJECTED = [
    (shape_case(OP, 17, [[2, 16, 3], s64(4), None, s64(8)]), "stft_c1"),
    (shape_case(OP, 17, [[2, 16, 1], s64(0), None, s64(8)]), "stft_c2"),
    (shape_case(OP, 17, [[2, 16, 1], s64(4), [6], s64(8)]), "stft_c3"),
    (shape_case(OP, 17, [[2, 16, 1], s64(4), None, s64(0)]), "stft_c4"),
    (shape_case(OP, 17, [[2, 16, 1], s64(4), [0]]), "stft_c4"),
    (shape_case(OP, 17, [[2, 6, 1], s64(4), None, s64(8)]), "stft_c5"),
    (shape_case(OP, 17, [[2, 6, 1], s64(1), [7]]), "stft_c5"),
    (shape_case(OP, 17, [[16, 1], s64(4), None, s64(8)]), "rank"),
    (shape_case(OP, 17, [[2, 16, 1], s64(4), [2, 8]]), "rank"),
    (shape_case(OP, 17, [[2, 16, 1], s64(4)], {"onesided": 2}), "attr_allowed"),
]


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_an_absent_onesided_is_1_and_onnx_shape_inference_reads_0() -> None:
    """onnx's shape inference sizes an STFT without onesided as onesided = 0 (the full frame); the registry applies
    the default 1, as onnx.reference and onnxruntime do, and offers onnx's size as reading stft_r1."""
    v = version("ai.onnx", OP, 17)
    case = shape_case(OP, 17, [[2, 16, 1], s64(4), None, s64(8)])
    from tests.helpers import onnx_inferred_shapes

    assert onnx_inferred_shapes(case) == [[2, 3, 8, 2]]
    result = inferred(v, [[2, 16, 1], [], None, []], {}, {"frame_step": [4], "frame_length": [8]})
    assert result.outputs == [[2, 3, 5, 2]]
    assert [(r.reading.id, r.outputs) for r in result.readings] == [("stft_r1", ([2, 3, 8, 2],))]
    stated = inferred(v, [[2, 16, 1], [], None, []], {"onesided": 0}, {"frame_step": [4], "frame_length": [8]})
    assert stated.readings == []


def test_unknown_values_leave_the_frame_count_unknown() -> None:
    assert symbolic_shape(OP, 17, [[2, 16, 1], [], [6]], {"onesided": 1}) == ["2", "?frames", "4", "2"]
    assert symbolic_shape(OP, 17, [[2, 16, 1], [], None, []], {"onesided": 0}) == ["2", "?frames", "?bins", "2"]
    assert symbolic_shape(OP, 17, [[2, 16, 1], []], {"onesided": 0}) == ["2", "?frames", "16", "2"]
