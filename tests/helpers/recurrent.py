"""RNN, GRU and LSTM cases: inputs shaped for a gate count, directions and layout, and oracles that
onnxruntime (no layout 1, no double GRU/LSTM, no version before 7) can still answer."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from tests.helpers.oracles import one_node_model, run_onnxruntime

GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}
OUTPUTS = {"RNN": 2, "GRU": 2, "LSTM": 3}


def recurrent_inputs(op: str, seed: int, *, seq: int = 3, batch: int = 2, size: int = 2, hidden: int = 3,
                     directions: int = 1, layout: int = 0, bias: bool = True, lengths: Sequence[int] | None = None,
                     initial: bool = True, peephole: bool = True, scale: float = 1.0,
                     dtype: type[np.floating[Any]] = np.float32) -> list[np.ndarray | None]:
    """X, W, R, B, sequence_lens, initial_h (and initial_c, P for LSTM), trailing absent inputs left off."""
    rng = np.random.default_rng(seed)

    def uniform(*shape: int) -> np.ndarray:
        return rng.uniform(-scale, scale, shape).astype(dtype)

    gates = GATES[op]
    state = (directions, batch, hidden) if layout == 0 else (batch, directions, hidden)
    inputs: list[np.ndarray | None] = [
        uniform(seq, batch, size) if layout == 0 else uniform(batch, seq, size),
        uniform(directions, gates * hidden, size),
        uniform(directions, gates * hidden, hidden),
        uniform(directions, 2 * gates * hidden) if bias else None,
        None if lengths is None else np.asarray(lengths, dtype=np.int32),
        uniform(*state) if initial else None,
    ]
    if op == "LSTM":
        inputs += [uniform(*state) if initial else None, uniform(directions, 3 * hidden) if peephole else None]
    while inputs and inputs[-1] is None:
        inputs.pop()
    return inputs


def ort_outputs(op: str, opset: int, inputs: Sequence[np.ndarray | None], attrs: Mapping[str, Any],
                n_out: int) -> list[np.ndarray]:
    model, feeds = one_node_model(op, opset, list(inputs), attrs, n_out)
    return run_onnxruntime(model, feeds)


def ort_in_layout_0(op: str, opset: int, inputs: Sequence[np.ndarray | None], attrs: Mapping[str, Any],
                    n_out: int) -> Callable[[], list[np.ndarray]]:
    """An oracle for a layout = 1 node: onnxruntime (which has no layout 1) on the inputs in layout 0, its outputs
    turned back into layout 1 (X, Y: batch and sequence axes swapped; states: batch and direction axes)."""

    def oracle() -> list[np.ndarray]:
        swapped = [None if x is None else np.swapaxes(x, 0, 1) if i in (0, 5, 6) else x
                   for i, x in enumerate(inputs)]
        given = {k: v for k, v in attrs.items() if k != "layout"}
        outs = ort_outputs(op, opset, swapped, given, n_out)
        return [np.transpose(y, (2, 0, 1, 3)) if k == 0 else np.swapaxes(y, 0, 1) for k, y in enumerate(outs)]

    return oracle


def ort_in_float(op: str, opset: int, inputs: Sequence[np.ndarray | None], attrs: Mapping[str, Any],
                 n_out: int) -> Callable[[], list[np.ndarray]]:
    """An oracle for a double node onnxruntime refuses (GRU, LSTM): its float kernel, outputs widened back."""

    def oracle() -> list[np.ndarray]:
        narrowed = [None if x is None or x.dtype.kind != "f" else x.astype(np.float32) for x in inputs]
        narrowed = [n if x is None or x.dtype.kind == "f" else x for n, x in zip(narrowed, inputs, strict=True)]
        return [y.astype(np.float64) for y in ort_outputs(op, opset, narrowed, attrs, n_out)]

    return oracle
