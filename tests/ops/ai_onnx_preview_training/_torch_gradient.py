"""An optional oracle for Gradient, run as a script by a Python that has torch (never imported by the tests):
`python _torch_gradient.py DIR...`. Each DIR holds `model.onnx` (forward nodes and one Gradient node) and
`inputs.npz` (the values of the Gradient node's xs and zs); the script evaluates the forward nodes with torch,
takes torch.autograd.grad of the sum of y's elements with respect to xs, and writes `grads.npz` (one array
per x, by name) into DIR. Only the ops its table knows; any other op is an error.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper

try:
    import torch
except ImportError as e:  # the caller skips: torch is an optional oracle
    print(f"no torch: {e}", file=sys.stderr)
    sys.exit(77)


def _axes(node: onnx.NodeProto, attrs: dict[str, Any], args: list[Any], rank: int) -> list[int]:
    given = attrs.get("axes")
    if given is None and len(args) > 1 and args[1] is not None:
        given = [int(a) for a in args[1].reshape(-1).tolist()]
    return list(range(rank)) if not given else [int(a) % rank for a in given]


def _reduce(kind: str) -> Any:
    def run(node: onnx.NodeProto, attrs: dict[str, Any], args: list[Any]) -> Any:
        x = args[0]
        axes = _axes(node, attrs, args, x.dim())
        keep = bool(attrs.get("keepdims", 1))
        return x.sum(dim=axes, keepdim=keep) if kind == "sum" else x.mean(dim=axes, keepdim=keep)
    return run


def _gemm(node: onnx.NodeProto, attrs: dict[str, Any], args: list[Any]) -> Any:
    a = args[0].T if attrs.get("transA", 0) else args[0]
    b = args[1].T if attrs.get("transB", 0) else args[1]
    out = attrs.get("alpha", 1.0) * (a @ b)
    if len(args) > 2 and args[2] is not None:
        out = out + attrs.get("beta", 1.0) * args[2]
    return out


def _transpose(node: onnx.NodeProto, attrs: dict[str, Any], args: list[Any]) -> Any:
    perm = attrs.get("perm") or list(range(args[0].dim()))[::-1]
    return args[0].permute(*perm)


OPS: dict[str, Any] = {
    "Add": lambda n, a, x: x[0] + x[1],
    "Sub": lambda n, a, x: x[0] - x[1],
    "Mul": lambda n, a, x: x[0] * x[1],
    "Div": lambda n, a, x: x[0] / x[1],
    "Neg": lambda n, a, x: -x[0],
    "Identity": lambda n, a, x: x[0],
    "Relu": lambda n, a, x: torch.relu(x[0]),
    "Sigmoid": lambda n, a, x: torch.sigmoid(x[0]),
    "Tanh": lambda n, a, x: torch.tanh(x[0]),
    "Exp": lambda n, a, x: torch.exp(x[0]),
    "Log": lambda n, a, x: torch.log(x[0]),
    "Sqrt": lambda n, a, x: torch.sqrt(x[0]),
    "Pow": lambda n, a, x: torch.pow(x[0], x[1]),
    "MatMul": lambda n, a, x: torch.matmul(x[0], x[1]),
    "Gemm": _gemm,
    "ReduceSum": _reduce("sum"),
    "ReduceMean": _reduce("mean"),
    "Reshape": lambda n, a, x: x[0].reshape([int(d) for d in x[1].tolist()]),
    "Transpose": _transpose,
    "Softmax": lambda n, a, x: torch.softmax(x[0], dim=a.get("axis", -1)),  # opset 13+ only
    "LogSoftmax": lambda n, a, x: torch.log_softmax(x[0], dim=a.get("axis", -1)),  # opset 13+ only
}


def _grads(case: Path) -> None:
    model = onnx.load(str(case / "model.onnx"))
    given = dict(np.load(case / "inputs.npz"))
    (gradient,) = [n for n in model.graph.node if n.op_type == "Gradient"]
    attrs = {a.name: helper.get_attribute_value(a) for a in gradient.attribute}
    xs = [s.decode() for s in attrs["xs"]]
    y = attrs["y"].decode()
    values: dict[str, Any] = {t.name: torch.from_numpy(numpy_helper.to_array(t).copy())
                              for t in model.graph.initializer}
    leaves = {name: torch.tensor(value, requires_grad=name in xs) for name, value in given.items()}
    values.update(leaves)
    for node in model.graph.node:
        if node is gradient:
            continue
        node_attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        args = [values[i] if i else None for i in node.input]
        values[node.output[0]] = OPS[node.op_type](node, node_attrs, args)
    found = torch.autograd.grad(values[y].sum(), [leaves[x] for x in xs], allow_unused=True)
    out = {x: (g if g is not None else torch.zeros_like(leaves[x])).detach().numpy()
           for x, g in zip(xs, found, strict=True)}
    np.savez(case / "grads.npz", **out)


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        _grads(Path(arg))
