"""--textgrids true (term discovery, segmentation, term detection, keyword search, units): the
TextGrids of the gallery (local/report_gallery.py) read back with the `textgrid` package (and
termeval's own reader), their tiers checked against the inputs, and their hits and errors summed
over the recordings against the counts of the score files; steps sharing an exp dir share its
TextGrids."""
from __future__ import annotations

import collections
import glob
import json
import os

import numpy as np
import pytest

import termeval
from termeval.gold.textgrid import parse_textgrid
from termeval.report import textgrid as report_textgrid, timeline

textgrid = pytest.importorskip("textgrid")
DIGITS = 12


def read(path: str, stage: str | None = None) -> dict[str, list]:
    """tier name -> [(xmin, xmax, text)] of its non-empty intervals, or [(time, mark)] of its
    points; with `stage`, its tiers only (named `<stage>: <tier>`), by their own name."""
    tg = textgrid.TextGrid()
    tg.read(path, round_digits=DIGITS)
    out = {}
    for tier in tg:
        name = tier.name
        if stage is not None:
            if not name.startswith(stage + ": "):
                continue
            name = name[len(stage) + 2:]
        if isinstance(tier, textgrid.IntervalTier):
            out[name] = [(iv.minTime, iv.maxTime, iv.mark) for iv in tier if iv.mark != ""]
        else:
            out[name] = [(p.time, p.mark) for p in tier]
    return out


def lanes(tiers: dict, name: str) -> list:
    """The intervals of a tier written in lanes (`name`, `name 2`, ...), sorted."""
    return sorted(x for k, v in tiers.items() if k == name or k.startswith(name + " ") and k[len(name) + 1:].isdigit()
                  for x in v)


def gold(path: str) -> dict[str, list]:
    out = collections.defaultdict(list)
    with open(path, encoding="utf-8") as f:
        for line in f:
            rec, on, off, label = line.split()
            out[rec].append((round(float(on), DIGITS), round(float(off), DIGITS), label))
    return out


def marks(grids: list[dict], tier: str) -> collections.Counter:
    c: collections.Counter = collections.Counter()
    for t in grids:
        for _, mark in t.get(tier, []):
            c.update(mark.split("+"))
    return c


def scores(exp: str) -> dict:
    with open(os.path.join(exp, "scores", "scores.json"), encoding="utf-8") as f:
        return json.load(f)


def test_term_discovery(gallery):
    data, exp = os.path.join(gallery, "data"), os.path.join(gallery, "exp", "tde")
    phones, words = gold(f"{data}/example/phones"), gold(f"{data}/example/words")
    classes = collections.defaultdict(list)
    with open(f"{data}/local/example/classes/example.classes", encoding="utf-8") as f:
        for line in f:
            x = line.split()
            if len(x) == 2 and x[0] == "Class":
                name = x[1]
            elif len(x) == 3:
                classes[x[0]].append((round(float(x[1]), DIGITS), round(float(x[2]), DIGITS), name))
    paths = sorted(glob.glob(f"{exp}/details/textgrids/*.TextGrid"))
    assert [os.path.basename(p)[:-9] for p in paths] == sorted(phones)
    grids = []
    for p in paths:
        rec = os.path.basename(p)[:-len(".TextGrid")]
        t = read(p, "zrc2020")
        assert t["phones"] == phones[rec] and t["words"] == words[rec]
        assert lanes(t, "fragments") == sorted(classes[rec])
        assert parse_textgrid(p)[0].intervals      # termeval's own reader takes it too
        grids.append(t)
    c = scores(exp)["counts"]
    hits, errors = marks(grids, "boundary hits"), marks(grids, "boundary errors")
    assert hits == {"hit": c["boundary_hits"]}
    assert errors == {"missed": c["boundaries_gold"] - c["boundary_hits"],
                      "spurious": c["boundaries_discovered"] - c["boundary_hits"]}


def test_zr2017_gold_tiers_and_boundaries(gallery):
    """zr2017 (--folds none: the cross fold is the whole corpus): the fragments it kept, and the
    boundary marks summed over the recordings give its cross_boundary_recall and _precision
    (over the distinct edges of the fragments shown) exactly."""
    data, exp = os.path.join(gallery, "data"), os.path.join(gallery, "exp", "tde_zr2017")
    phones, words = gold(f"{data}/example_nosil/phones"), gold(f"{data}/example_nosil/words")
    grids, edges, shown = [], 0, 0
    for p in glob.glob(f"{exp}/details/textgrids/*.TextGrid"):
        rec = os.path.basename(p)[:-len(".TextGrid")]
        t = read(p, "zr2017")
        assert t["phones"] == phones[rec] and t["words"] == words[rec] and lanes(t, "fragments")
        grids.append(t)
        shown += len(lanes(t, "fragments"))
        edges += len({x for on, off, _ in lanes(t, "fragments") for x in (on, off)})
    s = scores(exp)
    assert shown == s["counts"]["disc"]["fragments_kept"]
    hits, errors = marks(grids, "boundary hits"), marks(grids, "boundary errors")
    assert hits["hit"] / (hits["hit"] + errors["missed"]) == pytest.approx(s["cross_boundary_recall"], abs=1e-12)
    assert (edges - errors["spurious"]) / edges == pytest.approx(s["cross_boundary_precision"], abs=1e-12)


def test_segmentation(gallery):
    data, exp = os.path.join(gallery, "data"), os.path.join(gallery, "exp", "tde")
    words, phones = gold(f"{data}/example/words"), gold(f"{data}/example/phones")
    paths = glob.glob(f"{exp}/details/textgrids/*.TextGrid")         # shared with term discovery's
    grids = [read(p, "segmentation") for p in paths]
    assert len(paths) == len(words)
    for p, t in zip(paths, grids):
        rec = os.path.basename(p)[:-len(".TextGrid")]
        assert t["words (gold)"] == words[rec] and t["phones (gold)"] == phones[rec]
    c = scores(exp)["segmentation"]["counts"]
    assert marks(grids, "boundary hits") == {"hit": c["boundary_hits"]}
    assert marks(grids, "boundary errors") == {"missed": c["boundary_ref"] - c["boundary_hits"],
                                               "spurious": c["boundary_pred"] - c["boundary_hits"]}
    assert sum(len(lanes(t, "segments")) for t in grids) == c["token_pred"]


def test_term_detection(gallery):
    exp = os.path.join(gallery, "exp", "std")
    grids = [read(p, "std") for p in glob.glob(f"{exp}/details/textgrids/*.TextGrid")]
    s = scores(exp)
    assert sum(len(lanes(t, "hits")) for t in grids) == s["n_hits"] > 0
    assert sum(len(lanes(t, "false alarms")) for t in grids) == s["n_false_alarms"]
    assert sum(len(lanes(t, "misses")) for t in grids) == s["n_misses"] > 0
    with open(os.path.join(exp, "details", "per_term.tsv"), encoding="utf-8") as f:
        terms = {line.split("\t")[1] for line in list(f)[1:]}
    texts = {x for t in grids for _, _, x in lanes(t, "hits") + lanes(t, "misses")}
    assert texts and texts <= terms          # labelled with the keyword's text


def test_keyword_search_kaldi(gallery):
    """--compat kaldi: hits, false alarms and misses summed over the recordings are
    compute-atwv's counts; the words are the kws dir's rttm LEXEMEs."""
    exp, kws = os.path.join(gallery, "exp", "kws"), os.path.join(gallery, "data", "example_kws", "kws")
    grids = {os.path.basename(p)[:-9]: read(p, "std") for p in glob.glob(f"{exp}/details/textgrids/*.TextGrid")}
    s = scores(exp)
    assert sum(len(lanes(t, "hits")) for t in grids.values()) == s["n_hits"] > 0
    assert sum(len(lanes(t, "false alarms")) for t in grids.values()) == s["n_false_alarms"]
    assert sum(len(lanes(t, "misses")) for t in grids.values()) == s["n_misses"] > 0
    with open(f"{kws}/rttm", encoding="utf-8") as f:
        lex = collections.Counter(x[1] for x in (line.split() for line in f) if x and x[0] == "LEXEME")
    assert {r: len(t["words (reference)"]) for r, t in grids.items()} == dict(lex)


def runs(labels: list[str]) -> int:
    return sum(1 for i, x in enumerate(labels) if i == 0 or x != labels[i - 1])


def test_units(gallery):
    """score_units: the gold phones and units as runs of the inputs, the mapped units through
    mapping.tsv, the boundary marks of each file its per_utterance.tsv counts."""
    data, exp = os.path.join(gallery, "data"), os.path.join(gallery, "exp", "units")
    with open(f"{data}/local/example_units/units.txt", encoding="utf-8") as f:
        units = {x[0]: x[1:] for x in (line.split() for line in f)}
    with open(f"{exp}/details/units/mapping.tsv", encoding="utf-8") as f:
        mapping = {x[0]: x[2] for x in (line.rstrip("\n").split("\t") for line in list(f)[1:])}
    with open(f"{exp}/details/units/per_utterance.tsv", encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    per = {r[0]: dict(zip(rows[0], r)) for r in rows[1:]}
    phones = gold(f"{data}/example/phones")
    paths = sorted(glob.glob(f"{exp}/details/textgrids/*.TextGrid"))
    assert [os.path.basename(p)[:-9] for p in paths] == sorted(per)
    for p in paths:
        rec = os.path.basename(p)[:-9]
        t = read(p, "units")
        u = units[rec]
        assert [x for _, _, x in t["units"]] == [x for i, x in enumerate(u) if i == 0 or x != u[i - 1]]
        assert len(t["phones (mapped units)"]) == runs([mapping[x] for x in u])
        assert len(t["phones (gold)"]) == runs([x for _, _, x in phones[rec]])
        c = marks([t], "boundary hits") + marks([t], "boundary errors")
        r = {k: int(per[rec][k]) for k in ("bnd_ref", "bnd_pred", "bnd_hit")}
        assert c == collections.Counter(hit=r["bnd_hit"], missed=r["bnd_ref"] - r["bnd_hit"],
                                        spurious=r["bnd_pred"] - r["bnd_hit"])


def test_steps_sharing_an_exp_dir_share_its_textgrids(gallery, tmp_path):
    """details/textgrids/<recording>.TextGrid holds the tiers of every step of the exp dir; a
    step replaces its own tiers (in their place) and --textgrids false drops them, the other
    step's tiers staying as they were."""
    data = os.path.join(gallery, "data")
    g, classes = f"{data}/example", f"{data}/local/example/classes/example.classes"
    exp = tmp_path / "exp"
    path = exp / "details" / "textgrids" / "s01-r01.TextGrid"
    termeval.score_tde(g, classes, exp_dir=exp, textgrids=True, report=False)
    alone = read(str(path))
    termeval.score_segmentation(g, classes, exp_dir=exp, textgrids=True, report=False)
    both = read(str(path))
    names = list(both)
    assert names[:len(alone)] == list(alone) and {k: both[k] for k in alone} == alone
    assert [n.split(": ")[0] for n in names[len(alone):]] == ["segmentation"] * (len(names) - len(alone))
    termeval.score_segmentation(g, classes, level="phone", exp_dir=exp, textgrids=True, report=False)
    termeval.score_segmentation(g, classes, tolerance=0.03, exp_dir=exp, textgrids=True, report=False)
    again = read(str(path))
    assert list(again)[:len(names)] == names and read(str(path), "segmentation") != read(str(path), "segmentation_phone")
    termeval.score_segmentation(g, classes, exp_dir=exp, report=False)            # --textgrids false: its tiers go
    termeval.score_segmentation(g, classes, level="phone", exp_dir=exp, report=False)
    assert read(str(path)) == alone and len(list(path.parent.iterdir())) == 24
    termeval.score_tde(g, classes, exp_dir=exp, report=False)                      # owns details/: all gone
    assert not path.parent.exists()


def test_textgrid_read_back_and_merge():
    rec = timeline.Recording("r", 0.0, 2.0, [timeline.Tier("a", np.array([0.5]), np.array([1.0]), ['x "y"'])])
    text = report_textgrid.text_of(rec, "s1: ")
    assert [(t.name, t.rows) for t in report_textgrid.read_grid(text)] == \
        [("s1: a", [(0.0, 0.5, ""), (0.5, 1.0, 'x "y"'), (1.0, 2.0, "")])]
    wider = timeline.Recording("r", -1.0, 3.0, [timeline.Tier("p", np.array([2.5]), None, ["hit"])])
    kept = report_textgrid.read_grid(text)
    both = report_textgrid.read_grid(report_textgrid.text_of(wider, "s2: ", kept))
    assert [(t.name, t.rows) for t in both] == [
        ("s1: a", [(-1.0, 0.0, ""), (0.0, 0.5, ""), (0.5, 1.0, 'x "y"'), (1.0, 2.0, ""), (2.0, 3.0, "")]),
        ("s2: p", [(2.5, "hit")])]
    with pytest.raises(ValueError):
        report_textgrid.read_grid(text.replace("IntervalTier", "Interval"))
