"""StringNormalizer: drop the elements of X ([C] or [1, C]) that are stop words, then change the case of the rest.

An element is a stop word when it equals one of `stopwords` (is_case_sensitive = 1) or when their lower-case forms
are equal (0). LOWER and UPPER change each character on its own by Unicode's simple case mapping (one character
for one: "ß" stays "ß" in upper case, a final sigma lowers to "σ"), what a UTF-8 locale's towlower/towupper give;
`locale` changes nothing here. When every element is dropped (or X is empty), Y is [""] ([[""]] for [1, C]).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

OP = "StringNormalizer"
_LOWER_SPECIAL = {"\u0130": "i"}  # İ: the one letter whose full lower case is two characters; its simple one is i


class _SimpleCase(dict[int, str]):
    """A `str.translate` table mapping each character to its simple upper or lower case, filled as it is read."""

    def __init__(self, upper: bool) -> None:
        super().__init__()
        self.upper = upper

    def __missing__(self, code: int) -> str:
        char = chr(code)
        mapped = char.upper() if self.upper else char.lower()
        if len(mapped) != 1:  # a full mapping to several characters; the simple one is the title case, if single
            mapped = char.title() if self.upper else _LOWER_SPECIAL.get(char, char)
            mapped = mapped if len(mapped) == 1 else char
        self[code] = mapped
        return mapped


UPPER = _SimpleCase(upper=True)
LOWER = _SimpleCase(upper=False)


def simple_upper(text: str) -> str:
    return text.translate(UPPER)


def simple_lower(text: str) -> str:
    return text.translate(LOWER)


@kernel("ai.onnx", "StringNormalizer", since=10)
def string_normalizer(x: np.ndarray, *, case_change_action: str, is_case_sensitive: int, locale: str | None,
                      stopwords: list[str] | None) -> tuple[np.ndarray, ...]:
    if x.dtype.kind != "O":
        raise ValueError(f"{OP}: X must be a string tensor, got {x.dtype}")
    if not (x.ndim == 1 or (x.ndim == 2 and x.shape[0] == 1)):
        raise ValueError(f"{OP}: X must be [C] or [1, C], got shape {list(x.shape)}")
    if case_change_action not in ("LOWER", "UPPER", "NONE"):
        raise ValueError(f"{OP}: case_change_action must be LOWER, UPPER or NONE, got {case_change_action!r}")
    words = x.reshape(-1).tolist()
    if stopwords:
        if is_case_sensitive:
            stops = set(stopwords)
            words = [w for w in words if w not in stops]
        else:
            stops = {simple_lower(s) for s in stopwords}
            words = [w for w in words if simple_lower(w) not in stops]
    if case_change_action != "NONE":
        change = simple_upper if case_change_action == "UPPER" else simple_lower
        words = [change(w) for w in words]
    if not words:
        words = [""]
    y = np.empty(len(words), dtype=object)
    y[:] = words
    return (y if x.ndim == 1 else y.reshape(1, -1),)
