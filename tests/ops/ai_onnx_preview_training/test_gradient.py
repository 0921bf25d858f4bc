"""Gradient: the schema (outputs shaped as the xs inputs, nodes refused whose inputs or outputs do not match xs
and zs) and its values, which the model runner computes (`conformance.models.gradient`): every rule against
central finite differences in float64 (the forward pass by onnx.reference, not by our kernels), optionally
against torch autograd, onnx's own Gradient models, and the refusals (an op without a rule on the path, y not
determined by xs and zs). A single-node kernel cannot compute Gradient: the reference backend says so."""

from __future__ import annotations

import functools
import importlib.util
import os
import subprocess
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from conformance.backends.protocol import Unsupported
from conformance.backends.reference import ReferenceBackend
from conformance.kernels import no_reference_kernel
from conformance.models import ModelRunError, ModelRunner, NodeUnsupported, run_model
from conformance.models import gradient as grad_module
from conformance.models.cli import main_run
from tests.helpers import problem_checks, version
from tests.ops.ai_onnx_preview_training._cases import DOMAIN, output_shapes

OP = "Gradient"
W, Z = np.zeros((2, 3), np.float32), np.zeros(4, np.float32)
RNG = np.random.default_rng(20)
HERE = Path(__file__).resolve().parent


# --- the schema ----------------------------------------------------------------------------------------------


def test_the_reference_backend_says_the_model_runner_computes_it() -> None:
    why = no_reference_kernel(DOMAIN, OP)
    assert "enclosing graph" in why and "model runner" in why
    node = helper.make_node(OP, ["w"], ["dw"], domain=DOMAIN, xs=["w"], y="loss")
    with pytest.raises(Unsupported, match="model runner"):
        ReferenceBackend().run(node, [W], opset_imports={DOMAIN: 1})


def test_each_output_has_the_shape_of_its_x() -> None:
    v = version(DOMAIN, OP, 1)
    assert output_shapes(v, [W, Z], {"xs": ["w", "z"], "y": "loss"}, 2) == [[2, 3], [4]]
    assert output_shapes(v, [W, Z], {"xs": ["w"], "zs": ["z"], "y": "loss"}, 1) == [[2, 3]]


@pytest.mark.parametrize(("attrs", "n_out", "check"), [
    ({"xs": ["w"], "y": "loss"}, 1, "gradient_c1"),  # two inputs, one name
    ({"xs": ["w", "z"], "y": "loss"}, 1, "gradient_c2"),  # two xs, one output
    ({"xs": ["w", "z"]}, 2, "attr_required"),
])
def test_rejected_nodes_name_their_check(attrs: dict[str, object], n_out: int, check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), [W, Z], attrs, output_count=n_out)


# --- models with a Gradient node -------------------------------------------------------------------------------


@dataclass
class Case:
    """Forward `nodes` computing `y` from graph inputs `xs` (differentiated) and `zs`, and initializers. Unless
    `weighted` is False, y is multiplied by random weights first, so the seed reaching the rules is not all ones."""

    id: str
    nodes: list[onnx.NodeProto]
    xs: dict[str, np.ndarray]
    zs: dict[str, np.ndarray] = field(default_factory=dict)
    inits: dict[str, np.ndarray] = field(default_factory=dict)
    opset: int = 17
    y: str = "y"
    weighted: bool = True
    torch: bool = False  # also against torch autograd (ops the oracle script knows; softmax from opset 13)
    # the forward pass of the finite differences: onnx.reference, or onnxruntime where onnx.reference follows
    # another reading (Softmax and LogSoftmax before 13 along axis alone, as the registry's docs and readings say)
    oracle: str = "onnx.reference"

    @functools.cached_property
    def forward(self) -> onnx.ModelProto:
        """The forward model, output the target (its weights drawn once per case)."""
        nodes, inits = list(self.nodes), dict(self.inits)
        if self.weighted:
            shape = ReferenceEvaluator(self._model(nodes, inits, [self.y])).run(None, self.feeds())[0].shape
            rng = np.random.default_rng(zlib.crc32(self.id.encode()))
            inits["y_weights"] = rng.uniform(0.5, 1.5, size=shape) * rng.choice([-1.0, 1.0], size=shape)
            nodes.append(helper.make_node("Mul", [self.y, "y_weights"], ["y_weighted"]))
        return self._model(nodes, inits, [self.target])

    @property
    def target(self) -> str:
        return "y_weighted" if self.weighted else self.y

    def feeds(self) -> dict[str, np.ndarray]:
        return {**self.xs, **self.zs}

    def with_gradient(self) -> onnx.ModelProto:
        """The forward model plus Gradient(xs, zs, y=target), its outputs d_<x> added to the graph's."""
        model = onnx.ModelProto()
        model.CopyFrom(self.forward)
        attrs: dict[str, Any] = {"xs": list(self.xs), "y": self.target}
        if self.zs:
            attrs["zs"] = list(self.zs)
        model.graph.node.append(helper.make_node(OP, list(self.feeds()), [f"d_{x}" for x in self.xs], domain=DOMAIN,
                                                 **attrs))
        model.graph.output.extend(helper.make_tensor_value_info(f"d_{x}", _elem(v), v.shape)
                                  for x, v in self.xs.items())
        model.opset_import.append(helper.make_opsetid(DOMAIN, 1))
        return model

    def _model(self, nodes: list[onnx.NodeProto], inits: dict[str, np.ndarray], outputs: list[str]) -> onnx.ModelProto:
        graph = helper.make_graph(
            nodes, self.id, [helper.make_tensor_value_info(n, _elem(v), v.shape) for n, v in self.feeds().items()],
            [helper.make_tensor_value_info(o, onnx.TensorProto.DOUBLE, None) for o in outputs],
            [numpy_helper.from_array(np.asarray(v), n) for n, v in inits.items()])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", self.opset)])
        model.ir_version = 8
        return model


def _elem(value: np.ndarray) -> int:
    return helper.np_dtype_to_tensor_dtype(np.asarray(value).dtype)


def _n(op: str, inputs: list[str], out: str = "y", **attrs: Any) -> onnx.NodeProto:
    return helper.make_node(op, inputs, [out], **attrs)


def _r(*shape: int, low: float = -2.0, high: float = 2.0) -> np.ndarray:
    return RNG.uniform(low, high, size=shape)


def _pos(*shape: int) -> np.ndarray:
    return _r(*shape, low=0.5, high=2.0)


def _i64(*values: int) -> np.ndarray:
    return np.array(values, np.int64)


def _unary(op: str, x: np.ndarray, **attrs: Any) -> Case:
    return Case(op.lower(), [_n(op, ["x"], **attrs)], {"x": x}, torch=op not in ("Reciprocal",))


CASES = [
    Case("add_broadcast", [_n("Add", ["a", "b"])], {"a": _r(2, 3), "b": _r(3)}, torch=True),
    Case("sub_broadcast_both_ways", [_n("Sub", ["a", "b"])], {"a": _r(2, 1, 3), "b": _r(4, 1)}, torch=True),
    Case("mul_fan_out", [_n("Mul", ["a", "b"], "t"), _n("Mul", ["t", "a"])], {"a": _r(2, 3), "b": _r(1, 3)},
         torch=True),
    Case("div", [_n("Div", ["a", "b"])], {"a": _r(2, 3), "b": _pos(3)}, torch=True),
    Case("sum_variadic", [_n("Sum", ["a", "b", "c"])], {"a": _r(2, 3), "b": _r(3), "c": _r(2, 1)}),
    _unary("Neg", _r(3, 4)),
    _unary("Identity", _r(3, 4)),
    _unary("Relu", _r(3, 4)),
    _unary("Sigmoid", _r(3, 4)),
    _unary("Tanh", _r(3, 4)),
    _unary("Exp", _r(3, 4)),
    _unary("Log", _pos(3, 4)),
    _unary("Sqrt", _pos(3, 4)),
    _unary("Reciprocal", _pos(3, 4)),
    Case("pow_constant_exponent", [_n("Pow", ["x", "e"])], {"x": _pos(2, 3)},
         inits={"e": np.array([2.5, -1.5, 3.0])}, torch=True),
    Case("pow_integer_exponent", [_n("Pow", ["x", "e"])], {"x": _r(2, 3)}, inits={"e": np.array(3, np.int64)}),
    Case("matmul_2d", [_n("MatMul", ["a", "b"])], {"a": _r(2, 3), "b": _r(3, 4)}, torch=True),
    Case("matmul_vector_matrix", [_n("MatMul", ["a", "b"])], {"a": _r(3), "b": _r(2, 3, 4)}, torch=True),
    Case("matmul_matrix_vector", [_n("MatMul", ["a", "b"])], {"a": _r(2, 3, 4), "b": _r(4)}, torch=True),
    Case("matmul_dot", [_n("MatMul", ["a", "b"])], {"a": _r(3), "b": _r(3)}, torch=True),
    Case("matmul_batch_broadcast", [_n("MatMul", ["a", "b"])], {"a": _r(2, 1, 3, 4), "b": _r(3, 4, 2)}, torch=True),
    Case("gemm_transposed_scaled", [_n("Gemm", ["a", "b", "c"], transA=1, transB=1, alpha=0.7, beta=-1.3)],
         {"a": _r(3, 2), "b": _r(4, 3), "c": _r(4)}, torch=True),
    Case("gemm_without_c", [_n("Gemm", ["a", "b"])], {"a": _r(2, 3), "b": _r(3, 4)}, torch=True),
    Case("gemm_opset_7_c_column", [_n("Gemm", ["a", "b", "c"], beta=0.5)],
         {"a": _r(2, 3), "b": _r(3, 4), "c": _r(2, 1)}, opset=7),
    Case("mlp_matmul_relu_reducesum",
         [_n("MatMul", ["x", "w"], "h"), _n("Add", ["h", "b"], "hb"), _n("Relu", ["hb"], "r"),
          _n("ReduceSum", ["r", "axes"], keepdims=0)],
         {"x": _r(2, 3), "w": _r(3, 4), "b": _r(4)}, inits={"axes": _i64(1)}, opset=13, torch=True),
    Case("reducesum_11_attribute_axes", [_n("ReduceSum", ["x"], axes=[-1], keepdims=1)], {"x": _r(2, 3, 4)},
         opset=11, torch=True),
    Case("reducesum_13_axes_input_dropped", [_n("ReduceSum", ["x", "axes"], keepdims=0)], {"x": _r(2, 3, 4)},
         inits={"axes": _i64(0, 2)}, opset=13, torch=True),
    Case("reducesum_13_all_axes", [_n("ReduceSum", ["x"], keepdims=0)], {"x": _r(2, 3)}, opset=13, torch=True),
    Case("reducesum_13_noop_with_empty_axes", [_n("ReduceSum", ["x"], noop_with_empty_axes=1)], {"x": _r(2, 3)},
         opset=13),
    Case("reducemean_11_attribute_axes", [_n("ReduceMean", ["x"], axes=[0], keepdims=0)], {"x": _r(3, 4)},
         opset=11, torch=True),
    Case("reducemean_18_axes_input", [_n("ReduceMean", ["x", "axes"], keepdims=1)], {"x": _r(2, 3, 4)},
         inits={"axes": _i64(-1, 1)}, opset=18, torch=True),
    Case("reducemean_18_all_axes", [_n("ReduceMean", ["x"], keepdims=0)], {"x": _r(2, 3)}, opset=18, torch=True),
    Case("reshape_with_0_and_minus_1", [_n("Reshape", ["x", "shape"])], {"x": _r(2, 3, 4)},
         inits={"shape": _i64(0, -1)}, torch=False),
    Case("reshape", [_n("Reshape", ["x", "shape"])], {"x": _r(2, 6)}, inits={"shape": _i64(3, 4)}, torch=True),
    Case("transpose_perm", [_n("Transpose", ["x"], perm=[2, 0, 1])], {"x": _r(2, 3, 4)}, torch=True),
    Case("transpose_default", [_n("Transpose", ["x"])], {"x": _r(2, 3, 4)}, torch=True),
    Case("flatten", [_n("Flatten", ["x"], axis=2)], {"x": _r(2, 3, 4)}),
    Case("squeeze", [_n("Squeeze", ["x", "axes"])], {"x": _r(2, 1, 3)}, inits={"axes": _i64(1)}, opset=13),
    Case("unsqueeze", [_n("Unsqueeze", ["x", "axes"])], {"x": _r(2, 3)}, inits={"axes": _i64(0, 3)}, opset=13),
    Case("expand", [_n("Expand", ["x", "shape"])], {"x": _r(3, 1)}, inits={"shape": _i64(2, 3, 4)}),
    Case("concat", [_n("Concat", ["a", "b", "c"], axis=-1)], {"a": _r(2, 1), "b": _r(2, 3)}, zs={"c": _r(2, 2)}),
    Case("where", [_n("Where", ["cond", "a", "b"])], {"a": _r(2, 3), "b": _r(3)},
         zs={"cond": RNG.integers(0, 2, size=(2, 3)).astype(bool)}),
    Case("cast_float_to_double", [_n("Cast", ["x"], "c", to=onnx.TensorProto.DOUBLE), _n("Mul", ["c", "c"])],
         {"x": _r(2, 3)}),
    Case("softmax_13_axis_1", [_n("Softmax", ["x"], axis=1)], {"x": _r(2, 3, 4)}, opset=13, torch=True),
    Case("softmax_13_default_axis", [_n("Softmax", ["x"])], {"x": _r(2, 3, 4)}, opset=13, torch=True),
    Case("softmax_11_coerced_to_2d", [_n("Softmax", ["x"], axis=1)], {"x": _r(2, 3, 4)}, opset=11,
         oracle="onnxruntime"),
    Case("logsoftmax_13", [_n("LogSoftmax", ["x"], axis=-1)], {"x": _r(2, 3)}, opset=13, torch=True),
    Case("logsoftmax_11_coerced_to_2d", [_n("LogSoftmax", ["x"], axis=1)], {"x": _r(2, 3, 4)}, opset=11,
         oracle="onnxruntime"),
    Case("attention",
         [_n("Transpose", ["k"], "kt", perm=[0, 2, 1]), _n("MatMul", ["q", "kt"], "s"), _n("Div", ["s", "d"], "sd"),
          _n("Softmax", ["sd"], "p", axis=-1), _n("MatMul", ["p", "v"])],
         {"q": _r(2, 3, 4), "k": _r(2, 5, 4), "v": _r(2, 5, 3)}, inits={"d": np.array(2.0)}, opset=13, torch=True),
    Case("classifier_loss",
         [_n("Gemm", ["x", "w", "b"], "logits", transB=1), _n("Tanh", ["logits"], "t"),
          _n("LogSoftmax", ["t"], "lp", axis=1), _n("Mul", ["lp", "labels"], "picked"),
          _n("ReduceSum", ["picked", "one"], "per_row", keepdims=0), _n("Neg", ["per_row"], "nll"),
          _n("ReduceMean", ["nll"], keepdims=0), ],
         {"w": _r(4, 3), "b": _r(4)}, zs={"x": _r(5, 3), "labels": np.eye(4)[[0, 3, 1, 1, 2]]},
         inits={"one": _i64(1)}, opset=13, weighted=False, torch=True),
    Case("zs_read_twice", [_n("Add", ["x", "z"], "s"), _n("Mul", ["s", "z"]), ], {"x": _r(2, 3)}, zs={"z": _r(2, 3)},
         torch=True),
    Case("exp_sqrt_log_chain", [_n("Exp", ["x"], "e"), _n("Sqrt", ["e"], "s"), _n("Log", ["s"], "l"),
                                _n("Sigmoid", ["l"])], {"x": _r(4)}, torch=True),
]


def finite_differences(case: Case, h: float = 1e-6) -> dict[str, np.ndarray]:
    """Central differences of sum(y) for each element of each x, the forward pass by the case's oracle."""
    if case.oracle == "onnxruntime":
        import onnxruntime as ort

        evaluator: Any = ort.InferenceSession(case.forward.SerializeToString(), providers=["CPUExecutionProvider"])
    else:
        evaluator = ReferenceEvaluator(case.forward)
    feeds = case.feeds()
    found = {}
    for name, x in case.xs.items():
        g = np.zeros_like(x)
        for idx in np.ndindex(x.shape):
            plus, minus = x.copy(), x.copy()
            plus[idx] += h
            minus[idx] -= h
            up = np.sum(evaluator.run(None, {**feeds, name: plus})[0])
            down = np.sum(evaluator.run(None, {**feeds, name: minus})[0])
            g[idx] = (up - down) / (2 * h)
        found[name] = g
    return found


def ours(case: Case) -> dict[str, np.ndarray]:
    got = run_model(case.with_gradient(), case.feeds())
    return {x: got[f"d_{x}"] for x in case.xs}


def assert_matches_finite_differences(case: Case) -> None:
    got, want = ours(case), finite_differences(case)
    for x in case.xs:
        assert got[x].shape == case.xs[x].shape and got[x].dtype == case.xs[x].dtype
        np.testing.assert_allclose(got[x], want[x], rtol=1e-6, atol=1e-8, err_msg=f"{case.id}: d y / d {x}")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_gradients_match_central_finite_differences(case: Case) -> None:
    assert_matches_finite_differences(case)


def test_every_rule_is_checked_against_finite_differences() -> None:
    used = {n.op_type for c in CASES for n in c.nodes}
    assert not set(grad_module.differentiable_ops()) - used


def test_the_yaml_doc_lists_exactly_the_differentiable_ops() -> None:
    doc = " ".join(version(DOMAIN, OP, 1).doc.split())
    listed = doc.split("backwards through vector-Jacobian products for ")[1].split(". Any other op")[0]
    names = {w.strip(" ,").split(" (")[0] for w in listed.replace(" and ", ", ").split(", ")}
    assert names == set(grad_module.differentiable_ops())


# A rule gone wrong must fail the check above: each broken rule below fails at least the named case.
def _mul_forgets_a_factor(s: Any, g: np.ndarray) -> list[np.ndarray | None]:
    return [grad_module.unbroadcast(g, np.shape(s.inputs[0])), grad_module.unbroadcast(g * s.inputs[0],
                                                                                          np.shape(s.inputs[1]))]


def _softmax_without_the_sum(s: Any, g: np.ndarray) -> list[np.ndarray | None]:
    return [np.asarray(s.output) * g]


def _unbroadcast_keeps_no_dims(s: Any, g: np.ndarray) -> list[np.ndarray | None]:
    sa, sb = np.shape(s.inputs[0]), np.shape(s.inputs[1])
    return [np.resize(g, sa), np.resize(g, sb)]  # right shapes, wrong sums


def _relu_passes_everything(s: Any, g: np.ndarray) -> list[np.ndarray | None]:
    return [g]


@pytest.mark.parametrize(("op", "vjp", "case_id"), [
    ("Mul", _mul_forgets_a_factor, "mul_fan_out"),
    ("Softmax", _softmax_without_the_sum, "softmax_13_axis_1"),
    ("Add", _unbroadcast_keeps_no_dims, "add_broadcast"),
    ("Relu", _relu_passes_everything, "relu"),
])
def test_a_wrong_rule_is_caught(monkeypatch: pytest.MonkeyPatch, op: str, vjp: Callable[..., Any],
                                case_id: str) -> None:
    (case,) = [c for c in CASES if c.id == case_id]
    key = ("ai.onnx", op)
    monkeypatch.setitem(grad_module.RULES, key, grad_module.Rule(vjp, grad_module.RULES[key].positions))
    with pytest.raises(AssertionError, match="Not equal to tolerance"):
        assert_matches_finite_differences(case)


# --- torch autograd, where a Python with torch is at hand (an optional oracle, run as a subprocess; slow) -------

def _torch_python() -> Path | None:
    """A Python with torch: $OPSET_TORCH_PYTHON, else this one when torch is installed here (the real-models extra,
    which CI's slow stage installs)."""
    given = os.environ.get("OPSET_TORCH_PYTHON")
    if given:
        return Path(given)
    return Path(sys.executable) if importlib.util.find_spec("torch") is not None else None


TORCH_PYTHON = _torch_python()
TORCH_CASES = [c for c in CASES if c.torch]


@pytest.fixture(scope="module")
def torch_grads(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, np.ndarray]]:
    if TORCH_PYTHON is None:
        pytest.skip("no Python with torch: install the real-models extra, or set OPSET_TORCH_PYTHON")
    if not TORCH_PYTHON.exists():
        pytest.fail(f"OPSET_TORCH_PYTHON={TORCH_PYTHON}: no such file")
    root = tmp_path_factory.mktemp("torch")
    dirs = []
    for case in TORCH_CASES:
        d = root / case.id
        d.mkdir()
        onnx.save(case.with_gradient(), str(d / "model.onnx"))
        np.savez(d / "inputs.npz", **case.feeds())
        dirs.append(str(d))
    done = subprocess.run([str(TORCH_PYTHON), str(HERE / "_torch_gradient.py"), *dirs], capture_output=True,
                          text=True, check=False, timeout=120)
    if done.returncode == 77 or "No module named 'onnx'" in done.stderr:
        pytest.skip(f"{TORCH_PYTHON}: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    return {c.id: dict(np.load(root / c.id / "grads.npz")) for c in TORCH_CASES}


@pytest.mark.slow  # importing torch in a subprocess takes seconds
@pytest.mark.parametrize("case", TORCH_CASES, ids=[c.id for c in TORCH_CASES])
def test_gradients_match_torch_autograd(case: Case, torch_grads: dict[str, dict[str, np.ndarray]]) -> None:
    got = ours(case)
    for x, want in torch_grads[case.id].items():
        np.testing.assert_allclose(got[x], want, rtol=1e-10, atol=1e-12, err_msg=f"{case.id}: d y / d {x}")


# --- semantics ---------------------------------------------------------------------------------------------------


def _graph_model(nodes: list[onnx.NodeProto], inputs: dict[str, np.ndarray], outputs: list[str],
                 inits: dict[str, np.ndarray] | None = None, opset: int = 17,
                 functions: list[onnx.FunctionProto] | None = None) -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info(n, _elem(v), v.shape) for n, v in inputs.items()],
        [helper.make_tensor_value_info(o, onnx.TensorProto.FLOAT, None) for o in outputs],
        [numpy_helper.from_array(np.asarray(v), n) for n, v in (inits or {}).items()])
    imports = [helper.make_opsetid("", opset), helper.make_opsetid(DOMAIN, 1)]
    if functions:
        imports.append(helper.make_opsetid("local", 1))
    model = helper.make_model(graph, opset_imports=imports, functions=functions or [])
    model.ir_version = 8
    return model


def _gradient(inputs: list[str], outputs: list[str], **attrs: Any) -> onnx.NodeProto:
    return helper.make_node(OP, inputs, outputs, domain=DOMAIN, **attrs)


ONNX_DATA = Path(onnx.__file__).parent / "backend" / "test" / "data" / "simple"


@pytest.mark.parametrize("name", ["test_gradient_of_add", "test_gradient_of_add_and_mul"])
def test_onnx_gradient_models_run_with_opset_run(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """onnx's own Gradient models (its backend's "simple" model cases) give onnx's expected outputs."""
    case = ONNX_DATA / name
    model = onnx.load(str(case / "model.onnx"))
    args = [str(case / "model.onnx"), "--output-dir", str(tmp_path)]
    for i, vi in enumerate(model.graph.input):
        given = onnx.load_tensor(str(case / f"test_data_set_0/input_{i}.pb"))
        np.save(tmp_path / f"in{i}.npy", numpy_helper.to_array(given))
        args += ["--input", f"{vi.name}={tmp_path / f'in{i}.npy'}"]
    assert main_run(args) == 0, capsys.readouterr().err
    for i, vi in enumerate(model.graph.output):
        want = numpy_helper.to_array(onnx.load_tensor(str(case / f"test_data_set_0/output_{i}.pb")))
        got = np.load(tmp_path / f"{vi.name}.npy")
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_a_non_scalar_y_is_differentiated_as_the_sum_of_its_elements() -> None:
    x = RNG.standard_normal((2, 3)).astype(np.float32)
    nodes = [_n("Mul", ["x", "x"], "y"), _n("ReduceSum", ["y"], "total", keepdims=0),
             _gradient(["x"], ["dy"], xs=["x"], y="y"), _gradient(["x"], ["dtotal"], xs=["x"], y="total")]
    got = run_model(_graph_model(nodes, {"x": x}, ["dy", "dtotal"], opset=13), {"x": x})
    np.testing.assert_allclose(got["dy"], 2 * x, rtol=1e-6)
    np.testing.assert_array_equal(got["dy"], got["dtotal"])


def test_the_inputs_give_the_values_at_which_the_gradient_is_taken() -> None:
    """onnx's H_1 example: xs names an intermediate tensor H, the node's input gives H's value."""
    a, b, h1 = (RNG.standard_normal(3).astype(np.float32) for _ in range(3))
    nodes = [_n("Exp", ["a"], "h"), _n("Mul", ["h", "b"], "p"), _n("Mul", ["p", "h"], "y"),
             _gradient(["h1", "b"], ["dh", "db"], xs=["h", "b"], y="y")]
    got = run_model(_graph_model(nodes, {"a": a, "b": b, "h1": h1}, ["dh", "db"]), {"a": a, "b": b, "h1": h1})
    np.testing.assert_allclose(got["dh"], 2 * h1 * b, rtol=1e-6)  # y = b h^2 at h = h1, not at exp(a)
    np.testing.assert_allclose(got["db"], h1 * h1, rtol=1e-6)


def test_a_y_the_xs_do_not_reach_has_zero_gradients() -> None:
    """Through Shape the gradient stops (integers carry none); a y independent of an x gives zeros there."""
    x, w = RNG.standard_normal((2, 3)).astype(np.float32), RNG.standard_normal((3, 2)).astype(np.float32)
    nodes = [_n("Shape", ["w"], "s"), _n("Reshape", ["x", "s"], "r"), _n("Mul", ["r", "r"], "y"),
             _gradient(["x", "w"], ["dx", "dw"], xs=["x", "w"], y="y")]
    got = run_model(_graph_model(nodes, {"x": x, "w": w}, ["dx", "dw"]), {"x": x, "w": w})
    np.testing.assert_allclose(got["dx"], 2 * x, rtol=1e-6)
    np.testing.assert_array_equal(got["dw"], np.zeros_like(w))


def test_an_output_named_empty_is_skipped() -> None:
    a, b = np.array([1.0, 2.0], np.float32), np.array([3.0, -1.0], np.float32)
    nodes = [_n("Mul", ["a", "b"], "y"), _gradient(["a", "b"], ["", "db"], xs=["a", "b"], y="y")]
    got = run_model(_graph_model(nodes, {"a": a, "b": b}, ["db"]), {"a": a, "b": b})
    np.testing.assert_array_equal(got["db"], a)


def test_outputs_keep_the_element_type_of_their_x() -> None:
    x16 = np.array([0.5, -1.0], np.float16)
    nodes = [_n("Mul", ["x", "x"], "y"), _gradient(["x"], ["dx"], xs=["x"], y="y")]
    got = run_model(_graph_model(nodes, {"x": x16}, ["dx"]), {"x": x16})["dx"]
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got, 2 * x16)


def test_the_forward_part_runs_through_the_runners_executor() -> None:
    """As the node suite runs models (a backend under test as the executor): the re-run forward nodes are its."""
    calls: list[str] = []

    class Recording:
        def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
                opset_imports: dict[str, int] | None = None) -> list[np.ndarray]:
            calls.append(node.op_type)
            return ReferenceBackend().run(node, inputs, opset_imports=opset_imports)

    x = np.array([1.0, 2.0], np.float32)
    nodes = [_n("Mul", ["x", "x"], "y"), _n("Relu", ["y"], "unrelated"), _gradient(["x"], ["dx"], xs=["x"], y="y")]
    got = ModelRunner(_graph_model(nodes, {"x": x}, ["dx"]), Recording()).run({"x": x})
    np.testing.assert_array_equal(got["dx"], 2 * x)
    assert sorted(calls) == ["Mul", "Mul", "Relu"]  # the graph's Mul and Relu, then Mul again; Gradient is ours


def test_a_gradient_inside_a_model_local_function() -> None:
    body = [_n("Mul", ["a", "a"], "sq"), _n("Mul", ["sq", "a"], "cube"),
            _gradient(["a"], ["out"], xs=["a"], y="cube")]
    fn = helper.make_function("local", "CubeSlope", ["a"], ["out"], body,
                              [helper.make_opsetid("", 17), helper.make_opsetid(DOMAIN, 1)])
    x = np.array([1.0, -2.0, 0.5], np.float32)
    model = _graph_model([helper.make_node("CubeSlope", ["x"], ["slope"], domain="local")], {"x": x}, ["slope"],
                         functions=[fn])
    np.testing.assert_allclose(run_model(model, {"x": x})["slope"], 3 * x * x, rtol=1e-6)


# --- refusals: located, never a guess ----------------------------------------------------------------------------


def test_an_op_without_a_rule_on_the_path_is_unsupported_and_named(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    x = np.array([1.5, -0.5], np.float32)
    nodes = [_n("Mul", ["x", "x"], "sq"), helper.make_node("Floor", ["sq"], ["f"], name="floor_it"),
             _n("Add", ["f", "x"], "y"), helper.make_node(OP, ["x"], ["dx"], domain=DOMAIN, xs=["x"], y="y", name="g")]
    model = _graph_model(nodes, {"x": x}, ["dx"])
    with pytest.raises(NodeUnsupported,
                       match=r"node 3 'g' \(ai.onnx.preview.training::Gradient\): Gradient through node 1 'floor_it' "
                             r"\(ai.onnx::Floor\) is not defined here \(the differentiable ops: Add, Cast"):
        run_model(model, {"x": x})
    path = tmp_path / "m.onnx"
    onnx.save(model, str(path))
    assert main_run([str(path), "--output-dir", str(tmp_path)]) == 1
    assert "Gradient through node 1 'floor_it' (ai.onnx::Floor) is not defined here" in capsys.readouterr().err


def test_an_exponent_that_depends_on_xs_is_unsupported() -> None:
    x, e = np.array([1.5, 2.0], np.float32), np.array([2.0, 3.0], np.float32)
    nodes = [_n("Pow", ["x", "e"], "y"), _gradient(["x", "e"], ["dx", "de"], xs=["x", "e"], y="y")]
    with pytest.raises(NodeUnsupported, match=r"with respect to its input 1 \('e'\).*exponent must not depend"):
        run_model(_graph_model(nodes, {"x": x, "e": e}, ["dx"]), {"x": x, "e": e})


def test_differentiating_a_gradient_again_is_unsupported() -> None:
    x = np.array([1.5, 2.0], np.float32)
    nodes = [_n("Mul", ["x", "x"], "y"), _gradient(["x"], ["dx"], xs=["x"], y="y"),
             _gradient(["x"], ["ddx"], xs=["x"], y="dx")]
    with pytest.raises(NodeUnsupported, match=r"Gradient through node 1 \(ai.onnx.preview.training::Gradient\)"):
        run_model(_graph_model(nodes, {"x": x}, ["ddx"]), {"x": x})


@pytest.mark.parametrize(("nodes", "message"), [
    ([_n("Mul", ["x", "q"], "y"), _gradient(["x"], ["dx"], xs=["x"], y="y")],
     r"y 'y' depends on 'q', which is neither in xs or zs .*\(name it in zs\)"),
    ([_n("Mul", ["x", "q"], "y"), _gradient(["x", "q"], ["dx"], xs=["x"], y="y")],
     r"2 input\(s\) for 1 name\(s\) in xs and 0 in zs"),
    ([_n("Mul", ["x", "q"], "y"), _gradient(["x"], ["dx"], xs=["x"], y="nowhere")],
     "y 'nowhere' is neither in xs or zs nor computed by a node or an initializer"),
    ([_n("Mul", ["x", "dx"], "y"), _gradient(["x"], ["dx"], xs=["x"], y="y")],
     "y 'y' depends on 'dx', an output of this Gradient node"),
    ([_n("Shape", ["x"], "y"), _gradient(["x"], ["dx"], xs=["x"], y="y")],
     "y 'y' is of element type int64: only a floating-point y has a gradient"),
    ([_n("Cast", ["x"], "xi", to=onnx.TensorProto.INT64), _n("Mul", ["xi", "xi"], "y"),
      _gradient(["xi"], ["dx"], xs=["xi"], y="y")],
     r"xs\[0\] 'xi' is of element type int64: gradients are taken with respect to floating-point tensors"),
])
def test_a_gradient_its_graph_does_not_define_is_an_error(nodes: list[onnx.NodeProto], message: str) -> None:
    feeds = {"x": np.array([1.0, 2.0], np.float32), "q": np.array([3.0, 4.0], np.float32)}
    with pytest.raises(ModelRunError, match=message) as caught:
        run_model(_graph_model(nodes, feeds, [nodes[-1].output[0]]), feeds)
    assert not isinstance(caught.value, NodeUnsupported)
