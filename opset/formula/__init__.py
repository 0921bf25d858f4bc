"""The formula language: a safe Python-expression subset for shapes, constraints and attribute relations.

Text is parsed with ``ast`` and walked over a whitelist into an immutable tree; it is never
``eval``ed. Evaluation works over concrete numbers and over symbolic dims (``Sym``).
"""

from typing import TYPE_CHECKING, Any

from opset.formula.errors import FormulaError, Undecided
from opset.formula.formula import Formula, evaluate, parse

if TYPE_CHECKING:
    from opset.formula.symbolic import Sym


def __getattr__(name: str) -> Any:
    """`Sym` loads on first use (fractions and decimal with it): loading the registry needs no symbolic dims."""
    if name == "Sym":
        from opset.formula.symbolic import Sym

        return Sym
    raise AttributeError(f"module 'opset.formula' has no attribute '{name}'")

__all__ = ["Formula", "FormulaError", "Sym", "Undecided", "evaluate", "parse"]
