"""Every output's shape formula against what onnxruntime's CPU kernel computes for a one-node model (for ops with
several outputs; `assert_shapes_match_onnxruntime` checks the first)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tests.helpers.basics import formula_shapes, problem_checks, version
from tests.helpers.oracles import one_node_model, run_onnxruntime


def assert_output_shapes_match_onnxruntime(domain: str, op: str, since: int, inputs: Sequence[np.ndarray | None],
                                           attrs: Mapping[str, Any] | None = None, n_out: int = 1) -> None:
    """The formulas of the first `n_out` outputs (no problem reported) equal onnxruntime's output shapes."""
    attrs = dict(attrs or {})
    v = version(domain, op, since)
    assert problem_checks(v, list(inputs), attrs, output_count=n_out) == []
    mine = formula_shapes(v, list(inputs), attrs)
    model, feeds = one_node_model(op, since, inputs, attrs, n_out, domain=domain)
    theirs = [list(np.asarray(x).shape) for x in run_onnxruntime(model, feeds)]
    assert mine[:n_out] == theirs, f"{domain}@{since}::{op} {attrs}: the formulas give {mine[:n_out]}, " \
                                   f"onnxruntime {theirs}"
