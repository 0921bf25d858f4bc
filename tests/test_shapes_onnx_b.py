"""The shape formulas and constraints of the second half of the ai.onnx ops (MaxPool .. Upsample) and of the
com.microsoft ops FastGelu, QuantizeLinear, DequantizeLinear, checked against the source of truth.

ai.onnx: every case builds a one-node model at the op's opset and runs `onnx.shape_inference.infer_shapes`
in strict mode; the output shapes must equal what `opset.infer.infer_shapes` computes from the registry,
and the registry must report no problem. Inputs whose values the shape depends on are initializers.
com.microsoft: onnx knows no shapes there, so the node runs in onnxruntime and the shapes of its
outputs are compared. Invalid cases must be reported under the named constraint id.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from opset.infer import infer_shapes
from opset.load import load_registry

FLOAT = TensorProto.FLOAT


@pytest.fixture(scope="module")
def registry() -> Any:
    return load_registry()


def _node_inputs(args: list[Any], names: list[str], variadic: bool) -> tuple[list[str], list[Any], list[Any]]:
    """Graph inputs (shapes, as float tensors), initializers (arrays) and node input names."""
    node_names: list[str] = []
    graph_inputs: list[Any] = []
    inits: list[Any] = []
    for i, arg in enumerate(args):
        name = f"{names[0]}_{i}" if variadic else names[i]
        if arg is None:
            node_names.append("")
        elif isinstance(arg, np.ndarray):
            inits.append(numpy_helper.from_array(arg, name))
            graph_inputs.append(helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(arg.dtype),
                                                              list(arg.shape)))
            node_names.append(name)
        else:
            dtype = arg[1] if isinstance(arg, tuple) else FLOAT
            shape = arg[0] if isinstance(arg, tuple) else arg
            graph_inputs.append(helper.make_tensor_value_info(name, dtype, shape))
            node_names.append(name)
    while node_names and node_names[-1] == "":
        node_names.pop()
    return node_names, graph_inputs, inits


def _ours(registry: Any, domain: str, op: str, opset: int, args: list[Any], attrs: dict[str, Any]) -> Any:
    version = registry.resolve(domain, op, opset)
    names = [p.name for p in version.inputs]
    shapes: list[Any] = []
    values: dict[str, list[Any]] = {}
    variadic = bool(version.inputs) and version.inputs[0].variadic
    for i, arg in enumerate(args):
        name = names[0] if variadic else names[i]
        if arg is None:
            shapes.append(None)
        elif isinstance(arg, np.ndarray):
            shapes.append(list(arg.shape))
            values[name] = arg.ravel().tolist()
        else:
            shapes.append(list(arg[0] if isinstance(arg, tuple) else arg))
    return version, infer_shapes(version, shapes, attrs, values)


def _onnx_shapes(op: str, opset: int, args: list[Any], attrs: dict[str, Any], names: list[str],
                 outputs: list[str], variadic: bool) -> list[list[int] | None]:
    node_names, graph_inputs, inits = _node_inputs(args, names, variadic)
    node = helper.make_node(op, node_names, outputs, **attrs)
    graph = helper.make_graph([node], "g", graph_inputs, [helper.make_empty_tensor_value_info(o) for o in outputs],
                              initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=10)
    inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    found = {vi.name: vi for vi in [*inferred.graph.output, *inferred.graph.value_info]}
    shapes: list[list[int] | None] = []
    for o in outputs:
        vi = found.get(o)
        if vi is None or not vi.type.tensor_type.HasField("shape"):
            shapes.append(None)
        else:
            dims = vi.type.tensor_type.shape.dim
            shapes.append([d.dim_value if d.HasField("dim_value") else d.dim_param for d in dims])
    return shapes


def check(registry: Any, op: str, opset: int, args: list[Any], attrs: dict[str, Any] | None = None,
          outputs: int = 1, expect: list[int] | None = None) -> None:
    """`expect`: the shape where onnx has no shape inference for this version (a few opset-1 schemas)."""
    attrs = attrs or {}
    version, ours = _ours(registry, "ai.onnx", op, opset, args, attrs)
    out_names = [p.name for p in version.outputs][:outputs]
    theirs = _onnx_shapes(op, opset, args, attrs, [p.name for p in version.inputs], out_names,
                          version.inputs[0].variadic)
    assert ours.problems == [], f"{op}-{opset} {args} {attrs}"
    for name, mine, expected in zip(out_names, ours.outputs, theirs, strict=False):
        if expected is None:
            assert expect is not None, f"onnx infers no shape for {op}-{opset} {name}"
            expected = expect
        # onnx leaves a dim unknown (a generated dim_param) where it cannot tell: any value of ours fits there
        assert mine is not None and len(mine) == len(expected), f"{op}-{opset} {args} {attrs}: output {name}"
        known = [m for m, e in zip(mine, expected, strict=False) if isinstance(e, int)]
        assert known == [e for e in expected if isinstance(e, int)], \
            f"{op}-{opset} {args} {attrs}: output {name}: {mine} != {expected}"


def rejected(registry: Any, op: str, opset: int, args: list[Any], attrs: dict[str, Any] | None, check_id: str,
             domain: str = "ai.onnx") -> None:
    _, ours = _ours(registry, domain, op, opset, args, attrs or {})
    assert check_id in [p.check for p in ours.problems], ours.problems


def i64(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int64)


def f32(*values: float) -> np.ndarray:
    return np.array(values, dtype=np.float32)


# ----------------------------------------------------------------------------------------------- elementwise

@pytest.mark.parametrize("op", ["Relu", "Sigmoid", "Tanh"])
@pytest.mark.parametrize("opset", [1, 6, 13, 14])
def test_unary(registry: Any, op: str, opset: int) -> None:
    for shape in ([], [3], [2, 3, 4]):
        check(registry, op, opset, [shape], expect=shape)


@pytest.mark.parametrize("opset", [7, 13, 14])
def test_mul_broadcast(registry: Any, opset: int) -> None:
    for a, b in (([2, 3], [2, 3]), ([2, 3, 4], [4]), ([2, 1, 4], [3, 1]), ([], [5]), ([1], [2, 2])):
        check(registry, "Mul", opset, [a, b])
    rejected(registry, "Mul", opset, [[2, 3], [2]], {}, "mul_c3")


@pytest.mark.parametrize("opset", [1, 6])
def test_mul_legacy(registry: Any, opset: int) -> None:
    check(registry, "Mul", opset, [[2, 3], [2, 3]], expect=[2, 3])
    check(registry, "Mul", opset, [[2, 3, 4, 5], [4, 5]], {"broadcast": 1}, expect=[2, 3, 4, 5])
    check(registry, "Mul", opset, [[2, 3, 4, 5], [3, 4]], {"broadcast": 1, "axis": 1}, expect=[2, 3, 4, 5])
    check(registry, "Mul", opset, [[2, 3, 4, 5], [1, 1]], {"broadcast": 1}, expect=[2, 3, 4, 5])
    rejected(registry, "Mul", opset, [[2, 3], [3]], {}, "mul_c1")
    rejected(registry, "Mul", opset, [[2, 3, 4], [3]], {"broadcast": 1}, "mul_c2")


@pytest.mark.parametrize("opset", [8, 13])
def test_sum(registry: Any, opset: int) -> None:
    check(registry, "Sum", opset, [[2, 3]])
    check(registry, "Sum", opset, [[2, 3], [3], [1, 1]])
    check(registry, "Sum", opset, [[4, 1, 3], [2, 1], [1, 1, 1], [4, 2, 3]])
    check(registry, "Sum", opset, [[0, 3], [1, 3]])
    rejected(registry, "Sum", opset, [[2, 3], [4]], {}, "sum_c1")


def test_sum_legacy(registry: Any) -> None:
    check(registry, "Sum", 6, [[2, 3], [2, 3], [2, 3]])
    rejected(registry, "Sum", 6, [[2, 3], [3]], {}, "binding")


@pytest.mark.parametrize("opset", [7, 9, 16])
def test_prelu(registry: Any, opset: int) -> None:
    check(registry, "PRelu", opset, [[2, 3, 4], [3, 1]])
    check(registry, "PRelu", opset, [[2, 3], [1]])
    rejected(registry, "PRelu", opset, [[2, 3], [2]], {}, "prelu_c1")
    rejected(registry, "PRelu", opset, [[3], [2, 3]], {}, "prelu_c1")


@pytest.mark.parametrize("opset", [1, 11, 13])
def test_softmax(registry: Any, opset: int) -> None:
    check(registry, "Softmax", opset, [[2, 3, 4]])
    check(registry, "Softmax", opset, [[2, 3, 4]], {"axis": 2})
    if opset >= 11:
        check(registry, "Softmax", opset, [[2, 3, 4]], {"axis": -3})
    rejected(registry, "Softmax", opset, [[2, 3]], {"axis": 2}, "softmax_c1")


# ----------------------------------------------------------------------------------------------- layout

@pytest.mark.parametrize("opset", [1, 13, 21, 25])
def test_transpose(registry: Any, opset: int) -> None:
    check(registry, "Transpose", opset, [[2, 3, 4]])
    check(registry, "Transpose", opset, [[2, 3, 4]], {"perm": [1, 2, 0]})
    check(registry, "Transpose", opset, [[5]], {"perm": [0]})
    rejected(registry, "Transpose", opset, [[2, 3, 4]], {"perm": [0, 0, 1]}, "transpose_c1")


@pytest.mark.parametrize("opset", [1, 13, 28])
def test_space_to_depth(registry: Any, opset: int) -> None:
    check(registry, "SpaceToDepth", opset, [[1, 3, 4, 6]], {"blocksize": 2})
    check(registry, "SpaceToDepth", opset, [[2, 1, 9, 3]], {"blocksize": 3})
    rejected(registry, "SpaceToDepth", opset, [[1, 3, 4, 5]], {"blocksize": 2}, "spacetodepth_c1")


@pytest.mark.parametrize("opset", [1, 5, 13, 14, 25])
def test_reshape(registry: Any, opset: int) -> None:
    def run(data: list[int], shape: list[int], expect: list[int] | None = None, **attrs: Any) -> None:
        if opset == 1:
            check(registry, "Reshape", 1, [data], {"shape": shape, **attrs}, expect=expect)
        else:
            check(registry, "Reshape", opset, [data, i64(*shape)], attrs)

    def bad(data: list[int], shape: list[int], check_id: str, **attrs: Any) -> None:
        if opset == 1:
            rejected(registry, "Reshape", 1, [data], {"shape": shape, **attrs}, check_id)
        else:
            rejected(registry, "Reshape", opset, [data, i64(*shape)], attrs, check_id)

    run([2, 3, 4], [6, 4], [6, 4])
    run([2, 3, 4], [-1], [24])
    run([2, 3, 4], [0, -1], [2, 12])
    run([2, 3, 4], [4, 0, 2], [4, 3, 2])
    if opset > 1:  # onnx.helper cannot build an empty ints attribute
        run([1], [], [])
    bad([2, 3], [-1, -1], "reshape_c1")
    bad([2, 3], [4, 2], "reshape_c4")
    bad([2, 3], [4, -1], "reshape_c4")
    bad([6], [0, 0], "reshape_c3")
    if opset >= 14:
        run([0, 3], [3, 0], allowzero=1)
        run([3, 0], [0, 0])
        bad([2, 0], [0, 3, 0], "reshape_c3")
        bad([0, 3], [0, -1], "reshape_c5", allowzero=1)


def test_reshape_unknown_values(registry: Any) -> None:
    _, result = _ours(registry, "ai.onnx", "Reshape", 14, [[2, 3], [2]], {})
    assert result.outputs == [None] and result.problems == []


@pytest.mark.parametrize("opset", [1, 11])
def test_squeeze_attribute(registry: Any, opset: int) -> None:
    check(registry, "Squeeze", opset, [[1, 3, 1, 2]])
    check(registry, "Squeeze", opset, [[1, 3, 1, 2]], {"axes": [2]})
    check(registry, "Squeeze", opset, [[1, 3, 1, 2]], {"axes": [0, 2]})
    if opset == 11:
        check(registry, "Squeeze", opset, [[1, 3, 1, 2]], {"axes": [-2]})
        rejected(registry, "Squeeze", opset, [[1, 3]], {"axes": [-3]}, "squeeze_c1")
    rejected(registry, "Squeeze", opset, [[1, 3]], {"axes": [1]}, "squeeze_c2")
    rejected(registry, "Squeeze", opset, [[1, 3]], {"axes": [2]}, "squeeze_c1")


@pytest.mark.parametrize("opset", [13, 21, 23, 25])
def test_squeeze_input(registry: Any, opset: int) -> None:
    check(registry, "Squeeze", opset, [[1, 3, 1, 2]])
    check(registry, "Squeeze", opset, [[1, 3, 1, 2], i64(0, -2)])
    check(registry, "Squeeze", opset, [[1, 1], i64(1)])
    rejected(registry, "Squeeze", opset, [[1, 3], i64(1)], {}, "squeeze_c2")
    rejected(registry, "Squeeze", opset, [[1, 3], i64(-3)], {}, "squeeze_c1")


def test_slice_attributes(registry: Any) -> None:
    check(registry, "Slice", 1, [[5, 6]], {"starts": [1], "ends": [3]}, expect=[2, 6])
    check(registry, "Slice", 1, [[5, 6]], {"starts": [-2, 0], "ends": [1000, -1]}, expect=[2, 5])
    check(registry, "Slice", 1, [[5, 6, 7]], {"starts": [0, 4], "ends": [2, 1], "axes": [2, 0]}, expect=[0, 6, 2])
    check(registry, "Slice", 1, [[5, 6]], {"starts": [10], "ends": [20], "axes": [1]}, expect=[5, 0])
    rejected(registry, "Slice", 1, [[5, 6]], {"starts": [0], "ends": [1], "axes": [2]}, "slice_c1")


@pytest.mark.parametrize("opset", [10, 11, 13])
def test_slice_inputs(registry: Any, opset: int) -> None:
    big = 2**63 - 1
    check(registry, "Slice", opset, [[5, 6], i64(1), i64(3)])
    check(registry, "Slice", opset, [[5, 6, 7], i64(0, 1), i64(big, 5), i64(2, 1), i64(2, 3)])
    check(registry, "Slice", opset, [[10], i64(-1), i64(-big), None, i64(-3)])
    check(registry, "Slice", opset, [[10, 4], i64(8), i64(2), i64(0), i64(-2)])
    check(registry, "Slice", opset, [[10, 4], i64(2), i64(8), i64(0), i64(-1)])
    check(registry, "Slice", opset, [[10, 4], i64(-3), i64(-1), i64(-1)])
    rejected(registry, "Slice", opset, [[5, 6], i64(0), i64(1), i64(0), i64(0)], {}, "slice_c3")
    rejected(registry, "Slice", opset, [[5, 6], i64(0), i64(1), i64(3)], {}, "slice_c1")
    rejected(registry, "Slice", opset, [[5, 6], i64(0, 0), i64(1, 1), i64(1, -1)], {}, "slice_c2")


@pytest.mark.parametrize("opset", [1, 2])
def test_pad_attribute(registry: Any, opset: int) -> None:
    key = "paddings" if opset == 1 else "pads"
    check(registry, "Pad", opset, [[2, 3]], {key: [1, 0, 2, 3]}, expect=[5, 6])
    check(registry, "Pad", opset, [[2, 3, 4]], {key: [0, 0, 1, 0, 0, 1], "mode": "reflect"}, expect=[2, 3, 6])
    if opset == 2:
        check(registry, "Pad", opset, [[2, 3]], {key: [0, -1, 0, -1]})
        rejected(registry, "Pad", opset, [[2, 3]], {key: [0, -2, 0, -2]}, "pad_c1")


@pytest.mark.parametrize("opset", [11, 13, 18, 19, 21, 25])
def test_pad_input(registry: Any, opset: int) -> None:
    check(registry, "Pad", opset, [[2, 3], i64(1, 0, 2, 3)])
    check(registry, "Pad", opset, [[2, 3], i64(0, -1, 1, 1), f32(5)[0:1].reshape(())])
    rejected(registry, "Pad", opset, [[2, 3], i64(1, 0)], {}, "pad_c2")
    if opset >= 18:
        check(registry, "Pad", opset, [[2, 3, 4], i64(1, 2, 3, 4), None, i64(2, 0)])
        check(registry, "Pad", opset, [[2, 3, 4], i64(1, 3), None, i64(-2)])
        rejected(registry, "Pad", opset, [[2, 3], i64(1, 1), None, i64(2)], {}, "pad_c3")
        rejected(registry, "Pad", opset, [[2, 3], i64(1, 1, 1, 1), None, i64(1, -1)], {}, "pad_c4")


@pytest.mark.parametrize("opset", [7, 9])
def test_upsample(registry: Any, opset: int) -> None:
    for scales in ([1.0, 1.0, 2.0, 2.0], [1.0, 1.0, 1.5, 2.7]):
        if opset == 7:
            check(registry, "Upsample", 7, [[1, 2, 3, 5]], {"scales": scales, "mode": "nearest"})
        else:
            check(registry, "Upsample", 9, [[1, 2, 3, 5], f32(*scales)], {"mode": "nearest"})
    rejected(registry, "Upsample", 9, [[1, 2], f32(1, 1, 2)], {}, "upsample_c1")
    rejected(registry, "Upsample", 9, [[1, 2], f32(1, 0.5)], {}, "upsample_c2")


# ----------------------------------------------------------------------------------------------- reductions

@pytest.mark.parametrize("opset", [1, 11, 13])
def test_reduce_mean_attribute(registry: Any, opset: int) -> None:
    check(registry, "ReduceMean", opset, [[2, 3, 4]])
    check(registry, "ReduceMean", opset, [[2, 3, 4]], {"keepdims": 0})
    check(registry, "ReduceMean", opset, [[2, 3, 4]], {"axes": [1]})
    check(registry, "ReduceMean", opset, [[2, 3, 4]], {"axes": [0, -1], "keepdims": 0})
    rejected(registry, "ReduceMean", opset, [[2, 3]], {"axes": [2]}, "reducemean_c1")


def test_reduce_mean_input(registry: Any) -> None:
    check(registry, "ReduceMean", 18, [[2, 3, 4]])
    check(registry, "ReduceMean", 18, [[2, 3, 4]], {"keepdims": 0})
    check(registry, "ReduceMean", 18, [[2, 3, 4], i64(1)])
    check(registry, "ReduceMean", 18, [[2, 3, 4], i64(0, -1)], {"keepdims": 0})
    check(registry, "ReduceMean", 18, [[2, 3, 4]], {"noop_with_empty_axes": 1})
    check(registry, "ReduceMean", 18, [[2, 3, 4], np.zeros(0, np.int64)], {"noop_with_empty_axes": 1})
    rejected(registry, "ReduceMean", 18, [[2, 3], i64(-3)], {}, "reducemean_c1")


# ----------------------------------------------------------------------------------------------- pooling

@pytest.mark.parametrize("opset", [1, 8, 10, 11, 12, 22])
def test_max_pool(registry: Any, opset: int) -> None:
    outputs = 1 if opset < 8 else 2
    cases: list[tuple[list[int], dict[str, Any]]] = [
        ([1, 3, 8, 8], {"kernel_shape": [2, 2]}),
        ([1, 3, 8, 8], {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}),
        ([2, 1, 9], {"kernel_shape": [4], "strides": [3], "pads": [0, 2]}),
        ([1, 1, 7, 5, 6], {"kernel_shape": [2, 3, 1], "strides": [2, 1, 3]}),
        ([1, 2, 7, 8], {"kernel_shape": [3, 2], "strides": [2, 3], "auto_pad": "SAME_UPPER"}),
        ([1, 2, 7, 8], {"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "SAME_LOWER"}),
        ([1, 2, 7, 8], {"kernel_shape": [2, 2], "strides": [3, 3], "auto_pad": "VALID"}),
    ]
    if opset >= 10:
        cases += [
            ([1, 1, 5, 5], {"kernel_shape": [2, 2], "strides": [2, 2], "ceil_mode": 1}),
            ([1, 1, 6, 6], {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1], "ceil_mode": 1}),
            ([1, 1, 9, 9], {"kernel_shape": [3, 3], "dilations": [2, 3]}),
            ([1, 1, 9, 9], {"kernel_shape": [2, 2], "dilations": [2, 2], "strides": [2, 2], "ceil_mode": 1}),
            ([1, 1, 4, 4], {"kernel_shape": [2, 2], "strides": [3, 3], "auto_pad": "VALID", "ceil_mode": 1}),
            ([1, 1, 7, 7], {"kernel_shape": [2, 2], "strides": [3, 3], "auto_pad": "SAME_UPPER", "ceil_mode": 1}),
        ]
    for shape, attrs in cases:
        check(registry, "MaxPool", opset, [shape], attrs, outputs=outputs)
    rejected(registry, "MaxPool", opset, [[1, 1, 2, 2]], {"kernel_shape": [3, 3]}, "maxpool_c2")
    rejected(registry, "MaxPool", opset, [[1, 1, 4, 4]], {"kernel_shape": [2, 2], "auto_pad": "VALID",
                                                          "pads": [1, 1, 1, 1]}, "maxpool_c3")
    rejected(registry, "MaxPool", opset, [[1, 1]], {"kernel_shape": []}, "maxpool_c1")
    # ceil_mode: a last window made only of end padding is undefined before version 22, which drops it
    edge = {"kernel_shape": [1], "strides": [3], "pads": [0, 2], "ceil_mode": 1}
    if opset >= 22:
        check(registry, "MaxPool", opset, [[1, 1, 4]], edge, outputs=outputs)
    elif opset >= 10:
        rejected(registry, "MaxPool", opset, [[1, 1, 4]], edge, "maxpool_c4")


# ----------------------------------------------------------------------------------------------- com.microsoft

def _ort_shapes(op: str, args: list[Any], attrs: dict[str, Any], names: list[str]) -> list[int]:
    ort = pytest.importorskip("onnxruntime")
    node_names = [names[i] if a is not None else "" for i, a in enumerate(args)]
    while node_names and node_names[-1] == "":
        node_names.pop()
    feeds = {names[i]: a for i, a in enumerate(args) if a is not None}
    inputs = [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), list(a.shape))
              for n, a in feeds.items()]
    node = helper.make_node(op, node_names, ["out"], domain="com.microsoft", **attrs)
    graph = helper.make_graph([node], "g", inputs, [helper.make_empty_tensor_value_info("out")])
    model = helper.make_model(graph, ir_version=8, opset_imports=[helper.make_opsetid("", 17),
                                                                 helper.make_opsetid("com.microsoft", 1)])
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return list(session.run(None, feeds)[0].shape)


def _ms_check(registry: Any, op: str, args: list[Any], attrs: dict[str, Any] | None = None) -> None:
    attrs = attrs or {}
    version = registry.resolve("com.microsoft", op, 1)
    shapes = [None if a is None else list(a.shape) for a in args]
    ours = infer_shapes(version, shapes, attrs)
    assert ours.problems == []
    assert ours.outputs[0] == _ort_shapes(op, args, attrs, [p.name for p in version.inputs])


def _rand(*shape: int) -> np.ndarray:
    return np.linspace(-3, 3, int(np.prod(shape)), dtype=np.float32).reshape(shape)


def test_fast_gelu(registry: Any) -> None:
    _ms_check(registry, "FastGelu", [_rand(2, 3)])
    _ms_check(registry, "FastGelu", [_rand(2, 3, 4), _rand(4)])
    rejected(registry, "FastGelu", 1, [[2, 3], [4]], {}, "binding", domain="com.microsoft")


@pytest.mark.parametrize("op", ["QuantizeLinear", "DequantizeLinear"])
def test_quantize_dequantize(registry: Any, op: str) -> None:
    prefix = op.lower()
    x = _rand(2, 3, 4) if op == "QuantizeLinear" else np.arange(24, dtype=np.uint8).reshape(2, 3, 4)
    scale = np.array(0.5, np.float32)
    _ms_check(registry, op, [x, scale, np.array(3, np.uint8)])
    _ms_check(registry, op, [x, scale])
    per_axis = np.full(3, 0.25, np.float32)
    _ms_check(registry, op, [x, per_axis, np.zeros(3, np.uint8)], {"axis": 1})
    _ms_check(registry, op, [x, np.full(4, 0.25, np.float32)], {"axis": -1})
    rejected(registry, op, 1, [[2, 3, 4], [3]], {}, f"{prefix}_c2", domain="com.microsoft")
    rejected(registry, op, 1, [[2, 3, 4], [4]], {"axis": 1}, f"{prefix}_c2", domain="com.microsoft")
    rejected(registry, op, 1, [[2, 3, 4], [4]], {"axis": 3}, f"{prefix}_c1", domain="com.microsoft")
    rejected(registry, op, 1, [[2, 3, 4], [3], [4]], {"axis": 1}, "binding", domain="com.microsoft")


# ----------------------------------------------------------------------------------------------- symbolic dims

def test_symbolic_batch_dims(registry: Any) -> None:
    from opset.formula import Sym

    n = Sym("N")

    def shape_of(op: str, opset: int, shapes: list[Any], attrs: dict[str, Any] | None = None,
                 values: dict[str, list[int]] | None = None) -> list[str] | None:
        result = infer_shapes(registry.resolve("ai.onnx", op, opset), shapes, attrs or {}, values)
        assert result.problems == []
        out = result.outputs[0]
        return None if out is None else [str(d) for d in out]

    assert shape_of("Transpose", 25, [[n, 3, 4]]) == ["4", "3", "N"]
    assert shape_of("MaxPool", 22, [[n, 3, 8, 8]], {"kernel_shape": [2, 2], "strides": [2, 2]}) == ["N", "3", "4", "4"]
    assert shape_of("Reshape", 25, [[n, 3, 4], [2]], values={"shape": [0, -1]}) == ["N", "12"]
    assert shape_of("Reshape", 25, [[n, 3, 4], [2]], values={"shape": [-1, 4]}) == ["3*N", "4"]
    assert shape_of("Mul", 14, [[n, 3], [3]]) == ["N", "3"]
    assert shape_of("Sum", 13, [[n, 3], [n, 3]]) == ["N", "3"]
    assert shape_of("ReduceMean", 18, [[n, 3, 4], [1]], {"keepdims": 0}, {"axes": [-1]}) == ["N", "3"]
    sliced = shape_of("Slice", 13, [[n, 10], [1], [1], [1]], values={"starts": [2], "ends": [-2], "axes": [1]})
    assert sliced == ["N", "6"]
    # a formula that needs to compare a symbolic dim with 1 leaves the shape unknown instead of guessing
    assert shape_of("Squeeze", 13, [[n, 1, 3]]) is None
