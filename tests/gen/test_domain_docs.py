"""Every op page shows what valid inputs look like (its versions' domains) and, for an op without a reference kernel,
why (docs/format.md: `domain`, `dims`, `no_reference_kernel`)."""

from __future__ import annotations

from pathlib import Path

from gen.docs.domain_text import describe, domain_rows
from gen.docs.pages import code
from tests.helpers import registry

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_a_version_with_domains_lists_them_in_words() -> None:
    rows = {(r.kind, r.name): r.text for r in domain_rows(registry().resolve("ai.onnx", "Conv", 11), code)}
    assert rows[("attribute", "kernel_shape")] == "exactly `K`"
    assert rows[("attribute", "pads")] == "values in [`0`, `K[i % r] - 1`]; given only where `auto_pad == 'NOTSET'`"
    assert rows[("dim", "M")] == "sizes in [`1`, `2`]; a multiple of `group`"
    div = registry().resolve("ai.onnx", "Div", 14).inputs[1].domain
    assert div is not None
    assert describe(div, code) == "shape broadcasts with the other inputs (numpy's rule); integer types: never `0`"


def test_every_op_page_shows_its_valid_inputs() -> None:
    for op in registry():
        page = (DOCS / op.domain / f"{op.name}.md").read_text(encoding="utf-8")
        assert page.count("**Valid inputs**") == len(op.versions), op.label


def test_an_op_without_a_kernel_says_why_on_its_page() -> None:
    page = (DOCS / "com.microsoft" / "BeamSearch.md").read_text(encoding="utf-8")
    reason = registry().op("com.microsoft", "BeamSearch").no_reference_kernel
    assert reason.startswith("a whole decoding loop")
    assert '!!! info "No reference kernel"' in page and " ".join(reason.split()) in page
