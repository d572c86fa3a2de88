"""Hand-computed expectations for the zrc2020 (tdev2) term discovery metrics."""
from __future__ import annotations

import itertools
import os
import random
from fractions import Fraction

import editdistance
import numpy as np
import pytest

from termeval.data import load_classes, load_gold
from termeval.zrc2020.ned import NedStats, ned_stats
from termeval.zrc2020.report import final_scores
from termeval.zrc2020.stats import Corpus, compute_shard, merge, score, shard_ranges
from termeval.zrc2020.testing import write_class_dir, write_data_dir
from termeval.zrc2020.transcribe import load_phones, transcribe

# tde-spec §3.1/§3.2 micro-corpus: 100 ms phones a b c d, SIL, e f, g (20 ms), h
PHN = """A 0 0.1 a
A 0.1 0.2 b
A 0.2 0.3 c
A 0.3 0.4 d
A 0.4 0.5 SIL
A 0.5 0.6 e
A 0.6 0.7 f
A 0.7 0.72 g
A 0.72 0.82 h
"""


def make(tmp, phn, wrd, classes):
    with open(os.path.join(tmp, "x.phn"), "w") as f:
        f.write(phn)
    with open(os.path.join(tmp, "x.wrd"), "w") as f:
        f.write(wrd)
    with open(os.path.join(tmp, "x.class"), "w") as f:
        f.write(classes)
    write_data_dir(os.path.join(tmp, "x.phn"), os.path.join(tmp, "x.wrd"), os.path.join(tmp, "data"))
    write_class_dir(os.path.join(tmp, "x.class"), os.path.join(tmp, "exp"))
    gold = load_gold(os.path.join(tmp, "data"))
    return gold, load_classes(os.path.join(tmp, "exp", "classes"), gold)


@pytest.mark.parametrize("on,off,expected", [
    (0.100, 0.300, "b c"),
    (0.075, 0.300, "b c"),        # 25 ms of a
    (0.070, 0.300, "a b c"),      # exactly 30 ms: >= keeps it
    (0.0704, 0.300, "a b c"),     # 29.6 ms rounds to 30 ms
    (0.350, 0.650, "d SIL e f"),  # SIL kept inside
    (0.410, 0.490, "SIL"),
    (0.150, 0.160, ""),           # sub-phone fragment: dropped
    (0.120, 0.160, "b"),          # 40 ms >= 30 ms
    (0.710, 0.800, "g h"),        # exactly 50 % of the 20 ms phone g
    (0.689, 0.711, "g"),
    (0.750, 5.000, "h"),          # past the end of the file
    (5.0, 6.0, ""),               # no phone at all
])
def test_transcription_rule(tmp_path, on, off, expected):
    gold, _ = make(str(tmp_path), PHN, "A 0 0.2 w\n", "Class 0\nA 0 0.1\n\n")
    ph = load_phones(gold)
    k0, k1, _ = transcribe(ph, np.array([0]), np.array([on]), np.array([off]))
    got = " ".join(ph.labels[x] for x in ph.label[k0[0]:k1[0]])
    assert got == expected


from tde_micro import MICRO_CLASSES, MICRO_PHN, MICRO_WRD  # noqa: E402  (every metric computed by hand)


def test_micro_corpus_by_hand(tmp_path):
    gold, classes = make(str(tmp_path), MICRO_PHN, MICRO_WRD, MICRO_CLASSES)
    m, counts = score(gold, classes)
    s = final_scores(m)
    # NED: class 2 has 6 pairs, 3 of them abcd/abc (1/4); class 5 pairs d with SIL-only (1);
    # class 1 has 3 zero pairs -> (3/4 + 1) / 10
    assert s["ned"] == 0.175 and s["ned_pairs"] == 10
    # coverage: every speech phone of A and B (11), none of C (2)
    assert s["coverage"] == 11 / 13
    # grouping: found tokens abc x2 (A 0-0.3 and B 0-0.3 share one token key: same phone
    # times, no file id), abcd x2, d, SIL -> 6; gold tokens abc 2, abcd 2, d 2 -> 6;
    # found&gold: abc 2, abcd 2 -> P = 4/6, R = 4/6
    assert s["grouping_precision"] == pytest.approx(2 / 3, rel=1e-15)
    assert s["grouping_recall"] == pytest.approx(2 / 3, rel=1e-15)
    # token: 8 distinct fragments; hits x(A0), x(A.4), x(B0), y(A.7), y(B.3); 6 gold words
    assert (s["token_precision"], s["token_recall"]) == (5 / 8, 5 / 6)
    assert s["token_fscore"] == pytest.approx(5 / 7, rel=1e-15)
    # type: seen {abc, abcd, SIL, d}, hit {abc, d}; 3 orthographic types x y z
    assert (s["type_precision"], s["type_recall"]) == (1 / 2, 2 / 3)
    # boundary: 8 discovered points, all gold; 10 gold points (C contributes 2)
    assert (s["boundary_precision"], s["boundary_recall"]) == (1.0, 0.8)
    assert counts["fragments"] == 12 and counts["fragments_kept"] == 11
    assert counts["fragments_distinct"] == 8
    assert counts["fragments_discarded_no_phone_passes_30ms_50pct_rule"] == 1
    assert counts["classes"] == 6 and counts["classes_kept"] == 5


def test_micro_corpus_matches_reference(tmp_path):
    """The hand-computed micro corpus, checked once more against tdev2 itself."""
    from test_tde_differential import reference, reference_scores
    R = reference()
    for name, text in (("x.phn", MICRO_PHN), ("x.wrd", MICRO_WRD), ("x.class", MICRO_CLASSES)):
        (tmp_path / name).write_text(text)
    ref = reference_scores(R, {k: str(tmp_path / k) for k in ("x.phn", "x.wrd", "x.class")})
    assert ref["ned"] == pytest.approx(0.175, rel=1e-12)
    assert ref["coverage"] == 11 / 13
    assert ref["grouping_precision"] == pytest.approx(2 / 3) and ref["grouping_recall"] == pytest.approx(2 / 3)
    assert (ref["token_precision"], ref["token_recall"]) == (5 / 8, 5 / 6)
    assert (ref["type_precision"], ref["type_recall"]) == (1 / 2, 2 / 3)
    assert (ref["boundary_precision"], ref["boundary_recall"]) == (1.0, 0.8)


def test_shards_do_not_change_anything(tmp_path):
    gold, classes = make(str(tmp_path), MICRO_PHN, MICRO_WRD, MICRO_CLASSES)
    base = score(gold, classes, nj=1)
    for nj in (2, 3, 6, 9):
        assert score(gold, classes, nj=nj) == base
    ranges = shard_ranges(classes, 9)
    assert ranges[0][0] == 0 and ranges[-1][1] == len(classes.keys)
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))


def test_zero_token_hits_and_f_of_zero(tmp_path):
    # one class of two fragments that hit no word: tdev2 raises in its token F-score
    gold, classes = make(str(tmp_path), MICRO_PHN, MICRO_WRD, "Class 1\nA 0.1 0.3\nB 0.1 0.3\n\n")
    s = final_scores(score(gold, classes)[0])
    assert s["token_precision"] == 0 and s["token_recall"] == 0 and s["token_fscore"] == 0
    assert s["type_fscore"] == 0
    assert s["ned"] == 0.0 and s["grouping_precision"] == 1.0


def test_undefined_metrics(tmp_path):
    # a single fragment: no pair (NED undefined), no found type (grouping P undefined)
    gold, classes = make(str(tmp_path), MICRO_PHN, MICRO_WRD, "Class 1\nC 0 0.2\n\n")
    s = final_scores(score(gold, classes)[0])
    assert s["ned"] is None and s["ned_pairs"] == 0
    assert s["grouping_precision"] is None and s["grouping_recall"] is None and s["grouping_fscore"] is None
    assert s["coverage"] == 2 / 13
    # every fragment discarded: nothing is defined but nothing crashes
    gold, classes = make(str(tmp_path), MICRO_PHN, MICRO_WRD, "Class 1\nA 0.15 0.16\nC 5 6\n\n")
    m, counts = score(gold, classes)
    s = final_scores(m)
    assert s["coverage"] == 0.0 and s["token_precision"] is None and s["boundary_precision"] is None
    assert counts["fragments_discarded_no_phone_overlaps"] == 1


def brute_ned(clusters: list[list[str]]) -> tuple[Fraction, int]:
    total, n = Fraction(0), 0
    for c in clusters:
        for x, y in itertools.combinations(c, 2):
            m = max(len(x), len(y))
            total += Fraction(editdistance.eval(x, y), m) if m else 1
            n += 1
    return total, n


@pytest.mark.parametrize("seed", range(4))
def test_ned_counting_equals_pair_enumeration(seed):
    """Both code paths (many small clusters, one cluster with many distinct strings)."""
    rng = random.Random(seed)
    alphabet = "abcde"
    clusters = [[("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 4))))
                 for _ in range(rng.randint(1, 8))] for _ in range(30)]
    clusters.append(["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6))) for _ in range(150)])
    strings = sorted({s for c in clusters for s in c})
    sid = {s: i for i, s in enumerate(strings)}
    cl = np.array([i for i, c in enumerate(clusters) for _ in c])
    ids = np.array([sid[s] for c in clusters for s in c])
    st, _ = ned_stats(cl, ids, strings, len(clusters))
    total, n = brute_ned(clusters)
    assert st.pairs == n
    assert st.value() == float(total / n)
    # additivity: split the clusters in two and add
    half = cl < 15
    a, _ = ned_stats(cl[half], ids[half], strings, len(clusters))
    b, _ = ned_stats(cl[~half], ids[~half], strings, len(clusters))
    assert a.add(b).value() == st.value() and NedStats().value() is None


def test_final_scores_f():
    s = final_scores({"grouping_precision": 0.0, "grouping_recall": 0.0, "type_precision": float("nan"),
                      "type_recall": 0.5, "token_precision": 0.5, "token_recall": 0.25})
    assert s["grouping_fscore"] == 0.0 and s["type_fscore"] is None and s["type_precision"] is None
    assert s["token_fscore"] == pytest.approx(1 / 3)
    assert s["boundary_fscore"] is None


def test_shard_statistics_roundtrip(tmp_path):
    from termeval.zrc2020.stats import read_shard, write_shard
    gold, classes = make(str(tmp_path), MICRO_PHN, MICRO_WRD, MICRO_CLASSES)
    corpus = Corpus.from_gold(gold)
    shards = [compute_shard(corpus, classes, a, b) for a, b in shard_ranges(classes, 2)]
    for i, sh in enumerate(shards):
        write_shard(sh, str(tmp_path / f"stats.{i}"))
    back = [read_shard(str(tmp_path / f"stats.{i}")) for i in range(2)]
    assert merge(corpus, back) == merge(corpus, shards)
    assert back[0].clusters == shards[0].clusters
