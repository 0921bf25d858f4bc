"""What Tengine op tests share: kernels with resolved attributes, loop-written references, example checks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from conformance.kernels.registry import find_kernel
from opset.model import OpVersion
from tests.helpers.basics import formula_shapes, inferred, problem_checks, run, version

# ---------------------------------------------------------------------------------------- tengine
# (helpers only Tengine op tests share go here)


def _known_values(v: OpVersion, inputs: Sequence[np.ndarray | None]) -> dict[str, list[Any]]:
    return {p.name: x.reshape(-1).tolist() for p, x in zip(v.inputs, inputs, strict=False)
            if x is not None and not p.variadic}


def tengine_run(op: str, inputs: Sequence[np.ndarray | None], **given: Any) -> tuple[np.ndarray, ...]:
    """Tengine `op`'s kernel (as `run` calls it), once the registry's formulas gave exactly the shapes it
    returns, one formula per output, with no problem reported (input values are known)."""
    v = version("tengine", op, 1)
    want = formula_shapes(v, list(inputs), given, _known_values(v, inputs))
    got = run("tengine", op, 1, inputs, **given)
    shapes = [list(y.shape) for y in got]
    assert want == shapes, f"{v.signature}: the formula gives {want}, the kernel {shapes} for {given}"
    return got


def tengine_problems(op: str, inputs: Sequence[np.ndarray | None], **given: Any) -> list[str]:
    """`problem_checks` for a Tengine node whose input values are known (the kernel is not run)."""
    v = version("tengine", op, 1)
    return problem_checks(v, list(inputs), given, _known_values(v, inputs))


def pointwise(fn: Callable[[float], float], x: np.ndarray) -> np.ndarray:
    """`fn` applied to every element of `x` as a Python float: an independent elementwise computation."""
    return np.array([fn(float(v)) for v in x.reshape(-1)]).reshape(x.shape)


def assert_pointwise_kernel(op: str, x: np.ndarray, fn: Callable[[float], float], *, rtol: float = 1e-12,
                            atol: float = 1e-12, **given: Any) -> None:
    """Tengine `op` on `x` keeps its shape and dtype, and gives `fn` of every element."""
    (y,) = run("tengine", op, 1, [x], **given)
    assert y.shape == x.shape and y.dtype == x.dtype, f"tengine::{op}: {y.dtype}{y.shape} for {x.dtype}{x.shape}"
    np.testing.assert_allclose(y, pointwise(fn, x), rtol=rtol, atol=atol, err_msg=f"tengine::{op} {given}")


def first_extreme(x: np.ndarray, axis: int, better: Callable[[Any, Any], bool]) -> np.ndarray:
    """Index (int32) along `axis` of the first element no other is `better` than, found by a plain scan."""
    moved = np.moveaxis(x, axis, -1)
    found = np.zeros(moved.shape[:-1], np.int32)
    for idx in np.ndindex(*moved.shape[:-1]):
        best = 0
        for i in range(1, moved.shape[-1]):
            if better(moved[idx][i], moved[idx][best]):
                best = i
        found[idx] = best
    return found


def box_iou(p: Sequence[float], q: Sequence[float]) -> float:
    """Intersection over union of two boxes `x0, y0, x1, y1` (0 when they do not touch)."""
    if p[0] > q[2] or p[2] < q[0] or p[1] > q[3] or p[3] < q[1]:
        return 0.0
    inter = (min(p[2], q[2]) - max(p[0], q[0])) * (min(p[3], q[3]) - max(p[1], q[1]))
    return inter / ((p[2] - p[0]) * (p[3] - p[1]) + (q[2] - q[0]) * (q[3] - q[1]) - inter)


Scored = tuple[float, int, list[float]]  # (score, class or prior index, box)


def greedy_nms(candidates: Sequence[Scored], threshold: float) -> list[Scored]:
    """Greedy non-maximum suppression over candidates already in the order to keep them."""
    kept: list[Scored] = []
    for cand in candidates:
        if all(box_iou(cand[2], k[2]) <= threshold for k in kept):
            kept.append(cand)
    return kept


def consecutive_pieces(x: np.ndarray, axis: int, sizes: Sequence[int]) -> list[np.ndarray]:
    """`x` cut along `axis` into consecutive parts of `sizes`, element by element with np.take."""
    start, out = 0, []
    for s in sizes:
        out.append(np.take(x, list(range(start, start + s)), axis=axis))
        start += s
    return out


# the domain-wide checks of Tengine (and of ai.onnx.modified, whose tests live beside them)


def assert_kernel_or_documented_gap(v: OpVersion) -> None:
    """A kernel and an executable example, or a `no_reference_kernel` reason in the op file that its doc explains."""
    from conformance.kernels import no_reference_kernel

    if no_reference_kernel(v.domain, v.name) is not None:
        assert find_kernel(v.domain, v.name, v.since) is None, f"{v.signature} has a kernel: drop it from the table"
        assert "no reference kernel" in v.doc, f"{v.signature}: the doc does not say it has no reference kernel"
        return
    assert find_kernel(v.domain, v.name, v.since) is not None, f"{v.signature}: no kernel"
    assert v.examples, f"{v.signature}: no executable example"


def assert_example_holds(v: OpVersion, example: str) -> None:
    """The kernel gives the outputs of `v`'s example named `example` (dtype, shape, values within 1e-5), the
    formulas give their shapes, and no constraint rejects it."""
    from conformance.strategies.examples import example_arrays

    ex = next(e for e in v.examples if e.name == example)
    inputs, names = example_arrays(v.inputs, ex.inputs)
    while names and names[-1] == "":
        inputs.pop()
        names.pop()
    values = {n: x.reshape(-1).tolist() for n, x in zip(names, inputs, strict=True) if x is not None}
    result = inferred(v, inputs, ex.attributes, values)
    assert not result.problems, f"{v.signature} {ex.name}: {result.problems}"
    got = run(v.domain, v.name, v.since, inputs, **ex.attributes)
    wants, _ = example_arrays(v.outputs, ex.outputs)
    assert len(got) == len(wants), f"{v.signature} {ex.name}: {len(got)} outputs, the example states {len(wants)}"
    if not v.outputs[-1].variadic:
        assert len(got) == len(v.outputs), f"{v.signature} {ex.name}: {len(got)} outputs"
    for i, (y, want) in enumerate(zip(got, wants, strict=True)):
        param = v.outputs[min(i, len(v.outputs) - 1)]
        assert want is not None, f"{v.signature} {ex.name}: output {i} is not stated"
        if param.formula is not None:
            formula = result.outputs[i] if i < len(result.outputs) else None
            assert formula == list(want.shape), f"{v.signature} {ex.name}: formula gives {formula}"
        assert y.dtype == want.dtype and y.shape == want.shape, f"{ex.name}: {y.dtype}{y.shape} vs {want.shape}"
        np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6, err_msg=f"{v.signature} {ex.name}")


