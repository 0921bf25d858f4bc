"""`--junit FILE`: the run's cell records (`RunReport`) as JUnit XML, one test case per cell.

Written from the records (a run's, or a merge's), so `conform merge --junit` of N shards writes the
same test cases as one unsharded run. A failed cell is a <failure>, an unsupported or expected-to-fail one is
<skipped>; a passing, ambiguous or unexpectedly passing cell passes, its status kept as a property.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from conformance.runner.report import OutputFailed, RunReport, write_text_atomically

SKIPPED = ("unsupported", "xfail")


def junit_tree(report: RunReport) -> ET.ElementTree[ET.Element]:
    cells = sorted(report.cells.values(), key=lambda c: (c.domain, c.op, c.version, c.dtype))
    failures = sum(c.status == "fail" for c in cells)
    skipped = sum(c.status in SKIPPED for c in cells)
    finished = report.finished if report.finished is not None else report.started
    elapsed = max(0.0, finished - report.started)
    counts = {"tests": str(len(cells)), "failures": str(failures), "errors": "0", "skipped": str(skipped),
              "time": f"{elapsed:.3f}"}
    root = ET.Element("testsuites", {"name": "conform", **counts})
    suite = ET.SubElement(root, "testsuite", {"name": f"conform --backend {report.backend}", **counts})
    for cell in cells:
        case = ET.SubElement(suite, "testcase", {"classname": f"{cell.domain}.{cell.op}", "name": cell.label})
        properties = ET.SubElement(case, "properties")
        for name in ("status", "tests", "examples", "max_ulp", "repro"):
            value = getattr(cell, name)
            if value is not None:
                ET.SubElement(properties, "property", {"name": name, "value": str(value)})
        messages = list(cell.messages)
        first = messages[0][:500] if messages else ""
        if cell.status == "fail":
            ET.SubElement(case, "failure", {"message": first}).text = "\n\n".join(messages)
        elif cell.status in SKIPPED:
            ET.SubElement(case, "skipped", {"message": first or cell.status})
    ET.indent(root)
    return ET.ElementTree(root)


def write_junit(report: RunReport, path: Path) -> None:
    """Write the XML (atomically); OutputFailed, one line, when it cannot be written."""
    import io

    buffer = io.BytesIO()
    junit_tree(report).write(buffer, encoding="utf-8", xml_declaration=True)
    try:
        write_text_atomically(path, buffer.getvalue().decode("utf-8"))
    except OSError as e:
        raise OutputFailed(f"cannot write the JUnit XML {path}: {e.strerror or e}") from e
