"""A Tengine node's parameters as the op's attributes: what Tengine itself makes of the block it reads.

The block is today's struct (`tengine.layout`, or a shorter prefix an older writer stored) or an older writer's
struct recognised by its size (`tengine.older_layouts`, `Node.older_layout`), whose `attributes` formulas give the
attributes from its own fields (Reshape's TM2_ReshapeParam_V1 of four dims becomes `re_shape`). A field marked `flag`
is only tested for nonzero by Tengine, so any nonzero value is 1: older writers left some of them uninitialised
(a Caffe Slice's `ismxnet` holding 32537), which `flag_problems` reports so a validator can warn.
"""

from __future__ import annotations

from typing import Any

from opset.formula import FormulaError
from opset.model import BinaryField, OpVersion


def node_fields(node_older: int | None, version: OpVersion) -> tuple[BinaryField, ...]:
    """The fields of the struct the node's block was read with."""
    assert version.tengine is not None
    if node_older is None:
        return version.tengine.layout
    return version.tengine.older_layouts[node_older].fields


def attribute_values(params: dict[str, Any], node_older: int | None, version: OpVersion, *,
                     as_read: bool = True) -> dict[str, Any]:
    """The attributes the stored fields give, by attribute name (an absent field or vector is left out: the
    attribute's default applies); flags made 0 or 1 (`as_read`: as Tengine reads them; else as stored). A formula
    of an older layout that cannot be evaluated on the stored fields raises FormulaError."""
    assert version.tengine is not None
    fields = node_fields(node_older, version)
    stored = {f.name: _flag(params[f.name]) if as_read and f.flag and params.get(f.name) is not None
              else params.get(f.name) for f in fields}
    out: dict[str, Any] = {}
    if node_older is not None:
        older = version.tengine.older_layouts[node_older]
        for name, formula in older.attributes.items():
            if all(stored.get(n) is not None for n in formula.names):
                out[name] = formula.evaluate(stored)
    for f in fields:
        name = f.attribute or f.name
        if name in out or name not in version.attributes or stored.get(f.name) is None:
            continue
        out[name] = stored[f.name]
    return {name: out[name] for name in version.attributes if name in out}


def flag_problems(params: dict[str, Any], node_older: int | None, version: OpVersion) -> list[tuple[str, Any]]:
    """(field, stored value) for every flag field that holds something else than 0 or 1."""
    return [(f.name, params[f.name]) for f in node_fields(node_older, version)
            if f.flag and isinstance(params.get(f.name), int) and params[f.name] not in (0, 1)]


def _flag(value: Any) -> Any:
    return (1 if value else 0) if isinstance(value, int) else value


__all__ = ["FormulaError", "attribute_values", "flag_problems", "node_fields"]
