"""What the fuzz suite (`tests/fuzz/`, `pytest -m fuzz`) shares: its Hypothesis budget and seed, in-process runs of
the command-line entry points, and the checks every run must pass (an exit code of 0, 1 or 2, no exception, and
an error said in located one-line messages).

Budget and seed come from the environment, so CI runs a fixed, short budget and a developer asks for more:
    OPSET_FUZZ_EXAMPLES=5 OPSET_FUZZ_SEED=$RANDOM python -m pytest -m fuzz -q
`OPSET_FUZZ_EXAMPLES` scales every test's number of examples (default 1); `OPSET_FUZZ_SEED` (default 0) seeds
every test, so a run is repeated exactly by its seed and a failure prints the example that caused it.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, Phase, seed, settings

F = TypeVar("F", bound=Callable[..., Any])

SCALE = float(os.environ.get("OPSET_FUZZ_EXAMPLES", "1"))
SEED = int(os.environ.get("OPSET_FUZZ_SEED", "0"))


def fuzz(examples: int) -> Callable[[F], F]:
    """Hypothesis settings of one fuzz test: `examples` times the scale, the run's seed, no example database (a run
    is its seed), no deadline (tests never judge wall time; pytest-timeout catches a hang), no health checks (the
    inputs are large and slow on purpose)."""
    def wrap(test: F) -> F:
        # pytest-timeout's 300 s is for one test; a fuzz test's budget grows with the scale (a hang is still caught)
        test = pytest.mark.timeout(round(300 * max(1.0, SCALE)))(test)
        configured = settings(max_examples=max(1, round(examples * SCALE)), deadline=None, database=None,
                              suppress_health_check=list(HealthCheck),
                              phases=(Phase.explicit, Phase.generate, Phase.shrink))(test)
        seeded: F = seed(SEED)(configured)
        return seeded

    return wrap


@dataclass(frozen=True)
class Outcome:
    code: int
    stdout: str
    stderr: str


def run_main(main: Callable[[list[str]], int], argv: Sequence[str]) -> Outcome:
    """`main(argv)` in this process with stdout and stderr captured; SystemExit becomes the code. Any other
    exception is not caught: it is the finding."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    return Outcome(code, out.getvalue(), err.getvalue())


def assert_exit(outcome: Outcome, allowed: Sequence[int] = (0, 1, 2)) -> None:
    assert outcome.code in allowed, f"exit code {outcome.code}; stderr: {outcome.stderr[-500:]}"


def assert_one_line_error(outcome: Outcome, where: str) -> None:
    """An unreadable input: exactly one line on stderr, `error: ...`, naming `where` (the file)."""
    lines = outcome.stderr.splitlines()
    assert len(lines) == 1, f"{len(lines)} lines on stderr:\n{outcome.stderr[-2000:]}"
    assert lines[0].startswith("error: ") and where in lines[0], lines[0]
    assert "Traceback" not in outcome.stderr


def assert_validate_outcome(outcome: Outcome, path: str) -> None:
    """`opset validate PATH`: 0 (valid) or 1 (diagnostics on stdout, each a line naming the file) or 2 (one error
    line on stderr naming the file)."""
    assert_exit(outcome)
    assert "Traceback" not in outcome.stderr
    if outcome.code == 2:
        assert_one_line_error(outcome, path)
    elif outcome.code == 1 and not outcome.stdout.lstrip().startswith("{"):
        body = outcome.stdout.splitlines()
        assert body and all(line.startswith(f"{path}: ") for line in body), outcome.stdout[-2000:]
