"""Command line: `python -m service openapi [--check] [PATH]` writes (or checks) the committed spec."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml


def openapi_document() -> dict:
    """The OpenAPI document the app serves."""
    from .app import create_app

    app = create_app()
    with app.app_context():
        return app.extensions["longcards_api"].spec.to_dict()


def render(document: dict) -> str:
    """Stable YAML text of a spec document."""
    return yaml.safe_dump(document, sort_keys=True, allow_unicode=True, width=110)


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    parser = argparse.ArgumentParser(prog="python -m service")
    sub = parser.add_subparsers(dest="command", required=True)
    spec = sub.add_parser("openapi", help="write the OpenAPI document (default: openapi.yaml)")
    spec.add_argument("path", nargs="?", default="openapi.yaml")
    spec.add_argument("--check", action="store_true", help="exit 1 when the file differs from the served spec")
    args = parser.parse_args(argv)
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
