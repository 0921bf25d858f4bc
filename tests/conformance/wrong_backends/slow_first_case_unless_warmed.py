"""Not wrong: the reference, except that its first case loads for 4 s (a library's lazy imports on a loaded machine)
unless `warm()` ran first. A worker warms its backend before it is ready, so `--timeout 2` times no case out."""

from __future__ import annotations

import time
from collections.abc import Mapping

import numpy as np
import onnx

from conformance.backends.protocol import Outer
from tests.conformance.wrong_backends._base import AlteredReference

LOAD_SECONDS = 4.0


class Backend(AlteredReference):
    def __init__(self) -> None:
        super().__init__()
        self.loaded = False

    def warm(self) -> None:
        self._load()

    def _load(self) -> None:
        if not self.loaded:
            time.sleep(LOAD_SECONDS)
            self.loaded = True

    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
            opset_imports: Mapping[str, int] | None = None, outer: Outer | None = None) -> list[np.ndarray]:
        self._load()
        return self.reference.run(node, inputs, opset_imports, outer)
