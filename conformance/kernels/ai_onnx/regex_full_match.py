"""RegexFullMatch: whether each string matches `pattern` (RE2 syntax) as a whole.

The pattern is rewritten for Python's `re` so that it matches what RE2 matches (`_re2`: ASCII \\d \\w \\s \\b, `$`
at the end of the text only, ...); a pattern RE2 rejects, or one Python cannot read as RE2 does (Unicode classes
\\p{...}, the ungreedy flag), raises ValueError.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._re2 import compile_re2
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "RegexFullMatch", since=20)
def regex_full_match(x: np.ndarray, *, pattern: str | None) -> tuple[np.ndarray, ...]:
    if pattern is None:
        raise ValueError("RegexFullMatch: the pattern attribute is required")
    if x.dtype.kind != "O":
        raise ValueError(f"RegexFullMatch: X must be a string tensor, got {x.dtype}")
    compiled = compile_re2(pattern)
    matched = [compiled.fullmatch(s) is not None for s in x.reshape(-1).tolist()]
    return (np.asarray(matched, dtype=bool).reshape(x.shape),)
