#!/usr/bin/env python
"""onnx's node test suite as a reference evaluator benchmark: our model runner on the reference kernels
against onnx.reference.ReferenceEvaluator, side by side in one process.

Each case of `onnx.backend.test.case.node.collect_testcases()` runs on both (model preparation plus every
data set); outputs are compared with onnx's expected ones by the node-suite rule (dtype and shape equal,
floats within the case's rtol/atol, NaN where NaN). Prints pass counts per side and the total time of
the cases both pass (ratio = ours / onnx.reference), plus the slowest cases by ratio.

A third column times the same cases as `conform --suite onnx-node --backend reference` checks them
(`onnx_node.check_data_sets`: every node a BackendCall to the reference backend as conform opens it, the
outputs compared, random ones by their law): the runner's per-case overhead on top of the kernels. The
whole command adds what no case pays: pytest's start and per-test hooks, and onnx's generation of its
cases (which a runner of onnx.reference pays too).

Run: python bench/node_suite.py [--only Conv,MatMul] [--top 10]
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.models import ModelRunner
from conformance.runner.handle import open_cases
from conformance.runner.settings import CellStats, CheckSettings
from conformance.suites.onnx_node import check_data_sets, compare, op_under_test, testcases


def _ours(model: Any) -> Callable[[dict[str, np.ndarray]], list[np.ndarray]]:
    runner = ModelRunner(model)
    return lambda feeds: list(runner.run(feeds).values())


def _onnx_reference(model: Any) -> Callable[[dict[str, np.ndarray]], list[np.ndarray]]:
    from onnx.reference import ReferenceEvaluator

    evaluator = ReferenceEvaluator(model)
    return lambda feeds: [np.asarray(x) for x in evaluator.run(None, feeds)]


def run_case(case: Any, make: Callable[[Any], Callable[[dict[str, np.ndarray]], list[np.ndarray]]]
             ) -> tuple[bool, float]:
    """(passed, seconds) of one case on one side; any exception is a miss, timed like a pass."""
    started = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            run = make(case.model)
            ok = True
            for inputs, expected in case.data_sets:
                names = [i.name for i in case.model.graph.input]
                if any(isinstance(x, list | dict) or x is None for x in [*inputs, *expected]):
                    return False, time.perf_counter() - started  # sequences and optionals: not compared here
                got = run(dict(zip(names, (np.asarray(x) for x in inputs), strict=False)))
                ok = ok and not compare(got, [np.asarray(x) for x in expected], case.rtol, case.atol)
    except Exception:  # a case either side cannot run counts as not passed (its error is not the point here)
        ok = False
    return ok, time.perf_counter() - started


class _Failed(Exception):
    """A data set the conform check fails."""


def _fail(k: int, what: str) -> NoReturn:
    raise _Failed(f"data set {k}: {what}")


def run_conform_case(name: str, case: Any, backend: Any) -> tuple[bool, float]:
    """(passed, seconds) of one case checked as `conform --suite onnx-node` checks it, on `backend`."""
    settings = CheckSettings(spec="reference", repro_dir=None, timeout=20.0, stats=CellStats())
    started = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_data_sets(f"onnx-node {name}", case, op_under_test(name, case.model, testcases()), backend,
                            settings, _fail)
        ok = True
    except Exception:  # a case conform fails or reports unsupported counts as not passed, as in run_case
        ok = False
    return ok, time.perf_counter() - started


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", default="", help="comma-separated op names")
    p.add_argument("--top", type=int, default=10, help="list the N slowest cases by ratio")
    args = p.parse_args(argv)
    only = {o for o in args.only.split(",") if o}
    cases = testcases()
    backend = open_cases("reference", timeout=20.0)  # as conform opens it (in process: our kernels)
    rows = []
    for name, case in cases.items():
        node = op_under_test(name, case.model, cases)
        if only and (node is None or node.op_type not in only):
            continue
        ok_ref, t_ref = run_case(case, _onnx_reference)
        ok_ours, t_ours = run_case(case, _ours)
        ok_conform, t_conform = run_conform_case(name, case, backend)
        rows.append((name, ok_ref, t_ref, ok_ours, t_ours, ok_conform, t_conform))
    both = [r for r in rows if r[1] and r[3]]
    t_ref = sum(r[2] for r in both)
    t_ours = sum(r[4] for r in both)
    print(f"cases: {len(rows)}")
    print(f"passed: onnx.reference {sum(r[1] for r in rows)}, ours {sum(r[3] for r in rows)}, "
          f"conform's check {sum(r[5] for r in rows)}")
    print(f"both pass: {len(both)}; time onnx.reference {t_ref:.2f} s, ours {t_ours:.2f} s, "
          f"ratio ours/onnx.reference {t_ours / t_ref if t_ref else float('nan'):.2f}")
    checked = [r for r in rows if r[1] and r[5]]
    c_ref, c_conform = sum(r[2] for r in checked), sum(r[6] for r in checked)
    print(f"onnx.reference and conform's check pass: {len(checked)}; time onnx.reference {c_ref:.2f} s, "
          f"conform's check {c_conform:.2f} s, ratio conform/onnx.reference "
          f"{c_conform / c_ref if c_ref else float('nan'):.2f}")
    only_ref = [r[0] for r in rows if r[1] and not r[3]]
    print(f"onnx.reference passes, ours does not ({len(only_ref)}): {', '.join(only_ref[:60])}")
    slow = sorted(both, key=lambda r: r[4] / max(r[2], 1e-9), reverse=True)[:args.top]
    for name, _, tr, _, to, _, _ in slow:
        print(f"  {name:60} ours {to * 1e3:8.1f} ms  ref {tr * 1e3:8.1f} ms  ratio {to / max(tr, 1e-9):6.2f}")


if __name__ == "__main__":
    main()
