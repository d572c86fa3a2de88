"""Hand-computed cases for --compat malan-strict / malan-lenient (s-malan/evaluation
boundary_word.py), and a differential run of the script's own functions when $MALAN_DIR
points to a checkout of s-malan/evaluation."""
from __future__ import annotations

import importlib.util
import math
import os
import sys
import types

import numpy as np
import pytest

from termeval.core.errors import InputError
from termeval.segmentation.scorers import malan
from termeval.segmentation.scorers.tier import alternate, first_free, tier_ends


def lists(*utts):
    """(utt, frame) arrays of per-utterance frame lists."""
    u = np.concatenate([np.full(len(x), i, dtype=np.int64) for i, x in enumerate(utts)])
    f = np.concatenate([np.asarray(x, dtype=np.int64) for x in utts])
    return u, f


def scan(gold, pred, tol=1, lenient=False):
    g, p = lists(*gold), lists(*pred)
    counts, left = malan.hit_scan(g, p, len(gold), tol, lenient)
    return counts.tolist(), [p[1][left & (p[0] == i)].tolist() for i in range(len(gold))]


def test_frames_round_half_even_in_the_scripts_order():
    # t / 20 * 1000: 0.01 -> 0.5 -> 0; 0.03 -> 1.5 -> 2; 0.05 -> 2.5 -> 2;
    # 0.07 -> 3.5000000000000004 -> 4; 0.13 -> 6.500000000000001 -> 7 (0.13 / 0.02 = 6.5 would give 6)
    assert malan.frames([0.01, 0.03, 0.05, 0.07, 0.13], 20).tolist() == [0, 2, 2, 4, 7]
    assert malan.frame_ms(0.02) == 20
    with pytest.raises(InputError):
        malan.frame_ms(0.0125)


def test_tier_ends_include_silences_and_the_utterance_end():
    # utterance 0 from 1.0 to 2.0 s: words 1.1-1.3, 1.3-1.5, 1.6-1.8; utterance 1: no word
    u, t = tier_ends(np.array([0, 0, 0]), np.array([1.1, 1.3, 1.6]), np.array([1.3, 1.5, 1.8]),
                     np.array([1.0, 0.0]), np.array([2.0, 3.0]))
    assert u.tolist() == [0, 0, 0, 0, 0, 0, 1]
    assert np.allclose(t, [0.1, 0.3, 0.5, 0.6, 0.8, 1.0, 3.0])
    # a last word ending at the utterance end adds no silence end
    u, t = tier_ends(np.array([0]), np.array([0.0]), np.array([2.0]), np.array([0.0]), np.array([2.0]))
    assert t.tolist() == [2.0]


def test_last_pair_removed_when_within_tolerance():
    # 19 vs 20: both removed; gold [5, 10] pred [5]: 1 hit; the removal scanned a copy, so the
    # prediction list keeps the popped 5 (and the removed 19)
    assert scan([[5, 10, 20]], [[5, 19]]) == ([[1, 2, 1]], [[5, 19]])
    # 15 vs 20: kept; 5 popped from the script's own list
    assert scan([[5, 10, 20]], [[5, 15]]) == ([[2, 3, 1]], [[15]])


def test_lenient_pop_skips_the_next_prediction():
    # gold 10 sees 9 (popped), skips 10, pops 11: 2 hits, not 3; strict pops 9 only
    assert scan([[10, 50]], [[9, 10, 11]], lenient=True) == ([[3, 2, 2]], [[10]])
    assert scan([[10, 50]], [[9, 10, 11]], lenient=False) == ([[3, 2, 1]], [[10, 11]])


def test_lenient_double_counting_across_a_chain():
    # gold 10: pops 9, skips 10, pops 11; gold 12: 13 -> 3 hits from 2 gold boundaries
    assert scan([[10, 12, 40]], [[9, 10, 11, 13]], lenient=True) == ([[4, 3, 3]], [[10]])
    # strict: 10 takes 9, 12 takes 11 -> 2
    assert scan([[10, 12, 40]], [[9, 10, 11, 13]], lenient=False) == ([[4, 3, 2]], [[10, 13]])


def test_duplicates_count_twice_and_empty_utterances():
    # two predictions in frame 5 and gold 5 once: strict 1 hit, lenient 1 (the second is skipped)
    assert scan([[5, 30]], [[5, 5]], lenient=True)[0] == [[2, 2, 1]]
    # an utterance without predictions: its gold boundaries count; no last-pair removal
    assert scan([[5, 30], [7]], [[5, 30], []]) == ([[1, 1, 1], [0, 1, 0]], [[5, 30], []])


def test_token_scan_on_the_lists_as_left():
    g = lists([10, 50])
    # lenient left [10]: (0,10) correct of 1; strict left [10, 11]: (0,10) correct, (10,11) not
    assert malan.token_scan(g, lists([10]), 1, 1).tolist() == [[1, 2, 1]]
    assert malan.token_scan(g, lists([10, 11]), 1, 1).tolist() == [[2, 2, 1]]
    # a gold token is used once: two predicted (0,10) and (10,10)? (10,10) vs (10,50) no;
    # predicted [11, 49]: (0,11) ~ (0,10), (11,49) ~ (10,50) both within 1 frame
    assert malan.token_scan(g, lists([11, 49]), 1, 1).tolist() == [[2, 2, 2]]
    # the first free gold token in order: gold [1, 2, 40] at tol 1 gives (0,1) (1,2) (2,40);
    # predicted [1, 1]: (0,1) takes (0,1); (1,1) takes (1,2) (start 1, end 1 within 1 of 2)
    assert malan.token_scan(lists([1, 2, 40]), lists([1, 1]), 1, 1).tolist() == [[2, 3, 2]]


def test_values_edge_cases():
    # no boundary at all: P = R = 0 (the script's F -inf is 0 here); no hit: 0, 0, 0, OS undefined
    assert malan.values(np.array([0, 0, 0])) == {"precision": 0.0, "recall": 0.0, "fscore": 0.0,
                                                 "os": None, "rvalue": None}
    assert malan.values(np.array([5, 4, 0]))["fscore"] == 0.0
    v = malan.values(np.array([2, 4, 2]))
    assert (v["precision"], v["recall"], v["fscore"], v["os"]) == (0.5, 1.0, 2 / 3, 1.0)
    # R-value: r1 = sqrt(0 + 1) = 1, r2 = (-1 + 1 - 1)/sqrt(2) -> 1 - (1 + 0.7071...)/2
    assert abs(v["rvalue"] - (1 - (1 + 1 / math.sqrt(2)) / 2)) < 1e-15


def brute(gold, pred, tol, strict):
    """The script's semantics on Python lists (a list popped while enumerated)."""
    n_seg = n_ref = n_hit = 0
    out = []
    for g, p in zip(gold, pred):
        p_orig = list(p)
        if p and g and abs(p[-1] - g[-1]) <= tol:
            p, g = p[:-1], g[:-1]
        else:
            p = p_orig
        n_seg, n_ref = n_seg + len(p), n_ref + len(g)
        for r in g if p else []:
            for i, q in enumerate(p):
                if abs(r - q) <= tol:
                    n_hit += 1
                    p.pop(i)
                    if strict:
                        break
        out.append(p_orig)
    return [n_seg, n_ref, n_hit], out


def test_random_against_list_semantics():
    rng = np.random.default_rng(3)
    for _ in range(300):
        n = int(rng.integers(1, 4))
        gold = [sorted(rng.integers(0, 30, int(rng.integers(0, 8))).tolist()) for _ in range(n)]
        pred = [sorted(rng.integers(0, 30, int(rng.integers(0, 8))).tolist()) for _ in range(n)]
        tol = int(rng.integers(0, 3))
        for lenient in (False, True):
            counts, left = malan.hit_scan(lists(*gold), lists(*pred), n, tol, lenient)
            want, want_left = brute(gold, [list(x) for x in pred], tol, not lenient)
            assert counts.sum(axis=0).tolist() == want
            p = lists(*pred)
            assert [p[1][left & (p[0] == i)].tolist() for i in range(n)] == want_left


def test_scans_vectorised_and_chained_agree():
    # isolated ranges and a chain [0,3) [1,4) [2,4)
    lo, hi = np.array([0, 1, 2, 6, 9]), np.array([3, 4, 4, 9, 9])
    assert first_free(lo, hi, 10).tolist() == [0, 1, 2, -1, -1, -1, 3, -1, -1, -1]
    assert alternate(lo, hi, 10).tolist() == [0, 1, 0, 2, -1, -1, 3, -1, 3, -1]


def _load_script(path):
    """boundary_word.py with its CLI-only imports stubbed when they are not installed."""
    for name in ("textgrids",):
        if importlib.util.find_spec(name) is None:
            sys.modules.setdefault(name, types.ModuleType(name))
    spec = importlib.util.spec_from_file_location("malan_boundary_word", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.skipif(not os.environ.get("MALAN_DIR"), reason="$MALAN_DIR: a checkout of s-malan/evaluation")
def test_differential_against_boundary_word():
    bw = _load_script(os.path.join(os.environ["MALAN_DIR"], "boundary_word.py"))
    rng = np.random.default_rng(7)
    for _ in range(200):
        n = int(rng.integers(1, 5))
        gt = [np.sort(rng.integers(1, 400, int(rng.integers(1, 12)))) / 100 for _ in range(n)]
        pt = [np.sort(rng.integers(1, 400, int(rng.integers(0, 12)))) / 100 for _ in range(n)]
        seg = [list(bw.get_frame_num(x, frames_per_ms=20)) for x in pt]
        ref = [list(bw.get_frame_num(x, frames_per_ms=20)) for x in gt]
        for strict in (True, False):
            s2, r2 = [list(x) for x in seg], [list(x) for x in ref]
            counts = bw.eval_segmentation(s2, r2, strict=strict, tolerance=1)
            p, r, f = bw.get_p_r_f1(*counts)
            try:
                tp, tr, tf = bw.get_word_token_boundaries(s2, r2, tolerance=1)
            except ZeroDivisionError:      # no predicted token at all
                tp, tr, tf = None, 0.0, -np.inf
            g = lists(*[malan.frames(x, 20) for x in gt])
            pr = lists(*[malan.frames(x, 20) for x in pt])
            b, left = malan.hit_scan(g, pr, n, 1, not strict)
            t = malan.token_scan(g, (pr[0][left], pr[1][left]), n, 1)
            assert b.sum(axis=0).tolist() == [int(x) for x in counts]
            mb, mt = malan.values(b.sum(axis=0)[[1, 0, 2]]), malan.values(t.sum(axis=0)[[1, 0, 2]])
            assert (mb["precision"], mb["recall"], mb["fscore"]) == (p, r, 0.0 if f == -np.inf else f)
            os_ = bw.get_os(p, r)
            assert mb["os"] == (None if os_ == -np.inf else os_)
            rv = bw.get_rvalue(p, r)
            assert mb["rvalue"] == (None if rv == -np.inf else rv)
            assert (mt["precision"], mt["recall"]) == (0.0 if tp is None else tp, tr)
            assert mt["fscore"] == (0.0 if tf == -np.inf else tf)


def test_int16_warning():
    # 655.34 s is frame 32767 at 20 ms (the script's int16 holds it); 655.36 s is frame 32768
    p = types.SimpleNamespace(frame_shift=0.02, tolerance=0.02, compat="malan-strict")
    ok = types.SimpleNamespace(start=np.array([0.0, 10.0]), end=np.array([655.34, 20.0]))
    assert malan.warnings(ok, p) == []
    long = types.SimpleNamespace(start=np.array([0.0]), end=np.array([655.36]))
    assert "1 utterances are longer than 32767 frames" in malan.warnings(long, p)[0]
