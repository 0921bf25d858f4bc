"""The values validation reads from small int tensors (Reshape's shape, ConstantOfShape's input) are onnx's."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("raw", [True, False])
@pytest.mark.parametrize("dtype", ["int64", "int32"])
@pytest.mark.parametrize("shape", [(), (1,), (4,), (2, 3)])
def test_tensor_values_read_what_numpy_reads(raw: bool, dtype: str, shape: tuple[int, ...]) -> None:
    """The shape-like values validation reads from an int tensor (struct on raw_data, the typed field otherwise)
    are onnx's own decoding of it, extremes and negatives included."""
    import numpy as np
    from onnx import helper, numpy_helper

    from opset.validate.tensors import tensor_values

    info = np.iinfo(dtype)
    values = np.resize(np.array([0, -1, 7, info.min, info.max, 12345], dtype), shape)
    if raw:
        t = numpy_helper.from_array(values, "t")
    else:
        t = helper.make_tensor("t", helper.np_dtype_to_tensor_dtype(values.dtype), shape, values.reshape(-1).tolist())
    assert t.HasField("raw_data") is raw
    assert tensor_values(t) == tuple(int(x) for x in numpy_helper.to_array(t).reshape(-1))
