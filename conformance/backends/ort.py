"""The `onnxruntime` backend: one single-threaded InferenceSession per distinct one-node model."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any

import numpy as np
import onnx

from conformance.containers import as_value

UNSUPPORTED_MARKERS = ("not_implemented", "not implemented", "no op registered", "unsupported", "not supported",
                       "could not find an implementation", "is not a registered function/op",
                       "op registered for")  # "Op registered for Upsample is deprecated in domain_version of 10"
CUSTOM_DOMAINS = ("ai.onnx.modified", "tengine")  # ops onnxruntime has never heard of


def is_unsupported_message(text: str) -> bool:
    lowered = text.lower()
    return any(marker in lowered for marker in UNSUPPORTED_MARKERS)


class OnnxRuntimeBackend:
    """`run(model, feeds)`; load errors that say "not implemented" become Unsupported."""

    def __init__(self, cache_size: int = 64) -> None:
        import onnxruntime

        self._ort = onnxruntime
        self._sessions: OrderedDict[str, Any] = OrderedDict()
        self._cache_size = cache_size

    def supports(self, domain: str, op: str, version: int, dtypes: list[str]) -> bool:
        return domain not in CUSTOM_DOMAINS

    def run(self, model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        from conformance.backends.protocol import Unsupported

        data = model.SerializeToString()
        key = hashlib.sha1(data).hexdigest()
        session = self._sessions.get(key)
        if session is None:
            options = self._ort.SessionOptions()
            options.intra_op_num_threads = 1
            options.inter_op_num_threads = 1
            options.log_severity_level = 3
            try:
                session = self._ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])
            except Exception as e:  # onnxruntime raises its own exception classes per status code
                if is_unsupported_message(str(e)):
                    raise Unsupported(str(e).splitlines()[0]) from e
                raise
            self._sessions[key] = session
            if len(self._sessions) > self._cache_size:
                self._sessions.popitem(last=False)
        try:
            outputs = session.run(None, feeds)
        except Exception as e:  # a kernel that declares an attribute combination unsupported at run time
            if is_unsupported_message(str(e)):
                raise Unsupported(str(e).splitlines()[0]) from e
            raise
        return [as_value(x) for x in outputs]
