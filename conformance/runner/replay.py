"""`conform --replay BUNDLE`: re-run the one case a repro bundle holds."""

from __future__ import annotations

import sys
from pathlib import Path

from conformance.backends.protocol import Unsupported
from conformance.runner.checks import ConformanceFailure, check_case
from conformance.runner.repro import load_bundle
from conformance.runner.session import open_backend
from conformance.runner.settings import CheckSettings


def replay(bundle: Path, spec: str, timeout: float, constant_inputs: str = "auto") -> int:
    """Re-run a bundle's case: 0 when it passes now, 1 when it still fails, 3 when unsupported."""
    case, expected, meta = load_bundle(bundle)
    backend = open_backend(spec, timeout=timeout)
    try:
        check_case(case, backend, CheckSettings(spec=spec, timeout=timeout, constant_inputs=constant_inputs), expected,
                   law=bool(meta.get("law")))
    except ConformanceFailure as e:
        print(f"FAIL {e}", file=sys.stderr)
        return 1
    except Unsupported as e:
        print(f"UNSUPPORTED {case.label}: {e}")
        return 3
    finally:
        close = getattr(backend, "close", None)
        if close is not None:
            close()
    print(f"PASS {case.label}: the case passes now")
    return 0
