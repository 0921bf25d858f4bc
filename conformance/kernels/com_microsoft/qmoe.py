"""com.microsoft QMoE: MoE (conformance/kernels/com_microsoft/_moe_common.py) whose expert weights are stored
quantized; each projection is dequantized, then the experts run as in MoE.

Integer quantization (quant_type 'int', the one this kernel computes): a projection's weights are (E, N, K * bits
/ 8) bytes, each row a little-endian bit stream of K unsigned `bits`-bit values (for 2, 4 and 8 bits: the low
bits of a byte first). Without block_size the scales are (E, N) and the zero points (E, ceil(N * bits / 8)),
packed the same way along N; with block_size the scales are (E, N, K / block_size) and the zero points (E, N,
ceil(K / block_size * bits / 8)). W = (q - zero_point) * scale, the zero point 2^(bits - 1) when absent.
fc1/fc2/fc3_expert_weight_bits override expert_weight_bits per projection.

Routing follows onnxruntime's CPU kernel: the top-k experts of each router_probs row; without router_weights their
mixing weights are the softmax over those k logits (the full softmax renormalised over the top k) whatever
normalize_routing_weights says (reading qmoe_r1: the CUDA kernel mixes un-renormalised full-softmax probabilities
when it is 0); with router_weights the mixing weights are router_weights at the selected experts, renormalised to
sum to one when normalize_routing_weights is 1. Computed in float64 and rounded once to the input type.

The floating-point formats (fp4, nvfp4, fp8, wfp4afp8) and their activation scales are refused: their packing and
scale layouts are defined by onnxruntime's CUDA kernels.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._moe_common import check_layout, mixture, routing_weights
from conformance.kernels.registry import kernel


def unpack_bits(packed: np.ndarray, bits: int, count: int) -> np.ndarray:
    """The first `count` unsigned `bits`-bit values of each row's little-endian bit stream."""
    stream = np.unpackbits(packed.astype(np.uint8), axis=-1, bitorder="little")
    if stream.shape[-1] < count * bits:
        raise ValueError(f"QMoE: {packed.shape[-1]} bytes per row cannot hold {count} {bits}-bit values")
    values = stream[..., :count * bits].reshape(*packed.shape[:-1], count, bits).astype(np.int64)
    weights: np.ndarray = values @ (1 << np.arange(bits))
    return weights


def _dequantized(name: str, packed: np.ndarray | None, scales: np.ndarray | None, zero_points: np.ndarray | None,
                 bits: int, k: int, block: int) -> np.ndarray | None:
    if packed is None:
        return None
    if scales is None:
        raise ValueError(f"QMoE: integer {name} weights need their scales")
    experts, n = packed.shape[:2]
    q = unpack_bits(packed, bits, k).astype(np.float64)  # (E, N, K)
    if block > 0:
        if k % block or scales.shape != (experts, n, k // block):
            raise ValueError(f"QMoE: {name} scales {scales.shape} must be (E, N, K / block_size) = "
                             f"({experts}, {n}, {k / block})")
        zp = (np.full(scales.shape, 2.0 ** (bits - 1)) if zero_points is None
              else unpack_bits(zero_points, bits, k // block).astype(np.float64))
        return (q - np.repeat(zp, block, axis=-1)) * np.repeat(scales.astype(np.float64), block, axis=-1)
    if scales.shape != (experts, n):
        raise ValueError(f"QMoE: {name} scales {scales.shape} must be (E, N) = ({experts}, {n})")
    zp = (np.full(scales.shape, 2.0 ** (bits - 1)) if zero_points is None
          else unpack_bits(zero_points, bits, n).astype(np.float64))
    return (q - zp[..., None]) * scales.astype(np.float64)[..., None]


@kernel("com.microsoft", "QMoE", since=1)
def qmoe(x: np.ndarray, router_probs: np.ndarray, fc1_experts_weights: np.ndarray, fc1_scales: np.ndarray | None,
         fc1_experts_bias: np.ndarray | None, fc2_experts_weights: np.ndarray, fc2_scales: np.ndarray | None,
         fc2_experts_bias: np.ndarray | None, fc3_experts_weights: np.ndarray | None, fc3_scales: np.ndarray | None,
         fc3_experts_bias: np.ndarray | None, fc1_zero_points: np.ndarray | None,
         fc2_zero_points: np.ndarray | None, fc3_zero_points: np.ndarray | None, router_weights: np.ndarray | None,
         fc1_global_scale: np.ndarray | None, fc2_global_scale: np.ndarray | None, fc1_act_scale: np.ndarray | None,
         fc2_act_scale: np.ndarray | None, fc1_act_block_scale: np.ndarray | None,
         fc2_act_block_scale: np.ndarray | None, *, accuracy_level: int, activation_alpha: float,
         activation_beta: float, activation_type: str, block_size: int | None, expert_weight_bits: int,
         fc1_expert_weight_bits: int | None, fc2_expert_weight_bits: int | None,
         fc3_expert_weight_bits: int | None, k: int, normalize_routing_weights: int, quant_type: str,
         swiglu_fusion: int, swiglu_limit: float | None, swiglu_limit_after_activation: int, use_sparse_mixer: int,
         weights_prepacked: int) -> tuple[np.ndarray, ...]:
    if quant_type != "int":
        raise ValueError(f"QMoE: quant_type {quant_type!r} is not computed here (its packing and scale layouts are "
                         "defined by onnxruntime's CUDA kernels)")
    hidden = x.shape[-1]
    experts, width = fc1_experts_weights.shape[:2]
    inter = fc2_experts_weights.shape[2] * 8 // (fc2_expert_weight_bits or expert_weight_bits)
    rows = check_layout("QMoE", x, router_probs, experts, hidden)
    if router_weights is not None and router_weights.shape != router_probs.shape:
        raise ValueError(f"QMoE: router_weights {router_weights.shape} must match router_probs {router_probs.shape}")
    block = block_size or 0
    w1 = _dequantized("fc1", fc1_experts_weights, fc1_scales, fc1_zero_points,
                      fc1_expert_weight_bits or expert_weight_bits, hidden, block)
    w2 = _dequantized("fc2", fc2_experts_weights, fc2_scales, fc2_zero_points,
                      fc2_expert_weight_bits or expert_weight_bits, inter, block)
    w3 = _dequantized("fc3", fc3_experts_weights, fc3_scales, fc3_zero_points,
                      fc3_expert_weight_bits or expert_weight_bits, hidden, block)
    assert w1 is not None and w2 is not None
    if w2.shape != (experts, hidden, inter) or width not in (inter, 2 * inter):
        raise ValueError(f"QMoE: fc1 {w1.shape} and fc2 {w2.shape} do not agree on experts, hidden and inter sizes")
    mix = routing_weights("QMoE", router_probs, router_weights, k,
                          normalize_routing_weights if router_weights is not None else 1)
    biases = [None if b is None else b.astype(np.float64) for b in (fc1_experts_bias, fc2_experts_bias,
                                                                       fc3_experts_bias)]
    out = mixture("QMoE", rows.astype(np.float64), mix, w1, biases[0], w2, biases[1], w3, biases[2],
                  activation_type=activation_type, swiglu_fusion=swiglu_fusion, alpha=activation_alpha,
                  beta=activation_beta, limit=swiglu_limit, limit_after=swiglu_limit_after_activation)
    return (out.reshape(x.shape).astype(x.dtype),)
