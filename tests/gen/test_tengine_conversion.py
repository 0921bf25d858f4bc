"""The Tengine conversion table agrees with what the converter reads, in both directions."""

from __future__ import annotations

from typing import Any

from gen.docs.conversion import conversion_rows
from opset.tmfile.onnx_reverse import candidates
from opset.tmfile.params import tengine_versions


def test_the_reverse_column_is_the_converters_own_candidates(registry: Any) -> None:
    versions = list(tengine_versions(registry).values())
    taken: dict[str, set[str]] = {}
    for onnx_op, listed in candidates(registry, versions).items():
        for c in listed:
            taken.setdefault(c.version.name, set()).add(onnx_op)
    rows = {r.version.name: r for r in conversion_rows(registry)}
    assert {name for name, r in rows.items() if r.from_onnx} == set(taken)
    for name, ops in taken.items():
        assert set(rows[name].from_onnx) == ops, name


def test_every_op_without_an_onnx_form_says_why(registry: Any) -> None:
    rows = conversion_rows(registry)
    assert len(rows) == sum(1 for (domain, _) in registry.ops if domain == "tengine")
    silent = [r.version.name for r in rows if not r.to_onnx and not r.why_not]
    assert not silent
    folded = [r.version.name for r in rows if "constant (folded)" in r.to_onnx]
    assert "PriorBox" in folded
    assert all(not r.from_onnx for r in rows if r.version.name in folded and len(r.to_onnx) == 1)


def test_the_page_is_in_the_site(registry: Any) -> None:
    from gen.docs.pages import render_site

    page = render_site(registry, [])["tengine/conversion.md"]
    convolution = next(line for line in page.splitlines() if line.startswith("| [Convolution]"))
    assert "Conv + " in convolution and "| Conv |" in convolution
