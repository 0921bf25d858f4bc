"""com.microsoft DynamicTimeWarping: the cheapest monotone path through a cost matrix, as [2, len] indices.

input is [M, N] or [1, M, N]. The accumulated cost D[i, j] = input[i, j] + min(D[i-1, j-1], D[i-1, j],
D[i, j-1]) (float32, D outside the matrix infinite, D before (0, 0) zero); ties go to the step from the left
(i, j-1) unless the diagonal or the step from above is strictly smallest, as onnxruntime breaks them. The path is
traced back from (M-1, N-1) to (0, 0); row 0 of the output holds its row indices, row 1 its column indices.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("com.microsoft", "DynamicTimeWarping", since=1)
def dynamic_time_warping(cost: np.ndarray) -> tuple[np.ndarray, ...]:
    if not (cost.ndim == 2 or (cost.ndim == 3 and cost.shape[0] == 1)):
        raise ValueError(f"DynamicTimeWarping: input must be [M, N] or [1, M, N], got {cost.shape}")
    rows, cols = int(cost.shape[-2]), int(cost.shape[-1])
    c = cost.reshape(rows, cols).astype(np.float32)
    acc = np.full((rows + 1, cols + 1), np.inf, dtype=np.float32)
    acc[0, 0] = 0
    trace = np.zeros((rows + 1, cols + 1), dtype=np.int8)
    for d in range(2, rows + cols + 1):  # anti-diagonals i + j = d (1-based), each a vector step
        ii = np.arange(max(1, d - cols), min(rows, d - 1) + 1)
        jj = d - ii
        c0, c1, c2 = acc[ii - 1, jj - 1], acc[ii - 1, jj], acc[ii, jj - 1]
        choice = np.where((c0 < c1) & (c0 < c2), 0, np.where((c1 < c0) & (c1 < c2), 1, 2))
        best = np.choose(choice, [c0, c1, c2])
        acc[ii, jj] = best + c[ii - 1, jj - 1]
        trace[ii, jj] = choice
    path: list[tuple[int, int]] = []
    i, j = rows, cols
    while i > 0 and j > 0:
        path.append((i - 1, j - 1))
        t = trace[i, j]
        i, j = (i - 1, j - 1) if t == 0 else (i - 1, j) if t == 1 else (i, j - 1)
    return (np.asarray(path[::-1], dtype=np.int32).reshape(-1, 2).T.copy(),)
