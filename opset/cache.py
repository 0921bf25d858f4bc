"""The compiled registry cache: validated plain data as JSON, keyed by the content of every file.

JSON, not pickle: reading the cache can never execute anything. A cache that cannot be read, does
not parse or carries another key is a miss and gets rewritten.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from opset.registry_home import meta_dir

CACHE_FORMAT = "opset-registry-cache-4"
# the code that checks files and turns cached plain data into records: a change to it makes old caches misses
_BUILDER_SOURCES = ("build.py", "model.py", "lines.py", "cache.py", "checks.py", "meta.py", "attr_types.py",
                    "frozen.py", "random_laws.py")


def cache_dir() -> Path:
    explicit = os.environ.get("OPSET_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "opset"


KEEP_FILES = 8  # caches of other contents (older checkouts, conform's snapshots) kept before the oldest go


def _cache_file(key: str) -> Path:
    return cache_dir() / f"registry-{key[:24]}.json"


def content_key(root: Path, files: list[Path]) -> str:
    h = hashlib.sha256(CACHE_FORMAT.encode())
    h.update(f"{shown_root(root)}\0".encode())  # records keep file paths as shown from here
    here = Path(__file__).resolve().parent
    for name in _BUILDER_SOURCES:
        h.update((here / name).read_bytes())
    for meta in sorted(meta_dir().glob("*.schema.json")):  # as opset.meta reads them
        h.update(meta.read_bytes())
    for path in files:
        h.update(str(path.relative_to(root)).encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def shown_root(root: Path) -> str:
    """How records name the files under `root` (as `opset.load` shows them): relative to the working directory when
    inside it, else as given. Only this much of the working directory reaches the cached data, so an installed
    registry used from any folder has one cache entry."""
    try:
        return str(root.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(root)


def read(key: str) -> dict[str, Any] | None:
    if os.environ.get("OPSET_NO_CACHE"):
        return None
    try:
        with open(_cache_file(key), encoding="utf-8") as f:
            blob = json.load(f)
    except (OSError, ValueError):  # absent or corrupt: a miss, rebuilt below
        return None
    if not isinstance(blob, dict) or blob.get("key") != key or not isinstance(blob.get("plain"), dict):
        return None
    plain: dict[str, Any] = blob["plain"]
    return plain


def write(key: str, plain: dict[str, Any]) -> None:
    if os.environ.get("OPSET_NO_CACHE"):
        return
    import tempfile  # only a cache miss pays for it

    target = _cache_file(key)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".registry-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"key": key, "plain": plain}, f, separators=(",", ":"))
        os.replace(tmp, target)
        _prune(target.parent)
    except OSError:
        # a read-only or full cache folder only costs speed; the registry itself is fine
        return


def _prune(folder: Path) -> None:
    caches = sorted(folder.glob("registry-*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in caches[KEEP_FILES:]:
        old.unlink(missing_ok=True)
