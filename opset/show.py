"""Plain-text rendering of one resolved op version (`opset show`)."""

from __future__ import annotations

from opset.frozen import thaw
from opset.model import Attribute, GraphParam, OpVersion, Param, Status, op_label
from opset.registry import Registry


def render_version(reg: Registry, v: OpVersion, *, asked: tuple[str, int]) -> str:
    domain, opset = asked
    if v.status.state == "removed" and v.status.removed_at_opset is None:
        serves = ", resolves in no opset"
    elif v.status.state == "removed" and v.status.removed_at_opset is not None:
        serves = f", serves opsets {v.since}-{v.status.removed_at_opset - 1}"
    else:
        serves = f", serves opsets {v.since}-{v.last}" if v.last else f", serves opsets {v.since}+"
    lines = [f"{v.signature}   ({v.domain} {v.name}, version {v.since}{serves})"]
    if v.domain != domain:
        ext = reg.domains[domain].extends
        via = f" at opset {ext[1]}" if ext else ""
        lines.append(f"  resolved for {domain} opset {opset} through {v.domain}{via}")
    lines += status_lines(v.status)
    lines.append(f"  {v.summary}")
    if v.changes:
        lines.append(f"  changes: {v.changes}")
    lines.append("")
    lines.append("Attributes:" if v.attributes else "Attributes: none")
    for a in sorted(v.attributes.values(), key=lambda a: a.name):
        lines.append(f"  {_attribute(a)}")
        lines += [f"    {line}" for line in signature_lines(a)]
    lines.append("Inputs:")
    lines += [f"  {_param(p)}" for p in v.inputs] or ["  none"]
    lines.append("Outputs:")
    lines += [f"  {_param(p)}" for p in v.outputs] or ["  none"]
    if v.type_constraints:
        lines.append("Type constraints:")
        lines += [f"  {tc.name}: {', '.join(tc.types)}" for tc in v.type_constraints.values()]
    if v.type_relations:
        lines.append("Type relations:")
        lines += [f"  {name} = {expr}" for name, expr in v.type_relations.items()]
    if v.lets:
        lines.append("Let:")
        lines += [f"  {k} = {formula.text}" for k, formula in v.lets.items()]
    if v.constraints:
        lines.append("Constraints:")
        lines += [f"  {c.id}: {c.expr.text}" + (f"   ({c.message})" if c.message else "") for c in v.constraints]
    if v.readings:
        lines.append("Other readings (where the sources disagree; not errors):")
        for r in v.readings:
            lines.append(f"  {r.id}: when {r.when.text} ({', '.join(r.followed_by)}): {r.note}")
            lines += [f"    {name} = {formula.text}" for name, formula in r.outputs.items()]
    if v.precision:
        lines.append("Precision: " + precision_text(v))
    if v.random:
        drawn = v.random
        args = ", ".join([*(f"{k}={name}" for k, name in drawn.tensors.items()),
                          *(f"{k}={formula.text}" for k, formula in drawn.scalars.items())])
        lines.append(f"Random outputs: {', '.join(drawn.outputs)} drawn from {drawn.law}({args})"
                     + (f" when {drawn.when.text}" if drawn.when is not None else "")
                     + (f"; seeded by {drawn.seed}" if drawn.seed else ""))
    if v.maps_to:
        m = v.maps_to
        attrs = ", ".join(f"{k}={formula.text}" for k, formula in m.attributes.items())
        lines.append(f"Maps to: {op_label(m.domain, m.op, m.opset)}({attrs})" + ("" if m.exact else "  [not exact]"))
    if v.tengine:
        t = v.tengine
        lines.append(f"Tengine: op id {t.op_id}, category {t.category}, param struct {t.param_struct or 'none'}")
        lines.append("  binary layout (in order):")
        for i, f in enumerate(t.layout):
            lines.append(f"    {i:2} {f.name:20} {f.ctype:22} default {thaw(f.default)!r}")
    if v.examples:
        lines.append("Examples: " + ", ".join(e.name for e in v.examples))
    return "\n".join(lines)


def precision_text(v: OpVersion) -> str:
    """`float16/bfloat16 may be computed in the element type; stage one in the type stash_type names ...` (a version
    with a policy); the note follows."""
    p = v.precision
    if p is None:
        return ""
    parts = ["float16/bfloat16 may be computed in the element type" if p.narrow == "element"
             else "float16/bfloat16 in float32 intermediates, rounded once"]
    if p.stash:
        parts.append(f"stage one in the type {p.stash} names, or wider")
    if tuple(p.accumulate) != ("element",):
        parts.append("integer sums in " + " or ".join(p.accumulate))
    return "; ".join(parts) + (f" ({p.note})" if p.note else "")


def status_lines(s: Status) -> list[str]:
    """`status: removed in 1.2; replacement: Gemm` (each fact once) and the status note; nothing for an active op."""
    if s.state == "active":
        return []
    if s.state == "removed":
        when = [f"removed in {s.removed_in}" if s.removed_in else "removed",
                f"from opset {s.removed_at_opset} on" if s.removed_at_opset is not None else ""]
    else:
        when = [s.state, f"since opset {s.since}" if s.since is not None else ""]
    facts = [" ".join(x for x in when if x)] + ([f"replacement: {s.replacement}"] if s.replacement else [])
    return [f"  status: {'; '.join(facts)}"] + ([f"  note: {s.note}"] if s.note else [])


def _attribute(a: Attribute) -> str:
    text = f"{a.name}: {a.type}"
    if a.required:
        text += " (required)"
    elif a.default is not None:
        text += f" = {thaw(a.default)!r}"
    elif a.default_expr is not None:
        text += f" = {a.default_expr.text}"
    else:
        text += " (optional, no default)"
    if a.allowed is not None:
        text += f"  allowed {list(a.allowed)}"
    if a.range is not None:
        text += f"  range [{a.range[0]}, {a.range[1]}]"
    if a.length is not None:
        text += f"  length {a.length.text}"
    return text


def _param(p: Param) -> str:
    text = f"{p.name}: {p.type}"
    flags = [f for f, on in ((p.role, p.role != "data"), ("optional", p.optional),
                             (f"variadic, min {p.min_arity}", p.variadic)) if on]
    if flags:
        text += f" ({'; '.join(flags)})"
    if p.shape is not None:
        text += "  shape [" + ", ".join(str(d) for d in p.shape) + "]"
    if p.formula is not None:
        text += f"  shape = {p.formula.text}" + ("  (data-dependent)" if p.data_dependent else "")
    if p.types is not None:
        text += f"  types = {p.types.text}"
    return text


def signature_lines(a: Attribute) -> list[str]:
    """A graph attribute's signature, one line per side: `graph (inputs) -> (outputs)` spelled out."""
    if a.signature is None:
        return []
    return [f"{side}: " + (", ".join(_graph_param(p) for p in parts) or "none")
            for side, parts in (("graph inputs", a.signature.inputs), ("graph outputs", a.signature.outputs))]


def _graph_param(p: GraphParam) -> str:
    text = f"{p.name}: {p.type}"
    if p.variadic:
        text = f"{text}..." + (f" x {p.count.text}" if p.count is not None else
                               f" (the rest, min {p.min_arity})")
    extra = [f"{key} {f.text}" for key, f in (("shape", p.shape), ("types", p.types)) if f is not None]
    return text + (f" [{'; '.join(extra)}]" if extra else "")
