"""The strategies a draw builds again and again (`integers(lo, hi)`, `BOOLEANS`), built once per process.

Hypothesis caches `st.integers(lo, hi)` itself, but its cache key (the function, every argument turned into a
hashable key, a frozenset of keyword arguments) costs about 40 microseconds a call: a case draws a dozen of them,
and the whole registry's 175,000 cases spent about 4 % of `conform`'s time there. The same strategy objects come
back, so the draws are the same.
"""

from __future__ import annotations

import functools

from hypothesis import strategies as st

BOOLEANS = st.booleans()


@functools.cache
def integers(min_value: int | None = None, max_value: int | None = None) -> st.SearchStrategy[int]:
    """`st.integers(min_value, max_value)`, built once per pair of bounds."""
    return st.integers(min_value, max_value)
