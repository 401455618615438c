"""The reliability plot of a calibration (docs/advice.md#value): for each rule-set, every decile's mean predicted
value (x) against the settlement the seats realised (y) with its 95% interval, next to the diagonal a perfectly
calibrated value would lie on. Reads what `bench/calibration.py --json` prints and writes one SVG (no plotting
library: the file is plain SVG text, small enough to keep in the repository).

    .venv/bin/python bench/calibration.py --json > calibration.json
    .venv/bin/python bench/reliability.py calibration.json docs/img/calibration.svg
    .venv/bin/python bench/reliability.py flowers.json chan.json docs/img/search-calibration.svg
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import textwrap
from html import escape
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout: this tree's models

from service.advice.value import ModelMissing, load_model  # noqa: E402

PANEL, MARGIN, GAP = 300, 48, 24  # panel side, axis margin, space between panels (px)
LINE = 13  # a legend line (px)
CHAR = 5.5  # what a legend character takes, roughly (px, 10 px sans-serif)
TITLE = 28


def objective(name: str) -> str:
    """The unit of a rule-set's values, from its shipped model (a name that is no rule-set: points)."""
    try:
        return load_model(name).objective
    except ModelMissing:
        return "expected_settlement"


def nice_range(values: list[float]) -> tuple[float, float]:
    """A range covering `values` with 5% of room on each side (never empty)."""
    low, high = min(values), max(values)
    room = (high - low) * 0.05 or max(abs(high), 1.0) * 0.05
    return low - room, high + room


def ticks(low: float, high: float, count: int = 8) -> list[float]:
    """About `count` round tick values (1, 2 or 5 times a power of ten apart) inside [low, high]."""
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step) * step
    return [round(first + i * step, 10) for i in range(count + 2) if first + i * step <= high + step * 1e-9]


def panel(name: str, entry: dict[str, Any], left: float) -> list[str]:
    """The SVG elements of one rule-set's panel, its plotting square starting at x = `left`."""
    rows = entry["deciles"]
    values = [r["predicted"] for r in rows] + [r["low"] for r in rows] + [r["high"] for r in rows]
    low, high = nice_range(values)
    top = TITLE + 8

    def x(v: float) -> float:
        return left + (v - low) / (high - low) * PANEL

    def y(v: float) -> float:
        return top + PANEL - (v - low) / (high - low) * PANEL

    calibrated = sum(1 for r in rows if r["calibrated"])
    out = [f'<text x="{left + PANEL / 2:.1f}" y="{TITLE - 8}" text-anchor="middle" font-weight="bold">'
           f'{escape(name)}: {calibrated} of {len(rows)} deciles calibrated</text>',
           f'<rect x="{left}" y="{top}" width="{PANEL}" height="{PANEL}" fill="none" stroke="#999"/>',
           f'<line x1="{x(low):.1f}" y1="{y(low):.1f}" x2="{x(high):.1f}" y2="{y(high):.1f}" stroke="#bbb" '
           f'stroke-dasharray="4 3"/>']
    for t in ticks(low, high):
        out.append(f'<text x="{x(t):.1f}" y="{top + PANEL + 14}" text-anchor="middle" font-size="10">{t:g}</text>')
        out.append(f'<text x="{left - 4}" y="{y(t) + 3:.1f}" text-anchor="end" font-size="10">{t:g}</text>')
    for r in rows:
        colour = "#1f6fb2" if r["calibrated"] else "#c0392b"
        cx = x(r["predicted"])
        out.append(f'<line x1="{cx:.1f}" y1="{y(r["low"]):.1f}" x2="{cx:.1f}" y2="{y(r["high"]):.1f}" '
                   f'stroke="{colour}" stroke-width="2"/>')
        out.append(f'<circle cx="{cx:.1f}" cy="{y(r["realised"]):.1f}" r="3.5" fill="{colour}">'
                   f'<title>predicted {r["predicted"]:+.3f}, realised {r["realised"]:+.3f} '
                   f'[{r["low"]:+.3f}, {r["high"]:+.3f}], {r["decisions"]} decisions</title></circle>')
    unit = "win probability" if objective(name) == "win_probability" else "points"
    out.append(f'<text x="{left + PANEL / 2:.1f}" y="{top + PANEL + 32}" text-anchor="middle" font-size="11">'
               f'predicted ({unit}); {sum(r["decisions"] for r in rows):,} decisions</text>')
    out.append(f'<text x="{left - 34}" y="{top + PANEL / 2:.1f}" text-anchor="middle" font-size="11" '
               f'transform="rotate(-90 {left - 34} {top + PANEL / 2:.1f})">realised, 95% interval</text>')
    return out


def svg(found: dict[str, Any]) -> str:
    """The whole plot: one panel per entry of `found` that has deciles, side by side."""
    entries = [(name, entry) for name, entry in found.items() if isinstance(entry, dict) and entry.get("deciles")]
    if not entries:
        raise ValueError("no calibration with deciles to plot")
    width = MARGIN + len(entries) * (PANEL + MARGIN + GAP)
    # the legend wrapped to the plot's width: one panel needs three lines
    legend = textwrap.wrap("dot: realised mean of a decile of predictions; bar: its 95% interval; dashed: predicted "
                           "= realised; red: neither inside the interval nor within 10% of the value range",
                           int((width - MARGIN - 8) / CHAR))
    height = TITLE + 8 + PANEL + 46 + LINE * len(legend)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">', f'<rect width="{width}" height="{height}" fill="white"/>']
    for i, (name, entry) in enumerate(entries):
        parts.extend(panel(name, entry, MARGIN + i * (PANEL + MARGIN + GAP)))
    first = height - 6 - LINE * (len(legend) - 1)
    parts.extend(f'<text x="{MARGIN}" y="{first + LINE * i}" font-size="10">{escape(line)}</text>'
                 for i, line in enumerate(legend))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> int:
    """Read the calibration JSON files (paths, or - for standard input) and write one SVG of all their rule-sets."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("calibration", nargs="+",
                        help="what bench/calibration.py --json printed (- for standard input); several files give "
                             "one panel per rule-set of each, in order (a rule-set in two files: the last one's)")
    parser.add_argument("out", help="SVG file to write")
    args = parser.parse_args()
    found: dict[str, Any] = {}
    for name in args.calibration:
        text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
        found.update(json.loads(text))
    Path(args.out).write_text(svg(found), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
