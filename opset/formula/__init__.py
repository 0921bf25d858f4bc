"""The formula language: a safe Python-expression subset for shapes, constraints and attribute relations.

Text is parsed with ``ast`` and walked over a whitelist into an immutable tree; it is never
``eval``ed. Evaluation works over concrete numbers and over symbolic dims (``Sym``).
"""

from opset.formula.errors import FormulaError, Undecided
from opset.formula.formula import Formula, evaluate, parse
from opset.formula.symbolic import Sym

__all__ = ["Formula", "FormulaError", "Sym", "Undecided", "evaluate", "parse"]
