"""Wrong on purpose: Resize's linear and cubic modes on an integer X convert the interpolated values by rounding
up (ceil), which neither the registry (half to even) nor its reading resize_r6 (toward zero, onnxruntime and tract)
gives. Before the reading's values were computed, any integer difference where resize_r6 holds passed as
"ambiguous"; an integer X that lands on whole numbers everywhere still passes, as it should."""

from __future__ import annotations

import numpy as np

from tests.conformance.wrong_backends._resize_integers import ResizeIntegersConverted


class Backend(ResizeIntegersConverted):
    work = np.float64

    def whole(self, data: np.ndarray) -> np.ndarray:
        return np.asarray(np.ceil(data))
