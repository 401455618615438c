"""Time to first paint of an embedded replay of a 2,000-event round, framed by a page of another origin.

    LONGCARDS_EMBED_ORIGINS=http://127.0.0.1:8799 ./scripts/serve &
    .venv/bin/python -m bench.embed_paint http://127.0.0.1:8000 [--host-port 8799] [--loads 10] [--key KEY]

The round is bench/replay_steps.py's 2,000-event log (the most a log may hold), stored once with POST /v1/shares.
A host page served on another port (another origin, listed in LONGCARDS_EMBED_ORIGINS) frames
`/embed/replay/{id}`; each load is a fresh browser context (nothing cached). For each load it reports, in the
frame's own clock (from its navigation start): `first paint` (the browser's first-contentful-paint), `events`
(the whole event list drawn, 2,001 rows with the deal) and `table` (the table at the deal shown); and `host` (from
the host page's navigation start to the event list drawn, as a visitor waits for it).
"""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from bench.replay_steps import EVENTS, long_log

HOST_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>host</title></head>
<body><h1>A club's forum</h1><iframe id="view" src="{src}" width="900" height="800" title="replay"></iframe>
</body></html>"""


def store(base: str, log: dict, key: str | None) -> str:
    """Store the log as a share; its id."""
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    call = urllib.request.Request(f"{base}/v1/shares", data=json.dumps({"logs": [log]}).encode(), headers=headers)
    with urllib.request.urlopen(call, timeout=60) as answer:
        return json.loads(answer.read())["id"]


def host_server(port: int, src: str) -> ThreadingHTTPServer:
    """A page of another origin that frames `src`, served in a thread."""
    body = HOST_PAGE.format(src=src).encode()

    class Host(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Host)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def one_load(browser, url: str) -> dict[str, float]:
    """Open the host page in a fresh context; the frame's paint, event-list and table times, and the host's wait."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url)
    frame = page.frame_locator("#view")
    frame.locator(f"#events li >> nth={EVENTS}").wait_for(state="attached", timeout=120_000)
    frame.locator("#table .seat").first.wait_for(state="attached", timeout=60_000)
    inner = next(f for f in page.frames if "/embed/replay/" in f.url)
    times = inner.evaluate("""() => ({
        paint: (performance.getEntriesByName('first-contentful-paint')[0] || {startTime: NaN}).startTime,
        now: performance.now()})""")
    host = page.evaluate("performance.now()")
    context.close()
    return {"first paint": times["paint"], "events and table": times["now"], "host": host}


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.support.browser import CHROMIUM_ARGS, chromium_path

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the service's base URL")
    parser.add_argument("--host-port", type=int, default=8799, help="the host page's port (its origin must be in "
                        "LONGCARDS_EMBED_ORIGINS)")
    parser.add_argument("--loads", type=int, default=10)
    parser.add_argument("--key", help="an API key, when the service has keys")
    args = parser.parse_args()
    base = args.base.rstrip("/")
    share = store(base, long_log(), args.key)
    server = host_server(args.host_port, f"{base}/embed/replay/{share}")
    rows: list[dict[str, float]] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            one_load(browser, f"http://127.0.0.1:{args.host_port}/")  # warms the service's caches, not the browser
            rows = [one_load(browser, f"http://127.0.0.1:{args.host_port}/") for _ in range(args.loads)]
            browser.close()
    finally:
        server.shutdown()
    print(f"embedded replay of a {EVENTS:,}-event round, {args.loads} loads, each in a fresh browser context:")
    for name in rows[0]:
        values = [row[name] for row in rows]
        print(f"  {name}: median {statistics.median(values):.0f} ms, max {max(values):.0f} ms")


if __name__ == "__main__":
    main()
