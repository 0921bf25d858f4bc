"""Every `maps_to` of a Tengine op, run both ways: a one-node `.tmfile` of the op on the reference kernels (`opset run`)
and its conversion on onnxruntime give the same outputs, for each example of the op's YAML and the cases below.

A case is (attributes, input arrays, how many leading inputs are graph inputs; the others are constants as a
converter stores weights). The test fails when a case's node finds no mapping: each case is one a mapping claims.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest

from conformance.models.runner import ModelRunner
from conformance.registry import current_registry
from conformance.strategies.examples import example_arrays
from opset.frozen import thaw
from opset.tmfile.convert import convert
from opset.tmfile.onnx_view import to_onnx
from opset.tmfile.params import tengine_versions
from tests.helpers.tmfile import one_node_model

ort = pytest.importorskip("onnxruntime")
rng = np.random.default_rng(31)


def _x(*shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


def _pos(*shape: int) -> np.ndarray:
    return (rng.random(shape) + 0.5).astype(np.float32)


Case = tuple[dict[str, Any], list[Any], int]
POOL_REFUSED = {(1, 2, 1, 1)}  # (alg, stride, caffe_flavor, pad) on 9 x 8: the last Caffe average window passes H + pad
_TYPE_CODES = {"float32": 0, "float16": 1, "int8": 2, "uint8": 3, "int32": 4, "int64": 4}
X = _x(2, 3, 4, 5)
CASES: dict[str, list[Case]] = {
    "Eltwise": [
        ({"type": 0}, [X, _x(2, 3, 4, 5)], 2), ({"type": 0}, [X, _x(6)], 1), ({"type": 1}, [X, _x(1)], 1),
        ({"type": 2}, [X, _x(2, 3, 4, 5)], 2), ({"type": 3}, [X, _x(1)], 1), ({"type": 4}, [X, _x(120)], 1),
        ({"type": 5}, [X, _x(1)], 1), ({"type": 6}, [X, _x(2, 3, 4, 5)], 2), ({"type": 7}, [_pos(2, 3)], 1),
        ({"type": 8}, [X, _x(1)], 1), ({"type": 10}, [X, _pos(2, 3, 1, 1)], 1), ({"type": 11}, [_pos(4, 2)], 1),
        ({"type": 12}, [X], 1), ({"type": 13}, [_pos(3, 5)], 1), ({"type": 14}, [X], 1), ({"type": 15}, [X], 1),
        ({"type": 16}, [_pos(2, 3), _x(2, 3)], 1),
        ({"type": 17, "shift": 1.5, "scale": 0.5, "power": 2.0}, [X], 1),
    ],
    "Unary": [({"type": t}, [_pos(3, 4) * 0.9], 1) for t in range(17)],
    "Prelu": [({}, [X, _x(3)], 1), ({}, [X, _x(1)], 1), ({}, [_x(4, 3), _x(3)], 1), ({}, [_x(2, 3, 5), _x(3, 1)], 1)],
    "BatchNormalization": [
        ({"eps": 1e-3}, [X, _x(3), _x(3), _x(3), _pos(3)], 1),
        ({"caffe_flavor": 1}, [X, _x(3), _x(3), _x(3), _pos(3)], 1),
    ],
    "BroadMul": [({}, [X, _x(3)], 1), ({}, [X, _x(1, 3, 1, 1)], 2)],
    "LRN": [({"local_size": 5, "alpha": 1e-4, "beta": 0.75, "k": 1.0}, [_x(1, 7, 3, 3)], 1),
            ({"local_size": 4, "alpha": 0.5, "beta": 0.6, "k": 2.0}, [_x(1, 7, 3, 3)], 1)],
    "Bias": [({}, [X, _x(3)], 1)],
    "Scale": [({}, [X, _x(3)], 1), ({}, [X, _x(3), _x(3)], 1)],
    "Flatten": [({"axis": 1, "end_axis": 3}, [_x(2, 3, 1, 1)], 1), ({"axis": 1, "end_axis": 3}, [X], 1)],
    "Pad": [({"mode": m, "pad_c_0": c, "pad_c_1": c, "pad_h_0": 1, "pad_h_1": 2, "pad_w_0": 2, "pad_w_1": 1,
              "value": 0.5}, [X], 1) for m in (0, 1, 2) for c in (0, 1)],
    "Sigmoid": [({}, [_x(3, 4) * 40], 1)],
    "Tile": [({"frame_flag": 0, "reps": [3], "reps_size": 1}, [X], 1),
             ({"frame_flag": 1}, [_x(2, 3), np.array([2, 3], np.int64)], 1)],
    "HardSwish": [({}, [X * 4], 1), ({"alpha": 0.5, "beta": 2.0}, [X * 4], 1)],
    "Hardsigmoid": [({"alpha": 0.3, "beta": 0.4}, [X * 3], 1)],
    "Mish": [({}, [X * 3], 1)], "SELU": [({"alpha": 1.5, "gamma": 1.1}, [X], 1)], "Softplus": [({}, [X * 3], 1)],
    "Gelu": [({}, [X * 3], 1)], "Threshold": [({"threshold": 0.25}, [X], 1)], "Reciprocal": [({}, [_pos(3, 4)], 1)],
    "Ceil": [({}, [X * 3], 1)], "ReLU1": [({}, [X * 3], 1)], "ReLU6": [({}, [X * 8], 1)],
    "Clip": [({"min": -0.5, "max": 0.7}, [X], 1), ({"min": 0.5, "max": -0.5}, [X], 1)],
    "Expanddims": [({"axis": 1}, [_x(2, 3)], 1), ({"axis": 2}, [_x(2, 3)], 1)],
    "Interp": [({"resize_type": 1, "height_scale": 2.0, "width_scale": 3.0}, [_x(1, 2, 3, 4)], 1),
               ({"resize_type": 1, "height_scale": 0.0, "width_scale": 0.0, "output_height": 5, "output_width": 7},
                [_x(1, 2, 3, 4)], 1),
               ({"resize_type": 2, "height_scale": 2.0, "width_scale": 2.0}, [_x(1, 2, 3, 4)], 1),
               ({"resize_type": 4, "height_scale": 0.0, "width_scale": 0.0, "output_height": 5, "output_width": 6},
                [_x(1, 2, 3, 4)], 1)],
    "Resize": [({"scale_x": 2.0, "scale_y": 3.0}, [_x(1, 2, 3, 4)], 1), ({"scale_x": 0.5, "scale_y": 2.0},
                                                                         [_x(1, 2, 4, 4)], 1)],
    "BilinearResize": [({"type": 0, "scale_x": 2.0, "scale_y": 3.0}, [_x(1, 2, 3, 4)], 1),
                       ({"type": 1, "scale_x": 2.0, "scale_y": 2.0}, [_x(1, 2, 3, 4)], 1)],
    "Upsample": [({"scale": 2.0}, [_x(1, 2, 3, 4)], 1), ({"scale": 1.5}, [_x(1, 2, 4, 6)], 1)],
    "Crop": [({"flag": 0, "axis": 2, "offset_h": 1, "offset_w": 2}, [_x(1, 3, 6, 7), _x(1, 3, 4, 4)], 1),
             ({"flag": 0, "axis": 1, "offset_c": 1, "offset_h": 1, "offset_w": 0}, [_x(1, 4, 6, 7), _x(1, 2, 3, 5)], 1),
             ({"flag": 1, "num_args": 1, "crop_h": 3, "crop_w": 4}, [_x(1, 3, 6, 7)], 1),
             ({"flag": 1, "num_args": 2, "axis": 2}, [_x(1, 3, 6, 7), _x(1, 3, 4, 5)], 1)],
    "ShuffleChannel": [({"group": 3}, [_x(2, 6, 2, 3)], 1)],
    "Slice": [({"iscaffe": 1, "axis": 1, "slice_points": [1, 3], "_outputs": 3}, [_x(2, 5, 3)], 1),
              ({"ismxnet": 1, "axis": 2, "begin": 1, "end": 3}, [_x(2, 5, 4)], 1),
              ({"isonnx": 1, "axis": -1, "begin": 1, "end": 100, "step": 2}, [_x(2, 5, 7)], 1),
              ({"isonnx": 1, "axis": 1, "begin": 0, "end": -1}, [_x(2, 5, 7)], 1),
              ({"begins": [0, 1, 2], "sizes": [2, -1, 3]}, [_x(2, 5, 7)], 1)],
    "Split": [({"is_caffe": 1, "split_dim": 3, "_outputs": 3}, [_x(2, 3)], 1),
              ({"axis": 1, "is_onnx": 1, "split_dim": 2, "_outputs": 2}, [_x(2, 6, 3)], 1),
              ({"axis": 1, "is_onnx": 1, "split_sizes": [1, 4, 1], "_outputs": 3}, [_x(2, 6, 3)], 1),
              ({"split_dim": 2, "_outputs": 2}, [_x(4, 3)], 1)],
    "Squeeze": [({"dim_0": 1}, [_x(1, 3, 1, 2)], 1), ({}, [_x(1, 3, 1, 1)], 1), ({"dim_0": 3}, [_x(2, 3, 2, 2)], 1)],
    "Unsqueeze": [({"axises": [1]}, [_x(2, 3)], 1), ({"axises": [-1]}, [_x(2, 3)], 1),
                  ({"axises": [0, 3]}, [_x(2, 3)], 1)],
    "Gather": [({"is_onnx": 1, "axis": 1}, [_x(2, 5, 3), np.array([[4, 0], [1, 1]], np.int32)], 1),
               ({"axis": 0, "indices_num": 3}, [_x(5, 3), np.array([4, 0, 2], np.int32)], 1)],
    "StridedSlice": [({"begin_c": 1, "end_c": 0, "stride_c": 2, "begin_h": 0, "end_h": -1, "begin_w": 1,
                       "end_w": -1, "stride_w": 2}, [_x(1, 6, 5, 7)], 1)],
    "SwapAxis": [({"dim_0": 0, "dim_1": 2}, [_x(2, 3, 4)], 1)],
    "Reverse": [({}, [X, np.array([2], np.int32)], 1), ({}, [X, np.array([-1], np.int32)], 1)],
    "DepthToSpace": [({"block_size": 2}, [_x(1, 8, 2, 3)], 1)],
    "SpaceToDepth": [({"block_size": 2}, [_x(1, 2, 4, 6)], 1)],
    "Pooling": [({"alg": a, "kernel_h": 3, "kernel_w": 3, "stride_h": s, "stride_w": s, "caffe_flavor": c,
                  "pad_h0": p, "pad_w0": p, "pad_h1": p, "pad_w1": p}, [_x(1, 2, 9, 8)], 1)
                for a in (0, 1) for s in (1, 2) for c in (0, 1, 2) for p in (0, 1, -1)
                if not (c and p < 0) and (a, s, c, p) not in POOL_REFUSED and not (a == 1 and c == 2 and p > 0)]
    + [({"alg": 1, "kernel_h": 7, "kernel_w": 7, "stride_h": 2, "stride_w": 2, "caffe_flavor": 1}, [_x(1, 2, 7, 7)], 1),
       ({"alg": 0, "global_pooling": 1}, [_x(1, 2, 5, 4)], 1)],
    "PriorBox": [({"min_size": [30.0], "max_size": [60.0], "aspect_ratio": [2.0], "flip": 1, "clip": 1,
                   "variance": [0.1, 0.1, 0.2, 0.2], "offset": 0.5, "step_w": 8.0, "step_h": 8.0},
                  [_x(1, 4, 3, 3), _x(1, 3, 24, 24)], 2)],
    "Round": [({}, [np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.49, -0.51, 3.7], np.float32)], 1)],
    "TopKV2": [({"k": 3}, [_x(2, 4, 7)], 1)],
    "Reduction": [({"type": t, "dim_0": 1, "dim_1": -1, "keepdim": k}, [_pos(2, 3, 4)], 1)
                  for t in range(11) for k in (0, 1)] + [({"type": 0}, [_x(2, 3)], 1)],
    "ReduceL2": [({"axis": 1, "keepdim": 1}, [X], 1), ({"axis": -1, "keepdim": 0}, [X], 1)],
    "ArgMax": [({"axis": 1, "keepdims": 1}, [X], 1), ({"axis": 2, "keepdims": 0}, [X], 1)],
    "ArgMin": [({"axis": 0, "keepdims": 0}, [X], 1)],
    "LogSoftmax": [({"axis": 1}, [X], 1), ({"axis": -1}, [X], 1)],
    "L2Normalization": [({}, [_x(3, 5)], 1)],
    "Normalize": [({}, [X, _pos(3)], 1), ({"channel_shared": 1}, [X, _pos(1)], 1),
                  ({"across_spatial": 1}, [X, _pos(3)], 1)],
    "MVN": [({"across_channels": a, "normalize_variance": v, "eps": 1e-3}, [X], 1) for a in (0, 1) for v in (0, 1)],
    "InstanceNorm": [({"eps": 1e-5}, [X, _x(3), _x(3)], 1)],
    "LayerNorm": [({"eps": 1e-5}, [_x(2, 3, 6), _x(6), _x(6)], 1)],
    "Embed": [({"num_output": 4, "input_dim": 5}, [np.array([0, 4.7, 2, -3, 9], np.float32), _x(5, 4)], 1),
              ({"num_output": 4, "input_dim": 5, "bias_term": 1}, [np.array([[1, 3]], np.float32), _x(5, 4),
                                                                    _x(4)], 1)],
    "Max": [({}, [X, _x(2, 3, 4, 5), _x(2, 3, 4, 5)], 3)], "Min": [({}, [X, _x(2, 3, 4, 5)], 2)],
    "Mean": [({}, [X, _x(2, 3, 4, 5)], 2)],
    "SquaredDifference": [({}, [X, _x(2, 3, 4, 5)], 2)],
    "MatMul": [({}, [_x(2, 3, 4), _x(2, 4, 5)], 2)],
    "Comparison": [({"type": t}, [np.round(X), np.round(_x(3))], 1) for t in range(6)]
    + [({"type": 2}, [X, _x(1)], 1), ({"type": 3}, [X, np.round(X)], 2)],
    "Logical": [({"type": t}, [np.round(X), np.round(_x(2, 3, 4, 5))], 2) for t in (0, 1)]
    + [({"type": 1}, [np.round(X), np.zeros(1, np.float32)], 1)],
    "Where": [({}, [np.round(X), _x(2, 3, 4, 5), _x(120)], 1)],
    "Cast": [({"type_from": 1, "type_to": 6, "_out_types": [4]}, [X * 10], 1),
             ({"type_from": 1, "type_to": 10, "_out_types": [1]}, [X], 1)],
    "Expand": [({"ex_shape": [2, 3, 4], "dim_num": 3}, [_x(3, 1)], 1),
               ({}, [_x(3, 1), np.array([2, 3, 5], np.int32)], 1)],
    "Shape": [({}, [X], 1)], "ZerosLike": [({}, [X], 1)],
    "Scatter": [({"axis": 1, "is_onnx": 1}, [X, np.array([[[[2, 0, 1, 2, 1]]]] * 2, np.int32).reshape(2, 1, 1, 5),
                                            _x(2, 1, 1, 5)], 1)],
}


def _cases() -> list[Any]:
    """Each example of a mapped op (a designed refusal there is checked for its YAML reason) and the cases above."""
    registry = current_registry()
    found = []
    for version in sorted(tengine_versions(registry).values(), key=lambda v: v.name):
        if version.maps_to is None:
            continue
        for ex in version.examples:
            arrays, _names = example_arrays(version.inputs, thaw(ex.inputs))
            while arrays and arrays[-1] is None:
                arrays.pop()
            attributes = thaw(ex.attributes)
            outputs, _names = example_arrays(version.outputs, thaw(ex.outputs))
            attributes["_out_types"] = [_TYPE_CODES.get(str(y.dtype), 0) if y is not None else 0 for y in outputs]
            found.append(pytest.param(version.name, attributes, arrays, -1, id=f"{version.name}-{ex.name}"))
        for k, (attributes, arrays, graph_inputs) in enumerate(CASES.get(version.name, [])):
            found.append(pytest.param(version.name, attributes, arrays, graph_inputs, id=f"{version.name}-{k}"))
    return found


@pytest.mark.parametrize(("op", "attributes", "arrays", "graph_inputs"), _cases())
def test_mapping_computes_the_op(op: str, attributes: dict[str, Any], arrays: list[Any], graph_inputs: int) -> None:
    """`graph_inputs` -1: an example of the op's YAML (its first input fed, the others constants), which may be one
    the mapping's `unmapped` text refuses."""
    registry = current_registry()
    model, feeds = one_node_model(op, attributes, arrays, graph_inputs=max(graph_inputs, 1))
    expected = ModelRunner(to_onnx(model, registry).model).run(feeds)
    result = convert(model, registry)
    version = registry.resolve("tengine", op, 1)
    refusal = version.maps_to.unmapped if version.maps_to is not None else ""
    if result.model is None and graph_inputs == -1 and refusal:
        assert all(refusal in u.reason for u in result.unmapped), [str(u) for u in result.unmapped]
        return
    assert result.model is not None, [str(u) for u in result.unmapped]
    onnx.checker.check_model(result.model, full_check=True)
    session = ort.InferenceSession(result.model.SerializeToString(), providers=["CPUExecutionProvider"])
    got = session.run(None, feeds)
    assert len(got) == len(expected)
    for value, (name, want) in zip(got, expected.items(), strict=True):
        assert value.shape == np.asarray(want).shape, name
        np.testing.assert_allclose(value, want, rtol=2e-5, atol=2e-6, err_msg=f"{op} {attributes} {name}")


@pytest.mark.parametrize(("attributes", "why"), [
    ({"alg": 1, "kernel_h": 3, "kernel_w": 3, "stride_h": 2, "stride_w": 2, "caffe_flavor": 1, "pad_h0": 1,
      "pad_w0": 1, "pad_h1": 1, "pad_w1": 1}, "a Caffe average whose last window passes the padded bounds"),
    ({"alg": 1, "kernel_h": 3, "kernel_w": 3, "caffe_flavor": 2, "pad_h0": 1, "pad_w0": 1}, "caffe_flavor 2 average"),
])
def test_pools_without_an_onnx_equal_are_refused_with_the_yaml_reason(attributes: dict[str, Any], why: str) -> None:
    model, _feeds = one_node_model("Pooling", attributes, [_x(1, 2, 9, 8)])
    result = convert(model, current_registry())
    assert result.model is None and why in result.unmapped[0].reason
