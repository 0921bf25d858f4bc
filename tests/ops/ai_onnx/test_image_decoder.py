"""ImageDecoder: the kernel against onnx.reference and against the pixels a lossless image was made of (RGB, BGR,
luma), for gray, palette and RGBA images too; an undecodable stream; the shape formula against onnx's shape
inference; invalid nodes."""

from __future__ import annotations

import io
from collections.abc import Callable

import numpy as np
import PIL.Image

from tests.helpers import (
    OracleCase,
    Seeded,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
    symbolic_shape,
)

Oracle = str | Callable[[], list[np.ndarray]]
OP = "ImageDecoder"
rand = Seeded(2020)
RGB = rand.ints(0, 256, (5, 7, 3), np.uint8)


def encoded(image: PIL.Image.Image, fmt: str, **options: object) -> np.ndarray:
    buffer = io.BytesIO()
    image.save(buffer, format=fmt, **options)
    return np.frombuffer(buffer.getvalue(), dtype=np.uint8).copy()


def luma(rgb: np.ndarray) -> np.ndarray:
    """ITU-R 601-2 luma L = 0.299 R + 0.587 G + 0.114 B, rounded to nearest."""
    wide = rgb.astype(np.float64)
    return np.floor(wide @ np.array([0.299, 0.587, 0.114]) + 0.5).astype(np.uint8)[..., np.newaxis]


def pixels(y: np.ndarray) -> Callable[[], list[np.ndarray]]:
    return lambda: [y]


def case(stream: np.ndarray, fmt: str | None = None, oracle: Oracle = "ref", id: str = "") -> OracleCase:
    attrs = {} if fmt is None else {"pixel_format": fmt}
    return OracleCase(OP, attrs, [stream], (20,), oracle=oracle, id=id)


PNG, BMP = encoded(PIL.Image.fromarray(RGB), "PNG"), encoded(PIL.Image.fromarray(RGB), "BMP")
GRAY = rand.ints(0, 256, (4, 6), np.uint8)
GRAY_PNG = encoded(PIL.Image.fromarray(GRAY), "PNG")
RGBA = rand.ints(0, 256, (3, 4, 4), np.uint8)
PALETTE = PIL.Image.frombytes("P", (5, 2), bytes(range(10)))
PALETTE.putpalette(rand.ints(0, 256, (30,), np.uint8).tobytes())
PALETTE_RGB = np.asarray(PALETTE.convert("RGB"))
JPEG = encoded(PIL.Image.fromarray(np.repeat(np.repeat(RGB, 4, 0), 4, 1)), "JPEG", quality=90)
CASES = [
    case(PNG, id="png"),
    case(BMP, "BGR", id="bmp_bgr"),
    case(PNG, "Grayscale", id="png_gray"),
    case(JPEG, "RGB", id="jpeg"),
    case(JPEG, "Grayscale", id="jpeg_gray"),
    case(encoded(PIL.Image.fromarray(RGB), "TIFF"), "BGR", id="tiff"),
    case(PNG, oracle=pixels(RGB), id="png_pixels"),
    case(BMP, "BGR", oracle=pixels(RGB[..., ::-1]), id="bmp_bgr_pixels"),
    case(encoded(PIL.Image.fromarray(RGB), "PPM"), "Grayscale", oracle=pixels(luma(RGB)), id="ppm_luma"),
    case(GRAY_PNG, "Grayscale", oracle=pixels(GRAY[..., np.newaxis]), id="gray_png"),
    case(GRAY_PNG, "RGB", oracle=pixels(np.repeat(GRAY[..., np.newaxis], 3, axis=2)), id="gray_png_as_rgb"),
    case(encoded(PIL.Image.fromarray(RGBA), "PNG"), "RGB", oracle=pixels(RGBA[..., :3]), id="rgba_drops_alpha"),
    case(encoded(PALETTE, "PNG"), "BGR", oracle=pixels(PALETTE_RGB[..., ::-1]), id="palette"),
    case(np.frombuffer(b"P6 2 1 255\n" + bytes([255, 0, 10, 0, 128, 255]), np.uint8).copy(), "BGR",
         oracle=pixels(np.array([[[10, 0, 255], [255, 128, 0]]], np.uint8)), id="ppm_by_hand"),
    case(PNG[:40], oracle=pixels(np.zeros((0, 0, 3), np.uint8)), id="truncated"),
    case(np.arange(64, dtype=np.uint8), "Grayscale", oracle=pixels(np.zeros((0, 0, 1), np.uint8)), id="no_image"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 20, [[N]], attrs) for N, attrs in ((10, {}), (300, {"pixel_format": "Grayscale"}))]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


REJECTED = [
    (shape_case(OP, 20, [[5, 2]]), "rank"),
    (shape_case(OP, 20, [[10]], {"pixel_format": "YUV"}), "attr_allowed"),
]


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_the_channels_are_known_before_decoding() -> None:
    assert symbolic_shape(OP, 20, [[100]]) == ["?height", "?width", "3"]
    assert symbolic_shape(OP, 20, [[100]], {"pixel_format": "Grayscale"}) == ["?height", "?width", "1"]


def test_bgr_is_rgb_reversed() -> None:
    rgb = run("ai.onnx", OP, 20, [JPEG], pixel_format="RGB")[0]
    bgr = run("ai.onnx", OP, 20, [JPEG], pixel_format="BGR")[0]
    assert rgb.shape == (20, 28, 3) and np.array_equal(bgr, rgb[..., ::-1])
