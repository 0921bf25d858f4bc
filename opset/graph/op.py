"""What every generated op function of `opset.ops` does when called, in one place.

A generated function only states its typed signature and its docstring, marks itself with `@op(domain, name,
since)` and hands its arguments to `apply`. Given graph values (`Value`) it writes a node, checks it as `opset
validate` would and returns its output values; given numpy arrays only, it checks the node the same way and
evaluates it (eager mode). Attributes left at None are not given: the node does not write them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

from opset.graph.counts import with_count
from opset.graph.value import Value

if TYPE_CHECKING:
    from opset.model import OpVersion, Param

F = TypeVar("F", bound=Callable[..., Any])
R = TypeVar("R")

SPEC_ATTRIBUTE = "__opset_op__"


@dataclass(frozen=True, slots=True)
class OpRef:
    """Which op version a generated function writes, and the Python names that differ from the registry's."""

    domain: str
    op_type: str
    since: int
    renames: Mapping[str, str]  # Python argument name -> registry name (`global_` -> `global`)

    @property
    def signature(self) -> str:
        from opset.model import op_label

        return op_label(self.domain, self.op_type, self.since)

    def version(self) -> OpVersion:
        from opset.graph.check import registry

        return registry().op(self.domain, self.op_type).version(self.since)


def op(domain: str, op_type: str, since: int, renames: Mapping[str, str] | None = None) -> Callable[[F], F]:
    """Mark a generated function as the op version it writes (`op_ref(fn)` reads it back)."""
    ref = OpRef(domain, op_type, since, dict(renames or {}))

    def mark(fn: F) -> F:
        setattr(fn, SPEC_ATTRIBUTE, ref)
        return fn

    return mark


def op_ref(fn: Callable[..., Any]) -> OpRef:
    """The op version a generated function writes; raises TypeError for any other callable."""
    ref = getattr(fn, SPEC_ATTRIBUTE, None)
    if not isinstance(ref, OpRef):
        raise TypeError(f"{fn!r} is not an op function of opset.ops")
    return ref


def returned_outputs(version: OpVersion) -> tuple[int, ...] | None:
    """Which outputs an op function returns: the required ones, or all when none is required; None for a
    variadic output (the caller says how many with `n_outputs`)."""
    if any(p.variadic for p in version.outputs):
        return None
    required = tuple(i for i, p in enumerate(version.outputs) if not p.optional)
    return required or tuple(range(len(version.outputs)))


def apply(fn: Callable[..., R], arguments: Mapping[str, Any]) -> R:
    """Run the op function `fn` on its own arguments (its `locals()`): a node in graph mode, arrays in eager mode."""
    ref = op_ref(fn)
    version = ref.version()
    given = {ref.renames.get(k, k): v for k, v in arguments.items()}
    n_outputs = given.pop("n_outputs", None)
    inputs: list[Any] = []
    for param in version.inputs:
        got = given.pop(param.name, None)
        if param.variadic:
            inputs.extend(got or ())
        else:
            inputs.append(_parameter_array(version, param, got))
    while inputs and inputs[-1] is None:
        inputs.pop()
    attributes = {k: _plain(v) for k, v in given.items() if v is not None}
    unknown = set(attributes) - set(version.attributes)
    if unknown:
        raise TypeError(f"{version.signature} has no attribute {', '.join(sorted(unknown))}")
    wanted = returned_outputs(version)
    if wanted is None:
        if not isinstance(n_outputs, int) or n_outputs < 1:
            raise TypeError(f"{version.signature}: n_outputs must be a positive int, not {n_outputs!r}")
        wanted = tuple(range(n_outputs))
        attributes = with_count(version, attributes, inputs, n_outputs)
    graph_mode = any(isinstance(x, Value) for x in inputs) or not any(x is not None for x in inputs)
    if graph_mode:
        from opset.graph.graph import write_node

        outputs: tuple[Any, ...] = write_node(version, inputs, attributes, wanted)
    else:
        from opset.graph.eager import evaluate

        outputs = evaluate(version, inputs, attributes, wanted)
    single = returned_outputs(version) is not None and len(wanted) == 1
    return cast(R, outputs[0] if single else outputs)


def _parameter_array(version: OpVersion, param: Param, value: Any) -> Any:
    """A `parameter` input (registry role: Reshape's shape, Slice's starts, TopK's K ...) given as Python numbers
    (`[1, -1]`, `2`) as the numpy array a model would carry: of the input's fixed element type, else of int64 or the
    first integer type its type variable allows. Anything else is passed on as given."""
    if param.role != "parameter" or isinstance(value, bool) or not isinstance(value, list | tuple | int | float):
        return value
    import numpy as np

    from opset.dtypes import numpy_name, tensor_element

    constraint = version.type_constraints.get(param.type)
    allowed = [tensor_element(t) for t in constraint.types] if constraint is not None else [tensor_element(param.type)]
    integers = [e for e in allowed if e is not None and e.startswith(("int", "uint"))]
    element = "int64" if "int64" in allowed else integers[0] if integers else allowed[0]
    name = numpy_name(element) if element is not None else None
    if name is None:
        return value
    return np.asarray(value, dtype=name)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    return value
