"""Loading, version resolution, domain extension, the cache and `opset show`."""

from __future__ import annotations

import marshal
import subprocess
import sys
from pathlib import Path

import pytest

from opset import cache
from opset.errors import RegistryError, ResolutionError
from opset.load import load_registry

ROOT = Path(__file__).resolve().parents[2]


def test_resolution_follows_since(registry) -> None:  # type: ignore[no-untyped-def]
    assert registry.resolve("ai.onnx", "AveragePool", 7).since == 7
    assert registry.resolve("ai.onnx", "AveragePool", 9).since == 7
    assert registry.resolve("ai.onnx", "AveragePool", 10).since == 10
    assert registry.resolve("", "AveragePool", 11).since == 11
    v7 = registry.resolve("ai.onnx", "AveragePool", 7)
    assert v7.attributes["count_include_pad"].default == 0
    assert "ceil_mode" not in v7.attributes
    assert "ceil_mode" in registry.resolve("ai.onnx", "AveragePool", 10).attributes


def test_an_op_not_yet_defined_does_not_resolve(registry) -> None:  # type: ignore[no-untyped-def]
    # onnx's history starts Resize at 10
    with pytest.raises(ResolutionError, match=r"Resize is not in opset 9 of ai\.onnx"):
        registry.resolve("ai.onnx", "Resize", 9)
    assert registry.resolve("ai.onnx", "Upsample", 6).since == 1  # onnx's experimental Upsample-1


def test_domain_extension(registry) -> None:  # type: ignore[no-untyped-def]
    conv = registry.resolve("ai.onnx.modified", "Conv", 1)
    assert (conv.domain, conv.since) == ("ai.onnx", 1)
    assert registry.resolve("ai.onnx.modified", "Relu6", 1).domain == "ai.onnx.modified"
    leaky = registry.resolve("ai.onnx.modified", "LeakyRelu", 1)
    assert leaky.domain == "ai.onnx.modified", "the modified LeakyRelu overrides ai.onnx's"
    names = {v.name for v in registry.opset_contents("ai.onnx.modified", 1)}
    assert {"Conv", "Relu6", "SpaceToDepth", "Dense"} <= names
    assert "Clip" in names  # opset 7 of ai.onnx has Clip 6


def test_opset_contents_takes_the_newest_version(registry) -> None:  # type: ignore[no-untyped-def]
    by_name = {v.name: v.since for v in registry.opset_contents("ai.onnx", 12)}
    assert by_name["AveragePool"] == 11
    assert by_name["MaxPool"] == 12


def test_every_version_has_outputs_and_resolvable_types(registry) -> None:  # type: ignore[no-untyped-def]
    for v in registry.all_versions():
        assert v.outputs, f"{v.signature} has no outputs"
        for p in [*v.inputs, *v.outputs]:
            assert p.type in v.type_constraints or p.type.startswith(("tensor(", "seq(", "optional(")), p


def test_removed_ops_do_not_resolve(tmp_path: Path) -> None:
    reg_root = _copy_domain(tmp_path, "ai.onnx", ["Relu"])
    relu = reg_root / "ai.onnx" / "Relu.yaml"
    text = relu.read_text().replace("category:", "status: {state: removed, removed_at_opset: 14, "
                                              "replacement: Gelu}\ncategory:", 1)
    relu.write_text(text)
    reg = load_registry(reg_root, use_cache=False)
    assert reg.resolve("ai.onnx", "Relu", 13).since == 13
    with pytest.raises(ResolutionError, match="removed at opset 14; use Gelu"):
        reg.resolve("ai.onnx", "Relu", 14)


def test_cache_is_used_and_invalidated_by_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPSET_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("OPSET_NO_CACHE", raising=False)
    reg_root = _copy_domain(tmp_path, "ai.onnx", ["Relu", "Abs"])
    first = load_registry(reg_root)
    cache_files = list((tmp_path / "cache").glob("registry-*.marshal"))
    assert len(cache_files) == 1
    assert len(load_registry(reg_root)) == len(first)
    # a changed file is a miss: the change is seen, and a broken change is reported, not served stale
    relu = reg_root / "ai.onnx" / "Relu.yaml"
    relu.write_text(relu.read_text().replace("category:", "colour: red\ncategory:", 1))
    with pytest.raises(RegistryError, match="unknown key 'colour'"):
        load_registry(reg_root)


@pytest.mark.parametrize("garbage", [b"", b"{not marshal", marshal.dumps({"key": "x", "tables": 3}), b"\xff\xfe\x00",
                                     marshal.dumps([1, 2, 3])])
def test_a_corrupt_cache_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, garbage: bytes) -> None:
    monkeypatch.setenv("OPSET_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("OPSET_NO_CACHE", raising=False)
    reg_root = _copy_domain(tmp_path, "ai.onnx", ["Relu"])
    expected = len(load_registry(reg_root))
    (cache_file,) = (tmp_path / "cache").glob("registry-*.marshal")
    cache_file.write_bytes(garbage)
    assert len(load_registry(reg_root)) == expected
    assert marshal.loads(cache_file.read_bytes())["key"], "the cache was rewritten"


def test_a_cache_with_a_forged_key_for_other_content_is_not_trusted(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPSET_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("OPSET_NO_CACHE", raising=False)
    reg_root = _copy_domain(tmp_path, "ai.onnx", ["Relu"])
    load_registry(reg_root)
    (cache_file,) = (tmp_path / "cache").glob("registry-*.marshal")
    blob = marshal.loads(cache_file.read_bytes())
    blob["key"] = cache.content_key(reg_root, [])  # the key of an empty registry
    cache_file.write_bytes(marshal.dumps(blob))
    assert len(load_registry(reg_root)) > 0


def _copy_domain(tmp_path: Path, domain: str, ops: list[str]) -> Path:
    root = tmp_path / "schemas"
    (root / domain).mkdir(parents=True)
    src = ROOT / "schemas" / domain
    for name in ["_domain", *ops]:
        (root / domain / f"{name}.yaml").write_text((src / f"{name}.yaml").read_text())
    return root


def _show(*args: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "opset.cli", "show", *args], capture_output=True, text=True,
                          cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_show_averagepool_across_versions() -> None:
    v7 = _show("AveragePool", "--opset", "7")
    assert "count_include_pad: int = 0" in v7 and "ceil_mode" not in v7
    assert "ceil_mode: int = 0" in _show("AveragePool", "--opset", "10")
    assert _show("AveragePool", "--opset", "11").startswith("ai.onnx@11::AveragePool")


def test_show_other_domains() -> None:
    assert "ai.onnx.modified@1::Relu6" in _show("Relu6", "--domain", "ai.onnx.modified")
    conv = _show("Conv", "--domain", "ai.onnx.modified")
    assert conv.startswith("ai.onnx@1::Conv") and "through ai.onnx at opset 7" in conv
    tengine = _show("Convolution", "--domain", "tengine")
    assert "op id" in tengine and "binary layout" in tengine and "kernel_h" in tengine


def test_show_a_removed_op() -> None:
    fc = _show("FC")
    assert "resolves in no opset" in fc
    status = [line for line in fc.splitlines() if line.startswith("  status:")]
    assert status == ["  status: removed in 1.2; replacement: Gemm"]
    assert fc.count("removed in 1.2") == 1
    note = load_registry().ops[("ai.onnx", "FC")].status.note
    assert note and f"  note: {note}" in fc.splitlines()


def test_show_a_deprecated_op() -> None:
    upsample = _show("Upsample", "--opset", "9")
    assert "  status: deprecated since opset 10" in upsample.splitlines()


def test_show_beyond_the_newest_opset_says_so() -> None:
    newest = load_registry().domains["ai.onnx"].max_opset
    assert _show("Relu", "--opset", str(newest)).startswith("ai.onnx@14::Relu")
    for op in ("Relu", "FC"):  # an active op and a removed one
        proc = subprocess.run([sys.executable, "-m", "opset.cli", "show", op, "--opset", str(newest + 1)],
                              capture_output=True, text=True, cwd=ROOT)
        assert proc.returncode == 1 and proc.stdout == ""
        assert proc.stderr == f"error: ai.onnx has no opset {newest + 1}; its newest opset is {newest}\n"


def test_show_unknown_op_is_a_clear_error() -> None:
    proc = subprocess.run([sys.executable, "-m", "opset.cli", "show", "NoSuchOp"], capture_output=True, text=True,
                          cwd=ROOT)
    assert proc.returncode == 1
    assert "NoSuchOp" in proc.stderr and "Traceback" not in proc.stderr


def test_the_cache_folder_keeps_a_bounded_number_of_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPSET_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("OPSET_NO_CACHE", raising=False)
    for i in range(cache.KEEP_FILES + 3):  # as many registry copies as conform's snapshots make
        load_registry(_copy_domain(tmp_path / f"copy{i}", "ai.onnx", ["Relu"]))
    assert len(list((tmp_path / "cache").glob("registry-*.marshal"))) == cache.KEEP_FILES


def test_the_cache_used_last_outlives_newer_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pruning goes by last use: the checkout's registry, loaded again now and then, keeps its cache however many
    snapshot copies are cached after it (was: by when it was written, so they pushed it out)."""
    import os

    monkeypatch.setenv("OPSET_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("OPSET_NO_CACHE", raising=False)
    main_root = _copy_domain(tmp_path / "main", "ai.onnx", ["Relu"])
    load_registry(main_root)
    (kept,) = (tmp_path / "cache").glob("registry-*.marshal")
    os.utime(kept, (1, 1))  # written long ago
    for i in range(cache.KEEP_FILES + 2):
        load_registry(main_root)  # a hit, which marks it used
        load_registry(_copy_domain(tmp_path / f"copy{i}", "ai.onnx", ["Relu"]))  # written, and prunes
        assert kept.is_file(), f"pruned after {i + 1} newer caches"


def test_one_cache_entry_serves_every_folder_outside_the_registry(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPSET_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("OPSET_NO_CACHE", raising=False)
    reg_root = _copy_domain(tmp_path / "installed", "ai.onnx", ["Relu"])
    for folder in ("a", "b"):  # an installed registry used from two project folders
        (tmp_path / folder).mkdir()
        monkeypatch.chdir(tmp_path / folder)
        relu = load_registry(reg_root).ops[("ai.onnx", "Relu")]
        assert relu.file == str(reg_root / "ai.onnx" / "Relu.yaml")
    assert len(list((tmp_path / "cache").glob("registry-*.marshal"))) == 1
    monkeypatch.chdir(tmp_path / "installed")  # from inside, files are named relative to the working directory
    assert load_registry(reg_root).ops[("ai.onnx", "Relu")].file == str(Path("schemas", "ai.onnx", "Relu.yaml"))
    assert len(list((tmp_path / "cache").glob("registry-*.marshal"))) == 2
