"""`python -m service audit`: a log on standard input (`-`), and a --help that documents arguments and exit codes."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from service.__main__ import main
from service.replay.families import simulate

ROOT = Path(__file__).resolve().parents[2]


def test_audit_reads_a_log_from_stdin():
    """`-` is standard input: a legal log exits 0 and its line is named `-`."""
    log = json.dumps(simulate("bga-taiwan", 11, 3, "greedy"))
    done = subprocess.run([sys.executable, "-m", "service", "audit", "-"], input=log, capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    line = json.loads(done.stdout)
    assert done.returncode == 0 and line["file"] == "-" and line["valid"] is True


@pytest.mark.parametrize(("text", "status", "code"), [
    pytest.param("{", 2, "unreadable", id="not_json"),
    pytest.param('{"ruleset": "bga-taiwan", "seats": 9}', 2, "invalid_seat", id="not_a_replayable_log"),
])
def test_audit_of_bad_stdin_exits_2(monkeypatch, capsys, text, status, code):
    """Unreadable input on stdin is reported like an unreadable file."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert main(["audit", "-"]) == status
    assert json.loads(capsys.readouterr().out)["error"]["code"] == code


def test_audit_help_documents_arguments_and_exit_codes(capsys):
    """--help names FILE, `-` and each exit status."""
    with pytest.raises(SystemExit) as done:
        main(["audit", "--help"])
    text = capsys.readouterr().out
    assert done.value.code == 0
    assert "FILE" in text and "- for standard input" in text and "exit status:" in text
    for status in ("0  every log is legal", "1  some log breaks a rule", "2  some file cannot be read"):
        assert status in text


def test_api_doc_shows_the_audit_command_and_its_help():
    """docs/api.md shows stdin use and the exit codes as --help prints them."""
    doc = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert "python -m service audit - < " in doc and "python -m service audit --help" in doc
