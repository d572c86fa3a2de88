"""The generated gold n-gram classes counted per fold (termeval.tde.zr2015.ngrams.fold_gold) equal
the listed ones (ngram_classes, the fold's view, matching.gold_side, coverage.cover) on random
small corpora: 3 files with the same phone times (file-blind OV among windows of one type),
gaps, folds cutting windows (matching and coverage tests, fold by fold)."""
from __future__ import annotations

import numpy as np
import pytest

from termeval.tde.zr2015 import coverage
from termeval.tde.zr2015.evaluate import prepare
from termeval.tde.zr2015.foldview import file_index, members, take
from termeval.tde.zr2015.matching import gold_side
from termeval.tde.zr2015.ngrams import KL, fold_gold, ngram_classes

from test_zr2015_counting import prepared_case

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402


def all_keys(p) -> np.ndarray:
    """Keys of every window (start, L), L = 1..21, of the corpus (invalid ones included)."""
    n = len(p.phones)
    s, L = np.meshgrid(np.arange(n), np.arange(1, 22), indexing="ij")
    s, L = s.ravel(), L.ravel()
    ok = s + L <= n
    return s[ok] * KL + L[ok]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), mode=st.sampled_from(["zr2015", "zr2017"]),
       folds=st.sampled_from(["none", "files"]))
def test_fold_gold_equals_the_listed_classes(tmp_path_factory, data, mode, folds):
    p = prepared_case(tmp_path_factory, data, mode, folds)
    assert p.goldcls is None
    listed = ngram_classes(p.phones, p.ngrams, {})
    assert p.gold_ngrams.counts == listed.counts
    nf = len(p.gold.files)
    ix = file_index(listed.file, nf, listed.occ_frag)
    keys = all_keys(p)
    for fs in p.foldsets.values():
        for fold in fs.folds:
            view = take(listed, ix, members(fold, ix, listed.file, listed.onset, listed.offset),
                        dense_classes=True)
            want = gold_side(view, p.ngrams, mode)
            g = fold_gold(p.gold_ngrams, p.ngrams, fold, mode)
            got = gold_side(g, p.ngrams, mode)
            for a, b in zip(want[:2] + want[2] + want[3:4], got[:2] + got[2] + got[3:4]):
                assert np.array_equal(a, b)
            # gold classes of every window: the same partition (listed: class ids, counted: codes)
            cw, cg = want[4](keys), got[4](keys)
            assert np.array_equal(cw >= 0, cg >= 0)
            pairs = np.unique(np.c_[cw[cw >= 0], cg[cg >= 0]], axis=0)
            assert len(np.unique(pairs[:, 0])) == len(np.unique(pairs[:, 1])) == len(pairs)
            # the general membership test (zero-length phones, negative onsets) agrees
            p.gold_ngrams.positive = False
            g2 = fold_gold(p.gold_ngrams, p.ngrams, fold, mode)
            p.gold_ngrams.positive = True
            for a, b in zip(got[:2] + got[2] + got[3:4] + g.cover, gold_side(g2, p.ngrams, mode)[:2]
                            + (g2.w_u, g2.w_c, g2.n_flat) + g2.cover):
                assert np.array_equal(a, b)
            # counted by bands of lengths (types by ranges of 2 windows) with an index of those
            # levels only, over the fold's files only (jobs): the same counts, codes in the same order
            import termeval.tde.zr2015.pairs as chunks
            from termeval.tde.zr2015.matching import BANDS
            from termeval.tde.zr2015.ngramindex import NgramIndex
            P, _ = p.gold_ngrams.fold_positions(fold)
            old, chunks.CHUNK = chunks.CHUNK, 2
            try:
                for pos in (None, P):
                    parts = [fold_gold(p.gold_ngrams, NgramIndex(p.phones, keep=range(lo, hi + 1), positions=pos),
                                       fold, mode, (lo, hi), cover=False) for lo, hi in BANDS]
                    # (codes of a fold's own index: ranked as the corpus's, test_local_index_...)
                    for name in ("n_gold", "w_c") + (("ug", "w_u") if pos is None else ()):
                        assert np.array_equal(np.concatenate([getattr(x, name) for x in parts]), getattr(g, name)), name
                    assert sum(x.n_flat for x in parts) == g.n_flat
            finally:
                chunks.CHUNK = old
            # coverage's denominator: the longest window per start has the same union
            assert coverage.cover(view.file, view.onset, view.offset, mode) == coverage.total(g.cover)
            assert np.array_equal(coverage.cover_by_file(view.file, view.onset, view.offset, mode, nf),
                                  coverage.by_file(g.cover, nf))


def test_fold_gold_counts_a_hand_made_corpus(tmp_path):
    """File f1 'a b c a b c a' (0.1 s phones) and f2 'a b c x' at the same times, by hand."""
    dd = tmp_path / "data"
    dd.mkdir()
    rows = [("f1", i * 0.1, (i + 1) * 0.1, c) for i, c in enumerate("abcabca")]
    rows += [("f2", i * 0.1, (i + 1) * 0.1, c) for i, c in enumerate("abcx")]
    (dd / "phones").write_text("".join(f"{f} {a:.1f} {b:.1f} {c}\n" for f, a, b, c in rows))
    (dd / "words").write_text("f1 0.0 0.7 w\nf2 0.0 0.4 v\n")
    (dd / "utt2spk").write_text("f1 s1\nf2 s2\n")
    (dd / "reco2dur").write_text("f1 0.7\nf2 0.4\n")
    cf = tmp_path / "c.class"
    cf.write_text("Class 1\nf1 0.0 0.3\nf1 0.3 0.6\n\n")
    p = prepare(str(dd), str(cf), "none", "zr2017")
    # repeated types: abc (f1@0, f1@3, f2@0), bca (f1@1, f1@4), cab (f1@2), abca (f1@0, f1@3),
    # ...: 3-grams abc x3, bca x2, cab x1; 4-grams abca x2; longer ones once
    g = fold_gold(p.gold_ngrams, p.ngrams, p.foldsets["cross"].folds[0], "zr2017")
    assert p.gold_ngrams.counts == {"classes_kept": 3, "distinct_fragments": 7}
    # abc: 3 windows, f1@0 and f2@0 have the same times (file-blind OV): 6 - 2 = 4 ordered
    # pairs; bca: [0.1, 0.4] and [0.4, 0.7] touch: 2; abca: [0, 0.4] and [0.3, 0.7] OV: 0
    assert g.n_gold.tolist() == [4, 2, 0]
    assert g.w_c.tolist() == [3, 2] and g.n_flat == 5
    # coverage: f1 [0, 0.7] by abca@0 + abca@3, f2 [0, 0.3] by abc@0
    assert coverage.total(g.cover) == pytest.approx(1.0)
    assert coverage.by_file(g.cover, 2).tolist() == pytest.approx([0.7, 0.3])


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 60), nlab=st.integers(1, 4),
       maxn=st.integers(1, 8))
def test_ngram_codes_rank_the_label_tuples(seed, n, nlab, maxn):
    """The code of window (i, L >= 2) = base[L] + rank of its label tuple among the distinct
    tuples of length L inside segments (lexicographic order of label ids), -1 outside; L = 1:
    the label id."""
    from termeval.tde.zr2015.corpus import _make
    from termeval.tde.zr2015.ngrams import NgramIndex
    rng = np.random.default_rng(seed)
    lab = rng.integers(0, nlab, size=n)
    seg = np.cumsum(rng.random(n) < 0.2)
    sg = _make(np.zeros(n, np.int64), np.arange(n) * 0.1, np.arange(n) * 0.1 + 0.1, lab,
               [str(k) for k in range(nlab)], seg)
    idx = NgramIndex(sg, maxn)
    assert np.array_equal(idx.ids[1], lab)
    for L in range(2, maxn + 1):
        wins = {i: tuple(lab[i:i + L].tolist()) for i in range(n - L + 1) if seg[i] == seg[i + L - 1]}
        rank = {t: r for r, t in enumerate(sorted(set(wins.values())))}
        want = np.full(n, -1)
        for i, t in wins.items():
            want[i] = rank[t]
        assert np.array_equal(idx.ids[L], want), L
        assert idx.ntypes_of(L) == len(rank)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 40), m=st.integers(0, 50),
       nlab=st.integers(1, 3), maxn=st.integers(1, 5), pre=st.integers(0, 4))
def test_mark_ids_by_ngram_codes_equal_the_tuple_dict(seed, n, m, nlab, maxn, pre):
    """corpus._mark_ids with an NgramIndex (codes for runs <= maxn, tuples beyond, the empty
    run) gives every run the id the plain tuple dict gives, a shared dict included."""
    from termeval.tde.zr2015.corpus import _make, _mark_ids
    from termeval.tde.zr2015.ngrams import NgramIndex
    rng = np.random.default_rng(seed)
    lab = rng.integers(0, nlab, size=n)
    sg = _make(np.zeros(n, np.int64), np.arange(n) * 0.1, np.arange(n) * 0.1 + 0.1, lab,
               [str(k) for k in range(nlab)], np.zeros(n, np.int64))
    start = rng.integers(0, n, size=m)
    length = np.minimum(n - start, rng.integers(0, 8, size=m))
    seeded = {tuple(rng.integers(0, nlab, size=k).tolist()): 100 + k for k in range(pre)}
    want_marks, got_marks = dict(seeded), dict(seeded)
    want = _mark_ids(lab, start, length, want_marks)
    got = _mark_ids(lab, start, length, got_marks, NgramIndex(sg, maxn))
    assert np.array_equal(want, got)
    assert want_marks == got_marks


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 60), nlab=st.integers(1, 4),
       nfiles=st.integers(1, 4), maxn=st.integers(1, 8))
def test_local_index_codes_are_ranked_as_the_corpus_codes(seed, n, nlab, nfiles, maxn):
    """An index over some whole files' phones (a job's fold) or of some levels only (a matching
    band) gives every window a code that compares with the others' as its corpus code does:
    the same sorts, the same sums; levels not kept give -1."""
    from termeval.tde.zr2015.corpus import _make
    from termeval.tde.zr2015.ngrams import NgramIndex
    from termeval.tde.zr2015.pairs import concat_ranges
    rng = np.random.default_rng(seed)
    lab = rng.integers(0, nlab, size=n)
    file = np.sort(rng.integers(0, nfiles, size=n))
    seg = np.cumsum(rng.random(n) < 0.2) + file * n
    sg = _make(file, np.arange(n) * 0.1, np.arange(n) * 0.1 + 0.1, lab, [str(k) for k in range(nlab)], seg)
    full = NgramIndex(sg, maxn)
    files = np.flatnonzero(rng.random(nfiles) < 0.6)
    fstart = np.searchsorted(file, np.arange(nfiles + 1))
    pos = concat_ranges(fstart[files], fstart[files + 1])
    lo = int(rng.integers(1, maxn + 1))
    part = NgramIndex(sg, maxn, keep=range(lo, maxn + 1), positions=pos)
    for L in range(1, maxn + 1):
        length = np.full(len(pos), L)
        a, b = full.code(pos, length), part.code(pos, length)
        if L < lo:
            assert (b == -1).all()
            continue
        assert np.array_equal(a >= 0, b >= 0)
        a, b = a[a >= 0], b[b >= 0]
        # a monotone bijection between the codes present: equal iff equal, ordered alike
        assert np.array_equal(np.unique(a, return_inverse=True)[1], np.unique(b, return_inverse=True)[1])
        assert (np.diff(b[np.argsort(a, kind="stable")]) >= 0).all()


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 60), nlab=st.integers(1, 4), m=st.integers(0, 30))
def test_streamed_codes_equal_the_index(seed, n, nlab, m):
    """The preparation saved for jobs keeps no level: its codes of the fragments' runs, its
    number of types and its repeated n-grams equal the kept index's."""
    from termeval.tde.zr2015.corpus import _make
    from termeval.tde.zr2015.ngramindex import NgramIndex, StreamedCodes, repeat_lengths
    rng = np.random.default_rng(seed)
    lab = rng.integers(0, nlab, size=n)
    seg = np.cumsum(rng.random(n) < 0.15)
    sg = _make(np.zeros(n, np.int64), np.arange(n) * 0.1, np.arange(n) * 0.1 + 0.1, lab,
               [str(k) for k in range(nlab)], seg)
    full = NgramIndex(sg)
    start = rng.integers(0, max(n, 1), size=m) if n else np.zeros(0, np.int64)
    length = np.minimum(n - start, rng.integers(1, 22, size=len(start)))
    streamed = StreamedCodes(sg)
    assert np.array_equal(streamed.code(start, length), full.code(start, length))
    assert streamed.ntypes == full.ntypes
    rl, counts = streamed.repeat_lengths()
    want_rl, want_counts = repeat_lengths(full)
    assert np.array_equal(rl, want_rl) and counts == want_counts
