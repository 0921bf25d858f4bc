"""DFT: the kernel against onnx.reference, onnxruntime and the transform's defining sums (written out here, no
FFT), for every kind (forward, inverse, RFFT, IRFFT), axes and lengths; the value-dependent shape formulas against
onnx's shape inference; invalid nodes; the IRFFT reading onnxruntime follows."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    i64,
    inferred,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
    symbolic_shape,
    version,
)

Oracle = str | Callable[[], list[np.ndarray]]
OP = "DFT"
rand = Seeded(1717)


def real(*shape: int, dtype: type = np.float32) -> np.ndarray:
    return rand.f32(*shape, 1).astype(dtype)


def cplx(*shape: int, dtype: type = np.float32) -> np.ndarray:
    return rand.f32(*shape, 2).astype(dtype)


def scalar(value: int, dtype: type = np.int64) -> np.ndarray:
    return np.array(value, dtype)


# ---- the defining sums, independent of any FFT ---------------------------------------------------------------

def _complex(x: np.ndarray) -> np.ndarray:
    wide = x.astype(np.float64)
    return wide[..., 0] if x.shape[-1] == 1 else wide[..., 0] + 1j * wide[..., 1]


def _fitted(z: np.ndarray, axis: int, n: int) -> np.ndarray:
    """z cropped or zero-padded to n values along axis."""
    z = np.moveaxis(z, axis, -1)[..., :n]
    pad = np.zeros((*z.shape[:-1], n - z.shape[-1]), dtype=complex)
    return np.concatenate([z, pad], axis=-1)


def _sum(z: np.ndarray, sign: int) -> np.ndarray:
    """sum_n z[..., n] exp(sign 2 pi j k n / N) over the last axis, as a matrix product."""
    n = z.shape[-1]
    k = np.arange(n)
    return np.asarray(z @ np.exp(sign * 2j * np.pi * np.outer(k, k) / n).T)


def by_definition(x: np.ndarray, axis: int, n: int | None = None, inverse: int = 0,
                  onesided: int = 0) -> Callable[[], list[np.ndarray]]:
    """The DFT of the op's text: y[k] = sum_n x[n] e^(-2 pi j k n / N); the inverse with e^(+...) and 1/N; the
    one-sided forward keeps k <= N/2; the one-sided inverse first rebuilds the full spectrum from its first
    floor(N/2) + 1 bins by conjugate symmetry (X[N - k] = X[k]*) and keeps the real part."""

    def outputs() -> list[np.ndarray]:
        z = _complex(x)
        ax = axis % x.ndim
        irfft = inverse and onesided
        length = n if n is not None else (2 * (z.shape[ax] - 1) if irfft else z.shape[ax])
        if irfft:
            half = _fitted(z, ax, length // 2 + 1)
            mirrored = np.conj(half[..., 1:(length + 1) // 2][..., ::-1])
            full = np.concatenate([half, mirrored], axis=-1)[..., :length]
            full[..., 0] = full[..., 0].real  # the bins the symmetry makes real
            if length % 2 == 0:
                full[..., length // 2] = full[..., length // 2].real
            y = np.moveaxis((_sum(full, +1) / length).real, -1, ax)
            return [y[..., np.newaxis].astype(x.dtype)]
        y = _sum(_fitted(z, ax, length), +1) / length if inverse else _sum(_fitted(z, ax, length), -1)
        if onesided:
            y = y[..., :length // 2 + 1]
        y = np.moveaxis(y, -1, ax)
        return [np.stack([y.real, y.imag], axis=-1).astype(x.dtype)]

    return outputs


def case17(x: np.ndarray, attrs: dict, n: int | None = None, oracle: Oracle = "ref", rtol: float = 1e-4,
           id: str = "") -> OracleCase:
    inputs = [x] if n is None else [x, scalar(n, np.int32 if n % 2 else np.int64)]
    return OracleCase(OP, attrs, inputs, (17,), oracle=oracle, rtol=rtol, id=id)


def case20(x: np.ndarray, attrs: dict, n: int | None = None, axis: int | None = None, oracle: Oracle = "ref",
           rtol: float = 1e-4, id: str = "") -> OracleCase:
    inputs = [x, None if n is None else scalar(n), None if axis is None else scalar(axis)]
    while inputs[-1] is None:
        inputs.pop()
    return OracleCase(OP, attrs, inputs, (20,), oracle=oracle, rtol=rtol, id=id)


X1, X2, X3 = real(2, 6), cplx(2, 6), real(2, 4, 5)
Z6, Z3 = cplx(3, 6), cplx(2, 4, 5)
CASES = [
    # onnx.reference, every kind at both versions
    case17(X1, {}, id="real"),
    case17(X2, {}, id="complex"),
    case17(X2, dict(inverse=1), id="inverse"),
    case17(X1, dict(inverse=1), id="inverse_real"),
    case17(X1, dict(onesided=1), id="rfft"),
    case17(X1, dict(onesided=1), 7, id="rfft_odd_length"),
    case17(Z6, dict(onesided=1, inverse=1), id="irfft"),
    case17(Z6, dict(onesided=1, inverse=1), 11, id="irfft_odd"),
    case17(Z6, dict(onesided=1, inverse=1), 4, id="irfft_crops_bins"),
    case17(Z6, dict(onesided=1, inverse=1), 14, id="irfft_pads_bins"),
    case17(X3, dict(axis=2), 8, id="axis2_padded"),
    case17(X3, dict(axis=-3), 3, id="axis_neg_cropped"),
    case17(X3.astype(np.float64), dict(axis=0, inverse=1), id="double"),
    case17(X1.astype(np.float16), dict(onesided=1), rtol=2e-3, id="half"),
    case20(X1, {}, id="real"),
    case20(X3, {}, axis=1, id="axis1"),
    case20(X3, dict(onesided=1), 6, axis=-3, id="rfft_axis"),
    case20(Z3, dict(inverse=1), 7, axis=0, id="inverse_axis0"),
    case20(Z6, dict(onesided=1, inverse=1), id="irfft"),
    case20(Z6, dict(onesided=1, inverse=1), 9, id="irfft_odd"),
    case20(Z6, dict(onesided=1, inverse=1), 5, axis=-2, id="irfft_crops_bins"),
    case20(Z6.astype(np.float64), dict(inverse=1), id="double"),
    case20(X3.astype(np.float16), {}, axis=-2, rtol=2e-3, id="half"),
    # onnxruntime, where it follows the same reading (dft_r1 aside)
    case17(X3, dict(axis=2, onesided=1), 7, oracle="ort", id="ort_rfft"),
    case17(Z6, dict(onesided=1, inverse=1), oracle="ort", id="ort_irfft"),
    case20(Z3, dict(inverse=1), 3, axis=-3, oracle="ort", id="ort_inverse"),
    case20(Z6, dict(onesided=1, inverse=1), 11, oracle="ort", id="ort_irfft_odd"),
    # the defining sums
    case17(X3, dict(axis=1), 6, oracle=by_definition(X3, 1, 6), id="sum_padded"),
    case17(Z3, dict(axis=-2, inverse=1), 3, oracle=by_definition(Z3, -2, 3, inverse=1), id="sum_inverse"),
    case20(X1, dict(onesided=1), 9, oracle=by_definition(X1, -2, 9, onesided=1), id="sum_rfft"),
    case20(Z6, dict(onesided=1, inverse=1), oracle=by_definition(Z6, -2, None, 1, 1), id="sum_irfft"),
    case20(Z6, dict(onesided=1, inverse=1), 7, oracle=by_definition(Z6, -2, 7, 1, 1), id="sum_irfft_crop"),
    case20(Z6, dict(onesided=1, inverse=1), 13, axis=0, oracle=by_definition(Z6, 0, 13, 1, 1), id="sum_irfft_pad"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [
    shape_case(OP, 17, [[2, 5, 1]]),
    shape_case(OP, 17, [[2, 5, 2]], {"inverse": 1}),
    shape_case(OP, 17, [[2, 5, 1], i64(8).reshape(())]),
    shape_case(OP, 17, [[2, 5, 1]], {"onesided": 1}),
    shape_case(OP, 17, [[2, 6, 1], i64(9).reshape(())], {"onesided": 1}),
    shape_case(OP, 17, [[2, 5, 2]], {"onesided": 1, "inverse": 1}),
    shape_case(OP, 17, [[2, 5, 2], i64(9).reshape(())], {"onesided": 1, "inverse": 1}),
    shape_case(OP, 17, [[2, 4, 5, 1]], {"axis": 2}),
    shape_case(OP, 17, [[2, 4, 5, 1], i64(3).reshape(())], {"axis": -3, "onesided": 1}),
    shape_case(OP, 17, [[7, 2]], {"axis": 0}),
    shape_case(OP, 20, [[2, 5, 1]]),
    shape_case(OP, 20, [[7, 2]]),
    shape_case(OP, 20, [[2, 5, 3, 1], None, i64(1).reshape(())]),
    shape_case(OP, 20, [[2, 5, 3, 1], i64(7).reshape(()), i64(-3).reshape(())], {"onesided": 1}),
    shape_case(OP, 20, [[2, 5, 3, 2], i64(4).reshape(()), i64(0).reshape(())], {"inverse": 1}),
    shape_case(OP, 20, [[2, 5, 2]], {"onesided": 1, "inverse": 1}),
    shape_case(OP, 20, [[2, 5, 2], i64(9).reshape(())], {"onesided": 1, "inverse": 1}),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


def s64(value: int) -> np.ndarray:
    return i64(value).reshape(())


REJECTED = [
    (shape_case(OP, 17, [[5]], {"axis": 0}), "dft_c1"),
    (shape_case(OP, 20, [[2, 5, 3]]), "dft_c2"),
    (shape_case(OP, 17, [[2, 5, 1]], {"axis": -1}), "dft_c3"),
    (shape_case(OP, 17, [[2, 5, 1]], {"axis": 2}), "dft_c3"),
    (shape_case(OP, 20, [[2, 5, 1], None, s64(-1)]), "dft_c3"),
    (shape_case(OP, 20, [[2, 5, 1], None, s64(-4)]), "dft_c3"),
    (shape_case(OP, 17, [[2, 5, 2]], {"onesided": 1}), "dft_c4"),
    (shape_case(OP, 20, [[2, 5, 1]], {"onesided": 1, "inverse": 1}), "dft_c5"),
    (shape_case(OP, 17, [[2, 5, 1], s64(0)]), "dft_c6"),
    (shape_case(OP, 20, [[2, 5, 1], s64(-3)]), "dft_c6"),
    (shape_case(OP, 17, [[2, 1, 2]], {"onesided": 1, "inverse": 1}), "dft_c7"),
    (shape_case(OP, 20, [[2, 0, 1]]), "dft_c7"),
    (shape_case(OP, 20, [[2, 5, 1], i64(4)]), "rank"),
    (shape_case(OP, 17, [[2, 5, 1]], {"inverse": 2}), "attr_allowed"),
]


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_unknown_values_leave_the_dims_they_decide_unknown() -> None:
    v17, v20 = version("ai.onnx", OP, 17), version("ai.onnx", OP, 20)
    assert symbolic_shape(OP, 17, [[2, 5, 1], []], {"onesided": 1}) == ["2", "?n", "2"]
    assert symbolic_shape(OP, 20, [[2, 5, 3, 1], None, []]) == ["2", "5", "3", "2"]  # whatever the axis
    # neither the axis nor the length known: the rank and the last dim, as onnx infers them (at any rank: was up to 9)
    assert symbolic_shape(OP, 20, [[2, 5, 3, 1], [], []], {"onesided": 1}) == ["?d[0]", "?d[1]", "?d[2]", "2"]
    assert symbolic_shape(OP, 20, [[2, 5, 3, 2], None, []], {"onesided": 1, "inverse": 1}) == \
        ["?d[0]", "?d[1]", "?d[2]", "1"]
    assert symbolic_shape(OP, 20, [[1] * 10, [], []]) == [f"?d[{i}]" for i in range(9)] + ["2"]
    assert inferred(v17, [[2, 5, 1], []]).problems == inferred(v20, [[2, 5, 3, 1], None, []]).problems == []


def test_irfft_with_a_mismatched_length_is_onnxruntimes_other_reading() -> None:
    """dft_r1 holds exactly where floor(n/2) + 1 is not the input's bin count."""
    v = version("ai.onnx", OP, 20)
    for n, holds in ((10, False), (11, False), (7, True), (14, True)):
        result = inferred(v, [[1, 6, 2], [], []], {"onesided": 1, "inverse": 1}, {"dft_length": [n], "axis": [-2]})
        assert [r.reading.id for r in result.readings] == (["dft_r1"] if holds else []), n


def test_onesided_forward_keeps_the_first_half_of_the_full_transform() -> None:
    x = real(3, 7)
    full = run("ai.onnx", OP, 20, [x, None, None])[0]
    half = run("ai.onnx", OP, 20, [x, None, None], onesided=1)[0]
    np.testing.assert_array_equal(half, full[:, :4])


def test_irfft_inverts_rfft() -> None:
    for n in (6, 7):
        x = real(2, n)
        spectrum = run("ai.onnx", OP, 20, [x, None, None], onesided=1)[0]
        back = run("ai.onnx", OP, 20, [spectrum, scalar(n), None], onesided=1, inverse=1)[0]
        np.testing.assert_allclose(back, x, rtol=1e-5, atol=1e-5)
