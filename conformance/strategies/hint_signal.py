"""Hints for the signal ops (DFT, STFT, the cosine windows, MelWeightMatrix) and ImageDecoder.

Their shapes hang on input values (dft_length, frame_step, size ...) and their valid cases on relations the
generic draw cannot see (an RFFT takes real input, a frame fits the signal, the mel edges lie below the Nyquist
frequency), so each hint draws the whole case: first what the op computes (inverse or not, one-sided or not, the
output type), then shapes and the scalar inputs' values that fit it. ImageDecoder's stream is a small random image
that Pillow encodes in a lossless format, so every decoder must give back its exact pixels.
"""

from __future__ import annotations

import io

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import ArrayHint, OpHint, dims
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS
from opset.dtypes import numpy_name


def _scalar(ctx: DrawContext, name: str, value: float) -> np.ndarray:
    """`value` as a 0-D array of input `name`'s element type."""
    element = ctx.element_of(next(p.type for p in ctx.version.inputs if p.name == name))
    return np.asarray(value, dtype=np.dtype(numpy_name(element) or element))


def _set_or_default(draw: DrawFn, ctx: DrawContext, name: str, value: int) -> None:
    """Set attribute `name` on the node, or (half the time) leave it off where `value` is its default."""
    default = ctx.version.attributes[name].default
    if value != default or draw(BOOLEANS):
        ctx.attributes[name] = value


# ---- MelWeightMatrix ------------------------------------------------------------------------------------------

SAMPLE_RATES = [8, 20, 100, 1000, 8000, 16000]
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


def _mel_plan(draw: DrawFn, ctx: DrawContext) -> dict[str, float]:
    """The five scalars, drawn together with the first (the output type is the YAML's `dtype_of`)."""
    bands, length = draw(integers(1, 6)), draw(integers(1, 24))
    rate = draw(st.sampled_from(SAMPLE_RATES))
    for _ in range(8):  # edges that leave the bins to no rounding (almost every draw does)
        high = draw(integers(0, GRID))
        low = draw(integers(0, high))
        edges = (rate / 2 * low / GRID, rate / 2 * high / GRID)
        if _clear_of_bin_edges(bands, length, rate, *edges):
            break
    plan = {"num_mel_bins": bands, "dft_length": length, "sample_rate": rate, "lower_edge_hertz": edges[0],
            "upper_edge_hertz": edges[1]}
    ctx.scratch["mel"] = plan
    return plan


def _mel_value(name: str) -> ArrayHint:
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
        plan = ctx.scratch["mel"] if name != "num_mel_bins" else _mel_plan(draw, ctx)
        return _scalar(ctx, name, plan[name])

    return build


# the first input's value draws all five (the inputs' values are drawn in their order)
MEL_HINT = OpHint(values={n: _mel_value(n) for n in ("num_mel_bins", "dft_length", "sample_rate", "lower_edge_hertz",
                                                     "upper_edge_hertz")})


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
