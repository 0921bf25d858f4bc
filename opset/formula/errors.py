"""The two exceptions a formula can raise: a bad formula, or an answer that needs unknown facts."""

from __future__ import annotations


class FormulaError(Exception):
    """The formula text is not in the language, or evaluating it failed (wrong types, a bound exceeded).

    ``column`` is the 1-based character position in ``text`` when known.
    """

    def __init__(self, message: str, *, text: str | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.text = text
        self.column = column

    def with_text(self, text: str) -> FormulaError:
        """A copy that knows the formula text (evaluation errors learn it at the API boundary)."""
        return FormulaError(self.message, text=text, column=self.column)

    def __str__(self) -> str:
        if self.text is None:
            return self.message
        where = f" at column {self.column}" if self.column is not None else ""
        return f"{self.message}{where} in formula {self.text!r}"


class Undecided(Exception):
    """Evaluation needs something unknown: an undecidable symbolic comparison or unknown input values."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
