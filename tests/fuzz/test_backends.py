"""`conform`'s checks against backends that answer anything: outputs of the wrong count, dtype and shape, object
arrays, nested lists, dicts, None, NaN and infinities, huge (broadcast) arrays, exceptions of every kind, a
`supports()` that raises; and, in a child process as `conform` runs them, backends that call sys.exit, raise
KeyboardInterrupt, exit at once, kill themselves, hang or return what cannot be pickled.

Each case ends as a pass (the answer was right), `Unsupported` or a `ConformanceFailure` naming the cell: a recorded
failure of that case, never an exception out of the runner."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import event, find, given
from hypothesis import strategies as st

from conformance.backends.protocol import Backend, Unsupported
from conformance.backends.reference import ReferenceBackend
from conformance.registry import current_registry
from conformance.runner.checks import ConformanceFailure, check_case
from conformance.runner.settings import CheckSettings
from conformance.runner.worker import IsolatedBackend
from conformance.strategies.cases import op_cases
from tests.helpers.fuzz import fuzz

pytestmark = pytest.mark.fuzz

CELLS = [("ai.onnx", "Relu", 14, "float"), ("ai.onnx", "TopK", 11, "float"), ("ai.onnx", "Split", 18, "int64"),
         ("ai.onnx", "SequenceConstruct", 11, "float"), ("ai.onnx", "Cast", 21, "float16"),
         ("ai.onnx", "StringNormalizer", 10, "string")]
_CASES = {cell: op_cases(current_registry().op(cell[0], cell[1]).version(cell[2]), cell[3]) for cell in CELLS}


class _Weird(Exception):
    def __str__(self) -> str:
        raise RuntimeError("an exception whose message cannot be printed")


EXCEPTIONS = [ValueError("bad\nmultiline\nmessage"), TypeError(), RuntimeError("x" * 100_000), MemoryError(),
              RecursionError("deep"), KeyError("k"), AssertionError("backend's own assert"), ZeroDivisionError(),
              NotImplementedError("not here"), OSError(5, "I/O"), _Weird(), UnicodeDecodeError("utf-8", b"\xff", 0,
                                                                                                 1, "bad")]


def _garbage(draw: st.DrawFn, right: list[Any]) -> Any:
    """An answer derived from the right one (so shapes and counts are near misses) or from nothing."""
    kind = draw(st.sampled_from(["right", "count", "dtype", "shape", "object", "nan", "huge", "container",
                                 "not_a_list", "raise"]), label="answer")
    event(kind)
    outputs = list(right)
    first = outputs[0] if outputs else np.zeros(1, np.float32)
    if kind == "count":
        return outputs[:draw(st.integers(0, max(0, len(outputs) - 1)))] if draw(st.booleans()) else [*outputs, first]
    if kind == "dtype" and isinstance(first, np.ndarray):
        dtype = draw(st.sampled_from(["int8", "float64", "bool", "complex64", "U3", "object", "float16", "uint64"]))
        return [first.astype(dtype), *outputs[1:]]
    if kind == "shape" and isinstance(first, np.ndarray):
        shape = draw(st.sampled_from([(), (0,), (1, *first.shape), first.shape[:-1], (first.size + 1,)]))
        return [np.zeros(shape, first.dtype), *outputs[1:]]
    if kind == "object":
        return [np.array(draw(st.sampled_from([[None, "a"], [object()], [[1], [2, 3]], [b"x"]])), dtype=object)]
    if kind == "nan" and isinstance(first, np.ndarray) and first.dtype.kind == "f":
        return [np.full_like(first, draw(st.sampled_from([np.nan, np.inf, -np.inf, -0.0]))), *outputs[1:]]
    if kind == "huge":
        return [np.broadcast_to(np.float32(1), draw(st.sampled_from([(2**31,), (2**20, 2**20), (2**62,)])))]
    if kind == "container":
        return [draw(st.sampled_from([None, [None], [[]], {"a": 1}, {1: np.zeros(2)}, "text", 3, [first, None]]))]
    if kind == "not_a_list":
        return draw(st.sampled_from([None, 3, "abc", (x for x in range(2)), {"y": first}, first, b"raw"]))
    if kind == "raise":
        raise draw(st.sampled_from(EXCEPTIONS))
    return outputs


class _Answering:
    """A backend that asks the example what to answer, given what the reference answers."""

    def __init__(self, data: st.DataObject, supports: Any) -> None:
        self.data = data
        self.reference = ReferenceBackend()
        self.supports_answer = supports

    def supports(self, domain: str, op: str, version: int, dtypes: list[str]) -> Any:
        return self.supports_answer

    def run(self, node: Any, inputs: list[Any], opset_imports: dict[str, int] | None = None) -> Any:
        right = self.reference.run(node, inputs, opset_imports)
        return self.data.draw(_answers(right), label="answer")


@st.composite
def _answers(draw: st.DrawFn, right: list[Any]) -> Any:
    return _garbage(draw, right)


@fuzz(300)
@given(data=st.data())
def test_any_answer_is_a_recorded_outcome(data: st.DataObject) -> None:
    cell = data.draw(st.sampled_from(CELLS), label="cell")
    case = data.draw(_CASES[cell], label="case")
    # a supports() that raises is a user backend's, and those always run isolated: see the process test below
    supports = data.draw(st.sampled_from([True, True, True, False, 1, None, "yes", [], np.bool_(True)]),
                         label="supports")
    backend = Backend(_Answering(data, supports), "fuzz")
    try:
        check_case(case, backend, CheckSettings(spec="fuzz"))
        event("passed")
    except Unsupported:
        event("unsupported")
    except ConformanceFailure as e:
        event("failure")
        assert cell[1] in str(e)


BAD_BACKENDS = {
    "sys_exit": "import sys\n        sys.exit(3)",
    "keyboard_interrupt": "raise KeyboardInterrupt",
    "os_exit": "import os\n        os._exit(0)",
    "killed": "import os, signal\n        os.kill(os.getpid(), signal.SIGKILL)",
    "hangs": "import time\n        time.sleep(600)",
    "unpicklable": "return [lambda: 0]",
    "base_exception": "raise BaseException('not an Exception')",
    "supports_raises": "return []\n"
                       "    def supports(self, domain, op, version, dtypes):\n        raise ValueError('no')",
}


@pytest.mark.parametrize("behaviour", sorted(BAD_BACKENDS))
def test_a_backend_process_that_dies_or_hangs_is_a_recorded_failure(tmp_path: Path, behaviour: str) -> None:
    source = tmp_path / f"{behaviour}.py"
    source.write_text(f"class Backend:\n    def run(self, node, inputs):\n        {BAD_BACKENDS[behaviour]}\n")
    case = find(_CASES[CELLS[0]], lambda _: True)
    isolated = IsolatedBackend(f"{source}:Backend", timeout=3)
    try:
        with pytest.raises(ConformanceFailure, match="Relu") as caught:
            check_case(case, isolated, CheckSettings(spec=str(source), timeout=3))
        said = str(caught.value)
        assert any(word in said for word in ("crashed", "hung", "raised", "died", "failed")), said
        # the next call starts a fresh child: one case's crash is not the end of the run
        with pytest.raises(ConformanceFailure):
            check_case(case, isolated, CheckSettings(spec=str(source), timeout=3))
    finally:
        isolated.close()
