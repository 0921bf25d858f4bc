"""What holds for every Tengine op: tmfile id, binary layout, lint, a kernel or a documented gap, examples."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conformance.kernels import ops_without_kernel
from conformance.kernels.registry import find_kernel
from opset.lint import lint
from opset.model import OpVersion
from tests.helpers import assert_example_holds, assert_kernel_or_documented_gap, registry

# Every Tengine op and its tmfile op id (tm2_format.h), in id order.
OP_IDS = {
    "Accuracy": 0, "BatchNormalization": 1, "BilinearResize": 2, "Concat": 3, "Const": 4, "Convolution": 5,
    "Deconvolution": 6, "DetectionOutput": 7, "DropOut": 8, "Eltwise": 9, "Flatten": 10, "FullyConnected": 11,
    "LRN": 13, "Normalize": 14, "Permute": 15, "Pooling": 16, "Prelu": 17, "PriorBox": 18, "Region": 19, "ReLU": 20,
    "ReLU6": 21, "Reorg": 22, "Reshape": 23, "RoiPooling": 24, "RPN": 25, "Scale": 26, "Slice": 27, "SoftMax": 28,
    "Split": 29, "DetectionPostProcess": 30, "Gemm": 31, "Generic": 32, "Logistic": 33, "LSTM": 34, "RNN": 35,
    "TanH": 36, "Sigmoid": 37, "Squeeze": 38, "FusedbnScaleRelu": 39, "Pad": 40, "StridedSlice": 41, "ArgMax": 42,
    "ArgMin": 43, "TopKV2": 44, "Reduction": 45, "Max": 46, "Min": 47, "GRU": 48, "Addn": 49, "SwapAxis": 50,
    "Upsample": 51, "SpaceToBatchND": 52, "BatchToSpaceND": 53, "Resize": 54, "ShuffleChannel": 55, "Crop": 56,
    "ROIAlign": 57, "Psroipooling": 58, "Unary": 59, "Expanddims": 60, "Bias": 61, "Noop": 62, "Threshold": 63,
    "Hardsigmoid": 64, "Embed": 65, "InstanceNorm": 66, "MVN": 67, "Absval": 68, "Cast": 69, "HardSwish": 70,
    "Interp": 71, "SELU": 72, "ELU": 73, "BroadMul": 74, "Logical": 75, "Gather": 76, "Transpose": 77,
    "Comparison": 78, "SpaceToDepth": 79, "DepthToSpace": 80, "Reverse": 81, "SparseToDense": 82, "Ceil": 83,
    "SquaredDifference": 84, "Round": 85, "ZerosLike": 86, "Clip": 87, "Unsqueeze": 88, "ReduceL2": 89, "Mean": 90,
    "MatMul": 91, "Expand": 92, "Scatter": 93, "Shape": 94, "Where": 95, "Tile": 96, "Mish": 97, "L2Pool": 98,
    "LogSoftmax": 99, "ReLU1": 100, "L2Normalization": 101, "Softplus": 102, "Reciprocal": 103,
    "SpatialTransformer": 105, "Gelu": 106, "LayerNorm": 107,
}
# Outputs whose shape depends on the input values, so they have no shape formula (each op's doc says why).
DATA_DEPENDENT_OUTPUTS = {("DetectionOutput", "output"), ("RPN", "output")}

VERSIONS = [v for s in registry() if s.domain == "tengine" for v in s.versions]
EXAMPLES = [(v, ex.name) for v in VERSIONS for ex in v.examples]


def _id(v: OpVersion) -> str:
    return v.signature


def test_the_table_names_every_op() -> None:
    assert {v.name for v in VERSIONS} == set(OP_IDS)


@pytest.mark.parametrize("v", VERSIONS, ids=_id)
def test_op_has_its_tengine_id(v: OpVersion) -> None:
    assert v.tengine is not None, f"{v.signature}: no tengine section"
    assert v.tengine.op_id == OP_IDS[v.name], f"{v.signature}: id {v.tengine.op_id}, the table says {OP_IDS[v.name]}"


@pytest.mark.parametrize("v", VERSIONS, ids=_id)
def test_layout_fields_map_to_attributes(v: OpVersion) -> None:
    assert v.tengine is not None
    fields = [f.attribute or f.name for f in v.tengine.layout]
    assert fields == list(v.attributes), f"{v.name}: layout fields {fields} vs attributes {list(v.attributes)}"
    for f in v.tengine.layout:
        attr = v.attributes[f.attribute or f.name]
        if attr.required:
            continue  # a node must state it: the layout may keep the value Tengine initialises the field to
        assert f.default == attr.default, f"{v.name}.{f.name}: layout default {f.default} vs attribute {attr.default}"
    assert (v.tengine.param_struct is None) == (not v.tengine.layout), v.name


def test_lint_is_clean() -> None:
    problems, count = lint([])
    assert count > 0
    mine = [p for p in problems if Path(p.file).parent.name == "tengine"]
    assert not mine, "\n".join(str(p) for p in mine)
    assert not problems, "\n".join(str(p) for p in problems)


def test_lint_command_exits_0() -> None:
    tool = Path(sys.executable).with_name("opset")
    done = subprocess.run([str(tool), "lint"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("v", VERSIONS, ids=_id)
def test_op_has_a_kernel_and_an_example_or_is_a_documented_gap(v: OpVersion) -> None:
    assert_kernel_or_documented_gap(v)


def test_an_op_that_says_it_has_no_kernel_has_none() -> None:
    """A `no_reference_kernel` reason is stale once a kernel is registered for the op: every version lacks one."""
    stale = [v.signature for v in VERSIONS if (v.domain, v.name) in ops_without_kernel()
             and find_kernel(v.domain, v.name, v.since) is not None]
    assert not stale, f"these versions have a kernel but their op file says there is none: {stale}"


def test_outputs_without_a_shape_formula_are_the_data_dependent_ones() -> None:
    found = {(v.name, p.name) for v in VERSIONS if (v.domain, v.name) not in ops_without_kernel()
             for p in v.outputs if p.formula is None}
    assert found == DATA_DEPENDENT_OUTPUTS


@pytest.mark.parametrize(("v", "example"), EXAMPLES, ids=lambda x: x if isinstance(x, str) else x.name)
def test_example_matches_kernel_formula_and_constraints(v: OpVersion, example: str) -> None:
    assert_example_holds(v, example)


@pytest.mark.parametrize("v", VERSIONS, ids=_id)
def test_op_maps_to_onnx_or_says_why_not(v: OpVersion) -> None:
    """Every Tengine op converts to ai.onnx through maps_to, or its YAML says why it does not (issue 29)."""
    assert v.maps_to is not None or v.unmapped, f"{v.signature}: neither maps_to nor unmapped"
