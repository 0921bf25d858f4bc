"""Tengine Embed: rows of the weight table picked by clamped word ids, plus an optional bias."""

from __future__ import annotations

import numpy as np

from tests.helpers import formula_shapes, kernel, version

RNG = np.random.default_rng(20240602)
V = version("tengine", "Embed", 1)
embed = kernel("tengine", "Embed")


def test_embed_clamps_words_and_adds_bias() -> None:
    weight, bias = RNG.standard_normal((5, 3)), RNG.standard_normal(3)
    words = np.array([[0.0, 4.0, 2.7], [-3.0, 9.0, 1.2]])
    (y,) = embed(words, weight, bias, num_output=3, input_dim=5, bias_term=1)
    rows = [min(4, max(0, int(v))) for v in words.reshape(-1)]
    np.testing.assert_allclose(y, [weight[r] + bias for r in rows], rtol=1e-12)
    (plain,) = embed(words, weight)
    np.testing.assert_array_equal(plain, weight[rows])
    assert formula_shapes(V, [words, weight, bias]) == [[6, 3]]
