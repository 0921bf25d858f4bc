"""MemcpyFromHost and MemcpyToHost (onnxruntime's default domain): the copies its execution providers insert between
device and host memory; the values pass unchanged."""

from __future__ import annotations

from typing import Any

from conformance.kernels.registry import kernel


@kernel("ai.onnx.ort", "MemcpyFromHost", since=1, exact_types=True)
def memcpy_from_host(x: Any) -> tuple[Any, ...]:
    return (x.copy() if hasattr(x, "copy") else list(x),)


@kernel("ai.onnx.ort", "MemcpyToHost", since=1, exact_types=True)
def memcpy_to_host(x: Any) -> tuple[Any, ...]:
    return (x.copy() if hasattr(x, "copy") else list(x),)
