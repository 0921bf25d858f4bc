"""Python's cyclic garbage collector paused while the registry loads or a validation runs.

Both allocate tens of thousands of containers and make no garbage cycles: loading decodes the registry's tables, a
validation makes each node's record, signature and output facts. Every 700 allocations would start a collection of
the young generation, every tenth of those a deeper one, none finding anything: loading was 10x slower with them, the
10,000-node chain's validation about a third slower. `paused()` turns the collector off for the work and back on
after it, exactly as it found it: reference counting frees everything as usual, and any cycle left is collected at
the next collection after it. Nested and concurrent uses (threads) share one pause: the first to enter records
whether the collector was on, the last to leave restores that.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_runs = 0
_was_enabled = False


@contextmanager
def paused() -> Iterator[None]:
    global _runs, _was_enabled
    with _lock:
        if _runs == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _runs += 1
    try:
        yield
    finally:
        with _lock:
            _runs -= 1
            if _runs == 0 and _was_enabled:
                gc.enable()
