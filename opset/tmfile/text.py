"""Text read from a `.tmfile` as messages, terminals, JSON and ONNX take it."""

from __future__ import annotations


def clean_text(text: str | None) -> str | None:
    """A name as ONNX and a terminal take it: bytes that were not UTF-8 (kept by the reader as surrogates) are
    written as `\\xNN` escapes."""
    if text is None:
        return None
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape" if _only_escapes(text) else "backslashreplace") \
            .decode("utf-8", "backslashreplace")


def _only_escapes(text: str) -> bool:
    return all(not 0xD800 <= ord(c) <= 0xDFFF or 0xDC80 <= ord(c) <= 0xDCFF for c in text)
