"""Tengine LSTM: ONNX's LSTM (onnx.reference) with and without bias, states and peepholes, and MXNet's output."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import one_node_model, run_onnx_reference, tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize("variant", ["plain", "bias_states", "peepholes", "mxnet"])
def test_lstm_matches_onnx_reference(variant: str) -> None:
    steps, batch, size, hid = 3, 2, 3, 2
    x = RNG.standard_normal((steps, batch, size)).astype(np.float32)
    w = RNG.standard_normal((1, 4 * hid, size)).astype(np.float32)
    r = RNG.standard_normal((1, 4 * hid, hid)).astype(np.float32)
    b = RNG.standard_normal((1, 8 * hid)).astype(np.float32)
    h0 = RNG.standard_normal((1, batch, hid)).astype(np.float32)
    c0 = RNG.standard_normal((1, batch, hid)).astype(np.float32)
    p = RNG.standard_normal((1, 3 * hid)).astype(np.float32)
    feeds: dict[str, np.ndarray] = {"X": x, "W": w, "R": r}
    if variant in ("bias_states", "peepholes"):
        feeds |= {"B": b, "initial_h": h0, "initial_c": c0}
    if variant == "peepholes":
        feeds["P"] = p
    names = ["X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P"]
    inputs: list[np.ndarray | None] = [feeds.get(n) for n in names]
    while inputs[-1] is None:
        inputs.pop()
    model, onnx_feeds = one_node_model("LSTM", 14, inputs, {"hidden_size": hid}, 1)
    want = run_onnx_reference(model, onnx_feeds)[0]
    (y,) = tengine_run("LSTM", inputs, hidden_size=hid, mxnet_flag=1 if variant == "mxnet" else 0)
    np.testing.assert_allclose(y.reshape(want.shape), want, rtol=1e-4, atol=1e-5)
    assert y.shape == ((steps, batch, hid) if variant == "mxnet" else (steps, 1, batch, hid))
