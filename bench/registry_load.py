#!/usr/bin/env python
"""Cold-process load of our whole registry vs onnx's own schema load, same run, fresh process each.

  ours : `import opset.load; load_registry()` (through the compiled cache, as users get it; one
         warm-up process fills the cache first; ops are built when first asked for), the same plus
         building every op version (the work onnx's call does), and with the cache disabled
  onnx : `import onnx; onnx.defs.get_all_schemas_with_history()`

Both children pay interpreter start-up; the figures below are measured inside each child with
perf_counter around the import and the load (numpy is imported first in the onnx child, as onnx
needs it, and excluded). Samples interleave so machine noise hits both alike.

Run:  python bench/registry_load.py [--runs 10]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

OURS = r"""
import json, time
t0 = time.perf_counter()
from opset.load import load_registry
reg = load_registry()
t1 = time.perf_counter()
versions = sum(len(op.versions) for op in reg.ops.values())  # ops are built when first asked for
t2 = time.perf_counter()
print(json.dumps({"s": t1 - t0, "all": t2 - t0, "n": len(reg), "built": versions}))
"""
ONNX = r"""
import json, time
import numpy
t0 = time.perf_counter()
import onnx, onnx.defs
h = onnx.defs.get_all_schemas_with_history()
t1 = time.perf_counter()
print(json.dumps({"s": t1 - t0, "n": len(h)}))
"""


def child(code: str, env: dict[str, str]) -> dict[str, float]:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    result: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=10)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "OPSET_CACHE_DIR": cache}
        env.pop("OPSET_NO_CACHE", None)
        nocache = {**env, "OPSET_NO_CACHE": "1"}
        child(OURS, env)  # fill the cache
        ours, ours_all, ours_cold, onnx_ = [], [], [], []
        n_ours = n_onnx = 0.0
        for _ in range(a.runs):
            r = child(OURS, env)
            ours.append(r["s"])
            ours_all.append(r["all"])
            n_ours = r["n"]
            ours_cold.append(child(OURS, nocache)["s"])
            r = child(ONNX, env)
            onnx_.append(r["s"])
            n_onnx = r["n"]
    med = statistics.median
    print(f"# {a.runs} fresh processes each, medians (min-max), python {sys.version.split()[0]}\n")
    print("| what | op versions | median ms | min ms | max ms |")
    print("|---|---|---|---|---|")
    for label, xs, n in (("opset: import + load_registry() (cache)", ours, n_ours),
                         ("opset: the same + every op version built", ours_all, n_ours),
                         ("opset: import + load_registry() (no cache: YAML + checks)", ours_cold, n_ours),
                         ("onnx: import onnx + get_all_schemas_with_history()", onnx_, n_onnx)):
        print(f"| {label} | {int(n)} | {med(xs) * 1e3:.1f} | {min(xs) * 1e3:.1f} | {max(xs) * 1e3:.1f} |")
    print(f"\nratio ours (cache) / onnx: {med(ours) / med(onnx_):.2f}")
    print(f"ratio ours (cache, every op built) / onnx: {med(ours_all) / med(onnx_):.2f}")
    print(f"ratio ours (no cache) / onnx: {med(ours_cold) / med(onnx_):.2f}")
    print(f"per op version: ours {med(ours) / n_ours * 1e6:.0f} us, onnx {med(onnx_) / n_onnx * 1e6:.0f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
