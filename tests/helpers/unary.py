"""What the unary elementwise op modules share (Acos ... Tan, Ceil, Floor, Round, Exp, Log, Neg, Reciprocal,
Sqrt, Sign, Erf, IsNaN, IsInf, Not, BitwiseNot): their oracle cases per dtype, their shape cases, and a check
against Python's `math` module, which computes independently of numpy and of onnx.reference (which calls
the same numpy functions as most of these kernels).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from conformance.compare import compare_arrays, tolerance_for
from conformance.strategies.dtypes import element_of
from tests.helpers.basics import all_since, run, version
from tests.helpers.op_modules import shape_case
from tests.helpers.oracles import OracleCase, ShapeCase

FLOATS: tuple[type[np.floating[Any]], ...] = (np.float16, np.float32, np.float64)
SHAPES: tuple[list[int], ...] = ([], [3], [2, 3, 4])


def unary_cases(op: str, x: np.ndarray, dtypes: Sequence[type[np.generic]] = FLOATS, *,
                attrs: Mapping[str, Any] | None = None, versions: Sequence[int] | None = None,
                ort: Sequence[int] = (), ort_dtypes: Sequence[type[np.generic]] = (np.float32,),
                id: str = "") -> list[OracleCase]:
    """`x` cast to each dtype against onnx.reference at `versions` (default: every onnx version of `op`), and
    against onnxruntime at the versions `ort` in `ort_dtypes` (float16 to within float16's own precision)."""
    def case(t: type[np.generic], at: tuple[int, ...], oracle: str) -> OracleCase:
        name = f"{id}{'-' if id else ''}{'ort-' if oracle == 'ort' else ''}{np.dtype(t).name}"
        with np.errstate(over="ignore"):  # float32 data beyond float16's range becomes +-inf there
            data = np.asarray(x).astype(t)
        return OracleCase(op, dict(attrs or {}), [data], at, oracle=oracle, rtol=1e-3 if t is np.float16 else 1e-4,
                          id=name)

    ref = tuple(all_since(op) if versions is None else versions)
    return [case(t, ref, "ref") for t in dtypes] + [case(t, tuple(ort), "ort") for t in ort_dtypes if ort]


def unary_shape_cases(op: str, *, not_inferred_at: Sequence[int] = (),
                      attrs: Mapping[str, Any] | None = None) -> list[ShapeCase]:
    """A scalar, a vector and a rank-3 input at every onnx version; onnx infers no shape at the versions
    `not_inferred_at` (opset 1's `consumed_inputs`), where the formula must still give the input's shape."""
    return [shape_case(op, v, [s], attrs, not_inferred_by_onnx={0: s} if v in not_inferred_at else {})
            for v in all_since(op) for s in SHAPES]


def by_math(fn: Callable[[float], float], x: np.ndarray) -> np.ndarray:
    """`fn` of Python's math module on every element of `x`, computed in double, rounded to x's dtype."""
    flat = [fn(float(v)) for v in np.asarray(x, dtype=np.float64).ravel()]
    return np.asarray(np.array(flat, dtype=np.float64).reshape(np.shape(x)).astype(x.dtype))


def assert_matches_math(op: str, since: int, fn: Callable[[float], float], x: np.ndarray) -> None:
    """The kernel of `op`@`since` on `x` has x's dtype and equals `by_math(fn, x)` within the registry's
    tolerance for that dtype (NaN where it has NaN, equal infinities)."""
    got = run("ai.onnx", op, since, [x])[0]
    assert got.dtype == x.dtype and got.shape == x.shape, f"{op}@{since}: {got.dtype}{got.shape} for {x.dtype}{x.shape}"
    result = compare_arrays(got, by_math(fn, x), tolerance_for(version("ai.onnx", op, since), element_of(x.dtype)))
    assert result.ok, f"{op}@{since} {x.dtype} against math.{getattr(fn, '__name__', fn)}: {result.problem}"


def assert_returned_unchanged(op: str, since: int, x: np.ndarray) -> None:
    """The kernel gives `x` back exactly: same dtype, NaN where x has NaN, every other element bit for bit
    (so -0 stays -0, which a comparison by value would not see)."""
    got = run("ai.onnx", op, since, [x])[0]
    assert got.dtype == x.dtype and got.shape == x.shape, f"{op}@{since}: {got.dtype}{got.shape} for {x.dtype}{x.shape}"
    same = (got.view(f"u{x.dtype.itemsize}") == x.view(f"u{x.dtype.itemsize}")) | (np.isnan(got) & np.isnan(x))
    assert same.all(), f"{op}@{since} {x.dtype}: {x[~same]} came back as {got[~same]}"
