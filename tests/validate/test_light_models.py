"""The light models shipped with onnx: clean where the registry covers every op they use, and our
inferred shapes equal onnx.shape_inference's wherever both give one.

Models using ops the registry does not have yet are xfailed with the list of missing ops, so the
list shrinks visibly as the registry grows; the shape comparison runs on every model, node by node,
for the ops we cover (the model is first annotated by onnx so uncovered ops do not hide the rest)."""

from __future__ import annotations

import glob
import os

import onnx
import pytest

from opset.formula import Sym
from opset.validate import check_model

LIGHT = sorted(glob.glob(os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light", "*.onnx")))
NAMES = [os.path.basename(p)[len("light_"):-len(".onnx")] for p in LIGHT]


def test_light_models_are_there() -> None:
    assert len(LIGHT) == 9


def _missing_ops(m: onnx.ModelProto) -> list[str]:
    from opset.load import load_registry

    reg = load_registry()
    opsets = {("" if i.domain == "ai.onnx" else i.domain): i.version for i in m.opset_import}
    missing = set()
    for n in m.graph.node:
        if reg.try_resolve(n.domain or "ai.onnx", n.op_type, opsets.get(n.domain, 0)) is None:
            missing.add(f"{n.domain or 'ai.onnx'}::{n.op_type}")
    return sorted(missing)


@pytest.mark.parametrize("path", LIGHT, ids=NAMES)
def test_light_model_validates_clean(path: str) -> None:
    m = onnx.load(path)
    missing = _missing_ops(m)
    diags = check_model(m).diagnostics
    errors = [d for d in diags if d.is_error]
    unexpected = [d for d in errors if d.check != "unknown_op"]
    assert not unexpected, "\n".join(map(str, unexpected[:20]))
    if missing:
        pytest.xfail(f"ops not in the registry yet: {', '.join(missing)}")
    assert not errors, "\n".join(map(str, errors[:20]))


def _onnx_shapes(m: onnx.ModelProto) -> dict[str, tuple[int | str | None, ...]]:
    shapes: dict[str, tuple[int | str | None, ...]] = {}
    for vi in [*m.graph.value_info, *m.graph.output]:
        tt = vi.type.tensor_type
        if tt.HasField("shape"):
            shapes[vi.name] = tuple(d.dim_value if d.HasField("dim_value") else (d.dim_param or None)
                                    for d in tt.shape.dim)
    return shapes


def _same(ours: tuple[int | Sym, ...], theirs: tuple[int | str | None, ...]) -> bool:
    if len(ours) != len(theirs):
        return False
    for a, b in zip(ours, theirs, strict=True):
        if isinstance(b, int) and a != b:
            return False
        if isinstance(b, str) and a != Sym(b):
            return False
    return True


@pytest.mark.parametrize("path", LIGHT, ids=NAMES)
def test_light_model_shapes_match_onnx(path: str) -> None:
    annotated = onnx.shape_inference.infer_shapes(onnx.load(path), strict_mode=True)
    theirs = _onnx_shapes(annotated)
    result = check_model(annotated)
    compared = 0
    wrong = []
    for node in annotated.graph.node:
        for out in node.output:
            if out in result.inferred and out in theirs:
                compared += 1
                if not _same(result.inferred[out], theirs[out]):
                    wrong.append(f"{node.op_type} '{out}': ours {list(result.inferred[out])}, onnx {list(theirs[out])}")
    assert not wrong, "\n".join(wrong[:20])
    mismatches = [d for d in result.diagnostics if d.check in ("shape_mismatch", "type_mismatch")]
    assert not mismatches, "\n".join(map(str, mismatches[:20]))
    if compared == 0:
        pytest.xfail("no op of this model has a shape formula in the registry yet")
