"""The README stays true: it lists every violation code exactly as the audit reports them."""

from __future__ import annotations

from pathlib import Path

from service.replay.violations import CODES, table

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def test_readme_has_the_violation_code_table():
    """Regenerate with service.replay.violations.table() when a code changes."""
    assert table() in README
    assert all(f"`{code}`" in README for code in CODES)
