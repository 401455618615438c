"""The pages' screenshots in docs/img, taken from a running service: `python scripts/screenshots.py [BASE]`
(BASE defaults to http://127.0.0.1:8000, `./scripts/serve`'s address), with the system's Chromium; each picture is
then quantised to a palette with `pngquant` when it is installed (a screenshot is a few colours: 3 to 4 times
smaller)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "img"
#: docs/rules.md#fc-melds: a six-point hand winning on a discarded yC, its exposed triple of white Soldiers.
LAB = "/ui?ruleset=bga-taiwan&seats=3&seat=0&hand=rG,rA,rE,yC,yC&exposed=triple:wS.wS.wS&public=yC"


def lab(page, base: str, name: str) -> None:
    page.goto(base + LAB)
    page.wait_for_selector("#claims-panel .body > *")
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(IMAGES / name))


def replay(page, base: str, name: str) -> None:
    """A simulated round of the Taiwanese rules, analysed, stepped to its sixth event."""
    page.goto(base + "/ui/replay")
    page.wait_for_selector("#sim-ruleset option", state="attached")
    page.select_option("#sim-ruleset", "bga-taiwan")
    page.fill("#sim-seats", "3")
    page.fill("#sim-seed", "3")
    page.fill("#sim-rounds", "2")
    page.click("#simulate")
    page.wait_for_selector("#events li >> nth=1", state="attached")
    page.click("#analyse")
    page.wait_for_selector("#analysis svg", state="attached", timeout=120_000)
    page.locator("#events").focus()
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    page.wait_for_timeout(300)
    page.screenshot(path=str(IMAGES / name))


SHOTS = [  # (file, page, language, width, height)
    ("ui-lab.png", lab, "en", 1280, 900),
    ("ui-lab-vi.png", lab, "vi", 1280, 900),
    ("ui-lab-zh-hant-phone.png", lab, "zh-Hant", 375, 800),
    ("ui-replay.png", replay, "en", 1280, 900),
]


def main(base: str = "http://127.0.0.1:8000") -> None:
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--headless", "--no-sandbox"])
        for name, take, lang, width, height in SHOTS:
            context = browser.new_context(viewport={"width": width, "height": height})
            context.add_cookies([{"name": "longcards_lang", "value": lang, "url": base}])
            take(context.new_page(), base, name)
            context.close()
            if shutil.which("pngquant"):
                subprocess.run(["pngquant", "--force", "--skip-if-larger", "--ext", ".png", str(IMAGES / name)],
                               check=False)
            print(f"{IMAGES / name}: {(IMAGES / name).stat().st_size // 1024} KB")
        browser.close()


if __name__ == "__main__":
    main(*sys.argv[1:])
