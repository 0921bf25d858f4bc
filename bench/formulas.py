#!/usr/bin/env python
"""Generated formula functions (`gen formulas`) against the compiled closures they replace, and onnx's full check.

For each light model of onnx's backend test data: the CPU time (time.process_time, steadier than wall time on a
shared machine) of a warm first validation (`forget_outcomes()` before each call, formulas already compiled and
versions planned by an earlier validation), the median of --reps calls, in two fresh processes: one with the
generated functions (what `opset validate` runs) and one with them withheld (`opset.generated_formulas.attach`
answering False: every formula runs as compiled closures, the state before `gen formulas`). onnx's
`check_model(full_check=True)` is timed the same way in the same processes.

Run: python bench/formulas.py [--reps 7]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _measure(mode: str, reps: int) -> dict[str, tuple[float, float]]:
    """model -> (ours_ms, onnx_full_ms), CPU time, in this process."""
    import onnx
    import onnx.backend.test

    if mode == "closures":
        import opset.generated_formulas

        opset.generated_formulas.attach = lambda version: False
    from bench.light import light_name, light_paths
    from opset.validate import check_model, forget_outcomes

    models = {light_name(p): onnx.load(str(p)) for p in light_paths()}
    for model in models.values():
        check_model(model)  # warm: formulas compiled, versions planned
    found: dict[str, tuple[float, float]] = {}
    for name, model in models.items():
        ours, theirs = [], []
        for _ in range(reps):
            forget_outcomes()
            start = time.process_time()
            check_model(model)
            ours.append(time.process_time() - start)
            start = time.process_time()
            onnx.checker.check_model(model, full_check=True)
            theirs.append(time.process_time() - start)
        found[name] = (statistics.median(ours) * 1000, statistics.median(theirs) * 1000)
    return found


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--mode", choices=["generated", "closures"], default=None, help=argparse.SUPPRESS)
    options = ap.parse_args()
    if options.mode is not None:
        print(json.dumps(_measure(options.mode, options.reps)))
        return 0
    runs = {}
    for mode in ("closures", "generated"):
        done = subprocess.run([sys.executable, __file__, "--mode", mode, "--reps", str(options.reps)],
                              capture_output=True, text=True, check=True)
        runs[mode] = json.loads(done.stdout.strip().splitlines()[-1])
    print("| model | onnx full check ms | closures ms (ratio) | generated ms (ratio) | generated / closures |")
    print("|---|---|---|---|---|")
    sums = {"closures": 0.0, "generated": 0.0, "onnx": 0.0}
    for name in runs["generated"]:
        (closures, onnx_a), (generated, onnx_b) = runs["closures"][name], runs["generated"][name]
        full = (onnx_a + onnx_b) / 2
        sums["closures"] += closures
        sums["generated"] += generated
        sums["onnx"] += full
        print(f"| {name} | {full:.2f} | {closures:.1f} ({closures / full:.1f}x) | {generated:.1f} "
              f"({generated / full:.1f}x) | {generated / closures:.2f} |")
    print(f"| sum | {sums['onnx']:.2f} | {sums['closures']:.1f} ({sums['closures'] / sums['onnx']:.1f}x) | "
          f"{sums['generated']:.1f} ({sums['generated'] / sums['onnx']:.1f}x) | "
          f"{sums['generated'] / sums['closures']:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
