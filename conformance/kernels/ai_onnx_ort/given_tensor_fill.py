"""GivenTensorFill (onnxruntime's default domain, Caffe2's op): the `values` attribute laid out in the output shape
(the `shape` attribute; with an input, its shape, or its values when input_as_shape = 1, then `extra_shape`), in the
input's element type; without an input, in float (Caffe2's default: the node says no other)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx.ort", "GivenTensorFill", since=1)
def given_tensor_fill(shape_input: np.ndarray | None, *, values: list[float] | None, shape: list[int] | None,
                      input_as_shape: int | None, extra_shape: list[int] | None) -> tuple[np.ndarray, ...]:
    if shape_input is None:
        dims = list(shape or [])
    else:
        dims = [int(d) for d in shape_input.reshape(-1)] if input_as_shape == 1 else list(shape_input.shape)
        dims += list(extra_shape or [])
    data = np.asarray(values or [], np.float32 if shape_input is None else shape_input.dtype)
    if data.size != int(np.prod(dims, dtype=np.int64)):
        raise ValueError(f"GivenTensorFill: {data.size} values for the shape {dims}")
    return (data.reshape(dims),)
