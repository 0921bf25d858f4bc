"""com.microsoft GemmaRotaryEmbedding: output1 = q * cos(emb) + q_rot * sin(emb), output2 = k * cos(emb) +
k_rot * sin(emb), the angles emb (batch, sequence, dim) shared by the heads. As the op's defining onnxscript
computes it: sin and cos in float32, cast to float16, then each product and the sum rounded to float16."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

OP = "GemmaRotaryEmbedding"


@kernel("com.microsoft", "GemmaRotaryEmbedding", since=1)
def gemma_rotary_embedding(emb: np.ndarray, q: np.ndarray, q_rot: np.ndarray, k: np.ndarray,
                           k_rot: np.ndarray) -> tuple[np.ndarray, ...]:
    if emb.ndim != 3 or q.ndim != 4 or k.ndim != 4:
        raise ValueError(f"{OP}: emb must be 3-D and q, k 4-D, got {emb.shape}, {q.shape}, {k.shape}")
    batch, seq, dim = emb.shape
    for name, state, rotated in (("q", q, q_rot), ("k", k, k_rot)):
        if rotated.shape != state.shape or (state.shape[0], state.shape[2], state.shape[3]) != (batch, seq, dim):
            raise ValueError(f"{OP}: {name} {state.shape} and {name}_rot {rotated.shape} must be one (batch, heads, "
                             f"sequence, dim) shape matching emb {emb.shape}")
    cos = np.cos(emb.astype(np.float32)).astype(q.dtype)[:, None]
    sin = np.sin(emb.astype(np.float32)).astype(q.dtype)[:, None]
    return (q * cos + q_rot * sin, k * cos + k_rot * sin)
