"""Stored games ("shares"): the API resource (routes.py, schemas.py) over service/shares.py, and `load_share`, the
read the pages make of a stored game (access.py)."""

from .access import load_share, load_summary

__all__ = ["load_share", "load_summary"]
