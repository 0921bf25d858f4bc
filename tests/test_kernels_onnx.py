"""ai.onnx reference kernels against onnx.reference (or onnxruntime where the reference is known wrong).

Every case runs a one-node model at each schema version of its op that the case lists; every registered
(op, version range) must be exercised by at least one case. Our kernel gets its attributes resolved through
the registry, as the conformance runner calls it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx
import onnx.defs
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from conformance.kernels.registry import all_kernels, find_kernel, run_kernel
from opset.load import load_registry

RNG = np.random.default_rng(1234)
REGISTRY = load_registry()


def f32(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def i64(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int64)


@functools.cache
def versions(op: str) -> tuple[int, ...]:
    return tuple(sorted(s.since_version for s in onnx.defs.get_all_schemas_with_history()
                        if s.name == op and s.domain == ""))


@dataclass
class Case:
    op: str
    attrs: dict[str, Any]
    inputs: list[np.ndarray | None]
    since: tuple[int, ...]  # the schema versions this case applies to (each is run)
    n_out: int = 1
    # "ref" (onnx.reference), "ref@N" (the reference at opset N), "ort", or a function giving the outputs
    oracle: str | Callable[[], list[np.ndarray]] = "ref"
    rtol: float = 1e-4
    id: str = ""


def model_for(c: Case, version: int) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    names, graph_inputs, feeds = [], [], {}
    for i, arr in enumerate(c.inputs):
        if arr is None:
            names.append("")
            continue
        names.append(f"in{i}")
        graph_inputs.append(helper.make_tensor_value_info(f"in{i}", helper.np_dtype_to_tensor_dtype(arr.dtype),
                                                          arr.shape))
        feeds[f"in{i}"] = np.asarray(arr)
    outs = [f"out{k}" for k in range(c.n_out)]
    node = helper.make_node(c.op, names, outs, **c.attrs)
    # outputs without a type: both runtimes infer them
    graph = helper.make_graph([node], "g", graph_inputs, [onnx.ValueInfoProto(name=o) for o in outs])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", version)])
    model.ir_version = 8 if version <= 18 else 10
    return model, feeds


def expected(c: Case, version: int) -> list[np.ndarray]:
    if callable(c.oracle):
        return c.oracle()
    if "@" in c.oracle:
        version = int(c.oracle.split("@")[1])
    model, feeds = model_for(c, version)
    if c.oracle.startswith("ort"):
        import onnxruntime as ort

        sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        return list(sess.run(None, feeds))
    return list(ReferenceEvaluator(model).run(None, feeds))


def ours(c: Case, opset: int) -> tuple[np.ndarray, ...]:
    # tensor attributes arrive as numpy arrays
    given = {k: numpy_helper.to_array(v) if isinstance(v, TensorProto) else v for k, v in c.attrs.items()}
    version = REGISTRY.try_resolve("ai.onnx", c.op, opset)
    if version is None:  # Upsample-1 is in onnx but not in the registry: its cases state every attribute
        fn = find_kernel("ai.onnx", c.op, opset)
        assert fn is not None, f"no kernel for {c.op}@{opset}"
        return fn(*c.inputs, **given)
    assert version.since == opset, f"{c.op}: opset {opset} resolves to the registry version {version.since}"
    return run_kernel(version, c.inputs, given, c.n_out)


def all_since(op: str, lo: int = 1, hi: int = 99) -> tuple[int, ...]:
    return tuple(v for v in versions(op) if lo <= v <= hi)


def pool_cases() -> list[Case]:
    x = f32(1, 2, 7, 6)
    cases = []
    avg = [
        ("k3", dict(kernel_shape=[3, 3]), 1),
        ("k3s2p1", dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]), 1),
        ("k2s2_asym_pads", dict(kernel_shape=[2, 3], strides=[2, 1], pads=[1, 0, 0, 2]), 1),
        ("same_upper", dict(kernel_shape=[3, 2], strides=[2, 2], auto_pad="SAME_UPPER"), 1),
        ("same_lower", dict(kernel_shape=[3, 2], strides=[2, 2], auto_pad="SAME_LOWER"), 1),
        ("valid", dict(kernel_shape=[3, 3], strides=[2, 2], auto_pad="VALID"), 1),
        ("include_pad", dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1], count_include_pad=1), 7),
        ("include_pad_same", dict(kernel_shape=[3, 3], auto_pad="SAME_UPPER", count_include_pad=1), 7),
        ("ceil", dict(kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1), 10),
        ("ceil_pads", dict(kernel_shape=[2, 2], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1), 10),
        ("ceil_pads_include", dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1,
                                   count_include_pad=1), 10),
        ("dil", dict(kernel_shape=[2, 2], dilations=[2, 2], pads=[1, 1, 1, 1]), 19),
        ("dil_ceil_include", dict(kernel_shape=[2, 2], dilations=[2, 1], strides=[2, 2], ceil_mode=1,
                                  count_include_pad=1), 19),
    ]
    for name, attrs, lo in avg:
        cases.append(Case("AveragePool", attrs, [x], all_since("AveragePool", max(lo, 7)), id=name))
        if lo == 1:  # the reference counts pads at opset 1 (it reads the absent count_include_pad as 'include')
            cases.append(Case("AveragePool", attrs, [x], (1,), oracle="ref@7", id=name))
    cases.append(Case("AveragePool", dict(kernel_shape=[3]), [f32(2, 3, 9)], all_since("AveragePool"), id="1d"))
    cases.append(Case("AveragePool", dict(kernel_shape=[2, 2, 3], strides=[1, 2, 1], pads=[0, 1, 1, 1, 0, 1]),
                      [f32(1, 2, 4, 5, 5)], all_since("AveragePool", 7), id="3d"))
    cases.append(Case("AveragePool", dict(kernel_shape=[2, 2]), [f32(1, 2, 4, 4).astype(np.float16)],
                      all_since("AveragePool"), rtol=2e-3, id="fp16"))
    mx = [
        ("k3", dict(kernel_shape=[3, 3]), 1),
        ("k3s2p1", dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]), 1),
        ("same_upper", dict(kernel_shape=[3, 3], strides=[2, 2], auto_pad="SAME_UPPER"), 1),
        ("same_lower_s1", dict(kernel_shape=[2, 3], auto_pad="SAME_LOWER"), 1),
        ("ceil", dict(kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1), 10),
        ("dil", dict(kernel_shape=[2, 2], dilations=[2, 2], pads=[1, 0, 1, 0]), 10),
    ]
    for name, attrs, lo in mx:
        vs = all_since("MaxPool", lo)
        cases.append(Case("MaxPool", attrs, [x], tuple(v for v in vs if v < 8), id=name))
        for order in (0, 1):
            cases.append(Case("MaxPool", dict(attrs, storage_order=order), [x], tuple(v for v in vs if v >= 8),
                              n_out=2, oracle="ort", id=f"{name}_order{order}"))
    xi = RNG.integers(-100, 100, (1, 2, 5, 5)).astype(np.int8)
    cases.append(Case("MaxPool", dict(kernel_shape=[2, 2], pads=[1, 1, 0, 0]), [xi], all_since("MaxPool", 12),
                      n_out=2, oracle="ort", id="int8"))
    cases.append(Case("MaxPool", dict(kernel_shape=[2, 2], strides=[2, 2]), [xi.view(np.uint8)],
                      all_since("MaxPool", 12), n_out=2, oracle="ort", id="uint8_indices"))
    cases.append(Case("MaxPool", dict(kernel_shape=[3]), [f32(2, 3, 8)], all_since("MaxPool", 8), n_out=2,
                      oracle="ort", id="1d_indices"))
    cases.append(Case("MaxPool", dict(kernel_shape=[2, 2, 2], strides=[2, 1, 2]), [f32(1, 2, 4, 3, 4)],
                      all_since("MaxPool", 8), n_out=2, oracle="ort", id="3d_indices"))
    cases.append(Case("GlobalAveragePool", {}, [f32(2, 3, 4, 5)], all_since("GlobalAveragePool")))
    cases.append(Case("GlobalMaxPool", {}, [f32(2, 3, 4, 5)], all_since("GlobalMaxPool")))
    # the reference reduces only the last two axes of a 3-D image
    cases.append(Case("GlobalMaxPool", {}, [f32(2, 3, 4, 5, 2)], all_since("GlobalMaxPool"), oracle="ort",
                      id="3d"))
    return cases


def conv_cases() -> list[Case]:
    x = f32(2, 4, 7, 6)
    cases = [
        Case("Conv", {}, [x, f32(3, 4, 3, 3), f32(3)], all_since("Conv"), id="plain"),
        Case("Conv", dict(kernel_shape=[3, 2], strides=[2, 1], pads=[1, 0, 2, 1]), [x, f32(6, 4, 3, 2)],
             all_since("Conv"), id="strided_pads"),
        Case("Conv", dict(group=2, dilations=[2, 1]), [x, f32(6, 2, 2, 3), f32(6)], all_since("Conv"), id="group"),
        Case("Conv", dict(group=4, pads=[1, 1, 1, 1]), [x, f32(4, 1, 3, 3), f32(4)], all_since("Conv"),
             id="depthwise"),
        Case("Conv", dict(group=4, strides=[2, 2]), [x, f32(8, 1, 3, 3)], all_since("Conv"), id="depthwise_mult2"),
        Case("Conv", dict(auto_pad="SAME_UPPER", strides=[2, 2]), [x, f32(3, 4, 3, 3)], all_since("Conv"),
             id="same_upper"),
        Case("Conv", dict(auto_pad="SAME_LOWER"), [x, f32(3, 4, 2, 2)], all_since("Conv"), id="same_lower"),
        Case("Conv", dict(auto_pad="VALID", strides=[2, 2]), [x, f32(3, 4, 3, 3)], all_since("Conv"), id="valid"),
        Case("Conv", dict(strides=[2]), [f32(1, 3, 9), f32(2, 3, 3), f32(2)], all_since("Conv"), id="1d"),
        Case("Conv", dict(pads=[1, 0, 1, 0, 1, 1]), [f32(1, 2, 4, 3, 5), f32(3, 2, 2, 2, 3)], all_since("Conv"),
             id="3d"),
        Case("ConvTranspose", {}, [f32(1, 3, 4, 5), f32(3, 2, 3, 3), f32(2)], all_since("ConvTranspose"),
             id="plain"),
        Case("ConvTranspose", dict(strides=[2, 2], pads=[1, 1, 1, 1], output_padding=[1, 1]),
             [f32(1, 4, 4, 4), f32(4, 2, 3, 3), f32(2)], all_since("ConvTranspose"), id="s2_outpad"),
        Case("ConvTranspose", dict(strides=[2, 3], dilations=[2, 1], group=2),
             [f32(2, 4, 3, 3), f32(4, 3, 2, 2)], all_since("ConvTranspose"), oracle="ort", id="group_dil"),
        Case("ConvTranspose", dict(strides=[2, 2], output_shape=[9, 10], auto_pad="SAME_UPPER"),
             [f32(1, 2, 4, 5), f32(2, 3, 3, 3)], all_since("ConvTranspose"), id="output_shape"),
        Case("ConvTranspose", dict(strides=[2, 2], auto_pad="SAME_LOWER"),
             [f32(1, 2, 3, 3), f32(2, 3, 3, 3)], all_since("ConvTranspose"), id="same_lower"),
        Case("ConvTranspose", dict(strides=[3]), [f32(1, 2, 4), f32(2, 3, 2)], all_since("ConvTranspose"), id="1d"),
        Case("ConvTranspose", dict(strides=[1, 2, 1], pads=[0, 1, 0, 0, 1, 1]),
             [f32(1, 2, 3, 3, 2), f32(2, 2, 2, 3, 2)], all_since("ConvTranspose"), id="3d"),
    ]
    return cases


def elementwise_cases() -> list[Case]:
    x = f32(3, 4, 5)
    cases = []
    for op in ("Abs", "Relu", "Sigmoid", "Tanh"):
        cases.append(Case(op, {}, [x], all_since(op)))
    cases.append(Case("Sigmoid", {}, [np.array([-100, -20, 0, 20, 100], np.float32)], all_since("Sigmoid"),
                      id="extremes"))
    cases.append(Case("Elu", dict(alpha=0.7), [x], all_since("Elu")))
    cases.append(Case("LeakyRelu", dict(alpha=0.2), [x], all_since("LeakyRelu")))
    cases.append(Case("LeakyRelu", {}, [x.astype(np.float16)], all_since("LeakyRelu"), rtol=1e-3, id="fp16"))
    cases.append(Case("PRelu", {}, [x, f32(5)], all_since("PRelu", 7), id="bcast"))
    cases.append(Case("PRelu", {}, [f32(2, 3, 4, 4), f32(3, 1, 1)], all_since("PRelu", 7), id="channel"))
    cases.append(Case("PRelu", {}, [x, f32(3, 4, 5)], all_since("PRelu"), id="same"))
    for op in ("Add", "Mul"):
        cases.append(Case(op, {}, [x, f32(3, 4, 5)], all_since(op), id="same"))
        cases.append(Case(op, {}, [x, f32(4, 1)], all_since(op, 7), id="bcast"))
        cases.append(Case(op, dict(broadcast=1), [x, f32(4, 5)], all_since(op, 1, 6), id="legacy_suffix"))
        a, b = f32(2, 3, 4, 5), f32(3, 4)
        fn = np.add if op == "Add" else np.multiply
        cases.append(Case(op, dict(broadcast=1, axis=1), [a, b], all_since(op, 1, 6),
                          oracle=lambda a=a, b=b, fn=fn: [fn(a, b[:, :, None])], id="legacy_axis"))
        cases.append(Case(op, {}, [RNG.integers(-9, 9, (3, 4)).astype(np.int32)] * 2, all_since(op, 7), id="int"))
    cases.append(Case("Sum", {}, [x, f32(3, 4, 5), f32(3, 4, 5)], all_since("Sum"), id="same"))
    cases.append(Case("Sum", {}, [x, f32(4, 1), f32(5)], all_since("Sum", 8), id="bcast"))
    cases.append(Case("Sum", {}, [x], all_since("Sum"), id="one"))
    cases.append(Case("Clip", dict(min=-0.5, max=0.3), [x], all_since("Clip", 1, 10), oracle="ref@6", id="attrs"))
    cases.append(Case("Clip", dict(max=0.3), [x], all_since("Clip", 1, 10), oracle="ref@6", id="attr_max"))
    cases.append(Case("Clip", {}, [x, np.float32(-0.5), np.float32(0.2)], all_since("Clip", 11), id="inputs"))
    cases.append(Case("Clip", {}, [x, None, np.float32(0.2)], all_since("Clip", 11), id="max_only"))
    cases.append(Case("Clip", {}, [RNG.integers(-9, 9, (3, 4)).astype(np.int64), np.int64(-2), np.int64(3)],
                      all_since("Clip", 12), id="int"))
    return cases


def bn_formula(x: np.ndarray, s: np.ndarray, b: np.ndarray, m: np.ndarray, v: np.ndarray, eps: float = 1e-5,
               spatial: bool = True) -> np.ndarray:
    shape = (1, -1, 1, 1) if spatial else (1, *x.shape[1:])
    s, b, m, v = (t.reshape(shape) for t in (s, b, m, v))
    return ((x - m) / np.sqrt(v + eps) * s + b).astype(x.dtype)


def bn_training(x: np.ndarray, s: np.ndarray, b: np.ndarray, m: np.ndarray, v: np.ndarray,
                momentum: float) -> list[np.ndarray]:
    bm, bv = x.mean(axis=(0, 2, 3)), x.var(axis=(0, 2, 3))
    return [bn_formula(x, s, b, bm, bv), m * momentum + bm * (1 - momentum), v * momentum + bv * (1 - momentum),
            bm, bv]


def norm_cases() -> list[Case]:
    x = f32(2, 3, 4, 5)
    p = [f32(3), f32(3), f32(3), np.abs(f32(3)) + 0.5]
    ps = [f32(3, 4, 5), f32(3, 4, 5), f32(3, 4, 5), np.abs(f32(3, 4, 5)) + 0.5]
    ga, gb, gc = f32(4, 3), f32(4, 5), f32(3, 5)
    return [
        Case("BatchNormalization", dict(epsilon=1e-3), [x, *p], all_since("BatchNormalization", 14), id="infer"),
        Case("BatchNormalization", dict(is_test=1), [x, *p], all_since("BatchNormalization", 1, 6),
             oracle=lambda: [bn_formula(x, *p)], id="is_test"),
        Case("BatchNormalization", dict(is_test=1, spatial=0), [x, *ps], all_since("BatchNormalization", 1, 6),
             oracle=lambda: [bn_formula(x, *ps, spatial=False)], id="per_activation"),
        Case("BatchNormalization", dict(momentum=0.7), [x, *p], all_since("BatchNormalization", 1, 6), n_out=5,
             oracle=lambda: bn_training(x, *p, momentum=0.7), id="train_v1"),
        Case("BatchNormalization", {}, [x, *p], all_since("BatchNormalization", 7, 13), oracle="ort",
             id="infer_old"),
        Case("BatchNormalization", dict(training_mode=1, momentum=0.8), [x, *p],
             all_since("BatchNormalization", 14), n_out=3, rtol=1e-3, id="training"),
        # the reference normalises along the last axis at opset 1/11 instead of coercing to 2-D
        Case("Softmax", {}, [f32(2, 3, 4)], all_since("Softmax", 1, 12), oracle="ort", id="default"),
        Case("Softmax", dict(axis=0), [f32(2, 3, 4)], all_since("Softmax", 1, 12), oracle="ort", id="axis0"),
        Case("Softmax", dict(axis=-2), [f32(2, 3, 4)], all_since("Softmax", 11, 12), oracle="ort", id="axis_neg"),
        Case("Softmax", {}, [f32(2, 3, 4)], all_since("Softmax", 13), id="default"),
        Case("Softmax", dict(axis=0), [f32(2, 3, 4)], all_since("Softmax", 13), id="axis0"),
        Case("Softmax", dict(axis=-2), [f32(2, 3, 4)], all_since("Softmax", 13), id="axis_neg"),
        Case("ReduceMean", dict(axes=[0, 2], keepdims=0), [f32(2, 3, 4)], all_since("ReduceMean", 1, 17),
             id="axes_attr"),
        Case("ReduceMean", {}, [f32(2, 3, 4)], all_since("ReduceMean"), id="all"),
        Case("ReduceMean", dict(keepdims=1), [f32(2, 3, 4), i64(-1, 1)], all_since("ReduceMean", 18),
             id="axes_input"),
        Case("ReduceMean", dict(noop_with_empty_axes=1), [f32(2, 3, 4), i64()], all_since("ReduceMean", 18),
             id="noop"),
        Case("Gemm", dict(alpha=0.5, beta=2.0, transA=1), [ga, gb, gc], all_since("Gemm", 7), id="transA"),
        Case("Gemm", dict(alpha=0.5, beta=2.0, transA=1), [ga, gb, gc], all_since("Gemm", 1, 6),
             oracle=lambda: [0.5 * ga.T @ gb + 2.0 * gc], id="transA"),
        Case("Gemm", dict(transB=1), [f32(3, 4), f32(5, 4), f32(5)], all_since("Gemm", 7), id="bias_row"),
        Case("Gemm", dict(broadcast=1), [gb.T, gb, gc[0]], all_since("Gemm", 1, 6),
             oracle=lambda: [gb.T @ gb + gc[0]], id="legacy_bcast"),
        Case("Gemm", {}, [f32(3, 4), f32(4, 5)], all_since("Gemm", 11), id="no_c"),
    ]


def shape_cases() -> list[Case]:
    x = f32(2, 3, 4, 5)
    cases = [
        Case("Concat", dict(axis=1), [x, f32(2, 1, 4, 5), f32(2, 2, 4, 5)], all_since("Concat"), id="axis1"),
        Case("Concat", dict(axis=-1), [x, f32(2, 3, 4, 2)], all_since("Concat", 11), id="neg"),
        Case("Flatten", {}, [x], all_since("Flatten"), id="default"),
        Case("Flatten", dict(axis=0), [x], all_since("Flatten"), id="axis0"),
        Case("Flatten", dict(axis=-2), [x], all_since("Flatten", 11), id="neg"),
        Case("Identity", {}, [x], all_since("Identity")),
        Case("Transpose", {}, [x], all_since("Transpose"), id="reverse"),
        Case("Transpose", dict(perm=[0, 2, 3, 1]), [x], all_since("Transpose"), id="perm"),
        Case("Reshape", dict(shape=[0, -1]), [x], all_since("Reshape", 1, 4), oracle="ort", id="attr"),
        Case("Reshape", {}, [x, i64(0, -1, 5)], all_since("Reshape", 5), id="zero_copy"),
        Case("Reshape", dict(allowzero=1), [np.zeros((0, 3), np.float32), i64(3, 0)], all_since("Reshape", 14),
             id="allowzero"),
        Case("Squeeze", dict(axes=[0]), [f32(1, 3, 1, 2)], all_since("Squeeze", 1, 12), id="attr"),
        Case("Squeeze", {}, [f32(1, 3, 1, 2)], all_since("Squeeze"), id="all"),
        Case("Squeeze", {}, [f32(1, 3, 1, 2), i64(-2)], all_since("Squeeze", 13), id="input"),
        Case("Slice", dict(starts=[1, 0], ends=[100, -1], axes=[1, 3]), [x], all_since("Slice", 1, 9), id="attr"),
        Case("Slice", {}, [x, i64(1, -1), i64(3, -100), i64(1, 3), i64(1, -2)], all_since("Slice", 10),
             id="neg_step"),
        Case("Slice", {}, [x, i64(-10, 0), i64(10, 1000)], all_since("Slice", 10), id="clamp"),
        Case("Slice", {}, [x, i64(3), i64(-1000), i64(2), i64(-1)], all_since("Slice", 10), id="backward_all"),
        Case("SpaceToDepth", dict(blocksize=2), [f32(1, 3, 4, 6)], all_since("SpaceToDepth"), id="dcr"),
        Case("Constant", dict(value=numpy_helper.from_array(f32(2, 3))), [], all_since("Constant"), id="tensor"),
        Case("Constant", dict(value_float=1.5), [], all_since("Constant", 12), id="float"),
        Case("Constant", dict(value_ints=[1, 2, 3]), [], all_since("Constant", 12), id="ints"),
        Case("Constant", dict(value_floats=[1.5, 2.0]), [], all_since("Constant", 12), id="floats"),
        Case("Constant", dict(value_int=7), [], all_since("Constant", 12), id="int"),
    ]
    for mode in ("constant", "reflect", "edge"):
        cases.append(Case("Pad", dict(pads=[0, 1, 2, 0, 0, 2, 1, 0], mode=mode, value=1.5), [x],
                          all_since("Pad", 2, 10), id=f"attr_{mode}"))
        cases.append(Case("Pad", dict(mode=mode), [x, i64(0, 1, 2, 1, 0, 2, 1, 3)], all_since("Pad", 11),
                          id=f"input_{mode}"))
    cases.append(Case("Pad", dict(paddings=[0, 0, 1, 1, 0, 0, 2, 0]), [x], all_since("Pad", 1, 1),
                      oracle=lambda: [np.pad(x, [(0, 0), (0, 0), (1, 2), (1, 0)])], id="v1"))
    cases.append(Case("Pad", dict(mode="wrap"), [x, i64(0, 1, 2, 1, 0, 2, 1, 3)], all_since("Pad", 19),
                      id="wrap"))
    cases.append(Case("Pad", {}, [x, i64(0, -1, 2, 1, 0, 1, -2, 0), np.float32(2.0)], all_since("Pad", 11),
                      oracle="ort@18", id="crop_value"))
    cases.append(Case("Pad", dict(mode="reflect"), [x, i64(1, 2, 0, 3), None, i64(1, -1)], all_since("Pad", 18),
                      id="axes"))
    # Upsample: the reference implements nearest with integer scales only; linear is checked against ORT
    xs = f32(1, 2, 3, 4)
    cases.append(Case("Upsample", dict(scales=[1.0, 1.0, 2.0, 3.0]), [xs], all_since("Upsample", 7, 8),
                      oracle="ort", id="nearest_attr"))
    cases.append(Case("Upsample", dict(height_scale=2.0, width_scale=3.0, mode="nearest"), [xs],
                      all_since("Upsample", 1, 6), oracle=lambda: [xs.repeat(2, axis=2).repeat(3, axis=3)],
                      id="v1_nearest"))
    linear9 = Case("Upsample", dict(mode="linear"), [xs, np.array([1, 1, 2, 1.5], np.float32)], (9,), oracle="ort")
    cases.append(Case("Upsample", dict(height_scale=2.0, width_scale=1.5, mode="bilinear"), [xs],
                      all_since("Upsample", 1, 6), oracle=lambda: expected(linear9, 9), id="v1_bilinear"))
    cases.append(Case("Upsample", dict(mode="linear", scales=[1.0, 1.0, 2.0, 2.5]), [xs],
                      all_since("Upsample", 7, 8), oracle="ort", id="linear_attr"))
    cases.append(Case("Upsample", {}, [xs, np.array([1, 1, 2, 3], np.float32)], all_since("Upsample", 9),
                      id="nearest_input"))
    cases.append(Case("Upsample", dict(mode="linear"), [xs, np.array([1, 1, 2, 1.5], np.float32)],
                      all_since("Upsample", 9), oracle="ort@9", id="linear_input"))
    cases.append(Case("Upsample", dict(mode="nearest"), [xs, np.array([1, 1, 1.5, 2.5], np.float32)],
                      all_since("Upsample", 9), oracle="ort@9", id="nearest_fraction"))
    return cases


ALL = pool_cases() + conv_cases() + elementwise_cases() + norm_cases() + shape_cases()
PARAMS = [pytest.param(c, v, id=f"{c.op}@{v}-{c.id or 'basic'}") for c in ALL for v in c.since]


def _compare(c: Case, version: int, got: tuple[np.ndarray, ...], want: list[np.ndarray]) -> None:
    label = f"{c.op}@{version} ({c.id or 'basic'}, {c.attrs})"
    assert isinstance(got, tuple), f"{label}: kernel must return a tuple"
    assert len(got) >= len(want), f"{label}: {len(got)} outputs, expected at least {len(want)}"
    for k, (g, w) in enumerate(zip(got, want, strict=False)):
        w = np.asarray(w)
        assert g.shape == w.shape, f"{label}: output {k} shape {g.shape} but expected {w.shape}"
        assert g.dtype == w.dtype, f"{label}: output {k} dtype {g.dtype} but expected {w.dtype}"
        if w.dtype.kind in "fc":
            np.testing.assert_allclose(g, w, rtol=c.rtol, atol=c.rtol, err_msg=f"{label}: output {k}")
        else:
            np.testing.assert_array_equal(g, w, err_msg=f"{label}: output {k}")


@pytest.mark.parametrize(("case", "version"), PARAMS)
def test_kernel_matches_oracle(case: Case, version: int) -> None:
    want = expected(case, version)
    got = ours(case, version)
    _compare(case, version, got, want)


def test_every_registered_version_range_is_exercised() -> None:
    from tests.test_ops_light import KERNEL_CASES as LIGHT_MODEL_OP_CASES  # the ops the light models added

    tested = {(c.op, v) for c in [*ALL, *LIGHT_MODEL_OP_CASES] for v in c.since}
    missing = []
    for (domain, op), entries in all_kernels().items():
        if domain != "ai.onnx":
            continue
        for e in entries:
            served = [v for v in versions(op) if e.since <= v and (e.until is None or v <= e.until)]
            if not served:
                missing.append(f"{op} {e.since}..{e.until} serves no schema version")
            elif not any((op, v) in tested for v in served):
                missing.append(f"{op} {e.since}..{e.until}")
    assert not missing, f"registered kernels without a test case: {missing}"


def test_every_schema_version_has_a_kernel() -> None:
    ops = {op for (domain, op) in all_kernels() if domain == "ai.onnx"}
    gaps = [f"{op}@{v}" for op in sorted(ops) for v in versions(op) if find_kernel("ai.onnx", op, v) is None]
    assert not gaps, f"schema versions without a kernel: {gaps}"


def test_kernels_accept_exactly_the_schema_attributes() -> None:
    import inspect

    problems = []
    for (domain, op), entries in all_kernels().items():
        if domain != "ai.onnx":
            continue
        for e in entries:
            params = inspect.signature(e.fn).parameters
            if any(p.kind is p.VAR_KEYWORD for p in params.values()):
                continue
            kw = {n for n, p in params.items() if p.kind is p.KEYWORD_ONLY}
            for v in versions(op):
                if e.since <= v and (e.until is None or v <= e.until):
                    attrs = set(onnx.defs.get_schema(op, v, "").attributes)
                    if not attrs <= kw:
                        problems.append(f"{op}@{v}: kernel lacks {sorted(attrs - kw)}")
    assert not problems, problems


@pytest.mark.parametrize(("op", "attrs", "inputs", "message"), [
    ("AveragePool", dict(kernel_shape=[3]), [f32(1, 1, 4, 4)], "kernel_shape has 1 values"),
    ("AveragePool", dict(kernel_shape=[2, 2], auto_pad="SAME"), [f32(1, 1, 4, 4)], "auto_pad"),
    ("MaxPool", dict(kernel_shape=[2, 2], pads=[-1, 0, 0, 0]), [f32(1, 1, 4, 4)], "pads"),
    ("Conv", dict(group=3), [f32(1, 4, 4, 4), f32(2, 4, 3, 3)], "group"),
    ("Reshape", {}, [f32(2, 3), i64(4, -1)], "Reshape"),
    ("Transpose", dict(perm=[0, 0]), [f32(2, 3)], "perm"),
    ("Concat", dict(axis=3), [f32(2, 3)], "axis"),
    ("Squeeze", {}, [f32(2, 3), i64(0)], "size 1"),
])
def test_invalid_inputs_raise_value_error(op: str, attrs: dict[str, Any], inputs: list[np.ndarray],
                                          message: str) -> None:
    version = REGISTRY.resolve("ai.onnx", op, versions(op)[-1])
    with pytest.raises(ValueError, match=message):
        run_kernel(version, inputs, attrs)


def test_seed_004_average_pool_examples() -> None:
    """The AveragePool examples of seed 004 (ONNX's own operator doc examples), by value."""
    version = REGISTRY.resolve("ai.onnx", "AveragePool", 11)
    x = np.arange(1, 26, dtype=np.float32).reshape(1, 1, 5, 5)
    (y,) = run_kernel(version, [x], dict(kernel_shape=[5, 5], pads=[2, 2, 2, 2]))
    assert y[0, 0, 0, 0] == pytest.approx(7.0) and y[0, 0, 2, 2] == pytest.approx(13.0)
    (y,) = run_kernel(version, [x], dict(kernel_shape=[5, 5], pads=[2, 2, 2, 2], count_include_pad=1))
    assert y[0, 0, 0, 0] == pytest.approx(2.52) and y[0, 0, 2, 2] == pytest.approx(13.0)
    x4 = np.arange(1, 17, dtype=np.float32).reshape(1, 1, 4, 4)
    (y,) = run_kernel(version, [x4], dict(kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1))
    np.testing.assert_allclose(y[0, 0], [[6, 7.5], [12, 13.5]])
    (y,) = run_kernel(version, [x], dict(kernel_shape=[3, 3], auto_pad="SAME_LOWER"))
    assert y[0, 0, 0, 0] == pytest.approx(4.0)  # mean of 1, 2, 6, 7
