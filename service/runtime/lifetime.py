"""Child processes that end with the process that started them, on Linux (`PR_SET_PDEATHSIG`).

A process killed outright (SIGKILL, the OOM killer) runs no clean-up, so the children it started would live on under
PID 1: an RQ worker's scheduler would go on taking its queues' scheduler lock, a work horse on running its job, the
private Redis of `python -m service serve` on holding its socket. A child asks the kernel for a signal when its
parent ends instead: `exec_hook` for a program started with subprocess (the arena's bots, serve's children),
`forks_die_with_parent` for every later `os.fork` of this process (multiprocessing's fork context included: the
RQ worker's scheduler and work horses). Elsewhere than Linux both do nothing. Standard library only.

The kernel sends the signal when the *thread* that forked the child ends: fork from the main thread.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable
from functools import cache
from typing import Any

PR_SET_PDEATHSIG = 1


@cache
def _prctl() -> Callable[..., Any] | None:
    """libc's prctl on Linux, else None (resolved once, before any fork: a child must not load libraries)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def exec_hook(signum: int) -> Callable[[], None] | None:
    """A `preexec_fn` for subprocess.Popen making the child get `signum` when this process ends (None where that
    is not possible). The child ends at once if this process already has."""
    prctl = _prctl()
    if prctl is None:
        return None
    parent = os.getpid()

    def hook() -> None:
        prctl(PR_SET_PDEATHSIG, signum)
        if os.getppid() != parent:  # the parent went before the request took effect
            os._exit(1)

    return hook


_registered = False  # the hooks are registered (a forked child inherits them, and this flag)


def forks_die_with_parent(signum: int) -> bool:
    """From now on every child this process forks, and every child they fork, gets `signum` when its parent ends.
    Once per process (a later call does nothing, whatever its signal); False where it is not possible."""
    global _registered
    prctl = _prctl()
    if prctl is None:
        return False
    if _registered:
        return True
    _registered = True
    parent = [0]

    def before() -> None:
        parent[0] = os.getpid()

    def in_child() -> None:
        prctl(PR_SET_PDEATHSIG, signum)
        if os.getppid() != parent[0]:
            os._exit(1)

    os.register_at_fork(before=before, after_in_child=in_child)
    return True
