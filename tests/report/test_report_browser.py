"""Every kind of report.html (local/report_gallery.py) and RESULTS.html rendered in headless
Chromium (Debian's `chromium`, driven over the DevTools protocol on a pipe: local/chromium.py):
no page error, no request but the page itself, the score lines as the score files print them,
the timeline drawing the chosen recording's tiers (counted again here from the inputs), tables
that sort and filter. Skipped when no chromium is installed (.ci/run installs it when it can)."""
from __future__ import annotations

import csv
import json
import os

import pytest

from tests.report.conftest import local_module

chromium = local_module("chromium")
pytestmark = pytest.mark.skipif(chromium.binary() is None, reason="no chromium (apt-get install chromium)")

PAGES = ("tde", "tde_zr2017", "std", "kws", "quesst", "textseg", "units", "discophon")


@pytest.fixture(scope="module")
def browser():
    with chromium.Chromium() as b:
        yield b


def js(page, expression: str):
    return json.loads(page.eval(f"JSON.stringify({expression})"))


def opened(browser, path: str):
    page = browser.open(path)
    assert page.errors() == []
    assert page.requests() == ["file://" + os.path.abspath(path)]       # nothing leaves the file
    return page


def line(cells: list[str], tab: bool) -> str:
    """A score line from its cells (a tool's `name<TAB>value` line: wordseg-eval's)."""
    name, value, support, ci = cells + [""] * (4 - len(cells))
    if tab:
        return f"{name}\t{value}"
    return f"{name} {value}" + (f" [ {support} ]" if support else "") + (f" {ci}" if ci else "")


@pytest.mark.parametrize("name", PAGES)
def test_page_loads_alone_and_shows_the_score_files(browser, gallery, name):
    exp = os.path.join(gallery, "exp", name)
    page = opened(browser, os.path.join(exp, "report.html"))
    shown = js(page, "[...document.querySelectorAll('table.te-score')].map(t => [t.dataset.file, "
                     "[...t.tBodies[0].rows].map(r => [[...r.cells].map(c => c.textContent), "
                     "r.classList.contains('te-tab')])])")
    files = sorted(f"scores/{f}" for f in os.listdir(os.path.join(exp, "scores"))
                   if not f.startswith(".") and f != "scores.json")
    assert sorted(rel for rel, _ in shown) == files
    for rel, rows in shown:
        with open(os.path.join(exp, rel), encoding="utf-8") as f:
            assert [line(r, tab) for r, tab in rows] == f.read().splitlines(), rel
    assert js(page, "document.querySelectorAll('svg.te-plot').length") >= (0 if name in ("kws", "textseg") else 1)
    drawn_now = js(page, "document.querySelectorAll('div.te-timeline svg.te-tl-svg').length")
    assert drawn_now == len(js(page, "termevalTimeline.sections()")) and (drawn_now > 0) == (name not in ("quesst", "textseg"))
    page.close()


def _overlapping(rows, a: float, b: float) -> int:
    """Items [s, e] drawn in the view [a, b] (the page's rule: e >= a and s <= b)."""
    return sum(1 for s, e in rows if e >= a and s <= b)


def _gold(path: str, rec: str) -> list[tuple[float, float]]:
    with open(path, encoding="utf-8") as f:
        return [(float(x[1]), float(x[2])) for x in (line.split() for line in f) if x[0] == rec]


def _fragments(path: str, rec: str) -> list[tuple[float, float]]:
    with open(path, encoding="utf-8") as f:
        return [(float(x[1]), float(x[2])) for x in (line.split() for line in f) if len(x) == 3 and x[0] == rec]


def drawn(page, section: str, rec: str, a: float, b: float) -> dict[str, int]:
    assert page.eval(f"termevalTimeline.show({json.dumps(section)}, {json.dumps(rec)}, {a}, {b}) !== null")
    svg = f"#sec-{section} svg.te-tl-svg"
    assert page.eval(f"document.querySelector('{svg}').dataset.recording") == rec
    tiers = js(page, f"[...document.querySelectorAll('{svg} g.te-tier')].map(g => "
                     "[g.dataset.tier, +g.dataset.n, g.querySelectorAll('.te-item').length])")
    assert all(n == items for _, n, items in tiers)
    assert page.errors() == []
    return {t: n for t, n, _ in tiers}


def test_timelines_draw_the_chosen_recording(browser, gallery):
    data = os.path.join(gallery, "data")
    phones, words = _gold(f"{data}/example/phones", "s01-r02"), _gold(f"{data}/example/words", "s01-r02")
    frags = _fragments(f"{data}/local/example/classes/example.classes", "s01-r02")
    page = opened(browser, os.path.join(gallery, "exp", "tde", "report.html"))
    got = drawn(page, "zrc2020", "s01-r02", 2, 7)
    assert got["phones"] == _overlapping(phones, 2, 7) > 10
    assert got["words"] == _overlapping(words, 2, 7) > 5
    assert got["fragments"] == _overlapping(frags, 2, 7) > 3
    assert got["boundary hits"] > 0 and got["boundary errors"] > 0
    got = drawn(page, "segmentation", "s01-r02", 0, 100)
    assert got["words (gold)"] == len(words) and got["segments"] == len(frags) and got["phones (gold)"] == len(phones)
    page.close()


def test_std_timeline_draws_each_keyword_outcome(browser, gallery):
    exp = os.path.join(gallery, "exp", "std")
    with open(os.path.join(exp, "details", "alignment.csv"), encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["file"] == "doc04"]
    hits = [(float(r["sys_bt"]), float(r["sys_et"])) for r in rows if r["alignment"] == "CORR"]
    fas = [(float(r["sys_bt"]), float(r["sys_et"])) for r in rows if r["alignment"] == "FA"]
    # MISS: an occurrence no detection is aligned to, or one aligned to a NO detection (CORR!DET: a
    # NO detection aligned to nothing, a correct reject, is not drawn)
    misses = [(float(r["ref_bt"]), float(r["ref_et"])) for r in rows if r["alignment"] == "MISS"]
    with open(os.path.join(gallery, "data", "local", "example_std", "kws", "rttm"), encoding="utf-8") as f:
        words = [(float(x[3]), float(x[3]) + float(x[4])) for x in (line.split() for line in f)
                 if x and x[0] == "LEXEME" and x[1] == "doc04"]
    page = opened(browser, os.path.join(exp, "report.html"))
    got = drawn(page, "std", "doc04", 0, 1000)
    assert got == {"words (reference)": len(words), "hits": len(hits), "false alarms": len(fas), "misses": len(misses)}
    assert got["hits"] > 5 and got["misses"] > 0
    got = drawn(page, "std", "doc04", 60, 85)
    assert got["hits"] == _overlapping(hits, 60, 85) and got["words (reference)"] == _overlapping(words, 60, 85)
    page.close()


def test_zr2017_and_kaldi_timelines(browser, gallery):
    page = opened(browser, os.path.join(gallery, "exp", "tde_zr2017", "report.html"))
    got = drawn(page, "zr2017", "s01-r02", 0, 100)
    assert got["boundary hits"] > 0 and got["boundary errors"] > 0 and got["fragments"] > 3
    page.close()
    exp = os.path.join(gallery, "exp", "kws")
    with open(os.path.join(exp, "details", "alignment.csv"), encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["file"] == "8"]          # utt.map: s02-r02 8
    with open(os.path.join(gallery, "data", "example_kws", "kws", "rttm"), encoding="utf-8") as f:
        words = [x for x in (line.split() for line in f) if x and x[0] == "LEXEME" and x[1] == "s02-r02"]
    page = opened(browser, os.path.join(exp, "report.html"))
    got = drawn(page, "std", "s02-r02", 0, 1000)
    assert got == {"words (reference)": len(words), "hits": sum(r["alignment"] == "CORR" for r in rows),
                   "false alarms": sum(r["alignment"] == "FA" for r in rows),
                   "misses": sum(r["alignment"] == "MISS" for r in rows)}
    assert got["hits"] > 0 and got["misses"] > 0
    page.close()


def _tsv(path: str) -> dict[str, dict[str, str]]:
    with open(path, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    return {r[0]: dict(zip(rows[0], r)) for r in rows[1:]}


def test_units_pages(browser, gallery):
    """score_units: the heatmap's rows are the phones seen, its columns the units seen; the
    timeline's boundary marks are the file's counts of per_utterance.tsv. score_discophon: a
    heatmap per pair, the recordings of both pairs in turn."""
    exp = os.path.join(gallery, "exp", "units")
    page = opened(browser, os.path.join(exp, "report.html"))
    per_phone = _tsv(os.path.join(exp, "details", "units", "per_phone.tsv"))
    mapping = _tsv(os.path.join(exp, "details", "units", "mapping.tsv"))
    heat = js(page, "[...document.querySelectorAll('#sec-units svg.te-heatmap')].map(s => [+s.dataset.rows, "
                    "+s.dataset.columns, +s.dataset.cells])")
    assert heat == [[sum(int(r["frames"]) > 0 for r in per_phone.values()), len(mapping), heat[0][2]]] and heat[0][2] > 100
    r = _tsv(os.path.join(exp, "details", "units", "per_utterance.tsv"))["s01-r02"]
    got = drawn(page, "units", "s01-r02", 0, 100)
    with open(os.path.join(gallery, "data", "local", "example_units", "units.txt"), encoding="utf-8") as f:
        u = next(x[1:] for x in (line.split() for line in f) if x[0] == "s01-r02")
    assert got["units"] == sum(1 for i, x in enumerate(u) if i == 0 or x != u[i - 1])
    hits, errors = int(r["bnd_hit"]), int(r["bnd_ref"]) + int(r["bnd_pred"]) - 2 * int(r["bnd_hit"])
    assert got["boundary hits"] == hits > 0 and got["boundary errors"] == errors > 0
    assert got["phones (gold)"] > 50 and got["phones (mapped units)"] > 50
    page.close()
    page = opened(browser, os.path.join(gallery, "exp", "discophon", "report.html"))
    assert js(page, "document.querySelectorAll('svg.te-heatmap').length") == 2
    names = js(page, "termevalTimeline.show('discophon', 'eng-dev/s01-r01', 0, 5) && "
                     "[...document.querySelectorAll('#sec-discophon select.te-tl-file option')].map(o => o.textContent)")
    assert names[:4] == ["eng-dev/s01-r01", "eng-test/s03-r01", "eng-dev/s01-r02", "eng-test/s03-r02"]
    r = _tsv(os.path.join(gallery, "exp", "discophon", "details", "discophon", "eng-test", "per_utterance.tsv"))["s03-r01"]
    got = drawn(page, "discophon", "eng-test/s03-r01", 0, 100)
    assert got["boundary hits"] == int(r["bnd_hit"]) > 0
    page.close()


def test_compare_page(browser, gallery):
    """compare_systems: a forest plot per headline metric, the table's numbers as scores/compare prints them."""
    out = os.path.join(gallery, "cmp", "compare")
    page = opened(browser, os.path.join(out, "report.html"))
    with open(os.path.join(out, "scores", "compare"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    rows = js(page, "[...document.querySelectorAll('#sec-compare table.te-data tbody tr')].map(r => "
                    "[...r.cells].map(c => c.textContent))")
    # `metric sys-base diff ci95 lo hi p P [ ... ]`
    assert [" ".join([m, f"{s}-{b}", d, "ci95", lo, hi, "p", p]) for m, s, b, _, _, d, lo, hi, p, _ in rows] == \
        [x.split(" [ ")[0] for x in lines]
    assert js(page, "document.querySelectorAll('#sec-compare svg.te-plot').length") == 6
    page.close()


def test_tables_sort_and_filter(browser, gallery):
    page = opened(browser, os.path.join(gallery, "exp", "tde", "report.html"))
    table = "document.querySelector('table.te-data[data-source=\"details/per_file.tsv\"]')"
    k = js(page, f"[...{table}.tHead.rows[0].cells].map(c => c.textContent)").index("coverage")
    page.eval(f"{table}.tHead.rows[0].cells[{k}].click()")
    values = js(page, f"[...{table}.tBodies[0].rows].map(r => +r.cells[{k}].textContent)")
    assert values == sorted(values) and len(values) == 25
    page.eval(f"{table}.tHead.rows[0].cells[{k}].click()")
    assert js(page, f"[...{table}.tBodies[0].rows].map(r => +r.cells[{k}].textContent)") == sorted(values)[::-1]
    box = f"{table}.closest('details').querySelector('input.te-filter')"
    page.eval(f"{box}.value = 's02-'; {box}.dispatchEvent(new Event('input'))")
    assert sorted(js(page, f"[...{table}.tBodies[0].rows].filter(r => !r.classList.contains('te-hidden'))"
                           ".map(r => r.cells[0].textContent)")) == [f"s02-r0{i}" for i in range(1, 7)]
    assert page.errors() == []
    page.close()


def test_results_page_links_every_report(browser, gallery):
    path = os.path.join(gallery, "RESULTS.html")
    page = opened(browser, path)
    links = js(page, "[...document.querySelectorAll('table.te-results td:first-child > a')].map(a => a.getAttribute('href'))")
    assert links and [h for h in links if not os.path.isfile(os.path.join(gallery, h))] == []
    assert {os.path.dirname(h) for h in links} == {f"exp/{n}" for n in PAGES}
    ned = js(page, "[...document.querySelectorAll('td[data-metric=ned]')].map(c => c.firstChild.textContent)")
    with open(os.path.join(gallery, "exp", "tde", "scores", "scores.json"), encoding="utf-8") as f:
        s = json.load(f)
    assert ned == [f"{s['ned']:.4f} [{s['ci']['ned']['lo']:.4f}, {s['ci']['ned']['hi']:.4f}]"]
    assert js(page, "document.querySelectorAll('svg.te-cibar').length") > 10
    page.close()
