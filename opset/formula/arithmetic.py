"""Arithmetic on formula values: exact rationals, bounded ints, floats, symbolic dims, lists and strings."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from opset.formula import symbolic
from opset.formula.errors import FormulaError, Undecided
from opset.formula.limits import MAX_EXPONENT, MAX_INT_MAGNITUDE, Budget, check_length
from opset.formula.symbolic import Sym, SymbolicNumber

Number = int | float | Fraction


def type_name(value: object) -> str:
    match value:
        case None:
            return "None"
        case bool():
            return "bool"
        case Sym():
            return "symbolic dim"
        case list():
            return "list"
        case tuple():
            return "tuple"
    return type(value).__name__


def is_number(value: object) -> bool:
    return isinstance(value, int | float | Fraction)


def is_sequence(value: object) -> bool:
    return isinstance(value, list | tuple)


def normalise(value: Any) -> Any:
    """A Fraction with denominator 1 becomes an int; ints and fractions beyond 2**256 are refused."""
    if isinstance(value, Fraction):
        if abs(value.numerator) > MAX_INT_MAGNITUDE or value.denominator > MAX_INT_MAGNITUDE:
            raise FormulaError("rational result exceeds 2**256 in magnitude")
        return value.numerator if value.denominator == 1 else value
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT_MAGNITUDE:
        raise FormulaError("integer result exceeds 2**256 in magnitude")
    return value


def exact(value: Number | Sym) -> SymbolicNumber:
    """The exact value of a number next to a symbolic dim (floats become fractions)."""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise FormulaError(f"{value} cannot be combined with a symbolic dim")
        return Fraction(value)
    return int(value) if isinstance(value, bool) else value


def binary(op: str, left: Any, right: Any, budget: Budget) -> Any:
    if op == "+" and is_sequence(left) and is_sequence(right):
        check_length(len(left) + len(right), "concatenated list")
        budget.charge(len(left) + len(right))
        return tuple(left) + tuple(right) if isinstance(left, tuple) and isinstance(right, tuple) else [*left, *right]
    if op == "+" and isinstance(left, str) and isinstance(right, str):
        check_length(len(left) + len(right), "concatenated string")
        return left + right
    if op == "*" and (is_sequence(left) or isinstance(left, str)) and not is_sequence(right):
        return _repeat(left, right, budget)
    if op == "*" and (is_sequence(right) or isinstance(right, str)) and not is_sequence(left):
        return _repeat(right, left, budget)
    if not (is_number(left) or isinstance(left, Sym)) or not (is_number(right) or isinstance(right, Sym)):
        raise FormulaError(f"unsupported operand types for {op}: {type_name(left)} and {type_name(right)}")
    if isinstance(left, Sym) or isinstance(right, Sym):
        return _symbolic_binary(op, exact(left), exact(right))
    return normalise(_numeric_binary(op, left, right))


def _repeat(sequence: Any, count: Any, budget: Budget) -> Any:
    if isinstance(count, Sym):
        raise Undecided(f"cannot repeat a {type_name(sequence)} a symbolic number of times ({count})")
    if not isinstance(count, int):
        raise FormulaError(f"can only repeat a {type_name(sequence)} an int number of times, not {type_name(count)}")
    length = len(sequence) * max(count, 0)
    check_length(length, "repeated " + type_name(sequence))
    budget.charge(length)
    return sequence * count


def _numeric_binary(op: str, left: Number, right: Number) -> Number:
    if op in ("/", "//", "%") and right == 0:
        raise FormulaError("division by zero" if op != "%" else "modulo by zero")
    try:
        match op:
            case "+":
                return left + right
            case "-":
                return left - right
            case "*":
                return left * right
            case "/":
                if isinstance(left, float) or isinstance(right, float):
                    return left / right
                return Fraction(left) / Fraction(right)
            case "//":
                return left // right
            case "%":
                return left % right
            case "**":
                return _power(left, right)
    except OverflowError as error:
        raise FormulaError(f"numeric overflow in {op}") from error
    raise FormulaError(f"unknown operator {op}")


def _checked_exponent(exponent: object) -> int:
    if isinstance(exponent, Sym):
        raise Undecided(f"cannot raise to a symbolic power ({exponent})")
    if not isinstance(exponent, int) or not 0 <= exponent <= MAX_EXPONENT:
        raise FormulaError(f"an exponent must be an int from 0 to {MAX_EXPONENT}, not {exponent!r}")
    return int(exponent)


def _power(base: Number, exponent: Number) -> Number:
    power = _checked_exponent(exponent)
    if isinstance(base, int | Fraction):
        parts = (base.numerator, base.denominator)
        if any((abs(part).bit_length() - 1) * power > 256 for part in parts):
            raise FormulaError(f"{base} ** {power} exceeds 2**256 in magnitude")
    return base**power


def _symbolic_binary(op: str, left: SymbolicNumber, right: SymbolicNumber) -> SymbolicNumber:
    match op:
        case "+":
            return symbolic.add(left, right)
        case "-":
            return symbolic.add(left, symbolic.negate(right))
        case "*":
            return symbolic.multiply(left, right)
        case "/":
            return symbolic.divide(left, right)
        case "//":
            floored: SymbolicNumber = floor_value(symbolic.divide(left, right))
            return floored
        case "%":
            quotient = floor_value(symbolic.divide(left, right))
            return symbolic.add(left, symbolic.negate(symbolic.multiply(right, quotient)))
        case "**":
            power = _checked_exponent(right)
            result: SymbolicNumber = 1
            for _ in range(power):
                result = symbolic.multiply(result, left)
            return result
    raise FormulaError(f"unknown operator {op}")


def unary(op: str, operand: Any) -> Any:
    if isinstance(operand, Sym):
        return operand if op == "+" else symbolic.negate(operand)
    if not is_number(operand):
        raise FormulaError(f"bad operand type for unary {op}: {type_name(operand)}")
    return normalise(-operand if op == "-" else +operand)


def floor_value(value: Any) -> Any:
    return _rounded(value, "floor")


def ceil_value(value: Any) -> Any:
    return _rounded(value, "ceil")


def _rounded(value: Any, function: str) -> Any:
    if isinstance(value, Sym):
        return symbolic.round_to_integer(value, function)
    if not is_number(value):
        raise FormulaError(f"{function}() needs a number, not {type_name(value)}")
    try:
        return math.floor(value) if function == "floor" else math.ceil(value)
    except (OverflowError, ValueError) as error:
        raise FormulaError(f"{function}() of {value} is not an int") from error


def truncate_value(value: Any) -> Any:
    if isinstance(value, Sym):
        return symbolic.truncate(value)
    if not is_number(value):
        raise FormulaError(f"int() needs a number, not {type_name(value)}")
    try:
        return normalise(int(value))
    except (OverflowError, ValueError) as error:
        raise FormulaError(f"int() of {value} is not an int") from error


def absolute_value(value: Any) -> Any:
    if isinstance(value, Sym):
        return symbolic.absolute(value)
    if not is_number(value):
        raise FormulaError(f"abs() needs a number, not {type_name(value)}")
    return normalise(abs(value))
