"""Which classes each module defines and which it re-exports.

Opset N of a domain defines the ops whose resolved version changed at N and re-exports the rest
from v<N-1>; ops a domain resolves through the domain it extends are re-exported from that domain's
module at the extension opset.
"""

from __future__ import annotations

from dataclasses import dataclass

from gen.ops.naming import class_name, module_name
from gen.ops.spec import ClassSpec, SpecError, class_spec
from opset.model import OpVersion
from opset.registry import Registry


@dataclass(frozen=True)
class ReExport:
    module: str  # relative module path: ".v6" or "..ai_onnx.v7"
    name: str


@dataclass(frozen=True)
class ModulePlan:
    domain: str
    opset: int
    path: str  # relative to the package root: "ai_onnx/v7.py"
    classes: list[ClassSpec]
    reexports: list[ReExport]


def _key(v: OpVersion | None) -> tuple[str, str, int] | None:
    return None if v is None else (v.domain, v.name, v.since)


def plan_domain(registry: Registry, domain: str) -> list[ModulePlan]:
    info = registry.domains[domain]
    module = module_name(info)
    plans = []
    for opset in range(1, info.max_opset + 1):
        classes: list[ClassSpec] = []
        reexports: list[ReExport] = []
        seen: dict[str, str] = {}
        for v in registry.opset_contents(domain, opset):
            name = class_name(v.domain, v.name)
            if name in seen:
                raise SpecError(f"{domain} opset {opset}: class name {name} is taken by both {seen[name]} and "
                                f"{v.signature}; rename one in gen/ops/naming.py")
            seen[name] = v.signature
            before = registry.try_resolve(domain, v.name, opset - 1) if opset > 1 else None
            if _key(before) == _key(v):
                reexports.append(ReExport(f".v{opset - 1}", name))
            elif v.domain != domain:
                reexports.append(ReExport(_foreign_module(registry, domain, v), name))
            else:
                classes.append(class_spec(v, info.node_domain))
        plans.append(ModulePlan(domain, opset, f"{module}/v{opset}.py", classes, reexports))
    return plans


def _foreign_module(registry: Registry, domain: str, v: OpVersion) -> str:
    """The module of the extended domain that holds `v`: the one at the extension's opset."""
    extends = registry.domains[domain].extends
    if extends is None or extends[1] > registry.domains[extends[0]].max_opset:
        raise SpecError(f"{domain}: {v.signature} resolves through no generated module of an extended domain")
    return f"..{module_name(registry.domains[extends[0]])}.v{extends[1]}"
