"""ImageDecoder: the image a 1-D uint8 byte stream encodes, decoded by Pillow, as [height, width, channels] uint8.

RGB and BGR give 3 channels (an image stored with another mode, gray, palette, with alpha, CMYK ..., is converted
to RGB first, its alpha dropped), Grayscale 1 (Pillow's "L" conversion, ITU-R 601-2 luma). A stream Pillow cannot
decode (corrupted, truncated, an unknown format) gives an empty [0, 0, channels] image, as the op's text says.
"""

from __future__ import annotations

import io

import numpy as np

from conformance.kernels.registry import kernel

_CHANNELS = {"RGB": 3, "BGR": 3, "Grayscale": 1}


@kernel("ai.onnx", "ImageDecoder", since=20)
def image_decoder(encoded_stream: np.ndarray, *, pixel_format: str) -> tuple[np.ndarray, ...]:
    import PIL.Image

    if pixel_format not in _CHANNELS:
        raise ValueError(f"ImageDecoder: pixel_format {pixel_format!r} is not RGB, BGR or Grayscale")
    if encoded_stream.ndim != 1 or encoded_stream.dtype != np.uint8:
        raise ValueError(f"ImageDecoder: the stream must be a 1-D uint8 tensor, got {encoded_stream.dtype} "
                         f"{list(encoded_stream.shape)}")
    channels = _CHANNELS[pixel_format]
    try:
        with PIL.Image.open(io.BytesIO(encoded_stream.tobytes())) as image:
            converted = image.convert("L" if pixel_format == "Grayscale" else "RGB")
    # what Pillow raises on a stream it cannot decode: an unknown format (UnidentifiedImageError, an OSError), a
    # truncated or corrupted one (OSError, or the plugins' ValueError, EOFError, SyntaxError); the op's answer to
    # all of them is an empty image
    except (OSError, ValueError, EOFError, SyntaxError):
        return (np.zeros((0, 0, channels), dtype=np.uint8),)
    pixels = np.asarray(converted, dtype=np.uint8).reshape(converted.height, converted.width, channels)
    return (np.ascontiguousarray(pixels[..., ::-1]) if pixel_format == "BGR" else pixels,)
