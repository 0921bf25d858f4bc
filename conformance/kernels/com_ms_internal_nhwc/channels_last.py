"""com.ms.internal.nhwc: each op is its twin of the same name and version in ai.onnx (com.microsoft for
QLinearAveragePool) with input 0 and output 0 laid out channels last. The kernel transposes input 0 to [N, C, ...],
runs the twin's reference kernel and transposes output 0 (and MaxPool's Indices, which index the same layout) back;
every other input and output keeps the twin's layout. The fused `activation` onnxruntime adds to the first nhwc
version of the pools, convolutions and normalizations (its FusedActivation: Relu, Tanh, Sigmoid, LeakyRelu, Clip,
HardSigmoid, with `activation_params`) is applied to Y; an absent or empty one with no parameters is none.

The twins are one explicit table, `TWINS`: (op, the nhwc versions) -> the twin's domain; a version is served by
the twin's version of the same number (QLinearConvTranspose has no twin: no reference kernel: its op file's
`no_reference_kernel` says why).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from conformance.kernels.registry import find_entry, kernel

DOMAIN = "com.ms.internal.nhwc"

# op -> (its nhwc versions, the twin's domain)
TWINS: dict[str, tuple[tuple[int, ...], str]] = {
    "AveragePool": ((7, 10, 11, 19), "ai.onnx"),
    "BatchNormalization": ((7, 9, 14, 15), "ai.onnx"),
    "Conv": ((1, 11), "ai.onnx"),
    "ConvTranspose": ((1, 11), "ai.onnx"),
    "DepthToSpace": ((1, 11, 13, 28), "ai.onnx"),
    "GlobalAveragePool": ((1,), "ai.onnx"),
    "GlobalLpPool": ((2,), "ai.onnx"),
    "GlobalMaxPool": ((1,), "ai.onnx"),
    "GridSample": ((16, 20), "ai.onnx"),
    "InstanceNormalization": ((6,), "ai.onnx"),
    "LRN": ((1, 13), "ai.onnx"),
    "LpPool": ((11, 18), "ai.onnx"),
    "MaxPool": ((1, 8, 10, 11, 12), "ai.onnx"),
    "MaxUnpool": ((9, 11), "ai.onnx"),
    "QLinearAveragePool": ((1,), "com.microsoft"),
    "QLinearConv": ((10,), "ai.onnx"),
    "Resize": ((11, 13, 18, 19), "ai.onnx"),
    "SpaceToDepth": ((1, 13, 28), "ai.onnx"),
}
_OWN_ATTRIBUTES = ("activation", "activation_params")  # onnxruntime's additions to MaxPool-1
REQUESTED_OUTPUTS = frozenset({"MaxPool"})  # twins registered with requested_outputs (Indices only when asked for)


def _activation(op: str, y: np.ndarray, name: str | bytes | None, params: list[float] | None) -> np.ndarray:
    name = name.decode() if isinstance(name, bytes) else name
    p = list(params or [])
    if not name and not p:  # absent, or empty with no parameters: no fused activation
        return y
    out: np.ndarray
    if name == "Relu":
        out = np.maximum(y, 0)
    elif name == "Tanh":
        out = np.tanh(y)
    elif name == "Sigmoid":
        out = 1 / (1 + np.exp(-y))
    elif name == "LeakyRelu" and len(p) == 1:
        out = np.where(y >= 0, y, y * p[0])
    elif name == "Clip" and len(p) == 2:
        out = np.clip(y, p[0], p[1])
    elif name == "HardSigmoid" and len(p) == 2:
        out = np.clip(y * p[0] + p[1], 0, 1)
    else:
        raise ValueError(f"{DOMAIN}::{op}: activation {name!r} with {len(p)} parameters is none of onnxruntime's "
                         "fused ones")
    return out.astype(y.dtype)


def _first_last(x: np.ndarray) -> np.ndarray:
    """[N, *S, C] -> [N, C, *S]."""
    return np.moveaxis(x, -1, 1)


def _last_first(y: np.ndarray) -> np.ndarray:
    """[N, C, *S] -> [N, *S, C]."""
    return np.ascontiguousarray(np.moveaxis(y, 1, -1))


def channels_last(op: str, since: int, twin_domain: str) -> Callable[..., tuple[Any, ...]]:
    """The kernel of nhwc `op`@`since`: its twin's, between transposes (see the module doc)."""

    def run(*inputs: Any, **attributes: Any) -> tuple[Any, ...]:
        entry = find_entry(twin_domain, op, 1 if twin_domain != "ai.onnx" else since)
        if entry is None:
            raise ValueError(f"{DOMAIN}::{op}@{since}: no twin kernel")
        own = {k: attributes.pop(k) for k in _OWN_ATTRIBUTES if k in attributes}
        wanted = attributes.pop("requested_outputs", None)
        if entry.requested_outputs:  # (MaxPool-1's twin gives Y alone)
            attributes["requested_outputs"] = wanted
        if twin_domain != "ai.onnx":  # QLinearAveragePool: the twin reads channels last itself
            return tuple(entry.fn(*inputs, **attributes))
        x = inputs[0]
        if not isinstance(x, np.ndarray) or x.ndim < 2:
            raise ValueError(f"{DOMAIN}::{op}: input 0 must be [N, *spatial, C], got {getattr(x, 'shape', x)}")
        outputs = list(entry.fn(_first_last(x), *inputs[1:], **attributes))
        outputs[0] = _activation(op, _last_first(outputs[0]), own.get("activation"), own.get("activation_params"))
        if op == "MaxPool" and len(outputs) > 1:  # Indices index the layout Y has
            outputs[1] = _last_first(outputs[1])
        return tuple(outputs)

    run.__name__ = run.__qualname__ = f"{op.lower()}_v{since}"
    return run


for _op, (_versions, _twin) in TWINS.items():
    for _k, _since in enumerate(_versions):
        _until = _versions[_k + 1] - 1 if _k + 1 < len(_versions) else None
        kernel(DOMAIN, _op, since=_since, until=_until, requested_outputs=_op in REQUESTED_OUTPUTS)(
            channels_last(_op, _since, _twin))
