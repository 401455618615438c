"""Time a step of the replay viewer through a 2,000-event log in the system's Chromium.

    python -m bench.replay_steps http://127.0.0.1:8000 [--presses 40]

The log is the events of seeded simulated rounds one after the other, cut at 2,000 (the most a log may hold):
the audit stops replaying at the second round's first event, but the viewer lists and steps through all 2,000.
For each ArrowRight press it reports three times: `handler`, the page's own `replay-step` measure (the keydown
handler: selection, detail panel, URL), when the page records one; `frame`, from the keydown to the first task
after the next animation frame (style, layout and paint included); `wall`, the press as Playwright sees it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from service.replay.families import simulate

RULESET = "bga-taiwan"
EVENTS = 2000

#: Installed before the page's own listeners: each keydown's time to the first task after the next frame.
FRAME_TIMER = """() => {
  window.__frames = [];
  window.addEventListener("keydown", () => {
    const start = performance.now();
    requestAnimationFrame(() => setTimeout(() => window.__frames.push(performance.now() - start), 0));
  }, true);
}"""


def long_log(events: int = EVENTS) -> dict:
    """One log of `events` events: seeded 4-seat rounds' events one after the other (no recorded result)."""
    log = simulate(RULESET, 1, 4, "greedy")
    found: list[dict] = []
    seed = 1
    while len(found) < events:
        found += simulate(RULESET, seed, 4, "greedy")["events"]
        seed += 1
    log["events"] = found[:events]
    log.pop("result", None)
    return log


def load_long_log(page, base: str, log: dict) -> None:
    """Open the viewer and paste the log; wait until its list is drawn."""
    page.goto(f"{base}/ui/replay")
    page.locator("#sim-ruleset option").first.wait_for(state="attached")
    page.fill("#paste", json.dumps(log))
    page.click("#load-paste")
    page.locator(f"#events li >> nth={len(log['events'])}").wait_for(state="attached", timeout=120_000)
    page.locator("#events").focus()


def time_steps(page, presses: int) -> dict[str, list[float]]:
    """Press ArrowRight `presses` times; the handler, frame and wall times of each press (ms)."""
    page.evaluate(FRAME_TIMER)
    page.evaluate("performance.clearMeasures('replay-step')")
    wall = []
    for k in range(presses):
        start = time.perf_counter()
        page.keyboard.press("ArrowRight")
        page.wait_for_function("n => document.querySelector('#position').textContent.startsWith(`event ${n} /`)",
                               arg=k + 1)
        wall.append(1000 * (time.perf_counter() - start))
    page.wait_for_function("n => window.__frames.length >= n", arg=presses)
    return {"handler": page.evaluate("performance.getEntriesByName('replay-step').map((e) => e.duration)"),
            "frame": page.evaluate("window.__frames"), "wall": wall}


def summary(times: list[float]) -> str:
    return f"median {statistics.median(times):.1f} ms, max {max(times):.1f} ms" if times else "not measured"


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.support.browser import CHROMIUM_ARGS, chromium_path

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the service's base URL")
    parser.add_argument("--presses", type=int, default=40)
    args = parser.parse_args()
    log = long_log()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        start = time.perf_counter()
        load_long_log(page, args.base, log)
        nodes = page.evaluate("document.getElementsByTagName('*').length")
        print(f"load: {time.perf_counter() - start:.2f} s; DOM elements: {nodes}")
        for name, times in time_steps(page, args.presses).items():
            print(f"{name}: {summary(times)} over {len(times)} presses")
        browser.close()


if __name__ == "__main__":
    main()
