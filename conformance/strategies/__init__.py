"""Hypothesis strategies built from the registry: dtypes, attributes, shapes and whole op cases."""

from conformance.strategies.case import Case
from conformance.strategies.cases import op_cases
from conformance.strategies.examples import example_case, literal_array
from conformance.strategies.values import arrays, fill_array
from opset.cells import cell_dtypes

__all__ = ["Case", "arrays", "cell_dtypes", "example_case", "fill_array", "literal_array", "op_cases"]
