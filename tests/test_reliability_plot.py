"""bench/reliability.py: the reliability plot the README shows is drawn from the calibration's own deciles."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SVG = "{http://www.w3.org/2000/svg}"


def reliability():
    """The bench script as a module."""
    spec = importlib.util.spec_from_file_location("reliability", ROOT / "bench" / "reliability.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def decile(predicted: float, realised: float, half: float, calibrated: bool) -> dict:
    return {"decisions": 100, "predicted": predicted, "realised": realised, "low": realised - half,
            "high": realised + half, "inside": calibrated, "near": False, "calibrated": calibrated}


def test_one_dot_per_decile_red_where_not_calibrated():
    """Two panels (one per rule-set), a dot and an interval bar per decile; the dot of the decile that is not
    calibrated is red and the panel title counts the calibrated ones; each dot sits higher the higher its
    realised mean (SVG y grows downwards); each axis label gives the panel's unit and its decisions."""
    found = {"bga-taiwan": {"deciles": [decile(-3, -3.1, 0.2, True), decile(0, 0.1, 0.3, True),
                                        decile(6, 7.5, 0.4, False)]},
             "cardavia-flowers": {"deciles": [decile(0.1, 0.1, 0.01, True), decile(0.5, 0.49, 0.02, True)]}}
    root = ET.fromstring(reliability().svg(found))
    circles = root.findall(f"{SVG}circle")
    assert len(circles) == 5
    assert [c.get("fill") for c in circles[:3]] == ["#1f6fb2", "#1f6fb2", "#c0392b"]
    ys = [float(c.get("cy")) for c in circles[:3]]
    assert ys[0] > ys[1] > ys[2]
    titles = [t.text for t in root.findall(f"{SVG}text") if t.text and "deciles calibrated" in t.text]
    assert titles == ["bga-taiwan: 2 of 3 deciles calibrated", "cardavia-flowers: 2 of 2 deciles calibrated"]
    labels = [t.text for t in root.findall(f"{SVG}text") if t.text and t.text.startswith("predicted (")]
    assert labels == ["predicted (points); 300 decisions", "predicted (win probability); 200 decisions"]


def test_several_calibration_files_make_one_plot_in_their_order(tmp_path):
    """Run as a script on two files (as two rule-sets measured apart): one SVG with a panel per rule-set, in the
    order of the files."""
    flowers, chan = tmp_path / "flowers.json", tmp_path / "chan.json"
    flowers.write_text(json.dumps({"cardavia-flowers": {"deciles": [decile(0.1, 0.1, 0.01, True)] * 10}}))
    chan.write_text(json.dumps({"cardavia-chan": {"deciles": [decile(-2, -5, 0.1, False)] * 10}}))
    out = tmp_path / "plot.svg"
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "reliability.py"), str(flowers), str(chan), str(out)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    root = ET.parse(out).getroot()
    assert len(root.findall(f"{SVG}circle")) == 20
    titles = [t.text for t in root.findall(f"{SVG}text") if t.text and "deciles calibrated" in t.text]
    assert titles == ["cardavia-flowers: 10 of 10 deciles calibrated", "cardavia-chan: 0 of 10 deciles calibrated"]


def test_ticks_are_round_and_inside():
    """Tick values are 1, 2 or 5 times a power of ten apart and lie in the range."""
    module = reliability()
    assert module.ticks(-3.4, 8.1) == [-2.0, 0.0, 2.0, 4.0, 6.0, 8.0]
    assert module.ticks(0.0, 0.7) == [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]


def test_the_shipped_plot_exists_and_the_readme_shows_it():
    """The README shows docs/img/calibration.svg, a valid SVG of three panels of ten deciles."""
    assert "docs/img/calibration.svg" in (ROOT / "README.md").read_text(encoding="utf-8")
    root = ET.parse(ROOT / "docs" / "img" / "calibration.svg").getroot()
    assert len(root.findall(f"{SVG}circle")) == 30


def test_every_reliability_plot_the_documents_show_is_a_whole_svg():
    """Each docs/img SVG the README or docs/advice.md shows parses, and has ten dots per panel (one per decile)."""
    texts = [(ROOT / name).read_text(encoding="utf-8") for name in ("README.md", "docs/advice.md")]
    shown = sorted({found for text in texts for found in re.findall(r"\((?:docs/)?img/([\w-]+\.svg)\)", text)})
    char = reliability().CHAR
    assert "calibration.svg" in shown and "search-calibration-chan.svg" in shown
    for name in shown:
        root = ET.parse(ROOT / "docs" / "img" / name).getroot()
        panels = [t for t in root.findall(f"{SVG}text") if t.text and "deciles calibrated" in t.text]
        assert panels and len(root.findall(f"{SVG}circle")) == 10 * len(panels), name
        width = float(root.get("width"))
        for t in root.findall(f"{SVG}text"):  # the legend (10 px) stays on the plot
            if t.get("font-size") == "10":
                assert float(t.get("x")) + char * len(t.text) <= width, (name, t.text)
