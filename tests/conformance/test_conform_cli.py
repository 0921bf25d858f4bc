"""`conform` end to end: the reference passes, wrong backends are caught and their repro bundles reproduce."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.helpers.conform_cli import ROOT, conform, run_and_report

WRONG = "tests.conformance.wrong_backends"


def failing_cells(data: dict) -> dict[str, dict]:
    return {k: c for k, c in data["cells"].items() if c["status"] == "fail"}


def replay(bundle: str) -> subprocess.CompletedProcess[str]:
    command = (Path(bundle) / "command.txt").read_text().split()
    assert command[0] == "conform"
    return conform(*command[1:])


def test_reference_passes_a_few_ops(tmp_path: Path) -> None:
    result, data = run_and_report(tmp_path, "reference", "--op", "Relu,Abs,Tanh,Relu6,Identity")
    assert result.returncode == 0, result.stdout[-3000:]
    assert data["complete"] and not failing_cells(data)
    assert any(c["status"] == "pass" for c in data["cells"].values())


@pytest.mark.parametrize(("module", "op", "expected_cell"), [
    ("avgpool_ignores_count_include_pad", "AveragePool", "ai.onnx@7::AveragePool"),
    ("conv_ignores_dilations", "Conv", "ai.onnx@11::Conv"),
    ("relu6_clips_at_5", "Relu6", "ai.onnx.modified@1::Relu6"),
    ("raises_value_error", "Abs", "ai.onnx@13::Abs"),
    ("sequence_insert_negative_off_by_one", "SequenceInsert", "ai.onnx@11::SequenceInsert"),
    ("loop_ignores_body_condition", "Loop", "ai.onnx@13::Loop"),
    ("scan_ignores_directions", "Scan", "ai.onnx@11::Scan[float]"),
    ("trees_take_lt_as_leq", "TreeEnsembleRegressor", "ai.onnx.ml@1::TreeEnsembleRegressor"),
    ("scaler_scales_before_offset", "Scaler", "ai.onnx.ml@1::Scaler"),
    ("dft_ignores_onesided", "DFT", "ai.onnx@20::DFT"),
    ("dropout_mask_disagrees", "Dropout", "ai.onnx@13::Dropout"),
    ("lstm_reverse_ignores_sequence_lens", "LSTM", "ai.onnx@14::LSTM"),
    ("random_normal_scale_too_wide", "RandomNormal", "ai.onnx@1::RandomNormal"),
    ("bernoulli_complements_p", "Bernoulli", "ai.onnx@15::Bernoulli"),
    ("stringnormalizer_ignores_case_change", "StringNormalizer", "ai.onnx@10::StringNormalizer[string]"),
    ("fusedconv_leakyrelu_default_alpha", "FusedConv", "com.microsoft@1::FusedConv"),
    ("attention_scales_by_hidden_size", "Attention", "com.microsoft@1::Attention"),
    ("qlinearadd_rounds_half_away", "QLinearAdd", "com.microsoft@1::QLinearAdd"),
    ("double_computes_in_float32", "BatchNormalization", "ai.onnx@15::BatchNormalization[double]"),
    ("resize_integers_round_up", "Resize", "ai.onnx@19::Resize[int8]"),  # resize_r6 holds there, its values differ
])
def test_a_wrong_backend_is_caught_and_its_repro_reproduces(tmp_path: Path, module: str, op: str,
                                                            expected_cell: str) -> None:
    domain, _, version = expected_cell.partition("::")[0].partition("@")
    # the cells of the named cell's version only (the op at that opset, in its domain): the other versions and the
    # domains that share the op (com.ms.internal.nhwc's Resize, Conv ...) add minutes, not checks
    result, data = run_and_report(tmp_path, f"{WRONG}.{module}", "--op", op, "--domain", domain,
                                  "--opsets", f"{domain}={version}")
    assert result.returncode == 1
    failed = failing_cells(data)
    named = [k for k in failed if k.startswith(expected_cell)]
    assert named, f"{expected_cell} not among failures {sorted(failed)}"
    assert expected_cell in result.stdout  # the summary names the failing cell
    cell = failed[named[0]]
    assert cell["repro"], cell
    again = replay(cell["repro"])
    assert again.returncode == 1, again.stdout + again.stderr
    assert "FAIL" in again.stderr


RANDOM_OPS = "RandomNormal,RandomNormalLike,RandomUniform,RandomUniformLike,Bernoulli,Multinomial,Dropout"


def test_the_reference_passes_the_law_test_of_every_random_cell(tmp_path: Path) -> None:
    """Every cell of a version whose outputs are drawn at random runs one law case, reported under `law_test`, and
    the reference's draws pass them all; cells without a `random` key (Dropout 7 and 10) run none."""
    from conformance.registry import current_registry

    result, data = run_and_report(tmp_path, "reference", "--op", RANDOM_OPS, "--max-examples", "2")
    assert result.returncode == 0, result.stdout[-3000:]
    assert not failing_cells(data)
    laws = {k: c.get("law_test") for k, c in data["cells"].items() if c["status"] != "unsupported"}
    random = {k for k in laws if current_registry().op("ai.onnx", data["cells"][k]["op"])
              .version(data["cells"][k]["version"]).random is not None}
    assert {k for k, t in laws.items() if t} == random and len(random) > 90
    assert all(not laws[k]["rejected"] and laws[k]["draws"] >= 10_000 and laws[k]["alpha"] == 1e-6 for k in random)
    assert "law tests (DKW, false-alarm rate 1e-06 per cell)" in result.stdout


def test_a_backend_following_another_reading_is_ambiguous_not_failed(tmp_path: Path) -> None:
    """AveragePool 10/11 with VALID and ceil_mode=1 sized as onnxruntime does: the registry's reading
    averagepool_r1 names it, so the cells that meet it are "ambiguous" and the run passes."""
    result, data = run_and_report(tmp_path, f"{WRONG}.avgpool_follows_onnx_valid_ceil", "--op", "AveragePool",
                                  "--domain", "ai.onnx", "--max-examples", "3")
    assert result.returncode == 0, result.stdout[-3000:]
    assert not failing_cells(data)
    ambiguous = {k: c for k, c in data["cells"].items() if c["status"] == "ambiguous"}
    assert "ai.onnx@10::AveragePool[float]" in ambiguous, sorted(ambiguous)
    assert "averagepool_r1" in ambiguous["ai.onnx@10::AveragePool[float]"]["messages"][0]
    assert "AMBIGUOUS ai.onnx@10::AveragePool[float]" in result.stdout


def test_a_backend_giving_a_computed_readings_values_is_ambiguous_not_failed(tmp_path: Path) -> None:
    """Resize on integers converted toward zero (onnxruntime's and tract's resize_r6, whose values the reference
    kernels compute): every cell where the values differ from the registry's names that reading."""
    result, data = run_and_report(tmp_path, f"{WRONG}.resize_integers_truncate", "--op", "Resize",
                                  "--domain", "ai.onnx", "--max-examples", "5")
    assert result.returncode == 0, result.stdout[-3000:]
    ambiguous = [c["messages"][0] for c in data["cells"].values() if c["status"] == "ambiguous"]
    assert len(ambiguous) > 10 and all("follows resize_r6 (onnxruntime, tract)" in m for m in ambiguous), ambiguous


def test_a_backend_warms_before_its_first_case_is_timed(tmp_path: Path) -> None:
    """Its first call would load for 4 s; with a 2 s --timeout the case passes because the worker ran warm() first."""
    result, data = run_and_report(tmp_path, f"{WRONG}.slow_first_case_unless_warmed", "--op", "Relu",
                                  "--domain", "ai.onnx", "--max-examples", "2", "--timeout", "2")
    assert result.returncode == 0 and not failing_cells(data), result.stdout[-2000:]


def test_the_reference_passes_a_bundle_a_wrong_backend_failed(tmp_path: Path) -> None:
    _, data = run_and_report(tmp_path, f"{WRONG}.relu6_clips_at_5", "--op", "Relu6")
    bundle = next(iter(failing_cells(data).values()))["repro"]
    assert conform("--backend", "reference", "--replay", bundle).returncode == 0


@pytest.mark.slow
@pytest.mark.timeout(900)  # a hang guard, not a speed check: ~200 s alone, each restarted worker warming its backend
def test_crash_and_hang_still_give_a_complete_report(tmp_path: Path) -> None:
    backend = str(ROOT / "tests" / "conformance" / "wrong_backends" / "crashes_and_hangs.py")
    # the timeout bounds a whole case, the first of a restarted worker included (its lazy imports): 2 s timed Abs out
    # on a loaded CI machine; 6 s still makes Sigmoid's hang cheap to wait for
    result, data = run_and_report(tmp_path, backend, "--op", "Relu,Sigmoid,Abs", "--domain", "ai.onnx",
                                  "--domain", "tengine", "--timeout", "6", "--max-examples", "3")
    assert result.returncode == 1 and data["complete"]
    cells = data["cells"]
    assert all(c["status"] in ("pass", "unsupported") for c in cells.values() if c["op"] == "Abs"), \
        {k: c["messages"] for k, c in cells.items() if c["op"] == "Abs" and c["status"] not in ("pass", "unsupported")}
    relu = [c for k, c in cells.items() if k.startswith("ai.onnx@14::Relu[float]")]
    assert relu and relu[0]["status"] == "fail" and "died" in relu[0]["messages"][0]
    hung = [c for k, c in cells.items() if c["op"] == "Sigmoid" and c["status"] == "fail"
            and "hung" in c["messages"][0]]
    assert hung, {k: c["messages"] for k, c in cells.items() if c["op"] == "Sigmoid"}
    assert replay(relu[0]["repro"]).returncode == 1


def test_a_bad_backend_name_is_a_usage_error() -> None:
    result = conform("--backend", "no_such_module_anywhere")
    assert result.returncode == 2 and "cannot import" in result.stderr
