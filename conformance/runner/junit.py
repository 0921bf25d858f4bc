"""`--junit FILE`: the JSON report as JUnit XML, one test case per cell.

Written from the report (never from pytest's own per-test XML), so `conform merge --junit` of N shards writes the
same test cases as one unsharded run. A failed cell is a <failure>, an unsupported or expected-to-fail one is
<skipped>; a passing, ambiguous or unexpectedly passing cell passes, its status kept as a property.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from conformance.runner.report import cell_key

SKIPPED = ("unsupported", "xfail")


def junit_tree(data: dict[str, Any]) -> ET.ElementTree[ET.Element]:
    cells = sorted(data.get("cells", {}).values(), key=lambda c: (c["domain"], c["op"], c["version"], c["dtype"]))
    failures = sum(c["status"] == "fail" for c in cells)
    skipped = sum(c["status"] in SKIPPED for c in cells)
    elapsed = max(0.0, float(data.get("finished", data.get("started", 0.0))) - float(data.get("started", 0.0)))
    counts = {"tests": str(len(cells)), "failures": str(failures), "errors": "0", "skipped": str(skipped),
              "time": f"{elapsed:.3f}"}
    root = ET.Element("testsuites", {"name": "conform", **counts})
    suite = ET.SubElement(root, "testsuite", {"name": f"conform --backend {data.get('backend', '?')}", **counts})
    for cell in cells:
        case = ET.SubElement(suite, "testcase", {"classname": f"{cell['domain']}.{cell['op']}",
                                                 "name": cell_key(cell["domain"], cell["op"], cell["version"],
                                                                  cell["dtype"])})
        properties = ET.SubElement(case, "properties")
        for name in ("status", "tests", "examples", "max_ulp", "repro"):
            if cell.get(name) is not None:
                ET.SubElement(properties, "property", {"name": name, "value": str(cell[name])})
        messages = [str(m) for m in cell.get("messages") or []]
        first = messages[0].splitlines()[0][:500] if messages else ""
        if cell["status"] == "fail":
            ET.SubElement(case, "failure", {"message": first}).text = "\n\n".join(messages)
        elif cell["status"] in SKIPPED:
            ET.SubElement(case, "skipped", {"message": first or cell["status"]})
    ET.indent(root)
    return ET.ElementTree(root)


def write_junit(data: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    junit_tree(data).write(path, encoding="utf-8", xml_declaration=True)
