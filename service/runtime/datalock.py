"""One `python -m service serve` at a time on a data directory (`LONGCARDS_DATA_DIR`): its Redis's append-only file,
gunicorn's control socket and its other files belong to one serve.

serve takes an exclusive `flock` on `serve.lock` in the directory and writes its pid there; a second serve finds the
lock taken and stops before it starts or touches anything. The kernel drops the lock when the process ends, however
it ends, so a serve that was killed leaves no stale lock; its children never hold it (Python opens files
non-inheritable, PEP 446), not even the keeper that outlives it (service/runtime/keeper.py). The file stays: removing
it would let a third serve lock a new file while a second still holds the old one.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from pathlib import Path
from typing import IO

LOCK_FILE = "serve.lock"
PID_WAIT = 1.0  # seconds to wait for the holder to write its pid (it locks first, then writes)


class DataDirInUse(Exception):
    """Another process holds the data directory's lock: its pid (None if it wrote none) and the directory."""

    def __init__(self, holder: int | None, run_dir: Path) -> None:
        self.holder, self.run_dir = holder, run_dir
        who = f"another serve (pid {holder})" if holder else "another serve"
        super().__init__(f"{who} runs on {run_dir}: stop it first, or give this one another LONGCARDS_DATA_DIR")


def lock_data_dir(run_dir: Path) -> IO[str]:
    """The data directory locked for this process, which holds it until the returned file is closed or the process
    ends; DataDirInUse when another process holds it, OSError when the lock file cannot be opened."""
    handle = (run_dir / LOCK_FILE).open("a+", encoding="ascii")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _holder(handle)
        handle.close()
        raise DataDirInUse(holder, run_dir) from None
    handle.truncate(0)
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


def _holder(handle: IO[str]) -> int | None:
    """The pid the lock's holder wrote (a live process), waiting briefly for a holder that has only just locked."""
    deadline = time.monotonic() + PID_WAIT
    while True:
        handle.seek(0)
        text = handle.read().strip()
        if text.isdigit() and _alive(int(text)):
            return int(text)
        if time.monotonic() > deadline:
            return None
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    with contextlib.suppress(PermissionError):  # someone else's process: alive
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
    return True
