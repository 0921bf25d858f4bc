"""The compiled registry cache: the checked, built records as plain tables (`opset.record_table`), keyed by the
content of every file.

The file holds only plain data written with `marshal` (lists, packed ints, strings, floats, None), never pickle:
reading the cache can never execute anything, and `opset.record_table` checks every value it reads. A cache that
cannot be read, does not parse, carries another key or does not decode is a miss and gets rewritten.

The key is the content (sha256) of every registry file, meta-schema, formula module and loader source. Hashing ~560
files on every load costs more than the rest of a load, so a small stat index maps the text of every file's stats
(name, size, mtime, ctime, inode; compared whole) to that content key. A changed file changes its stats (its ctime at
least), so the entry no longer matches and the content is hashed again. An entry is only written when no file changed
within the last `RACY_SECONDS`: a file rewritten within the same clock tick as its stats were read, with the same
size, could otherwise look unchanged (git's "racy" case). So a stale cache is never served.
"""

from __future__ import annotations

import marshal
import os
import sys
import time
import zlib
from array import array
from pathlib import Path
from typing import Any

from opset.registry_home import meta_dir

# the tables' ints are packed in this machine's byte order and width (opset.record_table)
CACHE_FORMAT = (f"opset-registry-cache-5/marshal-{marshal.version}/{sys.implementation.cache_tag}/{sys.byteorder}"
                f"/uint{array('I').itemsize * 8}")
# the code that checks files and turns them into records or tables: a change to it makes old caches misses
_BUILDER_SOURCES = ("build.py", "model.py", "lines.py", "cache.py", "checks.py", "meta.py", "attr_types.py",
                    "frozen.py", "random_laws.py", "record_table.py", "load.py", "dtypes.py", "errors.py")
KEEP_FILES = 8  # caches of other contents (older checkouts, conform's snapshots) kept before the oldest go
RACY_SECONDS = 3.0  # files changed more recently than this are not trusted to their stats


def cache_dir() -> Path:
    explicit = os.environ.get("OPSET_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "opset"


def _cache_file(key: str) -> Path:
    return cache_dir() / f"registry-{key[:24]}.marshal"


def _index_file(fingerprint: str) -> Path:
    # named by a checksum (zlib is light to import, hashlib is not); the entry holds the whole fingerprint
    return cache_dir() / "stat-index" / f"{zlib.crc32(fingerprint.encode()):08x}-{len(fingerprint):x}"


def _key_sources(root: Path, files: list[str]) -> list[tuple[str, str]]:
    """Every file the cached data depends on (`files`: the registry's, as paths under `root`), with the name it
    enters the key under."""
    here = os.path.dirname(os.path.abspath(__file__))
    sources = [(f"opset/{name}", os.path.join(here, name)) for name in _BUILDER_SOURCES]
    formula = os.path.join(here, "formula")  # cached formulas were checked by this parser
    sources += [(f"opset/formula/{name}", os.path.join(formula, name))
                for name in sorted(os.listdir(formula)) if name.endswith(".py")]
    meta = str(meta_dir())  # as opset.meta reads them
    sources += [(f"meta/{name}", os.path.join(meta, name))
                for name in sorted(os.listdir(meta)) if name.endswith(".schema.json")]
    prefix = os.path.join(str(root), "")
    sources += [(p[len(prefix):] if p.startswith(prefix) else p, p) for p in files]
    return sources


def content_key(root: Path, files: list[str]) -> str:
    """The sha256 of the format, the shown root and every source's name and bytes."""
    import hashlib  # only a stat-index miss hashes
    h = hashlib.sha256(CACHE_FORMAT.encode())
    h.update(f"{shown_root(root)}\0".encode())  # records keep file paths as shown from here
    for name, path in _key_sources(root, files):
        h.update(name.encode())
        h.update(b"\0")
        with open(path, "rb") as f:
            h.update(f.read())
        h.update(b"\0")
    return h.hexdigest()


def stat_fingerprint(root: Path, files: list[str]) -> tuple[str, float]:
    """Every source's name and stats as text, and the newest change time among them (for the racy check)."""
    parts = [CACHE_FORMAT, shown_root(root)]
    newest = 0.0
    for name, path in _key_sources(root, files):
        st = os.stat(path)
        parts.append(f"{name}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}\0{st.st_ino}")
        newest = max(newest, st.st_mtime, st.st_ctime)
    return "\n".join(parts), newest


def shown_root(root: Path) -> str:
    """How records name the files under `root` (as `opset.load` shows them): relative to the working directory when
    inside it, else as given. Only this much of the working directory reaches the cached data, so an installed
    registry used from any folder has one cache entry."""
    try:
        return str(root.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(root)


def cache_enabled() -> bool:
    return not os.environ.get("OPSET_NO_CACHE")


def key_for(root: Path, files: list[str]) -> tuple[str, str | None]:
    """The content key of the files, through the stat index where it has an entry for exactly these stats, and the
    stat fingerprint to record it under (None when the index had it, or when the files changed too recently to be
    trusted to their stats)."""
    fingerprint, newest = stat_fingerprint(root, files)
    try:
        with open(_index_file(fingerprint), encoding="utf-8") as f:
            key, _, indexed = f.read().partition("\n")
    except (OSError, ValueError):
        key, indexed = "", ""
    if indexed == fingerprint and len(key) == 64:  # the whole fingerprint compared: a name clash is a miss
        return key, None
    trusted = time.time() - newest > RACY_SECONDS
    return content_key(root, files), fingerprint if trusted else None


def remember(fingerprint: str, key: str) -> None:
    """Record that files with this stat fingerprint have this content key."""
    target = _index_file(fingerprint)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        _write_atomically(target, f"{key}\n{fingerprint}".encode())
    except OSError:
        return  # an index that cannot be written only costs speed


def read(key: str) -> Any:
    """The cached tables for `key`, or None (absent, unreadable, corrupt, another key)."""
    try:
        with open(_cache_file(key), "rb") as f:
            data = f.read()  # marshal.load on a file reads it piecemeal, several times slower
        blob = marshal.loads(data)
    except (OSError, EOFError, ValueError, TypeError):  # absent or corrupt: a miss, rebuilt by the caller
        return None
    if not isinstance(blob, dict) or blob.get("key") != key:
        return None
    _mark_used(_cache_file(key))
    return blob.get("tables")


def _mark_used(path: Path) -> None:
    """Pruning keeps the caches used last (by their mtime): the checkout's own one is not pushed out by the
    registries of conform's snapshots or of a test's temporary copies, however many of them are written after it."""
    try:
        os.utime(path)
    except OSError:
        return  # a read-only cache folder: pruning order is all it costs


def write(key: str, tables: Any) -> None:
    """Store `tables` (plain data only: marshal refuses anything else) under `key`."""
    target = _cache_file(key)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        _write_atomically(target, marshal.dumps({"key": key, "tables": tables}))
        _prune(target.parent)
    except OSError:
        # a read-only or full cache folder only costs speed; the registry itself is fine
        return


def _write_atomically(target: Path, data: bytes) -> None:
    import tempfile  # only a cache miss pays for it

    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".registry-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, target)
    except OSError:
        Path(tmp).unlink(missing_ok=True)
        raise


def _prune(folder: Path) -> None:
    caches = sorted(folder.glob("registry-*.marshal"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in caches[KEEP_FILES:]:
        old.unlink(missing_ok=True)
    index = folder / "stat-index"
    entries = sorted(index.glob("*"), key=lambda p: p.stat().st_mtime, reverse=True) if index.is_dir() else []
    for old in entries[KEEP_FILES * 4:]:
        old.unlink(missing_ok=True)
