"""com.microsoft HyperConnectionLowRankMix: one hyper-connection block with a low-rank gate network over C =
num_branches flattened streams (..., C * H), following onnxruntime's numerics contract: every step is computed in
double and rounded to T once, as the equivalent standard operator's output would be.

S = T(streams + prev_post_gate[..., c] * prev_block_output[..., h]) (S = streams without the prologue);
hn = T(S / sqrt(mean_h(S^2) + epsilon) * norm_scale) per branch; down = T(hn @ down_weight);
Z = T(silu_alpha * down); hidden = T(Z * T(sigmoid(Z))); g = T(sigmoid(T(hidden @ up_weight)));
pre_output = T(reduction_scale * sum_c hn * g); post_gate = T(T(sigmoid(T(T(hn @ inject_weight) / gate_div)))
* gate_mul); streams_out = S. onnxruntime computes it on CUDA only.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("com.microsoft", "HyperConnectionLowRankMix", since=1)
def hyper_connection_low_rank_mix(streams: np.ndarray, norm_scale: np.ndarray, down_weight: np.ndarray,
                                  up_weight: np.ndarray, inject_weight: np.ndarray,
                                  prev_block_output: np.ndarray | None, prev_post_gate: np.ndarray | None, *,
                                  epsilon: float, gate_div: float, gate_mul: float, num_branches: int,
                                  reduction_scale: float, silu_alpha: float) -> tuple[np.ndarray, ...]:
    op = "HyperConnectionLowRankMix"
    dtype = streams.dtype
    lead, ch, c = streams.shape[:-1], streams.shape[-1], num_branches
    if ch % c or norm_scale.shape != (ch,) or down_weight.shape[0] != ch or up_weight.shape != (
            down_weight.shape[1], ch) or inject_weight.shape != (ch, c):
        raise ValueError(f"{op}: streams {streams.shape}, norm_scale {norm_scale.shape}, down {down_weight.shape}, "
                         f"up {up_weight.shape} and inject {inject_weight.shape} do not agree with {c} branches")
    h = ch // c
    if gate_div == 0:
        raise ValueError(f"{op}: gate_div must not be zero")

    def t(x: np.ndarray) -> np.ndarray:
        rounded: np.ndarray = x.astype(dtype).astype(np.float64)
        return rounded

    s = streams.astype(np.float64).reshape(*lead, c, h)
    if (prev_block_output is None) != (prev_post_gate is None):
        raise ValueError(f"{op}: prev_block_output and prev_post_gate are given together")
    if prev_block_output is not None and prev_post_gate is not None:
        if prev_block_output.shape != (*lead, h) or prev_post_gate.shape != (*lead, c):
            raise ValueError(f"{op}: prev_block_output {prev_block_output.shape} / prev_post_gate "
                             f"{prev_post_gate.shape} must be {(*lead, h)} / {(*lead, c)}")
        s = t(s + prev_post_gate.astype(np.float64)[..., :, None] * prev_block_output.astype(np.float64)[..., None, :])
    inv_rms = 1.0 / np.sqrt(np.mean(s * s, axis=-1, keepdims=True) + epsilon)
    hn = t(s * inv_rms * norm_scale.astype(np.float64).reshape(c, h))
    flat = hn.reshape(*lead, ch)
    z = t(silu_alpha * t(flat @ down_weight.astype(np.float64)))
    hidden = t(z * t(1.0 / (1.0 + np.exp(-z))))
    g = t(1.0 / (1.0 + np.exp(-t(hidden @ up_weight.astype(np.float64))))).reshape(*lead, c, h)
    pre = t(reduction_scale * (hn * g).sum(axis=-2))
    inject = t(flat @ inject_weight.astype(np.float64))
    post = t(t(1.0 / (1.0 + np.exp(-t(inject / gate_div)))) * gate_mul)
    return pre.astype(dtype), post.astype(dtype), s.reshape(streams.shape).astype(dtype)
