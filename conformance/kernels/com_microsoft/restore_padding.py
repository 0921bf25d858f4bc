"""com.microsoft RestorePadding: packed tokens (total_tokens, hidden) scattered back to (batch, sequence, hidden).

token_offset, flattened, names each padded position once: token row i goes to position token_offset[i], and the
positions named by the remaining entries (the padding) are zeros.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

OP = "RestorePadding"


@kernel("com.microsoft", OP, since=1)
def restore_padding(input: np.ndarray, token_offset: np.ndarray) -> tuple[np.ndarray, ...]:
    if input.ndim != 2 or token_offset.ndim != 2:
        raise ValueError(f"{OP}: input (total_tokens, hidden) and token_offset (batch, sequence) expected, got "
                         f"{input.shape} and {token_offset.shape}")
    batch, sequence = token_offset.shape
    total, hidden = input.shape
    offsets = token_offset.reshape(-1).astype(np.int64)
    if total > batch * sequence or sorted(offsets.tolist()) != list(range(batch * sequence)):
        raise ValueError(f"{OP}: token_offset must name each of the {batch * sequence} positions once and cover "
                         f"the {total} tokens")
    output = np.zeros((batch * sequence, hidden), dtype=input.dtype)
    output[offsets[:total]] = input
    return (output.reshape(batch, sequence, hidden),)
