"""Bounds that keep a formula's evaluation cheap, and the step budget that enforces them."""

from __future__ import annotations

from opset.formula.errors import FormulaError

MAX_STEPS = 1_000_000
MAX_LIST_LENGTH = 100_000
MAX_RANGE_LENGTH = 100_000
MAX_INT_MAGNITUDE = 2**256
MAX_EXPONENT = 64


class Budget:
    """Counts evaluation steps (node visits and element-wise work) for one evaluate call."""

    __slots__ = ("steps",)

    def __init__(self) -> None:
        self.steps = 0

    def charge(self, steps: int = 1) -> None:
        self.steps += steps
        if self.steps > MAX_STEPS:
            raise FormulaError(f"evaluation takes more than {MAX_STEPS} steps")


def check_length(length: int, what: str) -> None:
    if length > MAX_LIST_LENGTH:
        raise FormulaError(f"{what} would have {length} elements; the limit is {MAX_LIST_LENGTH}")
