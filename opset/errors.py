"""The project's error types: every user-facing problem carries a place (file:line, op, node)."""

from __future__ import annotations

from dataclasses import dataclass

from opset.frozen import Record


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Problem(Record):
    """One located problem in a registry file."""

    file: str
    line: int | None
    op: str | None
    message: str

    def __str__(self) -> str:
        place = f"{self.file}:{self.line}" if self.line else self.file
        return one_line(f"{place}: {self.op}: {self.message}" if self.op else f"{place}: {self.message}")


def one_line(text: str) -> str:
    """`text` with every character that would start a new line (newlines, other control characters, the Unicode
    line and paragraph separators) written as an escape: a name taken from a file prints as one line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " else c.encode("unicode_escape").decode("ascii") for c in text)


class RegistryError(Exception):
    """The registry could not be loaded; `problems` lists every problem found, in file order."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems, key=lambda p: (p.file, p.line or 0, p.message))
        super().__init__("\n".join(str(p) for p in self.problems))


class ResolutionError(LookupError):
    """An op or domain cannot be resolved at the requested opset."""
