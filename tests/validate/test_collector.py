"""Validation pauses Python's garbage collector for its run and leaves it exactly as it found it."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import onnx
import pytest
from onnx import TensorProto, helper

import opset.validate.api
from opset import load
from opset.validate import check_model


@pytest.fixture(autouse=True)
def _collector_restored() -> Iterator[None]:
    was = gc.isenabled()
    yield
    (gc.enable if was else gc.disable)()


def _model() -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y])
    model: onnx.ModelProto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    return model


@pytest.mark.parametrize("enabled", [True, False])
def test_check_model_leaves_the_collector_as_it_found_it(enabled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    (gc.enable if enabled else gc.disable)()
    seen: list[bool] = []
    pause = load.gc_paused

    @contextmanager
    def watched() -> Iterator[None]:
        with pause():
            seen.append(gc.isenabled())  # during the run
            yield

    monkeypatch.setattr(opset.validate.api, "gc_paused", watched)  # where check_model lives
    assert check_model(_model()).diagnostics == []
    assert seen == [False] and gc.isenabled() is enabled


def test_overlapping_runs_share_one_pause() -> None:
    """Two runs that overlap (threads: A enters, B enters, A leaves, B leaves): the collector stays off until the
    last one leaves, then is on again, whatever the order of leaving."""
    gc.enable()
    a, b = load.gc_paused(), load.gc_paused()
    a.__enter__()
    b.__enter__()
    a.__exit__(None, None, None)
    assert not gc.isenabled()
    b.__exit__(None, None, None)
    assert gc.isenabled()


def test_concurrent_validations_restore_the_collector() -> None:
    gc.enable()
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(20):
                check_model(_model())
        except BaseException as e:  # handed to the main thread's assertion
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and gc.isenabled()


def test_a_failing_run_still_restores_the_collector() -> None:
    gc.enable()
    with pytest.raises(RuntimeError), load.gc_paused():
        assert not gc.isenabled()
        raise RuntimeError("inside the run")
    assert gc.isenabled()
