"""What the ai.onnx.ml model ops' tests share (trees, SVMs, linear models): one-node models with tensor attributes,
output shapes by onnx's shape inference, by onnxruntime and by the registry's formulas, reported check ids, and
the validator's verdict on a one-node model."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper

from opset.formula import Sym
from opset.validate import check_model
from tests.helpers.basics import inferred, node_diagnostics, problem_checks, version
from tests.helpers.oracles import one_node_model, run_onnx_reference, run_onnxruntime

DOMAIN = "ai.onnx.ml"
Dims = Sequence[int | str]


def tensor(values: Sequence[float] | np.ndarray, dtype: Any = np.float32) -> onnx.TensorProto:
    """A tensor attribute of `values` (1-D) in `dtype`."""
    return numpy_helper.from_array(np.asarray(values, dtype=dtype).reshape(-1))


def ml_model(op: str, since: int, x: np.ndarray, attrs: Mapping[str, Any], n_out: int) -> tuple[onnx.ModelProto,
                                                                                                   dict[str, Any]]:
    return one_node_model(op, since, [x], attrs, n_out, domain=DOMAIN)


def ort_outputs(op: str, since: int, x: np.ndarray, attrs: Mapping[str, Any], n_out: int) -> list[np.ndarray]:
    model, feeds = ml_model(op, since, x, attrs, n_out)
    return run_onnxruntime(model, feeds)


def reference_outputs(op: str, since: int, x: np.ndarray, attrs: Mapping[str, Any], n_out: int) -> list[np.ndarray]:
    model, feeds = ml_model(op, since, x, attrs, n_out)
    return run_onnx_reference(model, feeds)


def _plain(attrs: Mapping[str, Any]) -> dict[str, Any]:
    """Attributes as the registry's formulas and kernels receive them (tensors as arrays)."""
    return {k: numpy_helper.to_array(v) if isinstance(v, onnx.TensorProto) else v for k, v in attrs.items()}


def formula_shapes(op: str, since: int, x_shape: Dims, attrs: Mapping[str, Any]) -> list[list[str] | None]:
    """The registry's output shapes (dims as text, symbolic ones by name); fails on any problem."""
    dims: list[Any] = [Sym(d) if isinstance(d, str) else d for d in x_shape]
    result = inferred(version(DOMAIN, op, since), [dims], _plain(attrs))
    assert not result.problems, f"{op}@{since}: {[(p.check, p.message) for p in result.problems]}"
    return [None if s is None else [str(d) for d in s] for s in result.outputs]


def onnx_shapes(op: str, since: int, x_shape: Dims, attrs: Mapping[str, Any], n_out: int,
                elem: int = onnx.TensorProto.FLOAT) -> list[list[str] | None]:
    """Output shapes by onnx's strict shape inference (None where it infers none)."""
    node = helper.make_node(op, ["X"], [f"out{k}" for k in range(n_out)], domain=DOMAIN, **attrs)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("X", elem, list(x_shape))],
                              [onnx.ValueInfoProto(name=f"out{k}") for k in range(n_out)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid(DOMAIN, since)])
    model.ir_version = 8
    typed = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    out: list[list[str] | None] = []
    for value in typed.graph.output:
        t = value.type.tensor_type
        out.append([str(d.dim_value) if d.HasField("dim_value") else d.dim_param for d in t.shape.dim]
                   if t.HasField("shape") else None)
    return out


def assert_shapes_match(op: str, since: int, x: np.ndarray, attrs: Mapping[str, Any], n_out: int, *,
                        ort_since: int | None = None) -> None:
    """The formulas' shapes equal onnxruntime's actual output shapes (run at `ort_since`, default `since`), and
    onnx's inference where it infers a shape."""
    mine = formula_shapes(op, since, list(x.shape), attrs)
    label = f"{op}@{since} {list(x.shape)}"
    actual = [[str(d) for d in y.shape] for y in ort_outputs(op, ort_since or since, x, attrs, n_out)]
    assert mine[:n_out] == actual, f"{label}: the formulas give {mine}, onnxruntime produces {actual}"
    elem = helper.np_dtype_to_tensor_dtype(x.dtype)
    for k, theirs in enumerate(onnx_shapes(op, since, list(x.shape), attrs, n_out, elem)):
        assert theirs is None or theirs == mine[k], f"{label}: output {k} is {mine[k]}, onnx infers {theirs}"


def checks(op: str, since: int, x_shape: Dims, attrs: Mapping[str, Any]) -> list[str]:
    """Ids of every check the registry reports for the node."""
    return problem_checks(version(DOMAIN, op, since), [[int(d) for d in x_shape]], _plain(attrs))


def validation_errors(op: str, since: int, x: np.ndarray, attrs: Mapping[str, Any], n_out: int) -> list[str]:
    """`opset validate`'s errors on a one-node model (tensor attributes as the model holds them)."""
    model, _ = ml_model(op, since, x, attrs, n_out)
    return [f"{d.check}: {d.message}" for d in node_diagnostics(check_model(model).diagnostics) if d.is_error]
