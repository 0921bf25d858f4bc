"""onnxruntime's and tract's reading of Resize on an integer X (registry reading resize_r6): the interpolated values
converted toward zero as a C cast does, after interpolating in float32 as tract does (so a whole value may come out
as 2.9999998 and convert to 2). Not wrong, only another reading: conform counts its cells "ambiguous"."""

from __future__ import annotations

import numpy as np

from tests.conformance.wrong_backends._resize_integers import ResizeIntegersConverted


class Backend(ResizeIntegersConverted):
    work = np.float32

    def whole(self, data: np.ndarray) -> np.ndarray:
        return np.asarray(np.trunc(data))
