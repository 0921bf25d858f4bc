"""The same seed draws the same cases wherever conform runs: Hypothesis mixes no constant of the source it happens to
run next to into conform's draws (`conformance.strategies.repeatable`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.helpers.conform_cli import ROOT, tree_bytes

# a module of the kind any checkout holds: constants Hypothesis (6.131 on) would find and now and then draw
LOCAL_MODULE = "SIZES = [" + ", ".join(str(3 + 7 * i) for i in range(60)) + "]\n" + \
    "SCALES = [" + ", ".join(f"{0.37 + i / 17:.6f}" for i in range(60)) + "]\n"

PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
import constants_here  # a local module, loaded before any draw
from hypothesis.internal.conjecture import providers
found = 3 + 7 * 59 in providers._get_local_constants().integers
from conformance.strategies.repeatable import draw_without_local_constants
draw_without_local_constants()
import constants_here_too  # loaded after: not read either
print(found, len(providers._get_local_constants()))
"""


def test_the_pinned_hypothesis_draws_local_constants_until_conform_turns_them_off(tmp_path: Path) -> None:
    (tmp_path / "constants_here.py").write_text(LOCAL_MODULE)
    (tmp_path / "constants_here_too.py").write_text(LOCAL_MODULE.replace("3 + ", "5 + "))
    result = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path)], capture_output=True, text=True, cwd=ROOT,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "0"]


EXPORT = """
import sys
sys.path.insert(0, sys.argv[1])
if sys.argv[2] == "with":
    import constants_here
from conformance.suites.export import main
sys.exit(main(sys.argv[3:]))
"""


def test_an_export_draws_the_same_cases_whatever_local_modules_are_loaded(tmp_path: Path) -> None:
    """Two exports of one seed, the second with a module of constants loaded first (as another checkout, another
    version of a file, or another import order would): byte for byte the same corpus."""
    (tmp_path / "constants_here.py").write_text(LOCAL_MODULE)
    args = ["--op", "Conv", "--op", "TopK", "--op", "Clip", "--op", "Gather", "--draws", "3", "--seed", "3"]
    for name, mode in (("plain", "without"), ("loaded", "with")):
        result = subprocess.run([sys.executable, "-c", EXPORT, str(tmp_path), mode, str(tmp_path / name), *args],
                                capture_output=True, text=True, cwd=ROOT, timeout=900)
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    plain, loaded = tree_bytes(tmp_path / "plain"), tree_bytes(tmp_path / "loaded")
    assert plain.keys() == loaded.keys() and len(plain) > 50
    assert [k for k in plain if plain[k] != loaded[k]] == []
