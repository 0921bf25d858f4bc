"""The Tengine conversion table: for each Tengine op, what `opset convert` makes of it in each direction.

Computed from each op's `maps_to` (the same records the converter reads), so the table cannot drift from the
converter: `.tmfile -> ONNX` lists the ai.onnx ops a mapping and its alternatives write (follow-ups after a `+`,
a folded op as a constant); `ONNX -> .tmfile` the ai.onnx ops the reverse reading takes back into this op (a
mapping that folds, repeats per output or targets another domain is not read backwards); the reason is the op's
or the mapping's `unmapped` text where a direction is missing or partial.
"""

from __future__ import annotations

from dataclasses import dataclass

from opset.model import MapsTo, OpVersion
from opset.registry import Registry
from opset.tmfile.onnx_reverse import reversible


@dataclass(frozen=True, slots=True)
class ConversionRow:
    version: OpVersion
    to_onnx: tuple[str, ...]  # one text per mapping tried, in order ("Conv + Relu / Clip", "constant (folded)")
    from_onnx: tuple[str, ...]  # ai.onnx ops the reverse reading makes into this op
    why_not: str  # why a node of this op (or of some attribute values) has no ai.onnx form


def _written(mapping: MapsTo) -> str:
    if mapping.fold:
        return "constant (folded)"
    follow = sorted({f.op for f in mapping.then})
    text = mapping.op + (" + " + " / ".join(follow) if follow else "")
    return text + (" per output" if mapping.per_output else "")


def conversion_rows(registry: Registry) -> list[ConversionRow]:
    """One row per Tengine op (its newest version), by name."""
    rows = []
    for (domain, _name), op in sorted(registry.ops.items()):
        if domain != "tengine":
            continue
        version = op.versions[-1]
        mappings = (version.maps_to, *version.maps_to.alternatives) if version.maps_to is not None else ()
        reverse = sorted({m.op for m in mappings if reversible(m)})
        partial = next((m.unmapped for m in mappings if m.unmapped), "")
        rows.append(ConversionRow(version, tuple(dict.fromkeys(_written(m) for m in mappings)), tuple(reverse),
                                  version.unmapped or partial))
    return rows
