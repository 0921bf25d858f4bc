"""For every model of onnx's node suite, our inferred output types and shapes equal onnx.shape_inference's
wherever onnx infers them (the outputs' declared shapes are removed first, so both infer from the inputs)."""

from __future__ import annotations

import functools
import warnings
from collections import defaultdict

import onnx
import pytest

from conformance.suites.onnx_node import op_under_test, testcases
from opset.validate import check_model
from opset.validate.values import value_entry

Mismatch = tuple[str, str, str]  # case, output, what differs


def _stripped(model: onnx.ModelProto) -> onnx.ModelProto:
    m = onnx.ModelProto()
    m.CopyFrom(model)
    for o in m.graph.output:
        o.type.ClearField("tensor_type") if not o.type.HasField("tensor_type") else \
            o.type.tensor_type.ClearField("shape")
    del m.graph.value_info[:]
    return m


def _onnx_outputs(model: onnx.ModelProto) -> dict[str, tuple[str | None, list[int | None]]] | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
        except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError):
            return None  # onnx infers nothing here; nothing to compare
    out = {}
    for o in inferred.graph.output:
        t = o.type.tensor_type if o.type.HasField("tensor_type") else None
        if t is None or not t.HasField("shape"):
            continue
        elem = onnx.helper.tensor_dtype_to_np_dtype(t.elem_type).name if t.elem_type else None
        out[o.name] = (elem, [d.dim_value if d.HasField("dim_value") else None for d in t.shape.dim])
    return out


@functools.cache
def mismatches_by_op() -> dict[str, list[Mismatch]]:
    found: dict[str, list[Mismatch]] = defaultdict(list)
    cases = testcases()
    for name, case in cases.items():
        node = op_under_test(name, case.model, cases)
        if node is None or node.domain not in ("", "ai.onnx"):
            continue
        model = _stripped(case.model)
        theirs = _onnx_outputs(model)
        if not theirs:
            continue
        facts = check_model(model).facts
        found.setdefault(node.op_type, [])
        for out, (_elem, dims) in theirs.items():
            ours = value_entry(facts[out]) if out in facts else {"type": None, "shape": None}
            if ours["shape"] is None:
                if any(d is not None for d in dims):
                    found[node.op_type].append((name, out, f"onnx infers {dims}, we infer nothing"))
                continue
            if len(ours["shape"]) != len(dims) or any(d is not None and d != o for d, o in zip(dims, ours["shape"],
                                                                                               strict=False)):
                found[node.op_type].append((name, out, f"onnx infers {dims}, we infer {ours['shape']}"))
    return dict(found)


def _ops() -> list[str]:
    return sorted({op_under_test(n, c.model, testcases()).op_type  # type: ignore[union-attr]
                   for n, c in testcases().items() if op_under_test(n, c.model, testcases()) is not None})


@pytest.mark.parametrize("op", _ops())
def test_inferred_shapes_equal_onnx(op: str) -> None:
    bad = mismatches_by_op().get(op, [])
    assert not bad, "\n".join(f"{case} {out}: {what}" for case, out, what in bad[:20])
