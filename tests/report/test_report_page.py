"""report.html without a browser: what --report false leaves as it was (every score and details
file byte for byte), the sections a page keeps when stages share an exp dir, its size bound,
the refused --textgrids, and the writers' edge cases (escaping, the timeline's item budget,
plots and heatmaps of degenerate data)."""
from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import termeval
from termeval.report import page, svg, textgrid, timeline

MAX_BYTES = 3 * 1024 * 1024


def files(d: str) -> dict[str, bytes]:
    out = {}
    for r, _, fs in os.walk(d):
        for f in fs:
            rel = os.path.relpath(os.path.join(r, f), d)
            if f == "report.html" or rel.startswith("log") or "/textgrids/" in rel or f.endswith(".pdf"):   # a PDF: its date
                continue
            data = open(os.path.join(r, f), "rb").read()
            if f == "scores.json":        # the run's date
                data = json.dumps({k: v for k, v in json.loads(data).items() if k != "stages"}).encode()
            out[rel] = data
    return out


def sections(exp) -> list[str]:
    with open(os.path.join(exp, "report.html"), encoding="utf-8") as f:
        return [p.sid for p in page.parse(f.read())]


@pytest.fixture(scope="module")
def inputs(gallery):
    d = os.path.join(gallery, "data")
    return f"{d}/example", f"{d}/local/example/classes/example.classes", f"{d}/local/example_std"


def test_report_false_changes_no_score_file(inputs, gallery, tmp_path):
    """--report true/false, --textgrids true: every score and details file the same, byte for byte
    (term discovery, segmentation, term detection, keyword search, units, DiscoPhon, a comparison)."""
    gold, classes, std = inputs
    d = os.path.join(gallery, "data")
    u, kws, cmp = f"{d}/local/example_units", f"{d}/example_kws/kws", os.path.join(gallery, "cmp")
    runs = {"on": {}, "off": {"report": False}, "grids": {"textgrids": True}}
    for name, shown in runs.items():
        exp = tmp_path / name / "exp"        # one name: the plots' titles name the system
        termeval.score_tde(gold, classes, bootstrap=20, exp_dir=exp, **shown)
        termeval.score_segmentation(gold, classes, exp_dir=exp, **shown)
        termeval.score_std(f"{std}/kws", f"{std}/detections.stdlist.xml", exp_dir=exp / "std", **shown)
        termeval.score_std(kws, f"{d}/example_kws/results", compat="kaldi", exp_dir=exp / "kws", **shown)
        termeval.score_units(gold, f"{u}/units.txt", off_grid="centre", exp_dir=exp / "units", **shown)
        if "textgrids" not in shown:
            termeval.score_discophon(f"{u}/discophon/dataset", f"{u}/discophon/predictions", exp_dir=exp / "dp",
                                     **shown)
            termeval.compare_systems([f"{cmp}/a", f"{cmp}/b"], out_dir=exp / "cmp", bootstrap=20, plot=False, **shown)
        wrote = shown.get("report", True)
        for sub in ("", "std", "kws", "units"):
            assert (exp / sub / "report.html").is_file() == wrote
            assert (exp / sub / "details" / "textgrids").is_dir() == ("textgrids" in shown)
    on, off, grids = (files(tmp_path / name / "exp") for name in runs)
    assert sorted(on) == sorted(off) and len(on) > 40
    assert on == off and {k: v for k, v in on.items() if not k.startswith(("dp/", "cmp/"))} == grids


def test_sections_of_a_shared_exp_dir(inputs, tmp_path):
    """A stage replaces its own section and keeps those whose score files survive its run."""
    gold, classes, _ = inputs
    exp = tmp_path / "exp"
    termeval.score_tde(gold, classes, exp_dir=exp)
    termeval.score_segmentation(gold, classes, exp_dir=exp)
    assert sections(exp) == ["zrc2020", "segmentation"]
    termeval.score_segmentation(gold, classes, tolerance=0.03, exp_dir=exp)        # its own section replaced
    html = (exp / "report.html").read_text()
    assert sections(exp) == ["zrc2020", "segmentation"] and "0.03" in html
    termeval.score_segmentation(gold, classes, exp_dir=exp, report=False)         # its section dropped
    assert sections(exp) == ["zrc2020"]
    termeval.score_segmentation(gold, classes, exp_dir=exp)
    termeval.score_tde(gold, classes, exp_dir=exp)    # zrc2020 replaces scores/ whole: segmentation's is gone
    assert sections(exp) == ["zrc2020"] and not (exp / "scores" / "segmentation").exists()
    termeval.score_tde(gold, classes, exp_dir=exp, report=False)
    assert not (exp / "report.html").exists()


def test_pages_are_small_and_load_nothing(gallery):
    pages = [os.path.join(gallery, "exp", n, "report.html") for n in os.listdir(os.path.join(gallery, "exp"))]
    pages += [os.path.join(gallery, "RESULTS.html"), os.path.join(gallery, "cmp", "compare", "report.html")]
    for p in pages:
        text = open(p, encoding="utf-8").read()
        assert os.path.getsize(p) <= MAX_BYTES
        assert f'content="{page.CSP}"' in text and "default-src 'none'" in text
        # no URL the page could load: no src=, no link element, no url() in its style
        assert not re.search(r"\bsrc=|<link\b|url\(|@import", text), p


def test_textgrids_where_there_is_no_timeline_are_refused(gallery):
    q = os.path.join(gallery, "data", "local", "example_quesst")
    with pytest.raises(termeval.InputError, match=r"^textgrids=True: this step has no timeline"):
        termeval.score_quesst(f"{q}/kws", f"{q}/quesst.stdlist.xml", textgrids=True)
    u = os.path.join(gallery, "data", "local", "example_units", "discophon")
    with pytest.raises(termeval.InputError, match=r"^textgrids=True: score_discophon keeps the first"):
        termeval.score_discophon(f"{u}/dataset", f"{u}/predictions", textgrids=True)
    cmp = os.path.join(gallery, "cmp")
    with pytest.raises(termeval.InputError, match=r"^textgrids=True: a comparison has no recordings"):
        termeval.compare_systems([f"{cmp}/a", f"{cmp}/b"], textgrids=True)
    gold = os.path.join(gallery, "data", "example")
    with pytest.raises(termeval.InputError, match=r"^report_files: must be an integer >= 0"):
        termeval.score_tde(gold, gold + "/x", report_files=-1)


def _rec(n: int) -> timeline.Recording:
    t = np.arange(n, dtype=float)
    return timeline.Recording("a</script><b>", 0.0, float(n), [
        timeline.Tier("phones", t, t + 1, ["x"] * n),
        timeline.Tier("marks", t + 0.5, None, np.array(['"q"&<'] * n, dtype=object), colour="status")])


def test_timeline_budget_and_escaping():
    data = timeline.page_data([_rec(100), _rec(100), _rec(100)], budget=250)
    recs = data["recordings"]
    assert [len(r["tiers"][0]["t"]) + len(r["tiers"][1]["t"]) for r in recs] == [200, 50]
    assert recs[1]["cut"] == 24.5 and "cut" not in recs[0]
    start, end, label = timeline.decoded(recs[1]["tiers"][0])
    assert start == list(range(25)) and end == list(range(1, 26)) and label == ["x"] * 25
    start, end, label = timeline.decoded(recs[1]["tiers"][1])
    assert start == [i + 0.5 for i in range(25)] and end is None and label == ['"q"&<'] * 25
    html = page.json_script(data, "te-tl-data")
    assert "</script" not in html[:-len("</script>")] and "<b>" not in html
    assert json.loads(html[html.index(">") + 1:-len("</script>")]) == data


def test_textgrid_of_overlapping_intervals_and_odd_names():
    rec = timeline.Recording("a/b c", 0.0, 4.0, [
        timeline.Tier("frag", np.array([0.5, 1.0, 1.5, 3.0, 3.0]), np.array([2.0, 2.5, 1.5, 3.5, 3.5]),
                      ['a"b', "c", "zero", "d", "e"], colour="class"),
        timeline.Tier("err", np.array([1.0, 1.0, 2.0]), None, ["missed", "spurious", "hit"], colour="status")])
    text = textgrid.text_of(rec)
    assert textgrid.file_name(rec.name) == "a_b_c.TextGrid"
    names = re.findall(r'name = "(.*)"', text)
    assert names == ["frag", "frag 2", "err"]          # 0.5-2, 3-3.5 | 1-2.5, 3-3.5
    assert 'text = "a""b"' in text and '"zero"' not in text         # quotes doubled; zero-length left out
    assert 'mark = "missed+spurious"' in text


@pytest.mark.parametrize("series", [
    [{"name": "det", "x": [0.0, 0.0, 1.0], "y": [1.0, 0.0, 0.0]}],
    [{"name": "nan", "x": [float("nan"), 1.0], "y": [None, 2.0]}],
    [{"name": "one", "x": [0.3], "y": [0.3]}]])
def test_plots_of_degenerate_data(series):
    for scale in ("linear", "probit"):
        out = svg.lines(series, "t<", "x", "y", scale, scale, [{"name": "m", "x": 0.0, "y": 1.0}])
        ET.fromstring(out)
    ET.fromstring(svg.bars(["a", "b&"], {"v": [None, 0.5], "w": [float("inf"), -1.0]}, "t", "y"))
    ET.fromstring(svg.forest([("a", 0.5, None, None), ("b", 0.2, 0.1, 0.3)], "t", "x", zero=True))
    assert svg.lines([{"name": "e", "x": [], "y": []}], "t", "x", "y") == ""
    assert svg.forest([("a", float("nan"), 0, 1)], "t") == ""
    assert svg.heatmap(np.zeros((0, 3)), [], ["a", "b", "c"], "t") == ""
    heat = ET.fromstring(svg.heatmap([[float("nan"), 0.004, 1.0], [0.5, 0.5, 0.0]], ["x<", "y"], ["1", "2", "3"], "t"))
    assert heat.get("data-cells") == "3"            # NaN and < 0.005 left blank
    assert len(heat.findall("{http://www.w3.org/2000/svg}g/{http://www.w3.org/2000/svg}path")) == 2   # levels 5, 9
