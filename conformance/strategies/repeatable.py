"""conform's draws repeat for a seed, on any machine and in any checkout.

Hypothesis (from 6.131 on) now and then draws a constant it found in the source of the "local" modules loaded so far
(`hypothesis.internal.conjecture.providers._get_local_constants`: every module outside the standard library and
site-packages, read when the count of loaded modules changes). Which modules those are differs between a checkout and
an installed wheel, between two checkouts whose sources differ by a line, and between two runs whose lazy imports or
pytest-xdist's scheduling load modules in another order; so the same `--seed` drew different cases in CI than here,
and a cell that passed locally failed there. conform draws from Hypothesis' own constants only (the boundary values
of each type it always mixes in) and never from the source it happens to run next to.

`conform` (its pytest plugin) and `conform export` (its seeded draws) call `draw_without_local_constants` before they
draw. This reaches into a private function of Hypothesis: `tests/conformance/test_repeatable.py` holds the pinned
version (constraints.txt) to it, so a Hypothesis that moves it fails that test, not a user's run.
"""

from __future__ import annotations

import importlib.util

_PROVIDERS = "hypothesis.internal.conjecture.providers"
_REPLACED: list[bool] = []  # holds True once this process's Hypothesis draws no local constants


def draw_without_local_constants() -> None:
    """From now on in this process, Hypothesis mixes no constant of the local source into its draws."""
    if importlib.util.find_spec(_PROVIDERS) is None:  # an older Hypothesis: no local constants to turn off
        return
    providers = importlib.import_module(_PROVIDERS)
    if not hasattr(providers, "_get_local_constants") or _REPLACED:  # none to turn off, or turned off already
        return
    none = providers.Constants()  # empty: the type the provider reads
    vars(providers)["_get_local_constants"] = lambda: none  # read by name at each draw
    providers.CONSTANTS_CACHE.cache.clear()  # constants chosen before were chosen with the local ones
    _REPLACED.append(True)
