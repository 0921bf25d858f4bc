"""Folders that refuse writes for real: read-only, and full.

Root writes through a folder's mode bits, so for root (the CI user here) a read-only folder is a read-only tmpfs
mounted on it and a full one a tmpfs of a few kilobytes; other users get mode 0o555 and, for a full folder, a skip
that says why (`-rs` lists it). A folder that cannot be made so is skipped with the reason, never tested as if it
refused.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _mount(folder: Path, options: str) -> bool:
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], capture_output=True,
                          text=True, check=False)
    return done.returncode == 0


def _unmount(folder: Path) -> None:
    subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


@contextmanager
def read_only_folder(folder: Path) -> Iterator[Path]:
    """`folder`, existing and refusing every write within the block."""
    if os.geteuid() != 0:
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
        return
    if not _mount(folder, "ro,size=64k"):
        pytest.skip("a read-only folder needs `mount -t tmpfs -o ro` for root, which this machine refuses")
    try:
        yield folder
    finally:
        _unmount(folder)


@contextmanager
def full_folder(folder: Path, size_kb: int = 16) -> Iterator[Path]:
    """`folder`, a filesystem of `size_kb` KiB: a write past that fails with ENOSPC."""
    if os.geteuid() != 0:
        pytest.skip("a full folder needs root (a tmpfs of a few KiB)")
    if not _mount(folder, f"size={size_kb}k"):
        pytest.skip("a full folder needs `mount -t tmpfs`, which this machine refuses")
    try:
        yield folder
    finally:
        _unmount(folder)
