"""Probes of the HTTP servers the tests start."""

from __future__ import annotations

import urllib.request


def answers(url: str) -> bool:
    """Whether a GET of `url` answers 200."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status == 200
    except OSError:
        return False
