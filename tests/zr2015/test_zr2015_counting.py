"""The counted pair metrics (NED, grouping, matching with substring completion) equal the old
enumeration of every pair, fold by fold, on random small corpora with overlapping, duplicated,
multi-class and cross-file same-time fragments (the file-blind overlap test)."""
from __future__ import annotations

import math
import os

import numpy as np
import pytest

from termeval.tde.zr2015.evaluate import prepare, score_fold
from termeval.tde.zr2015.foldpairs import row_pairs
from termeval.tde.zr2015.completion import nwin, pair_windows, windows

from zr2015_enumerating import score_pairs_enum, completion_keys
from zr2015_oracle import score_fold_oracle

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

KEYS = ("ned", "ned_pairs", "ned_empty_pairs", "grouping_precision", "grouping_recall",
        "matching_precision", "matching_recall", "matching_psubs_pairs", "matching_pdisc_pairs",
        "matching_intersection_pairs")


def write_case(d: str, data) -> tuple[str, str, str]:
    """A random corpus: 3 files with the same phone times (file-blind overlaps), labels from a
    3-letter alphabet (many repeats), gaps (segments); fragments snapped to phone edges or
    jittered, listed in random classes (duplicates and multi-class fragments)."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    nph = data.draw(st.integers(6, 30), label="phones")
    dur = rng.choice([0.05, 0.08, 0.1, 0.12], size=nph)
    gap = rng.random(nph) < 0.15
    on = np.concatenate(([0.0], np.cumsum(dur + gap * 0.2)[:-1])).round(4)
    off = (on + dur).round(4)
    files = ["f1", "f2", "f3"]
    phones, words = [], []
    for fi, f in enumerate(files):
        lab = rng.choice(list("abc"), size=nph, p=[0.5, 0.3, 0.2] if fi else [0.4, 0.4, 0.2])
        phones += [(f, on[i], off[i], lab[i]) for i in range(nph)]
        i = 0
        while i < nph:
            j = min(nph, i + int(rng.integers(1, 4)))
            words.append((f, on[i], off[j - 1], "w" + "".join(lab[i:j])))
            i = j
    os.makedirs(os.path.join(d, "data"), exist_ok=True)
    dd = os.path.join(d, "data")
    for name, rows in (("phones", phones), ("words", words)):
        with open(os.path.join(dd, name), "w") as fh:
            fh.writelines(f"{r[0]} {r[1]:.4f} {r[2]:.4f} {r[3]}\n" for r in sorted(rows, key=lambda r: (r[0], r[1])))
    with open(os.path.join(dd, "utt2spk"), "w") as fh:
        fh.write("f1 s1\nf2 s1\nf3 s2\n")
    with open(os.path.join(dd, "reco2dur"), "w") as fh:
        fh.writelines(f"{f} {off[-1]:.4f}\n" for f in files)
    nfrag = data.draw(st.integers(2, 40), label="fragments")
    frags = []
    for _ in range(nfrag):
        f = files[int(rng.integers(0, 3))]
        a = int(rng.integers(0, nph))
        b = min(nph - 1, a + int(rng.integers(0, 7)))
        s, e = on[a], off[b]
        if rng.random() < 0.3:
            s = max(0.0, s + rng.choice([-0.02, 0.01, 0.03]))
            e = e + rng.choice([-0.01, 0.0, 0.02])
        if e > s:
            frags.append((f, round(s, 4), round(e, 4)))
    ncls = data.draw(st.integers(1, 6), label="classes")
    cls: list[list] = [[] for _ in range(ncls)]
    for fr in frags:
        for _ in range(1 + int(rng.random() < 0.2)):                 # multi-class fragments
            cls[int(rng.integers(0, ncls))].append(fr)
        if rng.random() < 0.1:                                      # duplicates in a class
            cls[int(rng.integers(0, ncls))].append(fr)
    cf = os.path.join(d, "disc.class")
    with open(cf, "w") as fh:
        for k, members in enumerate(cls):
            fh.write(f"Class {k}\n" + "".join(f"{f} {s:.4f} {e:.4f}\n" for f, s, e in members) + "\n")
    # fold files: intervals that cut fragments and phones (edge windows outside a fold)
    pre = os.path.join(d, "folds")
    end = float(off[-1])
    cut = round(float(rng.uniform(0, end)), 4)
    with open(pre + ".split", "w") as fh:
        fh.writelines(f"{f} 0.0 {end:.4f}\n" for f in files)
    with open(pre + ".intervals.cross", "w") as fh:
        fh.write("".join(f"{f} 0.0 {cut:.4f}\n" for f in files) + "\n"
                 + "".join(f"{f} {cut:.4f} {end:.4f}\n" for f in files[:2]))
    with open(pre + ".intervals.within", "w") as fh:
        fh.write(f"f1 0.0 {end:.4f}\nf2 0.0 {end:.4f}\n\nf3 0.0 {end:.4f}\n")
    return dd, cf, pre


def same(a, b) -> bool:
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return a == pytest.approx(b, rel=1e-9, abs=1e-12)


def prepared_case(tmp_path_factory, data, mode: str, folds: str):
    """evaluate.prepare of a drawn case (write_case), scored with its fold files or none."""
    dd, cf, pre = write_case(str(tmp_path_factory.mktemp("case")), data)
    return prepare(dd, cf, "none" if folds == "none" else pre, mode)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), mode=st.sampled_from(["zr2015", "zr2017"]),
       folds=st.sampled_from(["none", "files"]))
def test_counting_equals_enumeration(tmp_path_factory, data, mode, folds):
    p = prepared_case(tmp_path_factory, data, mode, folds)
    for name, fs in p.foldsets.items():
        for fold in fs.folds:
            got = score_fold(p, fold, ("matching", "ned", "grouping"))
            want = score_pairs_enum(p, fold)
            for k in KEYS:
                assert same(got[k], want[k]), (name, k, got[k], want[k])


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), mode=st.sampled_from(["zr2015", "zr2017"]),
       folds=st.sampled_from(["none", "files"]))
def test_ned_and_grouping_equal_an_independent_brute_force(tmp_path_factory, data, mode, folds):
    """NED and grouping against zr2015_oracle (loops written from the definitions, no termeval
    helper); the enumeration above shares the product's pair and n-gram helpers, and stays the
    oracle of matching only."""
    p = prepared_case(tmp_path_factory, data, mode, folds)
    for name, fs in p.foldsets.items():
        for fold in fs.folds:
            got = score_fold(p, fold, ("ned", "grouping"))
            want = score_fold_oracle(p, fold)
            for k, v in want.items():
                assert same(got[k], v), (name, k, got[k], v)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), budget=st.integers(1, 30))
def test_counting_by_ranges_of_classes_equals_enumeration(tmp_path_factory, monkeypatch, data, budget):
    """nmatch(t, I) computed a few classes at a time (pairs.chunk() member windows; every
    counting loop in chunks of a few entries)."""
    from termeval.tde.zr2015 import pairs
    monkeypatch.setattr(pairs, "CHUNK", budget)
    p = prepared_case(tmp_path_factory, data, "zr2017", "none")
    for fs in p.foldsets.values():
        for fold in fs.folds:
            got = score_fold(p, fold, ("matching",))
            want = score_pairs_enum(p, fold)
            for k in KEYS:
                if k.startswith("matching"):
                    assert same(got[k], want[k]), (k, got[k], want[k])


def test_class_ranges_cut_at_class_starts():
    from termeval.tde.zr2015.completion import class_ranges, windows_count, windows
    mc = np.array([0, 0, 0, 1, 2, 2, 5, 5, 5, 5])
    w = np.array([4, 4, 4, 1, 2, 2, 1, 1, 1, 1])
    assert list(class_ranges(mc, w, 5)) == [(0, 3), (3, 6), (6, 10)]
    assert list(class_ranges(mc, w, 100)) == [(0, 10)]
    assert list(class_ranges(mc[:0], w[:0], 5)) == []
    n = np.arange(0, 30)
    assert np.array_equal(windows_count(n), np.bincount(windows(n)[0], minlength=len(n)))


@given(st.integers(0, 40), st.integers(0, 40))
def test_nwin_and_pair_windows_match_the_old_completion(na, nb):
    ra, rb = np.array([100]), np.array([1000])
    keys = [x * 10**6 + y for x, y in pair_windows(ra, np.array([na]), rb, np.array([nb]))]
    got = np.sort(np.concatenate(keys)) if keys else np.zeros(0, np.int64)
    M = np.int64(10**6)
    want = completion_keys(ra, np.array([na]), rb, np.array([nb]), M)
    assert nwin(np.array([na]), np.array([nb]))[0] == len(want)
    assert np.array_equal(got, want)


def test_row_pairs_chunks_cover_every_pair_once():
    g = np.repeat(np.arange(5), [1, 3, 2000, 2, 7])
    i, j = (np.concatenate(x) for x in zip(*row_pairs(g, budget=5000)))
    assert len(i) == 0 + 3 + 2000 * 1999 // 2 + 1 + 21
    assert np.all(g[i] == g[j]) and np.all(i < j)
    assert len(np.unique(i * len(g) + j)) == len(i)
    own, L, o = windows(np.array([2, 3, 5]))
    assert own.tolist() == [1, 2, 2, 2, 2, 2, 2] and L.tolist() == [3, 3, 3, 3, 4, 4, 5]


@pytest.mark.parametrize("mode", ["zr2015", "zr2017"])
def test_empty_transcriptions_against_the_brute_force(tmp_path, mode):
    """Fragments touching a segment edge by 5 ms of 20 transcribe as nothing (not > 50 %):
    an empty-empty pair counts 1 (and in ned_empty_pairs), an empty-vs-nonempty pair 1."""
    dd = tmp_path / "data"
    dd.mkdir()
    ph = [("a", 0.0, 0.1), ("b", 0.1, 0.2), ("c", 0.2, 0.3), ("d", 0.3, 0.4), ("e", 0.5, 0.6), ("f", 0.6, 0.7),
          ("g", 0.7, 0.8), ("h", 0.9, 1.0)]
    (dd / "phones").write_text("".join(f"f1 {a:.4f} {b:.4f} {x}\n" for x, a, b in ph))
    (dd / "words").write_text("".join(f"f1 {a:.4f} {b:.4f} w{x}\n" for x, a, b in ph))
    (dd / "utt2spk").write_text("f1 s1\n")
    (dd / "reco2dur").write_text("f1 1.0000\n")
    cf = tmp_path / "disc.class"
    cf.write_text("Class 0\nf1 0.3950 0.4150\nf1 0.7950 0.8150\nf1 0.1000 0.3000\n\n"
                  "Class 1\nf1 0.0000 0.2000\nf1 0.5000 0.7000\n\n")
    p = prepare(str(dd), str(cf), "none", mode)
    for fs in p.foldsets.values():
        for fold in fs.folds:
            got = score_fold(p, fold, ("ned", "grouping"))
            want = score_fold_oracle(p, fold)
            assert want["ned_empty_pairs"] == 1 and want["ned_pairs"] == 4
            for k, v in want.items():
                assert same(got[k], v), (k, got[k], v)
