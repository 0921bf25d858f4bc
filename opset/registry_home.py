"""Where this copy of opset finds its registry: a checkout's `schemas/`, or the copy an installed wheel carries.

The registry stays at the top of the repository (`schemas/`, beside `opset/`); a wheel ships the same files as
`opset/_registry/` (setup.py's build step copies them), because nothing outside a package's folder survives a
non-editable install. `OPSET_SCHEMAS` overrides both (conform points it at a snapshot); the meta-schemas are
always the ones shipped with this code, since they describe what this loader reads.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
PACKAGED_SCHEMAS = PACKAGE_DIR / "_registry"  # only an installed wheel has it
CHECKOUT_SCHEMAS = PACKAGE_DIR.parent / "schemas"  # a checkout (editable install, or PYTHONPATH=.)


def default_schemas() -> Path:
    """The registry this code came with: the wheel's packaged copy when installed, else the checkout's."""
    return PACKAGED_SCHEMAS if PACKAGED_SCHEMAS.is_dir() else CHECKOUT_SCHEMAS


def schemas_dir() -> Path:
    """The registry to load: `$OPSET_SCHEMAS` when set, else `default_schemas()`."""
    explicit = os.environ.get("OPSET_SCHEMAS")
    return Path(explicit) if explicit else default_schemas()


def meta_dir() -> Path:
    """The JSON meta-schemas this loader checks files against (never taken from `$OPSET_SCHEMAS`)."""
    return default_schemas() / "meta"


PACKAGED_REPORTS = PACKAGE_DIR / "_reports"  # only an installed wheel has it (setup.py's build step)
CHECKOUT_REPORTS = PACKAGE_DIR.parent / "docs" / "reports"  # a checkout's committed conform reports


def reports_dir() -> Path:
    """The committed conformance reports (`conform --report`) this code came with: the wheel's packaged copy when
    installed, else the checkout's docs/reports/ (`opset validate --backend-report NAME` reads them)."""
    return PACKAGED_REPORTS if PACKAGED_REPORTS.is_dir() else CHECKOUT_REPORTS
