#!/usr/bin/env python
"""Cold command-line figures, same run, a fresh process each: `opset --help`, `conform --help`, `opset run --help`,
and `opset validate LIGHT_MODEL` beside onnx's one-liner on the same file:

  python -c "import onnx; onnx.checker.check_model(PATH, full_check=True)"

Each child is the whole process as a user starts it (the installed console scripts of this environment, wall time
from spawn to exit), with bytecode caching on (PYTHONDONTWRITEBYTECODE removed: an installed package has its .pyc
files) and the registry cache already filled by a warm-up run. Samples interleave (round after round, every command
once a round) so machine noise hits both sides alike; a figure is the best of --rounds. Ratios: ours / onnx's
one-liner on the same model; the help commands against the goal of 100 ms (issue 26) and against `python -c pass`
(the interpreter's own start-up, which no command can beat).

Run:  python bench/cold_cli.py [--rounds 3] [--models alexnet,densenet121]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import onnx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.light import light_name, light_paths

HELP_GOAL_MS = 100.0


def _script(name: str) -> str:
    """The console script `name` installed beside this interpreter (the venv's bin/)."""
    path = Path(sys.executable).parent / name
    if not path.exists():
        sys.exit(f"{path}: not installed (python -m pip install -e .)")
    return str(path)


def _wall_ms(argv: list[str], env: dict[str, str]) -> float:
    t = time.perf_counter()
    done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    ms = 1e3 * (time.perf_counter() - t)
    if done.returncode not in (0, 1):  # validate exits 1 on a model with errors; anything else is a broken run
        sys.exit(f"{' '.join(argv)}: exit {done.returncode}\n{done.stderr.decode(errors='replace')}")
    return ms


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--models", default="", help="comma-separated light model names (default: all of them)")
    a = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    paths = [str(p) for p in light_paths()]
    wanted = [m for m in a.models.split(",") if m]
    if wanted:
        paths = [p for p in paths if light_name(p) in wanted]
    opset, conform = _script("opset"), _script("conform")
    commands: dict[str, list[str]] = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "opset --help": [opset, "--help"],
        "conform --help": [conform, "--help"],
        "opset run --help": [opset, "run", "--help"],
    }
    for p in paths:
        name = light_name(p)
        commands[f"opset validate {name}"] = [opset, "validate", p]
        commands[f"onnx full check {name}"] = [sys.executable, "-c",
                                               f"import onnx; onnx.checker.check_model({p!r}, full_check=True)"]
    for argv in commands.values():  # warm-up: .pyc files written, the registry cache filled
        _wall_ms(argv, env)
    best: dict[str, float] = {}
    for _ in range(a.rounds):
        for label, argv in commands.items():
            ms = _wall_ms(argv, env)
            best[label] = min(ms, best.get(label, ms))
    print(f"# onnx {onnx.__version__}; best of {a.rounds} rounds, wall ms from spawn to exit\n")
    print("| command | ms | ratio |")
    print("|---|---|---|")
    start = best["python -c pass"]
    print(f"| python -c pass | {start:.0f} | 1 (interpreter start-up) |")
    for label in ("opset --help", "conform --help", "opset run --help"):
        print(f"| {label} | {best[label]:.0f} | {best[label] / HELP_GOAL_MS:.2f} of the {HELP_GOAL_MS:.0f} ms goal |")
    ours_total = onnx_total = 0.0
    for p in paths:
        name = light_name(p)
        ours, theirs = best[f"opset validate {name}"], best[f"onnx full check {name}"]
        ours_total += ours
        onnx_total += theirs
        print(f"| opset validate {name} | {ours:.0f} | {ours / theirs:.2f} x onnx's one-liner ({theirs:.0f} ms) |")
    if paths:
        print(f"\nvalidate, summed over {len(paths)} light models: ours {ours_total:.0f} ms, onnx's one-liner "
              f"{onnx_total:.0f} ms, ratio {ours_total / onnx_total:.2f}")


if __name__ == "__main__":
    main()
