"""Validation profiles: how a model's domains map onto registry domains.

A model written by a particular converter may put ops in a domain other than the registry's
(the seed-000 converter writes its modified ops into the default domain). A profile says, for a
model domain, which registry domain to resolve its ops in and, optionally, at which opset.
All profiles live in the one table `PROFILES`.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class DomainMapping:
    registry_domain: str
    opset: int | None = None  # None: the model's imported version
    # registry domains whose versions join `registry_domain`'s: a node resolves to the newest version found in any of
    # them (the largest `since` not above the opset, each domain read at most at its own newest opset)
    also: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, eq=False)  # compared and hashed by identity: validation keys caches by it
class Profile:
    name: str
    description: str
    domains: dict[str, DomainMapping] = field(default_factory=dict)

    def map(self, model_domain: str, imported: int) -> tuple[str, int]:
        """(registry domain, opset) for a node of `model_domain` under an import of version `imported`."""
        mapping = self.domains.get(model_domain)
        if mapping is None:
            return model_domain, imported
        return mapping.registry_domain, imported if mapping.opset is None else mapping.opset

    def also(self, model_domain: str) -> tuple[str, ...]:
        """The further registry domains a node of `model_domain` may resolve in (`DomainMapping.also`)."""
        mapping = self.domains.get(model_domain)
        return mapping.also if mapping is not None else ()


_MODIFIED = DomainMapping("ai.onnx.modified", 1)
_ORT_DEFAULT = DomainMapping("ai.onnx", None, ("ai.onnx.ort",))

PROFILES: dict[str, Profile] = {
    "default": Profile("default", "model domains are registry domains ('' is ai.onnx)"),
    "seed000": Profile(
        "seed000",
        "models of the seed-000 TensorFlow-to-ONNX converter fork: the default domain holds "
        "ai.onnx.modified ops (Relu6, Add_, Dense ...) next to the standard ones, which resolve through "
        "ai.onnx at opset 7",
        {"": _MODIFIED, "ai.onnx": _MODIFIED},
    ),
    "onnxruntime": Profile(
        "onnxruntime",
        "what onnxruntime loads: a default-domain node resolves in ai.onnx and in ai.onnx.ort (the ops onnxruntime "
        "registers there beyond onnx's opsets: Affine, Crop, ImageScaler, LayerNormalization-1 ...), the newer "
        "version of the two; com.ms.internal.nhwc (its channels-last layout ops) is a registry domain of its own",
        {"": _ORT_DEFAULT, "ai.onnx": _ORT_DEFAULT},
    ),
}


class UnknownProfileError(LookupError):
    pass


def get_profile(name: str | None) -> Profile:
    if name is None:
        return PROFILES["default"]
    if name not in PROFILES:
        known = ", ".join(sorted(PROFILES))
        raise UnknownProfileError(f"unknown profile '{name}' (known: {known})")
    return PROFILES[name]
