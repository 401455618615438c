"""Tasks for service/arena/parallel.py `in_order` in the tests: module-level functions, so that spawned processes
can import them by name."""

from __future__ import annotations

import os

#: An answer big enough that sending it takes the answer queue's lock for many pipe writes.
LARGE = 8_000_000


def square(n: int) -> tuple[int, int]:
    """n², and the process that worked it out."""
    return n * n, os.getpid()


def large(n: int) -> bytes:
    """`LARGE` bytes."""
    return bytes(LARGE)


def broken(n: int) -> int:
    """n, except for 3, which raises."""
    if n == 3:
        raise ValueError("deal 3 broke")
    return n
