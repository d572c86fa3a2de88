"""--textgrids true (term discovery, segmentation, term detection): the TextGrids of the gallery
(local/report_gallery.py) read back with the `textgrid` package (and termeval's own reader),
their tiers checked against the inputs, and their hits and errors summed over the recordings
against the counts of the score files."""
from __future__ import annotations

import collections
import glob
import json
import os

import pytest

from termeval.gold.textgrid import parse_textgrid

textgrid = pytest.importorskip("textgrid")
DIGITS = 12


def read(path: str) -> dict[str, list]:
    """tier name -> [(xmin, xmax, text)] of its non-empty intervals, or [(time, mark)] of its points."""
    tg = textgrid.TextGrid()
    tg.read(path, round_digits=DIGITS)
    out = {}
    for tier in tg:
        if isinstance(tier, textgrid.IntervalTier):
            out[tier.name] = [(iv.minTime, iv.maxTime, iv.mark) for iv in tier if iv.mark != ""]
        else:
            out[tier.name] = [(p.time, p.mark) for p in tier]
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
        t = read(p)
        assert t["phones"] == phones[rec] and t["words"] == words[rec]
        assert lanes(t, "fragments") == sorted(classes[rec])
        assert parse_textgrid(p)[0].intervals      # termeval's own reader takes it too
        grids.append(t)
    c = scores(exp)["counts"]
    hits, errors = marks(grids, "boundary hits"), marks(grids, "boundary errors")
    assert hits == {"hit": c["boundary_hits"]}
    assert errors == {"missed": c["boundaries_gold"] - c["boundary_hits"],
                      "spurious": c["boundaries_discovered"] - c["boundary_hits"]}


def test_zr2017_gold_tiers(gallery):
    data, exp = os.path.join(gallery, "data"), os.path.join(gallery, "exp", "tde_zr2017")
    phones, words = gold(f"{data}/example_nosil/phones"), gold(f"{data}/example_nosil/words")
    for p in glob.glob(f"{exp}/details/textgrids/*.TextGrid"):
        rec = os.path.basename(p)[:-len(".TextGrid")]
        t = read(p)
        assert t["phones"] == phones[rec] and t["words"] == words[rec] and lanes(t, "fragments")


def test_segmentation(gallery):
    data, exp = os.path.join(gallery, "data"), os.path.join(gallery, "exp", "tde")
    words, phones = gold(f"{data}/example/words"), gold(f"{data}/example/phones")
    paths = glob.glob(f"{exp}/details/segmentation/textgrids/*.TextGrid")
    grids = [read(p) for p in paths]
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
    grids = [read(p) for p in glob.glob(f"{exp}/details/textgrids/*.TextGrid")]
    s = scores(exp)
    assert sum(len(lanes(t, "hits")) for t in grids) == s["n_hits"] > 0
    assert sum(len(lanes(t, "false alarms")) for t in grids) == s["n_false_alarms"]
    assert sum(len(lanes(t, "misses")) for t in grids) == s["n_misses"] > 0
    with open(os.path.join(exp, "details", "per_term.tsv"), encoding="utf-8") as f:
        terms = {line.split("\t")[1] for line in list(f)[1:]}
    texts = {x for t in grids for _, _, x in lanes(t, "hits") + lanes(t, "misses")}
    assert texts and texts <= terms          # labelled with the keyword's text
