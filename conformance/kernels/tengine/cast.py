"""Cast (tengine, op id 69): converts to the element type coded by `type_to` (ONNX TensorProto codes)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

# The codes real files carry (onnx2tengine copies ONNX's `to`); 0 leaves the type to the output tensor.
TYPE_CODES: dict[int, type] = {1: np.float32, 2: np.uint8, 3: np.int8, 5: np.int16, 6: np.int32, 10: np.float16}


@kernel("tengine", "Cast", since=1)
def cast(x: np.ndarray, *, type_from: int, type_to: int) -> tuple[np.ndarray, ...]:
    # type_from is documentation: Tengine takes the source type from the input tensor.
    if type_to == 0:
        return (x.copy(),)
    if type_to not in TYPE_CODES:
        raise ValueError(f"Cast: unsupported type_to {type_to}; known codes {sorted(TYPE_CODES)}")
    target = np.dtype(TYPE_CODES[type_to])
    if target.kind in "iu" and x.dtype.kind == "f":
        # float to integer truncates toward zero and saturates at the target's range
        info = np.iinfo(target.type)  # type: ignore[type-var]
        return (np.clip(np.trunc(x.astype(np.float64)), info.min, info.max).astype(target),)
    return (x.astype(target),)
