"""Security headers on every answer: what a browser may do with it.

- `X-Content-Type-Options: nosniff`: a JSON answer or a script is never taken for another type.
- `X-Frame-Options: DENY` and CSP `frame-ancestors 'none'`: no page of this service can be framed, by another site
  (clickjacking the hand lab or the key box) or by itself. The one exception is the embed views (`/embed/...`,
  service/ui/embed.py), made to be framed: `frame-ancestors` names the sites of `EMBED_ORIGINS` (`embed_policy`),
  and they set `X-Frame-Options` themselves only when no site may frame them (it has no way to name a site).
- `Referrer-Policy: no-referrer`: a link from a page does not tell the next site where it came from.
- `Content-Security-Policy`: the pages (`/ui`, `/ui/replay`) load scripts, styles, fonts and images from this
  server only and run no inline script; their scripts call this server only. The API docs (Swagger UI, served
  from this server with no inline script) also need inline styles (React sets `style` attributes) and `data:`
  images (its stylesheet's icons). Every other answer (JSON, the spec, problem pages) may load nothing.

The envelope (service/http/envelope.py) adds them to every answer, errors included; a view that set its own keeps
them.
"""

from __future__ import annotations

#: The pages' policy: their own files only; no inline script, style or plugin; forms post to this server only.
PAGES = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; "
         "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
#: The docs page (Swagger UI): the same, plus inline styles and data: images.
DOCS = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
#: Everything else loads nothing: a JSON answer or a problem page opened in a browser runs nothing.
NOTHING = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
#: The embed views' policy, less its `frame-ancestors`: the pages' own, and no form posts anywhere.
EMBED = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; "
         "connect-src 'self'; base-uri 'none'; form-action 'none'")
#: The blueprints of the pages and of the docs.
PAGES_BLUEPRINT = "ui"
DOCS_BLUEPRINT = "swagger_ui"
EMBED_BLUEPRINT = "embed"

POLICIES = {PAGES_BLUEPRINT: PAGES, DOCS_BLUEPRINT: DOCS}
HEADERS = {"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer"}


def policy_for(blueprint: str | None) -> str:
    """The Content-Security-Policy of an answer from `blueprint` (None: no route matched)."""
    return POLICIES.get(blueprint or "", NOTHING)


def embed_policy(origins: list[str]) -> str:
    """The embed views' Content-Security-Policy: framed by `origins` only (`["*"]`: any site; none: no site)."""
    ancestors = " ".join(origins) if origins else "'none'"
    return f"{EMBED}; frame-ancestors {ancestors}"


def fixed_for(blueprint: str | None) -> dict[str, str]:
    """The fixed headers of an answer from `blueprint`: an embed view sets its own `X-Frame-Options`, if any."""
    return EMBED_HEADERS if blueprint == EMBED_BLUEPRINT else HEADERS


EMBED_HEADERS = {name: value for name, value in HEADERS.items() if name != "X-Frame-Options"}
