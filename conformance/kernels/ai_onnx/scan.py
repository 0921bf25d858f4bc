"""Scan: runs `body` once per position of the scan inputs, carrying state variables from one position to the
next and stacking the scan-output values.

From opset 9 the inputs are N initial states then M scan inputs (`num_scan_inputs`); each scan input is
iterated along its `scan_input_axes` entry (default 0), in reverse where `scan_input_directions` says 1; each
scan output stacks the body's values along its `scan_output_axes` entry, prepending where
`scan_output_directions` says 1. Opset 8 has a leading batch axis on every input and output, scans axis 1
of each batch item up to its `sequence_lens` entry (in reverse where `directions` says 1), and pads a short
item's scan outputs with zeros.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from conformance.kernels.ai_onnx._control import stacked
from conformance.kernels.registry import kernel


def _run(states: list[Any], scans: Sequence[np.ndarray], axes: Sequence[int], reverse: Sequence[int],
         length: int, body: Any) -> tuple[list[Any], list[list[Any]] | None]:
    """The final states and each scan output's per-iteration values (None when the body never ran)."""
    outputs: list[list[Any]] | None = None
    n = len(states)
    for t in range(length):
        elements = [np.asarray(np.take(x, length - 1 - t if backward else t, axis=axis))
                    for x, axis, backward in zip(scans, axes, reverse, strict=True)]
        got = body(*states, *elements)
        if len(got) < n:
            raise ValueError(f"Scan's body gave {len(got)} outputs, it needs {n} states at least")
        states = list(got[:n])
        if outputs is None:
            outputs = [[] for _ in got[n:]]
        for values, value in zip(outputs, got[n:], strict=True):
            values.append(value)
    return states, outputs


def _length(scans: Sequence[np.ndarray], axes: Sequence[int]) -> int:
    lengths = {int(x.shape[axis]) for x, axis in zip(scans, axes, strict=True)}
    if len(lengths) > 1:
        raise ValueError(f"Scan's scan inputs have different sequence lengths {sorted(lengths)}")
    return lengths.pop() if lengths else 0


@kernel("ai.onnx", "Scan", since=9, exact_types=True)  # values reach the body as they are
def scan(*initial_state_and_scan_inputs: Any, body: Any, num_scan_inputs: int, scan_input_axes: list[int] | None,
         scan_input_directions: list[int] | None, scan_output_axes: list[int] | None,
         scan_output_directions: list[int] | None) -> tuple[Any, ...]:
    m = num_scan_inputs
    n = len(initial_state_and_scan_inputs) - m
    states = list(initial_state_and_scan_inputs[:n])
    scans = [np.asarray(x) for x in initial_state_and_scan_inputs[n:]]
    axes = [a % x.ndim for a, x in zip(scan_input_axes or [0] * m, scans, strict=True)]
    reverse = scan_input_directions or [0] * m
    states, outputs = _run(states, scans, axes, reverse, _length(scans, axes), body)
    declared = body.declared_outputs()
    if outputs is None:
        outputs = [[] for _ in declared[n:]]
    k = len(outputs)
    out_axes = scan_output_axes or [0] * k
    prepend = scan_output_directions or [0] * k
    results = [stacked(values[::-1] if prepend[j] else values, out_axes[j], declared[n + j])
               for j, values in enumerate(outputs)]
    return (*states, *results)


@kernel("ai.onnx", "Scan", since=8, until=8, exact_types=True)
def scan_batched(sequence_lens: np.ndarray | None, *initial_state_and_scan_inputs: Any, body: Any,
                 num_scan_inputs: int, directions: list[int] | None) -> tuple[Any, ...]:
    m = num_scan_inputs
    n = len(initial_state_and_scan_inputs) - m
    states = [np.asarray(x) for x in initial_state_and_scan_inputs[:n]]
    scans = [np.asarray(x) for x in initial_state_and_scan_inputs[n:]]
    batch = int((states + scans)[0].shape[0])
    longest = _length(scans, [1] * m)
    lengths = [longest] * batch if sequence_lens is None else [int(v) for v in np.asarray(sequence_lens).reshape(-1)]
    if len(lengths) != batch or any(not 0 <= v <= longest for v in lengths):
        raise ValueError(f"Scan's sequence_lens {lengths} must hold one length in [0, {longest}] per batch item")
    reverse = directions or [0] * m
    declared = body.declared_outputs()
    finals: list[list[Any]] = []
    padded: list[list[np.ndarray]] = []
    for b in range(batch):
        item_scans = [x[b, :lengths[b]] for x in scans]  # its valid positions, scanned along axis 0
        item_states, outputs = _run([x[b] for x in states], item_scans, [0] * m, reverse, lengths[b], body)
        finals.append(item_states)
        if outputs is None:
            outputs = [[] for _ in declared[n:]]
        item = []
        for j, values in enumerate(outputs):
            out = stacked(values, 0, declared[n + j])
            pad = np.zeros((longest - out.shape[0], *out.shape[1:]), dtype=out.dtype)
            item.append(np.concatenate([out, pad], axis=0))
        padded.append(item)
    final_states = [np.stack([finals[b][i] for b in range(batch)]) for i in range(n)]
    k = len(padded[0]) if padded else 0
    scan_outputs = [np.stack([padded[b][j] for b in range(batch)]) for j in range(k)]
    return (*final_states, *scan_outputs)
