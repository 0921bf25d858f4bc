"""Hints for MelWeightMatrix's edges and ImageDecoder's stream.

MelWeightMatrix's edges lie on sixteenths of the Nyquist frequency and clear of every bin boundary, which the mel
scale's logarithm decides (the other scalars and the output type come from the YAML). ImageDecoder's stream is a
small random image that Pillow encodes in a lossless format, so every decoder must give back its exact pixels.
"""

from __future__ import annotations

import io

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import OpHint, dims
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS
from opset.dtypes import numpy_name


def _scalar(ctx: DrawContext, name: str, value: float) -> np.ndarray:
    """`value` as a 0-D array of input `name`'s element type."""
    element = ctx.element_of(next(p.type for p in ctx.version.inputs if p.name == name))
    return np.asarray(value, dtype=np.dtype(numpy_name(element) or element))


# ---- MelWeightMatrix ------------------------------------------------------------------------------------------

GRID = 16  # the edges lie on sixteenths of the Nyquist frequency: exact in float16 for every rate above


def _mel(hertz: float) -> float:
    return float(2595 * np.log10(1 + hertz / 700))


def _clear_of_bin_edges(bands: int, length: int, rate: int, low: float, high: float) -> bool:
    """Whether every filter point falls clear of a bin boundary: where (length + 1) * f / rate is about an integer,
    the precision an implementation computes in (float in onnxruntime, double here) decides the bin."""
    mels = _mel(low) + np.arange(bands + 2) * (_mel(high) - _mel(low)) / (bands + 2)
    position = (length + 1) * 700 * (10 ** (mels / 2595) - 1) / rate
    off = np.abs(position - np.rint(position))
    return bool(np.all((off > 1e-3) | (position == 0)))


def _mel_edges(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """Both edges, drawn with the lower one after the YAML drew num_mel_bins, dft_length and sample_rate (the
    inputs' values are drawn in their order): on sixteenths of the Nyquist frequency, clear of the bin boundaries."""
    bands, length, rate = (int(np.asarray(ctx.arrays[n]).item()) for n in ("num_mel_bins", "dft_length", "sample_rate"))
    for _ in range(8):  # edges that leave the bins to no rounding (almost every draw does)
        high = draw(integers(0, GRID))
        low = draw(integers(0, high))
        edges = (rate / 2 * low / GRID, rate / 2 * high / GRID)
        if _clear_of_bin_edges(bands, length, rate, *edges):
            break
    ctx.scratch["mel_upper"] = edges[1]
    return _scalar(ctx, "lower_edge_hertz", edges[0])


def _mel_upper(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    return _scalar(ctx, "upper_edge_hertz", ctx.scratch["mel_upper"])


MEL_HINT = OpHint(values={"lower_edge_hertz": _mel_edges, "upper_edge_hertz": _mel_upper})


# ---- ImageDecoder ---------------------------------------------------------------------------------------------

# lossless formats and the Pillow modes each of them stores: a decoder must give back these exact pixels
IMAGE_FORMATS = {"PNG": ("L", "RGB", "RGBA", "P"), "BMP": ("L", "RGB", "P"), "TIFF": ("L", "RGB", "RGBA"),
                 "PPM": ("L", "RGB")}
_BANDS = {"L": 1, "P": 1, "RGB": 3, "RGBA": 4}


def _encoded_image(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    import PIL.Image

    fmt = draw(st.sampled_from(sorted(IMAGE_FORMATS)))
    mode = draw(st.sampled_from(IMAGE_FORMATS[fmt]))
    height, width = dims(draw, 2, 2 * ctx.max_side)
    rng = np.random.default_rng(draw(SEEDS))
    bands = _BANDS[mode]
    pixels = rng.integers(0, 256, size=(height, width, bands) if bands > 1 else (height, width), dtype=np.uint8)
    if mode == "P":  # 16 palette entries of random colours
        image = PIL.Image.frombytes("P", (width, height), (pixels % 16).tobytes())
        image.putpalette(rng.integers(0, 256, size=16 * 3, dtype=np.uint8).tobytes())
    else:  # Pillow reads the mode off the array: L, RGB or RGBA
        image = PIL.Image.fromarray(pixels)
    buffer = io.BytesIO()
    image.save(buffer, format=fmt)
    return np.frombuffer(buffer.getvalue(), dtype=np.uint8).copy()


def _pixel_format(draw: DrawFn, ctx: DrawContext) -> object:
    from conformance.strategies.attributes import OMIT

    fmt = draw(st.sampled_from(["RGB", "BGR", "Grayscale"]))
    return OMIT if fmt == "RGB" and draw(BOOLEANS) else fmt


IMAGE_DECODER_HINT = OpHint(attributes={"pixel_format": _pixel_format}, values={"encoded_stream": _encoded_image})
