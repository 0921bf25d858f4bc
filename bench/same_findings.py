#!/usr/bin/env python
"""Does a speed change keep validation's findings? Every model of the corpora validated by this checkout and by an
earlier revision (checked out into a temporary git worktree), each in its own process, and compared: diagnostics,
every value's validated type and shape (facts) and the inferred shapes, model by model; `opset validate` of every
.tmfile compared by its output.

Corpora: onnx's backend test models (light, simple, pytorch-converted, pytorch-operator), the real-model corpus
(--corpus, default build/real-models: `python -m tests.real_models.make_models` writes it) and the .tmfile models
of $OPSET_TMFILE_DIR (default ../shared/data/tmfile). Exit 0 when every finding is the same, 1 when one differs
(each difference is listed), 2 on a usage error.

Run: python bench/same_findings.py REV [--corpus build/real-models]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# what one tree finds: run in a child whose sys.path and registry are that tree's
_SNAPSHOT = """
import json, sys
from opset.validate import check_model
from opset.validate.reading import ModelReadError, read_model
found = {}
for path in json.loads(sys.argv[1]):
    try:
        result = check_model(read_model(path))
    except ModelReadError as error:
        found[path] = {"read_error": str(error)}
        continue
    found[path] = {"diagnostics": [str(d) for d in result.diagnostics],
                   "facts": {k: repr(v) for k, v in sorted(result.facts.items())},
                   "inferred": {k: repr(v) for k, v in sorted(result.inferred.items())}}
print(json.dumps(found))
"""


def _models(corpus: Path) -> list[str]:
    import onnx

    data = Path(onnx.__file__).parent / "backend" / "test" / "data"
    paths = sorted(data.glob("light/*.onnx")) + sorted(data.glob("*/*/model.onnx"))
    if corpus.is_dir():
        paths += sorted(corpus.rglob("*.onnx"))
    return [str(p) for p in paths]


def _tree_env(tree: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree), "OPSET_SCHEMAS": str(tree / "schemas")}


def _snapshot(tree: Path, models: list[str]) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", _SNAPSHOT, json.dumps(models)], cwd=tree, env=_tree_env(tree),
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"validating with {tree} failed:\n{done.stderr[-3000:]}")
    found: dict[str, object] = json.loads(done.stdout)
    return found


def _tmfile_outputs(tree: Path, tmfiles: list[Path]) -> dict[str, str]:
    outputs = {}
    for path in tmfiles:
        done = subprocess.run([sys.executable, "-m", "opset.cli", "validate", str(path)], cwd=tree,
                              env=_tree_env(tree), capture_output=True, text=True, check=False)
        outputs[str(path)] = f"exit {done.returncode}\n{done.stdout}{done.stderr}"
    return outputs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("rev", help="the earlier revision (a commit, a branch, a tag)")
    parser.add_argument("--corpus", type=Path, default=ROOT / "build" / "real-models")
    a = parser.parse_args()
    tmfiles = sorted(Path(os.environ.get("OPSET_TMFILE_DIR", ROOT.parent / "shared" / "data" / "tmfile"))
                     .glob("*.tmfile"))
    models = _models(a.corpus)
    with tempfile.TemporaryDirectory() as folder:
        earlier = Path(folder) / "earlier"
        made = subprocess.run(["git", "worktree", "add", "--detach", "-q", str(earlier), a.rev], cwd=ROOT,
                              capture_output=True, text=True, check=False)
        if made.returncode != 0:
            print(f"same_findings: cannot check out {a.rev}: {made.stderr.strip()}", file=sys.stderr)
            return 2
        try:
            before, after = _snapshot(earlier, models), _snapshot(ROOT, models)
            tm_before, tm_after = _tmfile_outputs(earlier, tmfiles), _tmfile_outputs(ROOT, tmfiles)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(earlier)], cwd=ROOT, check=False)
    differ = [m for m in models if before.get(m) != after.get(m)] + [t for t in tm_before if
                                                                      tm_before[t] != tm_after[t]]
    for path in differ:
        print(f"DIFFERS {path}")
    print(f"{len(models)} ONNX models and {len(tmfiles)} .tmfiles validated at {a.rev} and here: "
          f"{len(differ)} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
