"""String tensors for the strategies: numpy object arrays of Python str, reproducible from a seed.

An array is filled from a small vocabulary drawn first, so values repeat (Unique, Equal, Where and the string
ops' stop words meet equal strings) and the vocabulary mixes what string kernels get wrong: short ASCII words in
both cases, the empty string, spaces, digits and punctuation, and some non-ASCII text (accented Latin, Greek,
Cyrillic, CJK, an astral-plane symbol) whose UTF-8 takes more than one byte per character.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

ASCII_LOWER = "abcdefghijklmnopqrstuvwxyz"
ASCII_UPPER = ASCII_LOWER.upper()
DIGITS = "0123456789"
PUNCTUATION = " -_.,:;!?'@#/"
# non-ASCII letters with case (Latin-1, Latin Extended, Greek, Cyrillic), letters without case (CJK) and one
# astral-plane symbol (four UTF-8 bytes, two UTF-16 units)
NON_ASCII = "éÉüÜßñÑøØłŁαΑβΒωΩжЖяЯ中文字\U0001f600"
ALPHABETS = {
    "ascii": ASCII_LOWER + ASCII_UPPER,
    "word": ASCII_LOWER + ASCII_UPPER + DIGITS + PUNCTUATION,
    "text": ASCII_LOWER + ASCII_UPPER + DIGITS + PUNCTUATION + NON_ASCII,
}


def _string_array(values: Sequence[str], shape: Sequence[int]) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out.reshape(tuple(int(d) for d in shape))


def random_word(rng: np.random.Generator, alphabet: str, min_length: int = 0, max_length: int = 6) -> str:
    length = int(rng.integers(min_length, max_length + 1))
    return "".join(alphabet[int(i)] for i in rng.integers(0, len(alphabet), size=length))


def vocabulary(rng: np.random.Generator, size: int, *, alphabet: str = ALPHABETS["text"],
               max_length: int = 6, empty: bool = True) -> list[str]:
    """`size` distinct strings: the empty one (when `empty` and size > 1), the rest drawn from `alphabet`."""
    words: list[str] = [""] if empty and size > 1 else []
    tries = 0
    while len(words) < size:
        word = random_word(rng, alphabet, 1, max_length)
        tries += 1
        if word not in words or tries > 50 * size:
            words.append(word)
    return words


def fill_strings(seed: int, shape: Sequence[int], *, alphabet: str | None = None, max_length: int = 6,
                 vocabulary_size: int | None = None, empty: bool = True) -> np.ndarray:
    """An object array of `shape` whose strings come from a small vocabulary drawn from `seed`.

    Without `alphabet`, one of ASCII letters, ASCII words (digits, spaces, punctuation) or mixed text with
    non-ASCII letters is picked; without `vocabulary_size`, 1 to 6 distinct strings.
    """
    rng = np.random.default_rng(seed)
    chosen = alphabet if alphabet is not None else ALPHABETS[("ascii", "word", "text")[int(rng.integers(0, 3))]]
    size = vocabulary_size if vocabulary_size is not None else int(rng.integers(1, 7))
    words = vocabulary(rng, max(size, 1), alphabet=chosen, max_length=max_length, empty=empty)
    count = int(np.prod([int(d) for d in shape])) if len(shape) else 1
    picks = rng.integers(0, len(words), size=count)
    return _string_array([words[int(i)] for i in picks], shape)


def strings_from(values: Sequence[str], shape: Sequence[int]) -> np.ndarray:
    """An object array of `shape` holding `values` (flat, C order)."""
    return _string_array(values, shape)


FLOAT_TARGETS = ("float16", "float", "double", "bfloat16", "float8e4m3fn", "float8e4m3fnuz", "float8e5m2",
                 "float8e5m2fnuz", "float8e8m0", "float4e2m1", "float6e2m3", "float6e3m2")


def _float_literal(rng: np.random.Generator, long_digits: bool, specials: bool, positive: bool) -> str:
    """A decimal literal Cast reads as a float: plain, scientific or (with `specials`) an infinity or NaN, in any
    case and sign (`positive`: no minus sign, no zero)."""
    kind = int(rng.integers(0 if specials else 1, 8))
    sign = ("", "-", "+")[int(rng.integers(0, 2 if positive else 3))]
    if kind == 0:
        word = ("inf", "INF", "Inf", "infinity", "NaN", "nan", "NAN")[int(rng.integers(0, 7))]
        return ("" if word.lower() == "nan" else sign) + word
    quarters = int(rng.integers(1 if positive else 0, 64))
    whole, part = divmod(quarters, 4)
    if kind == 1:  # scientific: a short mantissa and a small exponent
        mantissa = f"{whole}.{part * 25:02d}".rstrip("0").rstrip(".") if part else str(whole)
        exponent = int(rng.integers(-6, 7))
        return f"{sign}{mantissa}{'eE'[int(rng.integers(0, 2))]}{exponent:+d}"
    if kind == 2:
        return f"{sign}.{part * 25:02d}" if part else f"{sign}{whole}."  # ".25", "5."
    if kind == 3 and long_digits:  # digits past float precision (rounded to the nearest value of the type)
        return f"{sign}{whole}.{int(rng.integers(0, 10**9)):09d}"
    return f"{sign}{whole}.{part * 25:02d}" if part else f"{sign}{whole}"


def _integer_literal(rng: np.random.Generator, low: int, high: int) -> str:
    value = int(rng.integers(low, high + 1))
    text = str(abs(value)).zfill(int(rng.integers(1, 4)))  # leading zeros now and then
    sign = "-" if value < 0 else ("", "+")[int(rng.integers(0, 2))]
    return sign + text


def numeric_literals(seed: int, shape: Sequence[int], target: str, low: int = -300, high: int = 300, *,
                     specials: bool = True, positive: bool = False) -> np.ndarray:
    """Strings Cast reads as numbers of `target` (a float type, an integer type within [low, high], or bool), some
    with surrounding whitespace; float literals include infinities and NaN with `specials`, and are all > 0 with
    `positive`."""
    rng = np.random.default_rng(seed)
    count = int(np.prod([int(d) for d in shape])) if len(shape) else 1
    texts = []
    for _ in range(count):
        # narrow floats: no long digit strings, which a backend may round through float32 first (twice) for a tie
        text = _float_literal(rng, target in ("float", "double"), specials, positive) if target in FLOAT_TARGETS \
            else _integer_literal(rng, low, high)
        if rng.integers(0, 6) == 0:
            text = " " * int(rng.integers(0, 2)) + text + "\t" * int(rng.integers(0, 2))
        texts.append(text)
    return _string_array(texts, shape)
