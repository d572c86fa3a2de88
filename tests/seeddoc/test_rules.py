"""One hand-made case per rule of seed-definitions.md, the value derived by hand here."""
from __future__ import annotations


import numpy as np
import pytest

from termeval.core.errors import InputError
from termeval.tde.seeddoc.completion import template
from termeval.tde.foldspec import parse_folds
from termeval.tde.seeddoc.folds import equal_parts, make_folds
from termeval.tde.seeddoc.report import aggregate
from tests.seeddoc.handmade import corpus, letters, run

ZR, LREC = "zr2015-doc", "lrec2014"


def test_edge_phone_more_than_30ms_or_half_vs_at_least(tmp_path):
    # a[0,60) b[60,120) c[120,180) d[180,240), each a word; fragment [30, 150) ms shares exactly
    # 30 ms (= half) with a and c: zr2015-doc (">") keeps b only, lrec2014 (">=") keeps abc
    c = corpus({"f0": letters("abcd", 60)})
    zr = run(tmp_path, ZR, *c, [[("f0", 30, 150)]])
    assert zr["token_precision"] == 1.0 and zr["token_recall"] == 0.25       # {b} vs 4 words
    lr = run(tmp_path, LREC, *c, [[("f0", 30, 150)]])
    # lrec: range abc covers a, b, c: Y = words a, b, c; the occurrence abc is no word
    assert lr["token_precision"] == 0.0 and lr["token_recall"] == 0.0
    assert lr["coverage"] == 3 / 4


def test_pause_not_a_phone_sil_and_gap_alike(tmp_path):
    # a SIL b and a <gap> b: 2 phones either way; the fragment across the pause keeps a and b
    for pause in ("SIL", ""):
        c = corpus({"f0": [("a", 60), (pause, 40), ("b", 60)]})
        lr = run(tmp_path, LREC, *c, [[("f0", 0, 160)]])
        assert lr["coverage"] == 1.0                                          # 2 / 2 phones
        assert lr["counts"]["phones"] == 2


def test_empty_transcription_fragment_discarded(tmp_path):
    # 20 ms inside a 100 ms phone: o = 20 ms, 2o = 40 < 100: no phone, the fragment is dropped
    c = corpus({"f0": letters("ab", 100)})
    r = run(tmp_path, ZR, *c, [[("f0", 40, 60), ("f0", 100, 200)]])
    assert r["counts"]["fragments_discarded_empty_transcription"] == 1
    assert r["counts"]["fragments"] == 1
    assert r["ned"] is None                          # the class is left a singleton: no pair


def test_pair_overlap_more_than_half_of_either(tmp_path):
    c = corpus({"f0": letters("abcdefgh", 50)})
    # [0,300) and [100,400): shared 200 ms > 150: overlapping, no pair in zr2015-doc
    r = run(tmp_path, ZR, *c, [[("f0", 0, 300), ("f0", 100, 400)]])
    assert r["ned"] is None
    r = run(tmp_path, LREC, *c, [[("f0", 0, 300), ("f0", 100, 400)]])
    assert r["ned"] == pytest.approx(4 / 6)          # abcdef / cdefgh: delete ab, insert gh
    # [0,300) and [200,400): shared 100 ms, 2*100 = 200 < 200 of the shorter: a pair
    r = run(tmp_path, ZR, *c, [[("f0", 0, 300), ("f0", 200, 400)]])
    assert r["ned"] == pytest.approx(1.0)            # abcdef / efgh: 6 edits over 6 phones


def test_ned_distinct_pairs_max_phone_length(tmp_path):
    # x = abc, y = abd in two classes (one pair), z = aaa: pairs {x,y} 1/3, {x,z} 2/3, {y,z} 2/3
    c = corpus({"f0": letters("abc"), "f1": letters("abd"), "f2": letters("aaa")})
    x, y, z = ("f0", 0, 150), ("f1", 0, 150), ("f2", 0, 150)
    r = run(tmp_path, ZR, *c, [[x, y], [x, y, z]])
    assert r["ned"] == pytest.approx(5 / 9, abs=1e-12)      # not (1/3 + 1/3 + 2/3 + 2/3) / 4
    assert r["counts"]["ned_pairs"] == 3


def test_coverage_unclipped_and_coverage_discoverable(tmp_path):
    # f0 abcq, f1 abc, f2 xyz; D = the two abc (6 phones); paired fragments abcq + xyz = 7 phones
    c = corpus({"f0": letters("abcq"), "f1": letters("abc"), "f2": letters("xyz")})
    r = run(tmp_path, ZR, *c, [[("f0", 0, 200), ("f2", 0, 150)]])
    assert r["coverage"] == pytest.approx(7 / 6)
    assert r["coverage_discoverable"] == pytest.approx(3 / 6)     # abc of f0 only


def test_completion_all_minimal_edit_paths():
    # <abcd, efg>: D = 4; sub-pairs of >= 3 phones on minimal paths: (abc,efg) (bcd,efg) (abcd,efg)
    t = template(tuple(b"abcd"), tuple(b"efg"), 3, 20)
    assert sorted(map(tuple, t[:, :4].tolist())) == [(0, 3, 0, 3), (0, 4, 0, 3), (1, 4, 0, 3)]
    # across an insertion: abcd / abxcd, D = 1: (abc, abxc) lies on the path, (abc, abx) not
    t = {tuple(r[:4]) for r in template(tuple(b"abcd"), tuple(b"abxcd"), 3, 20).tolist()}
    assert (0, 3, 0, 4) in t and (0, 3, 0, 3) not in t and (1, 4, 1, 5) in t


def test_matching_fragment_weights(tmp_path):
    # abcd discovered in f0 and f1: X = {abc, bcd, abcd} pairs (6 ranges, all gold); xyz also
    # repeats (f0, f1) and is not discovered: flat(Y) = 8 ranges
    c = corpus({"f0": letters("abcdxyz"), "f1": letters("abcdqxyz")})
    r = run(tmp_path, ZR, *c, [[("f0", 0, 200), ("f1", 0, 200)]])
    assert r["matching_precision"] == 1.0
    assert r["matching_recall"] == pytest.approx(6 / 8)


def test_matching_lengths_3_20_vs_3_30(tmp_path):
    labs = [f"p{i}" for i in range(22)]
    c = corpus({"f0": [(x, 20) for x in labs], "f1": [(x, 20) for x in labs]})
    cl = [[("f0", 0, 440), ("f1", 0, 440)]]
    # sub-ranges of a 22-phone range: lengths 3..20 -> sum (23 - l) = 207; 3..22 -> 210; x2 sides
    assert run(tmp_path, ZR, *c, cl)["counts"]["matching_flat_x"] == 414
    assert run(tmp_path, LREC, *c, cl)["counts"]["matching_flat_x"] == 420


def test_completed_overlapping_pairs_dropped(tmp_path):
    # aaa at phones 0-2 and 1-3 of f0 (lrec2014 pairs them): the only completion shares phones
    c = corpus({"f0": letters("aaaa")})
    r = run(tmp_path, LREC, *c, [[("f0", 0, 150), ("f0", 50, 200)]])
    assert r["ned"] == 0.0                           # the discovered pair exists
    assert r["matching_precision"] is None           # but X is empty
    assert r["counts"]["matching_flat_x"] == 0


def test_matching_ordered_pair_second_element_weights(tmp_path):
    # abc (f0), abc (f1), abd (f2) in one class; Y = {f0abc-f1abc}
    c = corpus({"f0": letters("abc"), "f1": letters("abc"), "f2": letters("abd")})
    cl = [[("f0", 0, 150), ("f1", 0, 150), ("f2", 0, 150)]]
    lr = run(tmp_path, LREC, *c, cl)
    # types of flat(X): abc (2 of 3), abd (1 of 3); match(abc,X) = 4, match(abc,X∩Y) = 2
    assert lr["matching_precision"] == pytest.approx(2 / 3 * 2 / 4)
    assert lr["matching_recall"] == 1.0
    zr = run(tmp_path, ZR, *c, cl)
    assert zr["matching_precision"] == pytest.approx(2 / 3) and zr["matching_recall"] == 1.0


def test_grouping_gold_touching_fragments_are_disjoint(tmp_path):
    c = corpus({"f0": letters("abcabc")})
    r = run(tmp_path, ZR, *c, [[("f0", 0, 150), ("f0", 150, 300)]])
    assert r["grouping_precision"] == 1.0 and r["grouping_recall"] == 1.0


def test_grouping_gold_lrec_needs_3_to_20_phones(tmp_path):
    c = corpus({"f0": letters("ab"), "f1": letters("ab")})
    cl = [[("f0", 0, 100), ("f1", 0, 100)]]
    lr = run(tmp_path, LREC, *c, cl)
    assert lr["grouping_precision"] == 0.0 and lr["grouping_recall"] is None
    zr = run(tmp_path, ZR, *c, cl)
    assert zr["grouping_precision"] == 1.0 and zr["grouping_recall"] == 1.0


def test_type_phone_string_sets_and_3to20(tmp_path):
    # words ab | abc (f0), x | ab | x (f1); discovered ab (f1): types {ab} vs {ab, abc, x}
    c = corpus({"f0": letters("ababc"), "f1": letters("xabx")},
               words={"f0": [(0, 2), (2, 5)], "f1": [(0, 1), (1, 3), (3, 4)]})
    r = run(tmp_path, ZR, *c, [[("f1", 50, 150)]])
    assert r["type_precision"] == 1.0 and r["type_recall"] == pytest.approx(1 / 3)   # {ab, abc, x}
    assert r["type_3to20_precision"] is None and r["type_3to20_recall"] == 0.0
    assert r["token_precision"] == 1.0                        # (f1, 1, 3) is the word ab


def test_type_per_type_average_on_covered_corpus(tmp_path):
    # f0 words abc | de, f1 words ab | c; discovered abc (f0, a word), abc (f1, no word), de
    c = corpus({"f0": letters("abcde"), "f1": letters("abc")},
               words={"f0": [(0, 3), (3, 5)], "f1": [(0, 2), (2, 3)]})
    r = run(tmp_path, LREC, *c, [[("f0", 0, 150), ("f1", 0, 150)], [("f0", 150, 250)]])
    assert r["token_precision"] == pytest.approx(2 / 3)
    assert r["type_precision"] == pytest.approx((1 / 2 + 1) / 2)       # not 2/3
    assert r["token_recall"] == 0.5 and r["type_recall"] == 0.5       # Y: abc, de, ab, c


def test_boundary_nearest_phone_edge_under_30ms(tmp_path):
    # a[0,100) b[100,140) c[140,300); words a | bc; gold edges 0, 100, 300
    c = corpus({"f0": [("a", 100), ("b", 40), ("c", 160)]}, words={"f0": [(0, 1), (1, 3)]})
    cl = [[("f0", 20, 120)], [("f0", 60, 290)], [("f0", 65, 200)]]
    r = run(tmp_path, ZR, *c, cl)
    # 20 -> 0; 120 -> tie 100/140 -> 100; 290 -> 300; 60, 65, 200 wrong (three elements)
    assert r["boundary_precision"] == pytest.approx(3 / 6) and r["boundary_recall"] == 1.0
    lr = run(tmp_path, LREC, *c, cl)
    # transcribed edges: 0-140 (b kept: 2*20 >= 40), 0-300, 0-300; Y = {0, 100, 300}
    assert lr["boundary_precision"] == pytest.approx(2 / 3) and lr["boundary_recall"] == pytest.approx(2 / 3)


def test_within_same_speaker_pairs_pooled(tmp_path):
    c = corpus({"f0": letters("abc"), "f1": letters("abd"), "f2": letters("abc"), "f3": letters("abc"),
                "f4": letters("abc")}, speaker={"f0": "A", "f1": "A", "f2": "B", "f3": "B", "f4": "B"})
    cl = [[("f0", 0, 150), ("f1", 0, 150)], [("f2", 0, 150), ("f3", 0, 150), ("f4", 0, 150)]]
    r = run(tmp_path, ZR, *c, cl)
    assert r["within_ned"] == pytest.approx((1 / 3) / 4)       # pooled; per-speaker mean: 1/6


def test_equal_parts_by_duration_midpoint():
    parts = equal_parts(np.arange(3), np.array([100, 100, 400]), 2)
    # midpoints 50, 150, 400 of D = 600: 2*(2C+d)/(2D) = 0.17, 0.5, 1.33
    assert [p.tolist() for p in parts] == [[0, 1], [2]]


def test_random_batches_k_rounds_half_up():
    folds = make_folds(parse_folds("random:2x0.5:3", LREC), np.ones(5, np.int64), np.ones(5, np.int64))
    assert [len(f) for f in folds] == [3, 3]                 # floor(0.5 * 5 + 1/2) = 3
    rng = np.random.default_rng(3)
    assert folds[0].tolist() == sorted(np.argsort(rng.random(5), kind="stable")[:3].tolist())


def test_fold_aggregation_fscore_rules_and_skipped_folds():
    folds = [{"values": {"x_precision": 1.0, "x_recall": 0.5}},
             {"values": {"x_precision": 0.5, "x_recall": 0.5}},
             {"values": {"x_precision": None, "x_recall": 0.3}}]
    zr, skipped = aggregate(ZR, folds, True)
    assert zr["x_precision"] == 0.75 and zr["x_recall"] == 0.5 and skipped == {"x": 1}
    assert zr["x_fscore"] == pytest.approx((2 / 3 + 0.5) / 2)          # mean of fold F
    assert zr["x_precision_std"] == pytest.approx(0.25)                # population
    lr, _ = aggregate(LREC, folds, True)
    assert lr["x_fscore"] == pytest.approx(2 * 0.75 * 0.5 / 1.25)      # F(mean P, mean R)


@pytest.mark.parametrize("mode,value", [(ZR, "random:3x0.5"), (LREC, "equal:3"), (ZR, "equal:0"),
                                        (LREC, "random:0x0.5"), (LREC, "random:3x1.5"),
                                        (LREC, "random:3x0.5:-1"), (ZR, "sometimes")])
def test_bad_folds_one_line_naming_the_option(mode, value):
    with pytest.raises(InputError) as e:
        parse_folds(value, mode)
    assert str(e.value).startswith(f"--folds {value}:") and "\n" not in str(e.value)


def test_more_parts_than_files_is_an_error():
    with pytest.raises(InputError, match="--folds equal:4"):
        make_folds(parse_folds("equal:4", ZR), np.array([3, 0, 2, 5]), np.ones(4, np.int64))


def test_auto_folds():
    assert str(parse_folds("auto", ZR)) == "equal:10"
    assert str(parse_folds("auto", LREC)) == "random:50x0.04:777"
    assert str(parse_folds("random:5x0.1", LREC)) == "random:5x0.1:777"


def test_std_keys_per_fold_keys_only(tmp_path):
    c = corpus({"f0": letters("abcabc"), "f1": letters("abcab")})
    cl = [[("f0", 0, 150), ("f0", 150, 300), ("f1", 0, 150)]]
    one = run(tmp_path, ZR, *c, cl, folds="equal:1")
    assert one["ned_std"] == 0.0 and one["matching_fscore_std"] == 0.0     # one fold: spread 0
    assert "ned_std" not in run(tmp_path, ZR, *c, cl, folds="none")
    lr = run(tmp_path, LREC, *c, cl, folds="random:2x0.5:1")
    assert "matching_precision_std" in lr and "grouping_fscore_std" in lr
    assert "ned_std" not in lr and "token_precision_std" not in lr and "coverage_std" not in lr
