"""The attribute that states a variadic output's count (Split-18's `num_outputs`), read off the version's constraints.

An op function takes the count as `n_outputs`. Where the op also has an int attribute that must equal it (a
constraint `A == None or A == outputs`, `outputs` the variadic output), the node needs that attribute too unless an
input given instead rules it out (a constraint `(I == None) != (A == None)`, Split's `split` input): the function
writes `A = n_outputs` then, so `Split(x, n_outputs=3)` works as documented without repeating the count.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from opset.formula.nodes import Node
    from opset.model import OpVersion


@dataclass(frozen=True, slots=True)
class CountAttribute:
    attribute: str
    excluded_by: tuple[str, ...]  # input names whose presence means the attribute must stay absent


@functools.cache
def count_attribute(version: OpVersion) -> CountAttribute | None:
    variadic = [p.name for p in version.outputs if p.variadic]
    if len(variadic) != 1:
        return None
    found: str | None = None
    for c in version.constraints:
        name = _equals_when_given(c.expr.tree, variadic[0])
        attr = version.attributes.get(name) if name is not None else None
        if attr is not None and attr.type == "int":
            found = name
    if found is None:
        return None
    inputs = {p.name for p in version.inputs}
    excluded = tuple(sorted(i for c in version.constraints
                            if (i := _exclusive_with(c.expr.tree, found)) is not None and i in inputs))
    return CountAttribute(found, excluded)


def with_count(version: OpVersion, attributes: Mapping[str, Any], inputs: Sequence[Any],
               n_outputs: int) -> dict[str, Any]:
    """`attributes` with the count attribute set to `n_outputs` where the caller left it out and may."""
    counted = count_attribute(version)
    out = dict(attributes)
    if counted is None or counted.attribute in out:
        return out
    given = {p.name for p, x in zip(version.inputs, inputs, strict=False) if x is not None}
    if not given & set(counted.excluded_by):
        out[counted.attribute] = n_outputs
    return out


def _is_none_test(node: Node) -> str | None:
    """`NAME == None` -> NAME."""
    from opset.formula.nodes import Compare, Const, Name

    if (isinstance(node, Compare) and node.ops == ("==",) and isinstance(node.left, Name)
            and isinstance(node.comparators[0], Const) and node.comparators[0].value is None):
        return node.left.id
    return None


def _equals_when_given(tree: Node, output: str) -> str | None:
    """`A == None or A == output` -> A."""
    from opset.formula.nodes import BoolOp, Compare, Name

    if not (isinstance(tree, BoolOp) and tree.op == "or" and len(tree.values) == 2):
        return None
    name = _is_none_test(tree.values[0])
    second = tree.values[1]
    if (name is not None and isinstance(second, Compare) and second.ops == ("==",)
            and second.left == Name(name) and second.comparators[0] == Name(output)):
        return name
    return None


def _exclusive_with(tree: Node, attribute: str) -> str | None:
    """`(I == None) != (attribute == None)` (either order) -> I."""
    from opset.formula.nodes import Compare

    if not (isinstance(tree, Compare) and tree.ops == ("!=",)):
        return None
    names = [_is_none_test(tree.left), _is_none_test(tree.comparators[0])]
    if attribute in names and None not in names:
        other = [n for n in names if n != attribute]
        return other[0] if other else None
    return None
