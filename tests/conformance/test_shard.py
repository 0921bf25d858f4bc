"""`conform --shard K/N`: specs, and a partition of the cells that does not depend on their order."""

from __future__ import annotations

import pytest

from conformance.runner.report import cell_key
from conformance.runner.shard import Shard, ShardError, shard_of
from tests.helpers.conform_cli import conform

LABELS = [cell_key("ai.onnx", op, since, dtype) for op in ("Relu", "Conv", "Add", "Abs", "MatMul")
          for since in (1, 6, 7, 11, 13, 14) for dtype in ("float", "double", "float16", "int32")]


@pytest.mark.parametrize(("spec", "index", "count"), [("1/1", 1, 1), ("2/3", 2, 3), ("3/3", 3, 3), (" 1 / 4 ", 1, 4)])
def test_a_good_spec_parses(spec: str, index: int, count: int) -> None:
    assert Shard.from_spec(spec) == Shard(index, count)
    assert str(Shard.from_spec(spec)) == f"{index}/{count}"


@pytest.mark.parametrize("spec", ["0/3", "4/3", "x", "1/0", "3", "-1/3", "1/3/5", ""])
def test_a_bad_spec_is_refused(spec: str) -> None:
    with pytest.raises(ShardError, match="--shard"):
        Shard.from_spec(spec)


def test_every_cell_is_in_exactly_one_shard_whatever_the_order() -> None:
    for count in (1, 2, 3, 7):
        shards = [Shard(k, count) for k in range(1, count + 1)]
        owners = {label: [s.index for s in shards if s.holds(label)] for label in LABELS}
        assert all(len(found) == 1 for found in owners.values())
        # the shard is the label's own: reversed or thinned out, the cells stay where they were
        assert {label: shard_of(label, count) for label in reversed(LABELS)} == {k: v[0] for k, v in owners.items()}
    sizes = [sum(Shard(k, 3).holds(label) for label in LABELS) for k in (1, 2, 3)]
    assert min(sizes) > len(LABELS) // 6, sizes  # a hash spreads the cells, not all in one shard


@pytest.mark.parametrize("spec", ["0/3", "4/3", "x"])
def test_conform_refuses_a_bad_shard_with_one_line(spec: str) -> None:
    result = conform("--backend", "reference", "--op", "Relu", "--shard", spec)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("conform: --shard"), result.stderr
    assert "Traceback" not in result.stderr and not result.stdout


def test_the_shard_of_a_cell_is_the_same_in_another_process() -> None:
    """Two jobs of a CI matrix are two interpreters with different string-hash seeds: they must agree."""
    import json
    import os
    import subprocess
    import sys

    from tests.helpers.conform_cli import ROOT

    code = ("import json, sys; from conformance.runner.shard import shard_of; "
            "print(json.dumps([shard_of(label, 3) for label in json.load(sys.stdin)]))")
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
        out = subprocess.run([sys.executable, "-c", code], input=json.dumps(LABELS), capture_output=True, text=True,
                             env=env, check=True).stdout
        assert json.loads(out) == [shard_of(label, 3) for label in LABELS]
