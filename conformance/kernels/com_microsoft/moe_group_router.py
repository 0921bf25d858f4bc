"""com.microsoft MoEGroupRouter: group-limited sigmoid routing (noaux_tc, DeepSeek-V3 / BailingMoeV3).

s = sigmoid(logits) in float32 (logits = X @ projection_weight^T, accumulated in float32, when a projection is
given), b = s + expert_bias. The experts form n_group consecutive groups; a group's score is the sum of its
min(group_topk, group size) largest b; the topk_group best groups are kept, then the top_k largest b among their
experts. router_probs holds log(max(s, 1e-20)) at the chosen experts and router_sentinel elsewhere, rounded to T;
selection_scores (b) and router_weights (s) are the full float32 arrays (no selection). Ties go to the lower
index.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("com.microsoft", "MoEGroupRouter", since=1)
def moe_group_router(logits: np.ndarray, expert_bias: np.ndarray, projection_weight: np.ndarray | None, *,
                     group_topk: int, n_group: int, router_sentinel: float, top_k: int,
                     topk_group: int) -> tuple[np.ndarray, ...]:
    op = "MoEGroupRouter"
    if projection_weight is not None:
        if logits.ndim != 2 or projection_weight.ndim != 2 or projection_weight.shape[1] != logits.shape[1]:
            raise ValueError(f"{op}: projection_weight {projection_weight.shape} must be (experts, width) for "
                             f"activations {logits.shape}")
        z = (logits.astype(np.float64) @ projection_weight.astype(np.float64).T).astype(np.float32)
    else:
        z = logits.reshape(-1, logits.shape[-1]).astype(np.float32)
    tokens, experts = z.shape
    if expert_bias.shape != (experts,):
        raise ValueError(f"{op}: expert_bias {expert_bias.shape} must be ({experts},)")
    if experts % n_group or not 1 <= topk_group <= n_group or not 1 <= top_k <= experts:
        raise ValueError(f"{op}: n_group={n_group} must divide {experts} experts, topk_group={topk_group} lie in "
                         f"[1, n_group] and top_k={top_k} in [1, experts]")
    s = (1.0 / (1.0 + np.exp(-z.astype(np.float64)))).astype(np.float32)
    biased = (s + expert_bias.astype(np.float32)).astype(np.float32)
    size = experts // n_group
    grouped = biased.reshape(tokens, n_group, size).astype(np.float64)
    take = min(group_topk, size)
    group_score = -np.sort(-grouped, axis=-1, kind="stable")[..., :take].sum(axis=-1)
    groups = np.argsort(-group_score, axis=-1, kind="stable")[:, :topk_group]
    allowed = np.zeros((tokens, n_group), bool)
    np.put_along_axis(allowed, groups, True, axis=1)
    masked = np.where(np.repeat(allowed, size, axis=1), biased.astype(np.float64), -np.inf)
    chosen = np.argsort(-masked, axis=-1, kind="stable")[:, :top_k]
    probs = np.full((tokens, experts), router_sentinel, np.float64)
    picked = np.log(np.maximum(np.take_along_axis(s, chosen, axis=1).astype(np.float64), 1e-20))
    np.put_along_axis(probs, chosen, picked, axis=1)
    return probs.astype(logits.dtype), biased, s
