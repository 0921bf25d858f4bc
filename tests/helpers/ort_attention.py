"""Checks the com.microsoft attention tests share: every output shape of a one-node model by the registry's
formulas against what onnxruntime's CPU kernel actually produces, and integer-valued inputs known to both sides."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tests.helpers.basics import formula_shapes, version
from tests.helpers.oracles import OracleCase, one_node_model, run_onnxruntime


def assert_every_output_shape_matches_onnxruntime(case: OracleCase, opset: int = 1) -> None:
    """Each of the case's n_out outputs: the formula's shape (integer inputs' values known, as initializers or
    feeds that a data-dependent formula reads) equals the shape onnxruntime gives it."""
    v = version(case.domain, case.op, opset)
    values = {v.inputs[i].name: np.asarray(x).reshape(-1).tolist() for i, x in enumerate(case.inputs)
              if isinstance(x, np.ndarray) and x.dtype.kind in "iu" and i < len(v.inputs)}
    mine = formula_shapes(v, list(case.inputs), case.attrs, values)
    model, feeds = one_node_model(case.op, opset, case.inputs, case.attrs, case.n_out, domain=case.domain)
    theirs = [list(o.shape) for o in run_onnxruntime(model, feeds)]
    assert mine[:case.n_out] == theirs, f"{case.label(opset)}: formulas give {mine[:case.n_out]}, onnxruntime {theirs}"


def i32(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int32)


def scalar_i32(value: int) -> np.ndarray:
    return np.array(value, dtype=np.int32)


def shapes(*items: Sequence[int] | None) -> list[Any]:
    return [None if s is None else list(s) for s in items]
