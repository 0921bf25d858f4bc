"""Run a whole ONNX model node by node: initializers, topological order, several outputs, model-local
functions expanded (with their attribute references), graph attributes (If, Loop, Scan bodies) run with
their outer scope, a Gradient node (ai.onnx.preview.training) by differentiating the graph around it
(`conformance.models.gradient`), every node through a `NodeExecutor` (the engine is `conformance.models.graphs`).

The default executor is the reference backend (the registry's numpy kernels). `conform --suite onnx-node`
passes the backend under test instead, so a one-op backend runs the node suite's multi-node cases too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import onnx

from conformance.containers import as_value
from conformance.models.feeds import FeedError, check_feeds, with_declared_scalars
from conformance.models.graphs import (
    FunctionKey,
    GraphRun,
    ModelRunError,
    NodeExecutor,
    NodeUnsupported,
    bind_attributes,
    initializer,
    topological_order,
)

__all__ = ["FeedError", "ModelRunError", "ModelRunner", "NodeExecutor", "NodeUnsupported", "bind_attributes",
           "run_model", "topological_order"]


class ModelRunner:
    """A model prepared once and run many times: `ModelRunner(model).run({"x": array})` -> {name: array}."""

    def __init__(self, model: onnx.ModelProto | str | Path, executor: NodeExecutor | None = None) -> None:
        if not isinstance(model, onnx.ModelProto):
            model = onnx.load(str(model))
        self.model = model
        if executor is None:
            from conformance.backends.reference import ReferenceBackend

            executor = ReferenceBackend()
        self.executor = executor
        self.opset_imports = {o.domain: o.version for o in model.opset_import}
        self.functions: dict[FunctionKey, onnx.FunctionProto] = {(f.domain, f.name): f for f in model.functions}
        graph = model.graph
        self.initializers = {t.name: initializer(t) for t in graph.initializer}
        self.input_names = [i.name for i in graph.input if i.name not in self.initializers]
        self.output_names = [o.name for o in graph.output]
        if not self.output_names:
            raise ModelRunError("the model has no graph outputs: there is nothing to compute (an empty or "
                                "truncated file?)")
        self.order = topological_order(graph.node, set(self.initializers) | {i.name for i in graph.input})

    def run(self, feeds: Mapping[str, Any], outputs: Sequence[str] | None = None) -> dict[str, Any]:
        """The graph outputs (or `outputs`) for `feeds`; raises FeedError before any node runs when a feed does not
        fit its declared input (name, type, shape, symbolic dims bound consistently)."""
        feeds = with_declared_scalars(self.model, feeds)
        overriding = {k: v for k, v in feeds.items() if k in self.initializers and k not in self.input_names}
        check_feeds(self.model, {k: v for k, v in feeds.items() if k not in overriding})
        values: dict[str, Any] = {**self.initializers, **{k: as_value(v) for k, v in feeds.items()}}
        GraphRun(self.executor, self.functions).run_nodes(self.model.graph.node, self.order, values,
                                                          self.opset_imports, "", frozenset(self.initializers))
        wanted = list(outputs) if outputs is not None else self.output_names
        absent = [n for n in wanted if n not in values]
        if absent:
            raise ModelRunError(f"graph output(s) {', '.join(absent)} were never computed")
        return {n: values[n] for n in wanted}


def run_model(model: onnx.ModelProto | str | Path, feeds: Mapping[str, Any],
              executor: NodeExecutor | None = None) -> dict[str, Any]:
    """Every graph output of `model` for `feeds`, computed by the reference kernels (or `executor`)."""
    return ModelRunner(model, executor).run(feeds)
