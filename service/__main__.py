"""Command line.

`python -m service openapi [--check] [PATH]` writes (or checks) the committed spec.
`python -m service serve` runs the API, the workers and (without REDIS_URL or REDIS_SENTINELS) an embedded Redis.
`python -m service audit FILE...` audits game logs (`-`: standard input): one JSON line per file; exit 1 when
any log is invalid, 2 when a file cannot be read or is not a replayable log.
`python -m service arena --ruleset R --policies P0,P1,P2,P3 --deals N --seed S` plays policies against each other on
duplicate deals and prints each policy's figures (docs/advice.md#arena-how-strong-the-advice-plays).
`python -m service learn --ruleset R --deals N --seed S [--out PATH]` fits a rule-set's value model
(docs/advice.md#value).
`python -m service i18n update|compile|check` extracts the texts for people into the gettext catalogs, compiles
them, or lists what a catalog misses (docs/ui.md#languages).
`python -m service hash-key NAME` reads an API key on stdin and prints its `NAME:sha256` entry for API_KEYS.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import yaml

from .config import ROLES, Role


def openapi_document() -> dict:
    """The OpenAPI document the app serves."""
    from .app import create_app

    app = create_app()
    with app.app_context():
        return app.extensions["longcards_api"].spec.to_dict()


def render(document: dict) -> str:
    """Stable YAML text of a spec document."""
    return yaml.safe_dump(document, sort_keys=True, allow_unicode=True, width=110)


AUDIT_HELP = """\
Each FILE is one game log (a JSON object, the format of GET /v1/schemas/game-log); `-` reads one from standard
input. One JSON line is printed per file: the audit (valid, violations, outcome, recorded_result_matches) or
an error (code, field, detail).

exit status:
  0  every log is legal
  1  some log breaks a rule (its line lists the violations)
  2  some file cannot be read, is not JSON, or is not a replayable log (the worst status wins)

example:
  python -m service audit round1.json round2.json
  python -m service audit - < round.json
"""


def read_log(path: str) -> Any:
    """The JSON document of a file, or of standard input for `-`."""
    text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    return json.loads(text)


def audit_files(paths: list[str]) -> int:
    """Audit each file; print a JSON line each; the worst status wins (0 valid, 1 violations, 2 unreadable)."""
    from .api.audits.routes import audit_json
    from .rules.errors import DomainError

    worst = 0
    for path in paths:
        try:
            raw = read_log(path)
            if not isinstance(raw, dict):
                raise ValueError("a game log is a JSON object")
            line = {"file": path, **audit_json(raw)}
            worst = max(worst, 0 if line["valid"] else 1)
        except (OSError, ValueError) as error:
            line, worst = {"file": path, "error": {"code": "unreadable", "detail": str(error)}}, 2
        except DomainError as error:
            line = {"file": path, "error": {"code": error.code, "field": error.field, "detail": error.message}}
            worst = 2
        print(json.dumps(line, ensure_ascii=False))
    return worst


def hash_key(name: str) -> int:
    """Read a key on stdin (no echo on a terminal); print its API_KEYS entry. Exit 2 on a bad name or key."""
    from getpass import getpass

    from .http.auth import entry

    key = (getpass("API key: ") if sys.stdin.isatty() else sys.stdin.readline()).strip()
    try:
        if not key:
            raise ValueError("no key on stdin; nothing printed")
        print(entry(name, key))
    except ValueError as error:
        # Loud on stderr and non-zero, and nothing on stdout: `$(... hash-key NAME)` must not yield an empty entry.
        print(f"hash-key: {error}", file=sys.stderr)
        return 2
    return 0


def catalogs(action: str) -> int:
    """Update, compile or check the gettext catalogs; `check` exits 1 listing what is wrong."""
    from . import catalogs as upkeep

    if action == "check":
        found = upkeep.problems()
        for line in found:
            print(line)
        return 1 if found else 0
    for path in upkeep.update() if action == "update" else upkeep.compile_all():
        print(f"wrote {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")
    return 0


def check_config(role: Role = "serve") -> int:
    """Every setting of the environment checked as the process of `role` checks it at start: 0 when all can be used,
    else 2 with the message."""
    from .config import ConfigError, check_environment

    try:
        check_environment(role=role)
    except ConfigError as error:
        print(f"python -m service: {error}", file=sys.stderr)
        return 2
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    parser = argparse.ArgumentParser(prog="python -m service")
    sub = parser.add_subparsers(dest="command", required=True)
    spec = sub.add_parser("openapi", help="write the OpenAPI document (default: openapi.yaml)")
    spec.add_argument("path", nargs="?", default="openapi.yaml")
    spec.add_argument("--check", action="store_true", help="exit 1 when the file differs from the served spec")
    run = sub.add_parser("serve", help="API (gunicorn) + RQ workers + an embedded Redis when REDIS_URL and "
                                       "REDIS_SENTINELS are unset")
    run.add_argument("--workers", type=int, default=None, help="RQ workers (default 2, LONGCARDS_WORKERS)")
    run.add_argument("--stop-grace", type=float, default=None,
                     metavar="SECONDS", help="on Ctrl-C or SIGTERM, how long a running job may go on before it is "
                     "put back on its queue (default 10, LONGCARDS_STOP_GRACE)")
    checking = sub.add_parser(
        "check-config", help="check every setting of the environment; exit 2 naming each bad one",
        description="Check every setting the service reads (docs/configuration.md) as serve, gunicorn and the "
        "workers will at start: exit 0 when all can be used, else 2 with one line per bad setting (a secret's value "
        "is never printed).")
    checking.add_argument("--for", dest="role", choices=ROLES, default="serve",
                          help="the process whose check to run: api (gunicorn), worker (python -m workers) or serve "
                               "(both; the default)")
    check = sub.add_parser("audit", help="audit game-log files (JSON), one JSON line per file",
                           description="Replay game logs under their rules and report every violation.",
                           epilog=AUDIT_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("files", nargs="+", metavar="FILE", help="a game-log JSON file, or - for standard input")
    keys = sub.add_parser("hash-key", help="read an API key on stdin, print its API_KEYS entry (name:sha256)")
    keys.add_argument("name", help="the key's name: the owner of the jobs it creates")
    words = sub.add_parser("i18n", help="the gettext catalogs: update (extract + merge), compile, check")
    words.add_argument("action", choices=["update", "compile", "check"])
    from .arena.cli import add_parser as add_arena

    add_arena(sub)
    from .arena.learn import add_parser as add_learn

    add_learn(sub)
    args = parser.parse_args(argv)
    if args.command == "learn":
        from .arena.learn import run as run_learn

        return run_learn(args)
    if args.command == "arena":
        from .arena.cli import run as run_arena

        return run_arena(args)
    if args.command == "i18n":
        return catalogs(args.action)
    if args.command == "hash-key":
        return hash_key(args.name)
    if args.command == "audit":
        return audit_files(args.files)
    if args.command == "check-config":
        return check_config(args.role)
    if args.command == "serve":
        from .runtime.serve import serve

        return serve(args.workers, stop_grace=args.stop_grace)
    text = render(openapi_document())
    path = Path(args.path)
    if args.check:
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if current != text:
            print(f"{path} is out of date; run: python -m service openapi {path}", file=sys.stderr)
            return 1
        return 0
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
