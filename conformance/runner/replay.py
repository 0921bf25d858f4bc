"""`conform --replay BUNDLE`: re-run the one case a repro bundle holds."""

from __future__ import annotations

import sys
from pathlib import Path

from conformance.backends.protocol import Unsupported
from conformance.runner.checks import ConformanceFailure, check_case
from conformance.runner.handle import BackendHandle, CaseBackend, close_cases, open_cases
from conformance.runner.repro import load_bundle
from conformance.runner.settings import CheckSettings


def replay(bundle: Path, handle: BackendHandle, timeout: float, constant_inputs: str = "auto") -> int:
    """Re-run a bundle's case (after the cases it says to run first), feeding as constants the inputs
    `constant_inputs` names (`--constant-inputs`): 0 when it passes now, 1 when it still fails (its whole message on
    stderr), 3 when unsupported."""
    case, expected, meta = load_bundle(bundle)
    backend = open_cases(handle.spec, timeout=timeout, handle=handle)
    try:
        settings = CheckSettings(spec=handle.spec, timeout=timeout, constant_inputs=constant_inputs)
        firsts = meta.get("before")
        _run_first(bundle, [str(b) for b in firsts] if isinstance(firsts, list) else [], backend, settings)
        check_case(case, backend, settings, expected, law=bool(meta.get("law")))
    except ConformanceFailure as e:
        print(f"FAIL {e}", file=sys.stderr)
        return 1
    except Unsupported as e:
        print(f"UNSUPPORTED {case.label}: {e}")
        return 3
    finally:
        close_cases(backend)
    print(f"PASS {case.label}: the case passes now")
    return 0


def _run_first(bundle: Path, folders: list[str], backend: CaseBackend, settings: CheckSettings) -> None:
    """The cases a crash needs run before the bundle's, in the same backend process; their own outcome is not the
    replay's (a failure of theirs is printed)."""
    for name in folders:
        case, expected, meta = load_bundle(bundle / name)
        try:
            check_case(case, backend, settings, expected, law=bool(meta.get("law")))
        except (ConformanceFailure, Unsupported) as e:
            print(f"(the case run first, {name}, fails on its own: {e})", file=sys.stderr)
