"""com.microsoft AttnLSTM: the kernel against onnxruntime (float; its double kernel refuses to run: the
expectation in conformance/expectations/onnxruntime.yaml) over the three directions, with and without the attention
layer AW, sequence and memory lengths, bias, peepholes, initial states, input_forget, clip and other activations;
the shape formulas; rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, formula_shapes, oracle_tests, problem_checks, version

DOMAIN = "com.microsoft"
OP = "AttnLSTM"
STEPS, BATCH, SIZE, HIDDEN, MEMORY, DEPTH, ATTN, LAYER = 3, 2, 2, 3, 4, 2, 3, 2


def inputs(seed: int, directions: int, *, aw: bool, lengths: bool, extras: bool) -> list[np.ndarray | None]:
    """X, W, R, B, sequence_lens, initial_h, initial_c, P, QW, MW, V, M, memory_seq_lens, AW."""
    rng = np.random.default_rng(seed)

    def u(*shape: int, bound: float = 1.0) -> np.ndarray:
        return rng.uniform(-bound, bound, shape).astype(np.float32)

    width = SIZE + (LAYER if aw else DEPTH)
    d = directions
    return [u(STEPS, BATCH, SIZE, bound=2.0), u(d, 4 * HIDDEN, width), u(d, 4 * HIDDEN, HIDDEN),
            u(d, 8 * HIDDEN) if extras else None,
            np.array([STEPS, 2], np.int32) if lengths else None,
            u(d, BATCH, HIDDEN) if extras else None, u(d, BATCH, HIDDEN) if extras else None,
            u(d, 3 * HIDDEN) if extras else None,
            u(d, HIDDEN, ATTN), u(d, DEPTH, ATTN), u(d, ATTN), u(BATCH, MEMORY, DEPTH, bound=2.0),
            np.array([2, MEMORY], np.int32) if lengths else None,
            u(d, DEPTH + HIDDEN, LAYER) if aw else None]


SETTINGS: list[tuple[str, dict[str, Any]]] = [
    ("plain", {}),
    ("input-forget-clip", {"input_forget": 1, "clip": 0.75}),
    ("activations", {"activations": ["HardSigmoid", "Softsign", "ScaledTanh"], "activation_alpha": [0.5, 1.5],
                     "activation_beta": [0.25, 0.5]}),
]
CASES = [OracleCase(OP, {"hidden_size": HIDDEN, **({"direction": direction} if direction else {}),
                         **(settings if direction != "bidirectional" or name != "activations"
                            else {**settings, "activations": settings["activations"] * 2,
                                  "activation_alpha": settings["activation_alpha"] * 2,
                                  "activation_beta": settings["activation_beta"] * 2})},
                    inputs(k, 2 if direction == "bidirectional" else 1, aw=aw, lengths=lengths, extras=extras),
                    (1,), n_out=3, oracle="ort", rtol=1e-4, domain=DOMAIN,
                    id=f"{direction or 'default'}-{name}-{'aw' if aw else 'noaw'}-{'lens' if lengths else 'full'}"
                       f"-{'extras' if extras else 'bare'}")
         for k, (direction, (name, settings), aw, lengths, extras) in enumerate(
             (direction, setting, aw, lengths, extras)
             for direction in ("", "reverse", "bidirectional") for setting in SETTINGS
             for aw, lengths, extras in ((False, False, False), (True, True, True), (True, False, True),
                                         (False, True, False)))]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("direction", ["forward", "bidirectional"])
def test_shape_formulas(direction: str) -> None:
    d = 2 if direction == "bidirectional" else 1
    given = inputs(0, d, aw=True, lengths=True, extras=True)
    shapes = formula_shapes(version(DOMAIN, OP, 1), given, {"hidden_size": HIDDEN, "direction": direction},
                            {"sequence_lens": [STEPS, 2], "memory_seq_lens": [2, MEMORY]})
    assert shapes == [[STEPS, d, BATCH, HIDDEN], [d, BATCH, HIDDEN], [d, BATCH, HIDDEN]]


def _shapes(**changes: Any) -> list[Any]:
    given: list[Any] = [None if x is None else list(x.shape) for x in inputs(0, 1, aw=True, lengths=True, extras=True)]
    names = ["X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P", "QW", "MW", "V", "M",
             "memory_seq_lens", "AW"]
    for name, shape in changes.items():
        given[names.index(name)] = shape
    return given


@pytest.mark.parametrize(("changes", "attrs", "values", "check"), [
    ({"M": None}, {}, {}, "attnlstm_c1"),
    ({}, {"hidden_size": None}, {}, "attnlstm_c2"),
    ({}, {"direction": "bidirectional"}, {}, "attnlstm_c3"),
    ({"R": [1, 4 * HIDDEN, HIDDEN + 1]}, {}, {}, "attnlstm_c4"),
    ({"W": [1, 4 * HIDDEN, SIZE + LAYER + 1]}, {}, {}, "attnlstm_c5"),
    ({"B": [1, 4 * HIDDEN]}, {}, {}, "attnlstm_c6"),
    ({"P": [1, 4 * HIDDEN]}, {}, {}, "attnlstm_c7"),
    ({"AW": [1, DEPTH, LAYER]}, {}, {}, "attnlstm_c8"),
    ({}, {}, {"sequence_lens": [0, 2]}, "attnlstm_c9"),
    ({}, {}, {"memory_seq_lens": [MEMORY + 1, 1]}, "attnlstm_c10"),
])
def test_invalid_node_is_reported(changes: dict[str, Any], attrs: dict[str, Any], values: dict[str, Any],
                                  check: str) -> None:
    given = {k: v for k, v in {"hidden_size": HIDDEN, **attrs}.items() if v is not None}
    checks = problem_checks(version(DOMAIN, OP, 1), _shapes(**changes), given,
                            {"sequence_lens": [STEPS, 2], "memory_seq_lens": [2, MEMORY], **values})
    assert check in checks, checks
