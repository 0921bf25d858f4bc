"""onnx's light models (onnx/backend/test/data/light): the models the validation benches time, by name."""

from __future__ import annotations

from pathlib import Path

import onnx

LIGHT = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"


def light_paths() -> list[Path]:
    """Every light model, in name order."""
    return sorted(LIGHT.glob("light_*.onnx"))


def light_name(path: Path | str) -> str:
    """A light model's name: `bvlc_alexnet` for light_bvlc_alexnet.onnx."""
    return Path(path).stem.removeprefix("light_")
