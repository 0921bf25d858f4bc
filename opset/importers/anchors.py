"""The anchors: the onnx and onnxruntime releases the registry mirrors, pinned in the checkout's constraints.txt.

The importers write the registry from what is installed and the drift tests compare it with what is installed, so
the test path installs exactly these (`pip install ... -c constraints.txt`); pyproject.toml keeps ranges for library
users. `tools/upgrade-anchors` moves the pins to a new release and re-imports; its steps use this module:

    python -m opset.importers.anchors check   # installed anchors == pinned ones, else say which differ (exit 1)
    python -m opset.importers.anchors pin     # write the installed anchors' versions into constraints.txt
    python -m opset.importers.anchors drift   # the drift report of the registry against the installed anchors
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping, Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from opset.registry_home import PACKAGE_DIR

ANCHORS = ("onnx", "onnxruntime")
CONSTRAINTS = PACKAGE_DIR.parent / "constraints.txt"  # a checkout's; an installed wheel has none
_PIN = re.compile(r"^(?P<name>[A-Za-z0-9_.-]+)==(?P<version>[^\s#;]+)\s*(#.*)?$")


class AnchorError(Exception):
    """constraints.txt is missing or does not pin an anchor."""


def pinned(path: Path | None = None) -> dict[str, str]:
    """{package: version} of every anchor pinned in `path` (default: the checkout's constraints.txt); AnchorError
    names what is missing."""
    path = path or CONSTRAINTS
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise AnchorError(f"{path}: cannot read the pins ({e.strerror}); the anchors are pinned in a checkout") from e
    pins = {}
    for line in text.splitlines():
        match = _PIN.match(line.strip())
        if match and _normal(match["name"]) in ANCHORS:
            pins[_normal(match["name"])] = match["version"]
    missing = [name for name in ANCHORS if name not in pins]
    if missing:
        raise AnchorError(f"{path}: no pin (name==version) for {', '.join(missing)}")
    return pins


def installed() -> dict[str, str | None]:
    """{package: installed version, or None when absent} of every anchor."""
    found: dict[str, str | None] = {}
    for name in ANCHORS:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = None
    return found


def mismatches(pins: Mapping[str, str], have: Mapping[str, str | None]) -> list[str]:
    """One line per anchor whose installed version is not the pinned one."""
    return [f"{name} {have.get(name) or '(not installed)'} is installed, but the registry mirrors {pins[name]}"
            for name in ANCHORS if have.get(name) != pins[name]]


def write_pins(path: Path, versions: Mapping[str, str]) -> bool:
    """Rewrite the anchors' pin lines of `path` to `versions`; whether the file changed."""
    pinned(path)  # every anchor has a line to rewrite
    old = path.read_text(encoding="utf-8")
    lines = []
    for line in old.splitlines(keepends=True):
        match = _PIN.match(line.strip())
        name = _normal(match["name"]) if match else ""
        lines.append(line.replace(f"=={match['version']}", f"=={versions[name]}", 1)
                     if match and name in versions else line)
    new = "".join(lines)
    if new != old:
        path.write_text(new, encoding="utf-8")
    return new != old


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args not in (["check"], ["pin"], ["drift"]):
        print("usage: python -m opset.importers.anchors check|pin|drift", file=sys.stderr)
        return 2
    try:
        pins = pinned()
    except AnchorError as e:
        print(f"anchors: {e}", file=sys.stderr)
        return 2
    have = installed()
    if args == ["pin"]:
        absent = [name for name, v in have.items() if v is None]
        if absent:
            print(f"anchors: not installed: {', '.join(absent)}", file=sys.stderr)
            return 1
        changed = write_pins(CONSTRAINTS, {k: v for k, v in have.items() if v is not None})
        print(f"{CONSTRAINTS.name}: " + ", ".join(f"{k}=={v}" for k, v in have.items())
              + ("" if changed else " (unchanged)"))
        return 0
    wrong = mismatches(pins, have)
    for line in wrong:
        print(f"anchors: {line} ({CONSTRAINTS.name}): pip install -c {CONSTRAINTS.name} {' '.join(ANCHORS)}",
              file=sys.stderr)
    if args == ["check"] or wrong:
        return 1 if wrong else 0
    return _drift()


def _drift() -> int:
    from opset.importers.drift import drift_onnx, drift_ort
    from opset.registry_home import default_schemas

    lines = drift_onnx(default_schemas()) + drift_ort(default_schemas())
    for line in lines:
        print(line)
    print(f"drift: {len(lines)} unexplained difference(s) against onnx {version('onnx')} and onnxruntime "
          f"{version('onnxruntime')}")
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
