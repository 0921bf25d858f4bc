"""The formula functions over element types: `dtype(X)` (a special form, an input's element type) and the plain
functions `is_integer`, `is_float`, `bits`, `tensor` and `per_tensor`.

An element type reaches these functions as its name (`'int32'`), a tensor type text (`'tensor(int32)'`, what
`type_of(X)` gives) or an ONNX DataType code (`6`, what the `to`, `dtype` and `output_dtype` attributes hold).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from opset.dtypes import CODE_TO_ELEMENT, ELEMENT_BITS, ELEMENT_TYPES, FLOAT_ELEMENTS, INTEGER_ELEMENTS, tensor_element
from opset.formula.arithmetic import is_sequence, type_name
from opset.formula.comparisons import all_of, equal
from opset.formula.errors import FormulaError, Undecided
from opset.formula.limits import Budget


def element_name(value: Any, function: str) -> str:
    """The element type `value` designates (see the module doc); FormulaError for anything else."""
    if isinstance(value, bool):
        raise FormulaError(f"{function}() needs an element type, not a bool")
    if isinstance(value, int):
        found = CODE_TO_ELEMENT.get(value)
        if found is None:
            raise FormulaError(f"{function}(): {value} is no ONNX element type code")
        return found
    if isinstance(value, str):
        if value in ELEMENT_TYPES:
            return value
        element = tensor_element(value)
        if element is not None and element in ELEMENT_TYPES:
            return element
        raise FormulaError(f"{function}(): {value!r} is no element type nor tensor type")
    if value is None:
        raise Undecided(f"{function}() of an absent type")
    raise FormulaError(f"{function}() needs an element type (a name, a tensor type or a DataType code), not "
                       f"{type_name(value)}; an input's is dtype(X)")


def input_dtype(found: Any, name: str) -> Any:
    """`dtype(X)` from input X's type text (a list of them for a variadic input): its element name; undecided where
    the type is not known or holds no tensor (a sequence's)."""
    if is_sequence(found):
        return [input_dtype(t, name) for t in found]
    element = tensor_element(found) if isinstance(found, str) else None
    if element is None:
        raise Undecided(f"the element type of input {name!r} is not known")
    return element


def _one(name: str, args: list[Any]) -> Any:
    if len(args) != 1:
        raise FormulaError(f"{name}() takes exactly one argument ({len(args)} given)")
    return args[0]


def is_integer(args: list[Any], budget: Budget) -> bool:
    """An integer element type (int2 to int64, uint2 to uint64; bool is not one)."""
    return element_name(_one("is_integer", args), "is_integer") in INTEGER_ELEMENTS


def is_float(args: list[Any], budget: Budget) -> bool:
    """A floating-point element type (float4 to double, bfloat16, every float8 and float6)."""
    return element_name(_one("is_float", args), "is_float") in FLOAT_ELEMENTS


def bits(args: list[Any], budget: Budget) -> int:
    """How many bits one element takes (a bool 8, as stored); a string has no width."""
    element = element_name(_one("bits", args), "bits")
    if element not in ELEMENT_BITS:
        raise FormulaError(f"bits(): {element} elements have no fixed width")
    return ELEMENT_BITS[element]


def tensor(args: list[Any], budget: Budget) -> str:
    """The tensor type of an element type: `tensor(output_dtype)` is `'tensor(uint8)'` for 2."""
    return f"tensor({element_name(_one('tensor', args), 'tensor')})"


def per_tensor(args: list[Any], budget: Budget) -> bool:
    """Every argument is a one-element shape of rank 0 or 1 (`[]` or `[1]`), or None (an absent input): a scale and
    zero point that quantize a whole tensor, in whichever of the two ranks each is written."""
    if not args:
        raise FormulaError("per_tensor() needs at least one shape")
    for shape in args:
        if shape is not None and not is_sequence(shape):
            raise FormulaError(f"per_tensor() needs shapes (or None), not {type_name(shape)}")
    return all_of(partial(_one_element, s, budget) for s in args if s is not None)


def _one_element(shape: list[Any] | tuple[Any, ...], budget: Budget) -> bool:
    return len(shape) == 0 or (len(shape) == 1 and equal(shape[0], 1, budget))
