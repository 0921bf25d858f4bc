"""The registry as this process sees it: loaded once, so every draw and check reads the same versions.

`conform` copies `schemas/` into its work directory and points OPSET_SCHEMAS at the copy, so edits
to the YAML during a run cannot make workers disagree.
"""

from __future__ import annotations

import functools

from opset.registry import Registry


@functools.cache
def current_registry() -> Registry:
    from opset.load import load_registry

    return load_registry()
