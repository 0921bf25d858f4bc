"""Tengine TopKV2: the k largest values and their int32 indices along the last axis."""

from __future__ import annotations

import itertools

import numpy as np

from tests.helpers import tengine_problems, tengine_run

RNG = np.random.default_rng(20240611)


def test_topkv2_against_sorted() -> None:
    x = RNG.permutation(60).reshape(3, 4, 5).astype(np.float32)
    for k in (1, 3, 5):
        values, indices = tengine_run("TopKV2", [x], k=k)
        assert indices.dtype == np.int32
        for i, j in itertools.product(range(3), range(4)):
            ranked = sorted(range(5), key=lambda t: -x[i, j, t])[:k]
            assert indices[i, j].tolist() == ranked
            assert values[i, j].tolist() == [x[i, j, t] for t in ranked]
    assert tengine_problems("TopKV2", [x], k=6) == ["topkv2_c1"]
