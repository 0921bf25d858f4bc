"""Every executable example in the registry, every domain: the reference kernel gives the stated outputs,
the shape formulas give their shapes, and no constraint rejects the example."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from conformance.backends.reference import reference_outputs
from conformance.strategies.examples import example_arrays
from opset.infer import infer_shapes, resolve_attributes
from opset.load import load_registry
from opset.model import Example, OpVersion

REGISTRY = load_registry()
EXAMPLES = [(v, ex) for v in REGISTRY.all_versions() for ex in v.examples]


def _inputs(v: OpVersion, ex: Example) -> tuple[list[np.ndarray | None], list[str]]:
    arrays, names = example_arrays(v.inputs, ex.inputs)
    while names and names[-1] == "":
        arrays.pop()
        names.pop()
    return arrays, names


def _tolerance(v: OpVersion, dtype: np.dtype[Any]) -> tuple[float, float]:
    element = {"float16": "float16", "float32": "float", "float64": "double"}.get(dtype.name)
    if element is None:
        return 0.0, 0.0
    t = v.tolerance[element]
    return t.rtol, t.atol


def test_the_registry_has_examples_in_every_domain() -> None:
    assert {v.domain for v, _ in EXAMPLES} == set(REGISTRY.domains)


@pytest.mark.parametrize(("v", "ex"), EXAMPLES, ids=lambda x: getattr(x, "name", getattr(x, "signature", "")))
def test_example(v: OpVersion, ex: Example) -> None:
    inputs, names = _inputs(v, ex)
    shapes = [list(x.shape) if x is not None else None for x in inputs]
    values = {n: x for n, x in zip(names, inputs, strict=True) if x is not None}
    want_arrays, want_names = example_arrays(v.outputs, ex.outputs)
    result = infer_shapes(v, shapes, ex.attributes, values, output_count=len(want_names))
    assert result.problems == [], f"{v.signature} {ex.name}: {result.problems}"
    got = reference_outputs(v, list(inputs), resolve_attributes(v, ex.attributes, shapes), len(want_names))
    for i, (want, name) in enumerate(zip(want_arrays, want_names, strict=True)):
        if want is None:
            continue  # an output the example does not state
        assert i < len(got), f"{v.signature} {ex.name}: the kernel gave {len(got)} outputs"
        y = got[i]
        inferred = result.outputs[i] if i < len(result.outputs) else None
        if inferred is not None:  # an unknown('tag') dim (no formula can size it) stands for any size
            known = [d if isinstance(d, int) else w for d, w in zip(inferred, want.shape, strict=False)]
            assert len(inferred) == want.ndim and known == list(want.shape), (
                f"{v.signature} {ex.name}: {name}: formula gives {inferred}")
        assert y.dtype == want.dtype and y.shape == want.shape, (
            f"{v.signature} {ex.name}: {name} is {y.dtype}{list(y.shape)}, "
            f"the example says {want.dtype}{list(want.shape)}")
        if want.dtype.kind == "O":  # strings: exactly
            assert y.tolist() == want.tolist(), f"{v.signature} {ex.name} {name}: {y.tolist()} != {want.tolist()}"
            continue
        rtol, atol = _tolerance(v, want.dtype)
        np.testing.assert_allclose(y, want, rtol=rtol, atol=atol, err_msg=f"{v.signature} {ex.name} {name}")
