"""com.microsoft MoE: each token row goes to its top-k experts (softmax over router_probs) and their FFN outputs
are mixed by the routing weights (conformance/kernels/com_microsoft/_moe_common.py says how).

Computed in float64 and rounded once to the input type. FC1 holds the gate and up rows of swiglu and geglu
interleaved (swiglu_fusion 1) or concatenated (2); with fc3_experts_weights the activation of FC1 is multiplied by
FC3's output (swiglu: FC1 is the gate and FC3 the up projection). use_sparse_mixer changes nothing here, as in
onnxruntime's CPU kernel (its CUDA kernel routes Phi-3.5's sparse mixer: a reading of the YAML).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._moe_common import check_layout, mixture, routing_weights
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "MoE", since=1)
def moe(x: np.ndarray, router_probs: np.ndarray, fc1_experts_weights: np.ndarray, fc1_experts_bias: np.ndarray | None,
        fc2_experts_weights: np.ndarray, fc2_experts_bias: np.ndarray | None, fc3_experts_weights: np.ndarray | None,
        fc3_experts_bias: np.ndarray | None, *, activation_alpha: float, activation_beta: float,
        activation_type: str, k: int, normalize_routing_weights: int, swiglu_fusion: int,
        swiglu_limit: float | None, swiglu_limit_after_activation: int,
        use_sparse_mixer: int) -> tuple[np.ndarray, ...]:
    experts, _, hidden = fc1_experts_weights.shape
    rows = check_layout("MoE", x, router_probs, experts, hidden)
    mix = routing_weights("MoE", router_probs, None, k, normalize_routing_weights)
    b1, b2, w3, b3 = (None if w is None else w.astype(np.float64) for w in (
        fc1_experts_bias, fc2_experts_bias, fc3_experts_weights, fc3_experts_bias))
    out = mixture("MoE", rows.astype(np.float64), mix, fc1_experts_weights.astype(np.float64), b1,
                  fc2_experts_weights.astype(np.float64), b2, w3, b3, activation_type=activation_type,
                  swiglu_fusion=swiglu_fusion, alpha=activation_alpha, beta=activation_beta, limit=swiglu_limit,
                  limit_after=swiglu_limit_after_activation)
    return (out.reshape(x.shape).astype(x.dtype),)
