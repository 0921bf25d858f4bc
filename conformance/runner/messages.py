"""A backend's words, whole and on one line: what every message conform shows or writes is made of.

A backend's error often spans lines, its first one saying only where it was raised (OpenVINO's "Exception from
src/inference/src/cpp/infer_request.cpp:75:", the cause on the lines below). conform keeps the whole text, its
lines joined by a space, and bounds it (`MESSAGE_LIMIT` characters, a marker saying how much was cut), so the
summary, `case.json`, the report and `--replay` all show the cause.
"""

from __future__ import annotations

MESSAGE_LIMIT = 2000  # characters of a backend's message kept in every place conform shows it
CUT_MARKER = " ... [{count} more characters cut]"


def one_line(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """`text` with every run of whitespace (line breaks included) made one space, at most `limit` characters plus a
    marker saying how many were cut."""
    joined = " ".join(text.split())
    if len(joined) <= limit:
        return joined
    return joined[:limit].rstrip() + CUT_MARKER.format(count=len(joined) - limit)


def exception_text(error: BaseException, limit: int = MESSAGE_LIMIT) -> str:
    """`ValueError: the whole message on one line`, or the type alone when the message is empty or cannot be
    printed (a backend's own `__str__` may raise anything; its type still says what happened)."""
    try:
        text = one_line(str(error), limit)
    except Exception:
        text = ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
