"""zr2015/zr2017 metrics on micro-corpora with hand-computed values (spec §3.1, §4, §4.8),
the fold/class readers, and the segment structure of the shipped SIL-less files."""
from __future__ import annotations

import json
import math
import os
import subprocess

import numpy as np
import pytest

from termeval.core.datadir import Tier
from termeval.tde.zr2015.aggregate import aggregate_one, aggregate_pr
from termeval.tde.zr2015.classfile import read_classfile
from termeval.tde.zr2015.corpus import lookup, ov, segment_arrays, segment_tier, split_truncate
from termeval.tde.zr2015.evaluate import prepare, score_fold
from termeval.tde.zr2015.folds import contained, read_foldset
from termeval.core.errors import InputError


def tier(rows: list[tuple[str, float, float, str]], files: list[str]) -> Tier:
    fi = {f: i for i, f in enumerate(files)}
    labels = sorted({r[3] for r in rows})
    file = np.array([fi[r[0]] for r in rows], dtype=np.int32)
    return Tier(file=file, onset=np.array([r[1] for r in rows]), offset=np.array([r[2] for r in rows]),
                label=np.array([labels.index(r[3]) for r in rows], dtype=np.int32), labels=labels,
                starts=np.searchsorted(file, np.arange(len(files) + 1)))


# spec §3.1 micro-corpus: 100 ms phones a b c d | gap | e f g(20 ms) h
MICRO = [("u", 0.0, 0.1, "a"), ("u", 0.1, 0.2, "b"), ("u", 0.2, 0.3, "c"), ("u", 0.3, 0.4, "d"),
         ("u", 0.5, 0.6, "e"), ("u", 0.6, 0.7, "f"), ("u", 0.7, 0.72, "g"), ("u", 0.72, 0.82, "h")]


@pytest.mark.parametrize("s,e,want", [
    (0.100, 0.300, "b c"),
    (0.075, 0.300, "b c"),        # 25 ms of a < 30 ms
    (0.070, 0.300, "b c"),        # exactly 30 ms is not > 30 ms
    (0.065, 0.300, "a b c"),      # 35 ms
    (0.150, 0.160, "b"),          # > 50 % of the fragment
    (0.689, 0.711, "g"),          # > 50 % of g; f loses (not > 50 % of the fragment)
    (0.710, 0.800, "h"),          # g exactly 50 %: not >
    (0.350, 0.650, "e f"),        # one segment only: d is lost
    (0.410, 0.490, None),         # inside the gap: dropped
    (0.750, 5.000, "h"),          # past the end
])
@pytest.mark.parametrize("mode", ["zr2015", "zr2017"])
def test_transcription_table(s, e, want, mode):
    sg = segment_tier(tier(MICRO, ["u"]), mode)
    assert sg.nseg == 2
    found, a, b = lookup(sg, np.array([0]), np.array([s]), np.array([e]), mode)
    if want is None:
        assert not found[0]
    else:
        assert found[0]
        assert " ".join(sg.labels[k] for k in sg.label[a[0]:b[0]]) == want


def test_ov_is_file_blind_and_strict():
    assert ov(0.0, 1.0, 0.5, 1.5, "zr2015")                 # 0.5 s overlap
    assert not ov(0.0, 0.1, 0.07, 0.3, "zr2015")            # exactly 30 ms, not > 50 %
    assert not ov(0.0, 0.1, 0.1, 0.2, "zr2015")             # touching
    assert ov(0.0, 0.1, 0.0, 0.1, "zr2017")                 # identical


def test_split_truncation():
    sf = np.array([0, 0]); son = np.array([1.0, 3.0]); soff = np.array([2.0, 4.0])
    keep, s, e, trunc = split_truncate(sf, son, soff, np.array([0, 0, 0, 1]),
                                       np.array([1.2, 1.5, 2.5, 1.0]), np.array([1.8, 3.5, 2.9, 2.0]))
    assert keep.tolist() == [True, True, False, False]     # inside / cut / in a gap / unknown file
    assert trunc.tolist() == [False, True, False, False]
    assert (s[1], e[1]) == (1.5, 2.0)                       # largest overlap (0.5 vs 0.5: first wins)


def test_aggregation_rules():
    p, r, f = aggregate_pr([0.5, math.nan, 0.0], [0.5, 0.2, 0.0])
    assert p["nfolds"] == 2 and p["mean"] == 0.25 and f["mean"] == 0.25  # F per fold, then mean
    p, r, f = aggregate_pr([math.nan], [1.0])
    assert (p["mean"], p["nfolds"], f["mean"]) == (0.0, 0, 0.0)
    assert aggregate_one([math.nan, math.nan], 1.0)["mean"] == 1.0      # NED default
    assert aggregate_one([math.nan, 0.5], 0.0) == {"mean": 0.5, "std": 0.0, "min": 0.5,
                                                   "max": 0.5, "nfolds": 1}


def write_dir(d, phones, words, spk):
    os.makedirs(d, exist_ok=True)
    for name, rows in (("phones", phones), ("words", words)):
        with open(os.path.join(d, name), "w") as f:
            f.writelines(f"{r[0]} {r[1]} {r[2]} {r[3]}\n" for r in rows)
    files = sorted(spk)
    with open(os.path.join(d, "utt2spk"), "w") as f:
        f.writelines(f"{u} {spk[u]}\n" for u in files)
    with open(os.path.join(d, "reco2dur"), "w") as f:
        f.writelines(f"{u} {max(r[2] for r in phones if r[0] == u)}\n" for u in files)


MINI_PHONES = [("f1", 0.0, 0.1, "a"), ("f1", 0.1, 0.2, "b"), ("f1", 0.2, 0.3, "c"),
               ("f1", 0.3, 0.4, "a"), ("f1", 0.4, 0.5, "b"), ("f1", 0.5, 0.6, "c"),
               ("f2", 1.0, 1.1, "a"), ("f2", 1.1, 1.2, "b"), ("f2", 1.2, 1.3, "c"), ("f2", 1.3, 1.4, "x")]
MINI_WORDS = [("f1", 0.0, 0.3, "abc"), ("f1", 0.3, 0.6, "abc"), ("f2", 1.0, 1.3, "abc"),
              ("f2", 1.3, 1.4, "x")]
MINI_CLASSES = "Class 1\nf1 0.0 0.3\nf1 0.3 0.6\nf2 1.0 1.3\n\nClass 2\nf2 1.0 1.4\nf1 0.0 0.4\n"


@pytest.fixture
def mini(tmp_path):
    d = str(tmp_path / "data")
    write_dir(d, MINI_PHONES, MINI_WORDS, {"f1": "s1", "f2": "s2"})
    cls = tmp_path / "disc.class"
    cls.write_text(MINI_CLASSES)
    return d, str(cls)


@pytest.mark.parametrize("mode", ["zr2015", "zr2017"])
def test_all_metrics_hand_computed(mini, mode):
    """A=f1[0,.3] B=f1[.3,.6] C=f2[1,1.3] (abc) in class 1, D=f2[1,1.4] (abcx) E=f1[0,.4] (abca)
    in class 2. Pairs: (A,B) (A,C) (B,C) (E,D)."""
    d, cls = mini
    p = prepare(d, cls, "none", mode)
    r = score_fold(p, p.foldsets["cross"].folds[0])
    assert r["ned_pairs"] == 4
    assert r["ned"] == pytest.approx(0.25 / 4)            # only abca/abcx differ: 1/4
    # Pclus types by 2nd element: abc 3, abcx 1; w(abc) = 3/5, abca only first: weight lost
    assert r["grouping_precision"] == pytest.approx(0.6)
    assert r["grouping_recall"] == pytest.approx(1.0)
    # token: A, B, C hit; D and E cover two words; n_disc 5, n_tok 4
    assert (r["token_precision"], r["token_recall"]) == (0.6, 0.75)
    # types seen (abc) (abc x) (abc abc), hit {abc}; word types {abc, x}
    assert r["type_precision"] == pytest.approx(1 / 3) and r["type_recall"] == 0.5
    # 7 distinct fragment edges, 0.4 in f1 is 100 ms from the nearest word edge
    assert r["boundary_precision"] == pytest.approx(6 / 7) and r["boundary_recall"] == 1.0
    # covered 0.6 + 0.4 s; gold = the 3 repeated 'abc' (0.6 + 0.3 s)
    assert r["coverage"] == pytest.approx(1.0 / 0.9)
    # Psubs: 5 unordered pairs (abc x3 pairs, bca/bcx, abca/abcx), 7 fragments, abc 3/7 all gold
    assert r["matching_psubs_pairs"] == 10
    assert r["matching_precision"] == pytest.approx(3 / 7)
    assert r["matching_recall"] == pytest.approx(1.0)
    within = [score_fold(p, f) for f in p.foldsets["within"].folds]
    assert p.foldsets["within"].labels == ["s1", "s2"]
    assert within[0]["ned_pairs"] == 1 and math.isnan(within[1]["ned"])


def test_file_blind_overlap_quirk(tmp_path):
    """Two occurrences at the same times in different files are not a pair (spec §4.0)."""
    d = str(tmp_path / "data")
    ph = [(f, a, b, l) for f in ("f1", "f2") for a, b, l in ((0.0, 0.1, "a"), (0.1, 0.2, "b"), (0.2, 0.3, "c"))]
    write_dir(d, ph, [(f, 0.0, 0.3, "abc") for f in ("f1", "f2")], {"f1": "s", "f2": "s"})
    cls = tmp_path / "c"
    cls.write_text("Class 0\nf1 0.0 0.3\nf2 0.0 0.3\n")
    p = prepare(d, str(cls), "none", "zr2015")
    r = score_fold(p, p.foldsets["cross"].folds[0])
    assert r["ned_pairs"] == 0 and math.isnan(r["ned"])
    assert math.isnan(r["matching_precision"]) and math.isnan(r["matching_recall"])


def test_classfile_quirks_counted(tmp_path):
    f = tmp_path / "c"
    f.write_text("u 0 1\nClass 1\nu 1 2 extra\n\n\n\nClass 1\nu 2 3\nv 0 1\n")
    rc = read_classfile(str(f), {"u": 0})
    assert rc.names == ["1"] and rc.onset.tolist() == [2.0, 0.0]   # second 'Class 1' wins
    assert rc.counts["duplicate_class_ids"] == 1 and rc.counts["fragments_before_header"] == 1
    assert rc.counts["extra_columns"] == 1 and rc.counts["unknown_file_fragments"] == 1
    f.write_text("Class 1\nu 1  2\n")   # runs of spaces are accepted (the shared tokenizer)
    assert read_classfile(str(f), {"u": 0}).onset.tolist() == [1.0]
    f.write_text("Class 1\nu 1\n")
    with pytest.raises(InputError, match=":2:"):
        read_classfile(str(f), {"u": 0})
    f.write_text("Class 1\nu 0 1\nClass 2\n")
    with pytest.raises(InputError, match="header"):
        read_classfile(str(f), {"u": 0})


def test_fold_files(tmp_path):
    f = tmp_path / "x.intervals.cross"
    f.write_text("u 0 1\nu 2 3\n\nv 0 5\nw 1 2\n")
    fs = read_foldset(str(f), "cross", {"u": 0, "v": 1})
    assert len(fs.folds) == 2 and fs.folds[1].nlines == 2 and fs.folds[1].unknown == 1
    inside = contained(fs.folds[0], np.array([0, 0, 0, 1]), np.array([0.5, 0.5, 2.0, 0.0]),
                       np.array([1.0, 2.5, 3.0, 1.0]))
    assert inside.tolist() == [True, False, True, False]


@pytest.mark.parametrize("phn,mode", [("zr15/sample.phn", "zr2015"), ("zr15/sample.wrd", "zr2015"),
                                      ("zr17_tde17/mandarin.phn", "zr2017"),
                                      ("zr17_tde17/mandarin.wrd", "zr2017")])
def test_sorted_segments_equal_file_order_segments(shared, phn, mode):
    """The original segments lines in file order; our data dirs are sorted by onset. Same
    segments (file, first onset, last offset, size) on the shipped files."""
    rows = [l.split() for l in open(os.path.join(shared, "data", phn)) if l.strip()]
    files = sorted({r[0] for r in rows})
    fi = {f: i for i, f in enumerate(files)}
    f = np.array([fi[r[0]] for r in rows])
    on = np.array([float(r[1]) for r in rows])
    off = np.array([float(r[2]) for r in rows])
    seg = segment_arrays(f, on, off, mode)
    starts = np.flatnonzero(np.r_[True, seg[1:] != seg[:-1]])
    stops = np.r_[starts[1:], len(seg)]
    orig = {(int(f[a]), float(on[a:b].min()), float(off[a:b].max()), int(b - a)) for a, b in zip(starts, stops)}
    order = np.lexsort((on, f))
    t = Tier(file=f[order].astype(np.int32), onset=on[order], offset=off[order],
             label=np.zeros(len(f), dtype=np.int32), labels=["x"], starts=np.zeros(len(files) + 1))
    sg = segment_tier(t, mode)
    ours = {(int(sg.seg_file[k]), float(sg.seg_on[k]), float(sg.seg_off[k]),
             int(sg.tok_stop[k] - sg.tok_start[k])) for k in range(sg.nseg)}
    assert ours == orig and sg.inexact_joins == 0


def test_script_end_to_end(root, mini, tmp_path):
    d, cls = mini
    exp = str(tmp_path / "exp")
    env = dict(os.environ)
    r = subprocess.run(["bash", "-c", f". ./path.sh && steps/score_tde_folds.sh --nj 2 --benchmark zr2017 "
                        f"--folds none {d} {cls} {exp}"], cwd=root, capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    s = json.load(open(os.path.join(exp, "scores", "scores.json")))
    assert s["benchmark"] == "zr2017"
    assert s["cross_matching_precision"] == pytest.approx(3 / 7)
    assert s["cross_ned_nfolds"] == 1 and s["within_ned_nfolds"] == 1   # s2 has no pair: NaN fold
    assert s["within_ned"] == 0.0 and len(s["folds"]["within"]) == 2
    assert s["folds"]["within"][1]["ned"] is None
    for stage in ("matching", "clustering", "parsing", "tde15_input"):
        assert os.path.isfile(os.path.join(exp, "scores", stage))
    lines = open(os.path.join(exp, "scores", "matching")).read().splitlines()
    assert "cross_matching_precision 0.428571 [ 1/1 folds ]" in lines
    for f in ("matching", "group", "token_type", "nlp", "boundary"):
        assert os.path.isfile(os.path.join(exp, "details", "tde15", f))
    # unknown file: strict by default, lenient reproduces the original (dropped, counted)
    with open(cls, "a") as f:
        f.write("\nClass 3\nzz 0 1\nf1 0 0.3\n")
    r = subprocess.run(["bash", "-c", f". ./path.sh && steps/score_tde_folds.sh --folds none {d} {cls} {exp}"],
                       cwd=root, capture_output=True, text=True, timeout=300)
    assert r.returncode != 0 and "unknown file" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run(["bash", "-c", f". ./path.sh && steps/score_tde_folds.sh --lenient true --folds none {d} {cls} {exp}"],
                       cwd=root, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "classfile_unknown_file_fragments 1" in open(os.path.join(exp, "scores", "tde15_input")).read()
