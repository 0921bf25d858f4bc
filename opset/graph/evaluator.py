"""The interface through which eager mode (and `opset.tmfile`'s constant folding) has one node evaluated.

`opset` sits below the reference kernels and conform's backend adapters in the layers (docs/architecture.md) and
never names them: a package that can evaluate nodes declares an `EvaluatorProvider` under the entry-point group
`opset.evaluators` (this project's `conformance` declares `reference`, its kernels behind conform's adapter), and
eager mode asks the provider for its default evaluator, or to adapt a backend a user hands `set_evaluator`.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Protocol

EVALUATOR_GROUP = "opset.evaluators"
DEFAULT_PROVIDER = "reference"  # the entry point eager mode uses


@dataclass(frozen=True)
class NodeCall:
    """One node to evaluate: the serialized NodeProto, its input values (None: an omitted optional input), the opset
    imports it resolves in, and what the registry says of it and its outputs."""

    node_bytes: bytes
    inputs: list[Any]
    opset_imports: dict[str, int]
    output_dtypes: list[str | None]  # numpy dtype names of the outputs (a container's type text), None: unknown
    domain: str  # registry domain
    op: str
    version: int
    dtypes: list[str]  # the element types of the inputs
    output_shapes: list[Any] | None = None  # the outputs' shapes where the registry computes them


class Evaluator(Protocol):
    def run(self, call: NodeCall) -> list[Any]:
        """The node's outputs, in order."""
        ...


class EvaluatorProvider(Protocol):
    def default(self) -> Evaluator:
        """The evaluator eager mode uses unless told otherwise."""
        ...

    def adapt(self, backend: object, name: str) -> Evaluator:
        """`backend` (any object the provider knows how to call) as an evaluator; ValueError when it is none."""
        ...


class NoEvaluator(RuntimeError):
    """No package has declared an evaluator provider (or the declared one cannot be loaded)."""


def provider() -> EvaluatorProvider:
    """The provider declared as `reference` under `opset.evaluators`."""
    found = [ep for ep in entry_points(group=EVALUATOR_GROUP) if ep.name == DEFAULT_PROVIDER]
    if not found:
        raise NoEvaluator(f"eager mode needs a node evaluator: no package declares '{DEFAULT_PROVIDER}' under the "
                          f"entry-point group '{EVALUATOR_GROUP}' (this project's conformance does: run "
                          f"`pip install -e .` in the checkout so its entry points are installed)")
    try:
        loaded: EvaluatorProvider = found[0].load()
    except ImportError as e:
        raise NoEvaluator(f"eager mode's evaluator '{found[0].value}' cannot be loaded: {e}") from e
    return loaded
