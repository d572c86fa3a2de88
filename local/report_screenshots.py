#!/usr/bin/env python3
"""The screenshots of docs/report.md: every kind of report.html of local/report_gallery.py,
rendered by headless Chromium (local/chromium.py; Debian's `chromium`), as small PNGs.

Usage: local/report_screenshots.py [--out docs/report] <work-dir>
 e.g.: local/report_screenshots.py /tmp/gallery        # builds the gallery there if needed

A shot is the top of a page (its header, scores and settings) or one element of it (a
timeline after choosing a recording and a time range, the plots); each is written as a PNG with
a 256-colour palette when Pillow is there (matplotlib's dependency), to stay small.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import chromium  # noqa: E402  (local/chromium.py, beside this script)
import report_gallery  # noqa: E402

# (png name, page under the work dir, CSS selector of the element shot (None: the page's top, 
# `height` pixels), JavaScript run first)
SHOTS = (
    ("tde.png", "exp/tde/report.html", None, 980, ""),
    ("tde-plots.png", "exp/tde/report.html", "#sec-zrc2020 .te-plots", 0, ""),
    ("tde-timeline.png", "exp/tde/report.html", "#sec-zrc2020 .te-timeline", 0,
     "termevalTimeline.show('zrc2020', 's01-r02', 2, 7)"),
    ("tde-tables.png", "exp/tde/report.html", "#sec-zrc2020 .te-table", 0,
     "document.querySelector('#sec-zrc2020 .te-filter').value = 'OW';"
     "document.querySelector('#sec-zrc2020 .te-filter').dispatchEvent(new Event('input'));"
     "document.querySelectorAll('#sec-zrc2020 table.te-data')[0].tHead.rows[0].cells[4].click()"),
    ("segmentation-timeline.png", "exp/tde/report.html", "#sec-segmentation .te-timeline", 0,
     "termevalTimeline.show('segmentation', 's01-r02', 2, 7)"),
    ("zr2017.png", "exp/tde_zr2017/report.html", None, 820, ""),
    ("std.png", "exp/std/report.html", None, 900, ""),
    ("std-plots.png", "exp/std/report.html", "#sec-std .te-plots", 0, ""),
    ("std-timeline.png", "exp/std/report.html", "#sec-std .te-timeline", 0,
     "termevalTimeline.show('std', 'doc04', 60, 85)"),
    ("kws.png", "exp/kws/report.html", None, 760, ""),
    ("quesst.png", "exp/quesst/report.html", None, 900, ""),
    ("textseg.png", "exp/textseg/report.html", None, 700, ""),
    ("units.png", "exp/units/report.html", None, 760, ""),
    ("units-confusion.png", "exp/units/report.html", "#sec-units .te-heatmap", 0, ""),
    ("units-timeline.png", "exp/units/report.html", "#sec-units .te-timeline", 0,
     "termevalTimeline.show('units', 's01-r02', 2, 4)"),
    ("discophon.png", "exp/discophon/report.html", "#sec-discophon .te-plots", 0, ""),
    ("zr2017-timeline.png", "exp/tde_zr2017/report.html", "#sec-zr2017 .te-timeline", 0,
     "termevalTimeline.show('zr2017', 's01-r02', 2, 7)"),
    ("kws-timeline.png", "exp/kws/report.html", "#sec-std .te-timeline", 0,
     "termevalTimeline.show('std', 's02-r02', 8, 14)"),
    ("compare.png", "cmp/compare/report.html", "#sec-compare", 0, ""),
    ("results.png", "RESULTS.html", None, 900, ""),
)
WIDTH = 1200


def small_png(path: str) -> None:
    """The PNG with a 256-colour palette (a screenshot of flat colours loses nothing visible)."""
    try:
        from PIL import Image    # Pillow: optional, only to shrink the files
    except ImportError:
        return
    with Image.open(path) as im:
        im.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def shoot(browser: chromium.Chromium, work: str, out: str, shot: tuple) -> str:
    name, page, selector, height, js = shot
    p = browser.open(os.path.join(work, page), width=WIDTH, height=max(height, 600))
    if js:
        p.eval(js)
    errors = p.errors()
    if errors:
        raise SystemExit(f"{page}: {errors}")
    path = os.path.join(out, name)
    if selector is None:
        p.screenshot(path, {"x": 0, "y": 0, "width": WIDTH, "height": height})
    else:
        r = json.loads(p.eval(f"JSON.stringify(document.querySelector({json.dumps(selector)})"
                              ".getBoundingClientRect())"))
        y = r["y"] + p.eval("window.scrollY")
        p.screenshot(path, {"x": max(r["x"] - 4, 0), "y": max(y - 4, 0), "width": min(r["width"] + 8, WIDTH),
                            "height": r["height"] + 8})
    p.close()
    small_png(path)
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(HERE), "docs", "report"))
    ap.add_argument("work_dir")
    a = ap.parse_args()
    if not os.path.isfile(os.path.join(a.work_dir, "RESULTS.html")):
        report_gallery.score(a.work_dir)
    os.makedirs(a.out, exist_ok=True)
    with chromium.Chromium() as b:
        for shot in SHOTS:
            path = shoot(b, a.work_dir, a.out, shot)
            print(f"{path}: {os.path.getsize(path) // 1024} KB")


if __name__ == "__main__":
    main()
