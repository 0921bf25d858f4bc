"""The processes a command started, found through /proc: to check that none outlives it."""

from __future__ import annotations

import os
import time
from pathlib import Path


def _parent_and_command(pid: int) -> tuple[int, str] | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return None
    # the command name (field 2) is in parentheses and may hold spaces: the fields after it are split safely
    fields = stat[stat.rindex(")") + 2:].split()
    if fields[0] == "Z":  # a zombie has ended; only its parent's wait is missing
        return None
    return int(fields[1]), command


def descendants(root: int) -> dict[int, str]:
    """Every live process below `root` (its children, theirs ...), pid -> command line."""
    table = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            found = _parent_and_command(int(entry))
            if found is not None:
                table[int(entry)] = found
    below: dict[int, str] = {}
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        for pid, (ppid, command) in table.items():
            if ppid == parent and pid not in below:
                below[pid] = command
                frontier.append(pid)
    return below


def survivors(processes: dict[int, str], grace: float = 10.0) -> dict[int, str]:
    """Those of `processes` still alive after at most `grace` seconds (the same pid with the same command line: not a
    reused pid). A child told to go with its parent (PR_SET_PDEATHSIG, a pipe's end) may need a moment."""
    deadline = time.monotonic() + grace
    while True:
        alive = {}
        for pid, command in processes.items():
            found = _parent_and_command(pid)
            if found is not None and found[1] == command:
                alive[pid] = command
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.2)
