"""The reference kernels (and any backend `conform --backend` takes) as opset's node evaluators: the provider
declared under the entry-point group `opset.evaluators` (pyproject.toml), which eager mode and `opset.tmfile`'s
constant folding reach through `opset.graph.evaluator` without naming this package.

Every backend is called through conform's own adapter (`conformance.backends.protocol.Backend`), so eager mode
accepts exactly what conform accepts.
"""

from __future__ import annotations

from typing import Any

from conformance.backends.onnx_backend import OnnxBackendAdapter, looks_like_onnx_backend
from conformance.backends.protocol import Backend, BackendCall, BackendError
from conformance.backends.reference import ReferenceBackend
from opset.graph.evaluator import NodeCall


class AdaptedEvaluator:
    """A conform backend answering opset's `NodeCall`s."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    def run(self, call: NodeCall) -> list[Any]:
        return self.backend.run(BackendCall(
            node_bytes=call.node_bytes, inputs=list(call.inputs), opset_imports=dict(call.opset_imports),
            output_dtypes=list(call.output_dtypes), domain=call.domain, op=call.op, version=call.version,
            dtypes=list(call.dtypes), output_shapes=call.output_shapes))


class ConformEvaluators:
    """`opset.graph.evaluator.EvaluatorProvider`: the reference kernels by default, any conform backend on demand."""

    def default(self) -> AdaptedEvaluator:
        return AdaptedEvaluator(Backend(ReferenceBackend(), "reference"))

    def adapt(self, backend: object, name: str) -> AdaptedEvaluator:
        """`backend` as `conform --backend` takes it: conform's adapter as it is (`resolve_backend`'s answer), an
        `onnx.backend` backend, or an object with `run(node, inputs)` / `run(model, feeds)`."""
        if isinstance(backend, Backend):
            return AdaptedEvaluator(backend)
        if looks_like_onnx_backend(backend):
            backend = OnnxBackendAdapter(backend)
        try:
            return AdaptedEvaluator(Backend(backend, name))
        except BackendError as e:
            raise ValueError(f"set_evaluator: {e}") from e


PROVIDER = ConformEvaluators()
