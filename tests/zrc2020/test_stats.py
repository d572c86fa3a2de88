"""Every zrc2020 metric on the hand-computed micro-corpus, by shards (termeval.tde.zrc2020.stats)."""
from __future__ import annotations

import pytest

from termeval.tde.zrc2020.report import final_scores
from termeval.tde.zrc2020.stats import Corpus, compute_shard, merge, score, shard_ranges
from tde_micro import MICRO_CLASSES, MICRO_PHN, MICRO_WRD, make


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
    from tde_reference import reference, reference_scores
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


def test_shard_statistics_roundtrip(tmp_path):
    """Shard statistics survive the job protocol's shard file (termeval.run.driver) unchanged."""
    from termeval.run import driver as jobs
    from termeval.tde.zrc2020.stats import from_shard, to_shard
    gold, classes = make(str(tmp_path), MICRO_PHN, MICRO_WRD, MICRO_CLASSES)
    corpus = Corpus.from_gold(gold)
    shards = [compute_shard(corpus, classes, a, b) for a, b in shard_ranges(classes, 2)]
    for i, sh in enumerate(shards):
        jobs.save_shard(str(tmp_path / f"stats.{i}.npz"), {"job": i}, to_shard(sh))
    back = [from_shard(jobs.load_shard(str(tmp_path / f"stats.{i}.npz"), {"job": i})) for i in range(2)]
    assert merge(corpus, back) == merge(corpus, shards)
    assert back[0].clusters == shards[0].clusters


def test_boundary_points_by_file_blocks_equal_all_at_once(monkeypatch):
    import numpy as np
    from termeval.tde.zrc2020 import boundary
    rng = np.random.default_rng(5)
    df = np.sort(rng.integers(0, 7, 300)).astype(np.int32)
    gf = np.sort(rng.integers(0, 9, 200)).astype(np.int32)
    don, gon = rng.integers(0, 40, 300) / 10, rng.integers(0, 40, 200) / 10
    args = (df, don, don + 0.1 * rng.integers(1, 5, 300), gf, gon, gon + 0.1 * rng.integers(1, 5, 200))
    whole = boundary._points(*args)
    monkeypatch.setattr(boundary, "BLOCK_POINTS", 37)
    blocks = boundary.points(*args)
    assert all(a.tolist() == b.tolist() for a, b in zip(whole, blocks))
    assert boundary.from_points(blocks) == boundary.from_points(whole) and whole[1].sum() > 0


def test_merge_by_blocks_changes_nothing(tmp_path, monkeypatch):
    """token/type matching and boundary points done a few fragments/points at a time (bounded
    memory at any corpus size) give the scores and counts of all at once."""
    from termeval.tde.zrc2020 import boundary, token_type
    gold, classes = make(str(tmp_path), MICRO_PHN, MICRO_WRD, MICRO_CLASSES)
    base = score(gold, classes, nj=1)
    assert base[0]["token_precision"] == 5 / 8 and base[0]["type_recall"] == 2 / 3
    monkeypatch.setattr(token_type, "BLOCK", 2)
    monkeypatch.setattr(boundary, "BLOCK_POINTS", 3)
    assert score(gold, classes, nj=1) == base
    assert score(gold, classes, nj=3) == base
