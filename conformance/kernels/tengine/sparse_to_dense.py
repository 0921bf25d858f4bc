"""SparseToDense (tengine, op id 82): float output filled with default_value, int32 values set at indices."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _dense_shape(indices: np.ndarray, output_shape: np.ndarray, size0: int, size1: int) -> tuple[int, ...]:
    if indices.ndim == 2 and indices.shape[1] == 2:
        if output_shape.ndim != 2 or size1 < 1:
            raise ValueError("SparseToDense: 2-D indices need a 2-D output_shape and output_shape_size1 >= 1")
        return (size0, size1)
    if indices.ndim > 1 or output_shape.ndim != 1:
        raise ValueError(f"SparseToDense: indices {indices.shape} with output_shape {output_shape.shape} is not "
                         "a 1-D or 2-D case")
    return (size0,)


@kernel("tengine", "SparseToDense", since=1)
def sparse_to_dense(indices: np.ndarray, output_shape: np.ndarray, sparse_values: np.ndarray, *,
                    output_shape_size0: int, output_shape_size1: int, default_value: int) -> tuple[np.ndarray, ...]:
    # output_shape's values are not used (the sizes are parameters); only its rank is checked
    shape = _dense_shape(indices, output_shape, output_shape_size0, output_shape_size1)
    positions = indices.reshape(-1, len(shape)).astype(np.int64)
    if np.any(positions < 0) or np.any(positions >= np.asarray(shape)):
        raise ValueError(f"SparseToDense: indices fall outside the output {shape}")
    values = sparse_values.reshape(-1).astype(np.float32)
    if values.size not in (1, len(positions)):
        raise ValueError(f"SparseToDense: {values.size} values for {len(positions)} positions")
    out = np.full(shape, np.float32(default_value), dtype=np.float32)
    # numpy keeps the last of repeated indices, as Tengine's sequential loop does
    out[tuple(positions.T)] = np.broadcast_to(values, (len(positions),))
    return (out,)
