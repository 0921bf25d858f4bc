"""This project behind the candidate hooks of ../shared/anchor-bench's scripts, so the anchors' own scripts time it
beside onnx and onnxruntime in one run (their `example_candidate.py` states each contract).

From ../shared/anchor-bench, with this checkout's virtual environment active:

  export PYTHONPATH=<checkout>/bench:<checkout>
  python bench_validation.py  --candidate anchor_candidate:validate        # opset.validate.check_model
  python bench_schema_load.py --candidate anchor_candidate:load_registry   # import + every op version built
  python bench_kernels.py     --candidate anchor_candidate:kernel          # the reference kernels
  python bench_node_suite.py  --candidate anchor_candidate:backend         # the model runner (conformance.models)
  python bench_node_suite.py  --candidate-kernel anchor_candidate:kernel   # the kernels, node by node

`validate` raises `Rejected` when validation reports an error, as the contract asks. The anchor times repeated calls
on one loaded model, and its contract asks a hook that keeps results across calls to forget them before each call:
`validate` calls `opset.validate.forget_outcomes()` first, so each figure is a model's first validation in a warm
process (issue 26; compiled formulas and resolved versions stay, as onnx's schemas do). `bench/validate.py` prints
that figure (`fresh_ms`) beside the first call in the process and a model validated again.

`kernel` resolves a node's attributes once per attributes and input shapes, as onnxruntime does when it builds the
session the anchor times apart. The anchor times onnxruntime in back-to-back loops of at least 20 ms but a candidate
one call at a time, each right after onnxruntime's loop: the candidate's arrays are then out of cache, which
here made a call 1.4-2x slower than the same call repeated (MaxPool 0.49 -> 0.71-0.83 ms, Transpose 0.31 -> 0.65
ms). `bench/kernels.py` times every side in loops, as onnxruntime is timed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # onnx is not imported for the registry load: the anchor times that import against onnx's side
    import onnx

_DEFAULT_OPSET = 18  # the anchor's kernel cases are opset-18 nodes; a call without `opset` means that


class Rejected(Exception):
    """The model has errors: the first few, one a line."""


def validate(model: onnx.ModelProto) -> str:
    """Validate the model against the registry; raise `Rejected` naming its errors, else return "ok"."""
    from opset.validate import check_model, forget_outcomes

    forget_outcomes()  # the contract: what the hook measures is a model not seen before
    errors = [d for d in check_model(model).diagnostics if d.is_error]
    if errors:
        shown = "\n".join(str(d) for d in errors[:5])
        more = f"\n... and {len(errors) - 5} more" if len(errors) > 5 else ""
        raise Rejected(f"{len(errors)} error(s):\n{shown}{more}")
    return "ok"


def load_registry() -> Any:
    """The registry with every op version built (anything with len(): its op versions are counted)."""
    from opset.load import load_registry as load

    registry = load()
    return [version for op in registry.ops.values() for version in op.versions]


def kernel(op_type: str, attrs: Mapping[str, Any], inputs: Sequence[Any], *, domain: str = "",
           opset: int | None = None, n_out: int | None = None) -> list[Any]:
    """One op on numpy inputs through the reference backend's kernels (`reference_outputs`): the registry version
    that `opset` of `domain` resolves to, every attribute resolved as the reference backend resolves it (given,
    default or default formula). `n_out`: how many outputs the node names; when not given, the outputs the version
    requires (at least one), as the anchor's one-output nodes do (MaxPool without Indices, LSTM's Y). A graph
    attribute (an onnx GraphProto) runs on the reference backend, seeing no value from outside the node: the
    kernel contract passes none."""
    from conformance.backends.protocol import Unsupported
    from conformance.backends.reference import reference_outputs
    from conformance.containers import shape_of

    version = _version(domain or "ai.onnx", op_type, opset or _DEFAULT_OPSET)
    # an array's shape as numpy holds it (read per call: shape_of's lists cost what a small kernel does)
    shapes = [x.shape if type(x) is np.ndarray else shape_of(x) for x in inputs]
    wanted = n_out if n_out is not None else max(1, sum(not p.optional for p in version.outputs))
    try:
        return list(reference_outputs(version, list(inputs), _resolved(version, attrs, shapes), wanted))
    except Unsupported as e:  # the contract's word for "cannot run this op"
        raise NotImplementedError(str(e)) from e


@functools.cache
def _version(domain: str, op_type: str, opset: int) -> Any:
    """The registry version the op resolves to, looked up once (the anchor times each call); an op the registry
    does not have at that opset is one the candidate cannot run (the contract's NotImplementedError)."""
    from opset.errors import ResolutionError
    from opset.graph.check import registry

    try:
        return registry().resolve(domain, op_type, opset)
    except ResolutionError as e:
        raise NotImplementedError(str(e)) from e


_RESOLVED: dict[tuple[int, str, str], dict[str, Any]] = {}


def _resolved(version: Any, attrs: Mapping[str, Any], shapes: list[Any]) -> dict[str, Any]:
    """Every attribute of the node resolved as the reference backend resolves a node's, once per attributes and
    input shapes (an array's as its tuple, a container's as `shape_of` gives it) when the attributes are plain
    numbers and strings: what onnxruntime does when it builds a session, which the anchor times apart from its
    runs."""
    from conformance.strategies.attributes import node_values
    from opset.infer import resolve_attributes

    plain = all(_is_plain(v) for v in attrs.values())
    key = (id(version), repr(sorted(attrs.items())), repr(shapes)) if plain else None
    found = _RESOLVED.get(key) if key is not None else None
    if found is None:
        listed = [list(s) if isinstance(s, tuple) else s for s in shapes]
        found = node_values(resolve_attributes(version, dict(attrs), listed))
        if key is not None:
            _RESOLVED[key] = found
    return found


def _is_plain(value: Any) -> bool:
    """A number, a string, or a list of them: its repr is the whole value (a numpy array's is not)."""
    if isinstance(value, list | tuple):
        return all(isinstance(v, int | float | str | bytes) for v in value)
    return isinstance(value, int | float | str | bytes)


def backend(model: onnx.ModelProto) -> Callable[[dict[str, np.ndarray]], list[np.ndarray]]:
    """A whole model on the reference kernels (`conformance.models.ModelRunner`): feeds -> the graph's outputs."""
    from conformance.models import ModelRunner

    runner = ModelRunner(model)
    return lambda feeds: list(runner.run(feeds).values())
