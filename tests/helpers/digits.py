"""Handwriting-like digit images drawn from strokes (Pillow), reproducibly: for checking digit classifiers such as
`mnist.tmfile` without a data set. A digit is a few polylines on a 20x20 box centred in a 28x28 frame, white on
black, as MNIST's digits are."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

# each digit: polylines of (x, y) points on a 0..20 box (y down)
STROKES: dict[int, list[list[tuple[float, float]]]] = {
    0: [[(10, 1), (5, 3), (3, 10), (5, 17), (10, 19), (15, 17), (17, 10), (15, 3), (10, 1)]],
    1: [[(7, 4), (11, 1), (11, 19)]],
    2: [[(3, 5), (6, 1.5), (12, 1), (16, 4), (15, 9), (3, 19), (17, 19)]],
    3: [[(3, 2), (14, 1), (16, 5), (9, 9), (16, 13), (15, 18), (3, 19)]],
    4: [[(13, 19), (13, 1), (2, 13), (18, 13)]],
    5: [[(16, 1), (5, 1), (4, 9), (12, 8), (16, 12), (14, 18), (3, 19)]],
    6: [[(15, 1), (7, 5), (4, 12), (6, 18), (12, 19), (16, 14), (12, 10), (5, 12)]],
    7: [[(3, 2), (17, 1), (12, 9), (9, 19)]],
    8: [[(10, 10), (4, 6), (6, 1.5), (14, 1.5), (16, 6), (10, 10), (4, 14), (6, 19), (14, 19), (16, 14), (10, 10)]],
    9: [[(15, 8), (10, 10), (4, 7), (6, 2), (12, 1), (15, 5), (15, 10), (13, 19)]],
}


def digit_image(digit: int, width: float = 2.6) -> np.ndarray:
    """The digit as float32 [28, 28] in [0, 1], drawn 4x larger then downsampled (antialiased strokes)."""
    scale = 4
    img = Image.new("L", (28 * scale, 28 * scale), 0)
    draw = ImageDraw.Draw(img)
    for line in STROKES[digit]:
        points = [((x + 4) * scale, (y + 4) * scale) for x, y in line]
        draw.line(points, fill=255, width=round(width * scale), joint="curve")
        for px, py in (points[0], points[-1]):
            r = width * scale / 2
            draw.ellipse((px - r, py - r, px + r, py + r), fill=255)
    small = img.filter(ImageFilter.GaussianBlur(scale / 2)).resize((28, 28), Image.Resampling.LANCZOS)
    return np.clip(np.asarray(small, dtype=np.float32) / 255.0, 0.0, 1.0)


# the mean and standard deviation of MNIST's training pixels, the normalisation MNIST nets are trained with
MNIST_MEAN = 0.1307
MNIST_STD = 0.3081


def mnist_input(digit: int) -> np.ndarray:
    """The digit as a normalised float32 [1, 1, 28, 28] input of an MNIST net."""
    return ((digit_image(digit) - MNIST_MEAN) / MNIST_STD).astype(np.float32)[None, None]
