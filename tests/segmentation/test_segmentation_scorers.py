"""The named scorers of --compat NAME (termeval.segmentation.scorers): hand-computed cases per
quirk, a differential test against each scorer's own code when a checkout is given
($HARWATH_DIR: jasonppy/syllable-discovery, $SDHUBERT_DIR: cheoljun95/sdhubert,
$DISCOPHON_DIR: CoML discophon 0.2.0 sdist), and the command line (harwath, rasanen, all)."""
from __future__ import annotations

import ast
import json
import math
import os
import subprocess
from dataclasses import dataclass
from functools import cached_property
from itertools import groupby

import numpy as np
import pytest

from termeval.bin import score_segmentation
from termeval.gold import prepare_zr
from termeval.segmentation import scorers
from termeval.segmentation.inputs import NO_LABEL, Intervals, Utterances
from termeval.segmentation.options import SegmentationOptions
from termeval.segmentation.scorers import harwath, rasanen


@dataclass
class P:
    tolerance: float = 0.02
    frame_shift: float = 0.01
    level: str = "word"


def utts(ends: list[float]) -> Utterances:
    n = len(ends)
    return Utterances([f"u{i}" for i in range(n)], np.arange(n), np.zeros(n), np.asarray(ends, float),
                      ["s"] * n, "files")


def iv(rows: list[tuple], labelled: bool = True) -> Intervals:
    """rows: (utt, onset, offset[, label])."""
    rows = sorted(rows)
    names = sorted({r[3] for r in rows}) if labelled and rows and len(rows[0]) > 3 else []
    lab = [names.index(r[3]) for r in rows] if names else [NO_LABEL] * len(rows)
    return Intervals(np.asarray([r[0] for r in rows], dtype=np.int64), np.asarray([r[1] for r in rows], float),
                     np.asarray([r[2] for r in rows], float), np.asarray(lab, dtype=np.int64), names)


def total(r: dict) -> list[int]:
    return r["boundary"].sum(axis=0).tolist()


# ---------------------------------------------------------------- harwath

def test_registry_and_choices():
    assert {"harwath", "rasanen"} <= set(scorers.SCORERS)
    choices = scorers.compat_choices()
    assert choices[:2] == ("none", "vqwordseg") and choices[-1] == "all"
    assert SegmentationOptions(data_dir="d", segmentation="s", compat="harwath").compat == "harwath"


def test_harwath_float_at_tolerance():
    # 2.00 - 1.98 = 1.98 - 1.96 = 0.020000000000000018 > 0.02: misses in float (the default mode,
    # in integer microseconds, counts them); 0.30 - 0.28 = 0.019999999999999962: a hit
    u = utts([3.0])
    ref = iv([(0, 0.28, 1.98, "a")])
    assert total(harwath.score(ref, iv([(0, 0.30, 2.00)]), u, P())) == [2, 2, 1]
    assert total(harwath.score(ref, iv([(0, 0.26, 1.96)]), u, P())) == [2, 2, 0]
    assert total(harwath.score(ref, iv([(0, 0.30, 1.99)]), u, P())) == [2, 2, 2]
    assert not 2.00 - 1.98 <= 0.02 and 0.30 - 0.28 <= 0.02


def test_harwath_edges_distinct_points_and_skipped_utterances():
    u = utts([2.0, 2.0])
    ref = iv([(0, 0.5, 1.0, "a"), (0, 1.0, 1.5, "b")])      # u1 has no gold: skipped with its predictions
    pred = iv([(0, 0.0, 0.5), (0, 0.5, 1.5), (1, 0.0, 2.0)])
    r = harwath.score(ref, pred, u, P())
    # gold 0.5 1.0 1.5 (speech edges included); predicted 0.0 0.5 1.5 (the shared 0.5 once)
    assert r["boundary"].tolist() == [[3, 3, 2], [0, 0, 0]]
    assert r["scored"].tolist() == [True, False]


def test_harwath_syllable_onsets_only_every_utterance():
    u = utts([2.0, 2.0])
    ref = iv([(0, 0.5, 1.0, "a"), (0, 1.0, 1.5, "b")])
    pred = iv([(0, 0.49, 1.01), (0, 1.01, 1.52), (1, 0.0, 2.0)])
    r = harwath.score(ref, pred, u, P(tolerance=0.05, level="syllable"))
    # predicted onsets 0.49, 1.01 (u0), 0.0 (u1, counted: no skip at the syllable level)
    assert r["boundary"].tolist() == [[3, 2, 2], [0, 1, 0]]
    assert r["scored"].tolist() == [True, True]


def _two_pointers(gt: list[float], pred: list[float], tol: float) -> int:
    """The scripts' walk, written out here as the test's oracle."""
    i = j = hits = 0
    while i < len(gt) and j < len(pred):
        if abs(gt[i] - pred[j]) <= tol:
            hits, i, j = hits + 1, i + 1, j + 1
        elif gt[i] > pred[j]:
            j += 1
        else:
            i += 1
    return hits


def _random_case(rng: np.random.Generator, n_utt: int) -> tuple[list, list]:
    ref, pred = [], []
    for k in range(n_utt):
        t = np.round(np.cumsum(rng.uniform(0.01, 0.3, rng.integers(0, 12))), 2)
        ref += [(k, a, b, "w") for a, b in zip(t[:-1], t[1:])]
        q = np.unique(np.round(np.concatenate((t + rng.choice([-0.02, 0.02, 0.0, 0.01, -0.03], len(t)),
                                               rng.uniform(0, 3, 3))), rng.choice([2, 3])))
        q = q[q >= 0]
        pred += [(k, a, b) for a, b in zip(q[:-1], q[1:])]
    return ref, pred


def test_harwath_equals_two_pointer_walk():
    rng = np.random.default_rng(5)
    for _ in range(20):
        ref, pred = _random_case(rng, 8)
        u = utts([10.0] * 8)
        r = harwath.score(iv(ref), iv(pred), u, P())
        for k in range(8):
            gt = np.unique([x for r_ in ref if r_[0] == k for x in r_[1:3]]).tolist()
            pr = np.unique([x for p_ in pred if p_[0] == k for x in p_[1:3]]).tolist()
            want = [len(gt), len(pr), _two_pointers(gt, pr, 0.02)] if gt else [0, 0, 0]
            assert r["boundary"][k].tolist() == want


# ---------------------------------------------------------------- rasanen

def test_rasanen_window_split_at_integer_midpoint():
    u = utts([1.0])
    ref = iv([(0, 0.0, 0.100, "a"), (0, 0.100, 0.131, "b"), (0, 0.131, 1.0, "c")])
    # windows: 100 -> [80, 115], 131 -> [116, 151] ((100 + 131) // 2 = 115 goes to the earlier)
    for q, want in (((0.114, 0.115), [2, 2, 1]), ((0.116, 0.117), [2, 2, 1]), ((0.115, 0.116), [2, 2, 2]),
                    ((0.079, 0.152), [2, 2, 0])):
        pred = iv([(0, 0.0, q[0]), (0, q[0], q[1]), (0, q[1], 1.0)])
        assert total(rasanen.score(ref, pred, u, P())) == want, q


def test_rasanen_internal_label_changes_and_empty_utterances():
    u = utts([1.0, 1.0, 1.0])
    # u0: a|a touching (no boundary), a gap after 0.6 (boundaries 0.6, 0.7); edges 0 and 1.0 never count
    ref = iv([(0, 0.0, 0.3, "a"), (0, 0.3, 0.6, "a"), (0, 0.7, 1.0, "b"), (1, 0.0, 0.5, "a"), (1, 0.5, 1.0, "b")])
    pred = iv([(0, 0.0, 0.3), (0, 0.3, 0.61), (0, 0.61, 0.69), (0, 0.69, 1.0), (2, 0.0, 0.4), (2, 0.4, 1.0)])
    r = rasanen.score(ref, pred, u, P())
    # u0: gold 600, 700 (windows [580, 650], [651, 720]); predicted 300, 610, 690 (unlabelled: never
    # merged): TP 2, FP 1; u1: gold 500, no prediction: FN 1; u2: no gold, predicted 400: FP 1
    assert r["boundary"].tolist() == [[2, 3, 2], [1, 0, 0], [0, 1, 0]]
    assert r["scored"].all()


def test_rasanen_several_predictions_in_one_window():
    u = utts([1.0])
    ref = iv([(0, 0.0, 0.5, "a"), (0, 0.5, 1.0, "b")])
    pred = iv([(0, 0.0, 0.49), (0, 0.49, 0.5), (0, 0.5, 0.52), (0, 0.52, 1.0)])
    assert total(rasanen.score(ref, pred, u, P())) == [1, 3, 1]      # one hit, two insertions


# ---------------------------------------------------------------- differential (checkouts)

def _defs(path: str, names: set[str], ns: dict) -> dict:
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    body = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in names]
    exec(compile(ast.Module(body=body, type_ignores=[]), path, "exec"), ns)   # their code, from the checkout
    return ns


def _checkout(var: str, *rel: str) -> str:
    d = os.environ.get(var)
    for r in rel:
        if d and os.path.isfile(os.path.join(d, r)):
            return os.path.join(d, r)
    pytest.skip(f"set ${var} to a checkout holding {rel[0]}")


def test_harwath_differential_word():
    f = _defs(_checkout("HARWATH_DIR", "unit_analysis_boundary_only.py"), {"find_boundary_matches"},
              {"np": np})["find_boundary_matches"]
    rng = np.random.default_rng(7)
    ref, pred = _random_case(rng, 40)
    r = harwath.score(iv(ref), iv(pred), utts([10.0] * 40), P())
    want = np.zeros(4, dtype=np.int64)
    for k in range(40):          # the script's loop: skip an utterance without gold, np.unique both
        gt = [[a, b] for u_, a, b, _ in ref if u_ == k]
        if not gt:
            continue
        a, b, c, d = f(np.unique(gt).tolist(), np.unique([[a, b] for u_, a, b in pred if u_ == k]).tolist(), 0.02)
        want += [a, b, c, d]
    assert total(r) == [want[2], want[3], want[0]] and want[0] == want[1]


def test_harwath_differential_syllable():
    f = _defs(_checkout("SDHUBERT_DIR", "utils/syllable.py"), {"match_boundary"}, {"np": np})["match_boundary"]
    rng = np.random.default_rng(8)
    ref, pred = _random_case(rng, 40)
    r = harwath.score(iv(ref), iv(pred), utts([10.0] * 40), P(tolerance=0.05, level="syllable"))
    want = np.zeros(4, dtype=np.int64)
    for k in range(40):
        gt = np.unique(np.array([[a, b] for u_, a, b, _ in ref if u_ == k]).reshape(-1, 2))
        ps = np.array([[a, b] for u_, a, b in pred if u_ == k]).reshape(-1, 2)
        want += f(np.sort(gt), np.sort(np.unique(ps[:, 0])), 0.05)
    assert total(r) == [want[2], want[3], want[0]]


def test_rasanen_differential():
    path = _checkout("DISCOPHON_DIR", "src/discophon/evaluate/segmentation.py", "discophon/evaluate/segmentation.py")
    ns = _defs(path, {"NoBoundariesError", "SegmentationEvaluation", "Boundaries", "compare_boundaries"},
               {"np": np, "math": math, "dataclass": dataclass, "cached_property": cached_property,
                "groupby": groupby, "Iterable": list, "__name__": __name__})
    rng = np.random.default_rng(9)
    ref, pred = _random_case(rng, 40)
    ref = [(k, a, b, str(rng.integers(0, 3))) for k, a, b, _ in ref]     # repeated labels merge
    end = 10.0
    r = rasanen.score(iv(ref), iv(pred), utts([end] * 40), P())
    tp = fp = fn = 0
    for k in range(40):
        e = ns["compare_boundaries"](_tokens(ns, [x for x in ref if x[0] == k], end),
                                     _tokens(ns, [x + (None,) for x in pred if x[0] == k], end), margin_in_ms=20)
        tp, fp, fn = tp + e.true_positives, fp + e.false_positives, fn + e.false_negatives
    assert total(r) == [tp + fn, tp + fp, tp]


def _tokens(ns: dict, rows: list, end: float):
    """A 1 ms token sequence of the intervals (gaps and unlabelled segments get their own token)."""
    seq = np.full(int(round(end * 1000)), -1, dtype=np.int64)
    for i, (_, a, b, lab) in enumerate(rows):
        seq[int(round(a * 1000)):int(round(b * 1000))] = 1000 + i if lab is None else int(lab)
    return ns["Boundaries"].from_tokens(seq.tolist(), 1)


# ---------------------------------------------------------------- command line

PHN = "f1 0.00 0.10 SIL\nf1 0.10 0.30 a\nf1 0.30 0.50 b\nf1 0.50 0.80 c\nf1 0.80 1.00 SIL\n" \
      "f2 0.00 0.40 d\nf2 0.40 0.90 e\n"
WRD = "f1 0.10 0.50 ab\nf1 0.50 0.80 c\nf2 0.00 0.40 d\nf2 0.40 0.90 e\n"
SEG = "f1 0.00 0.11 1\nf1 0.11 0.49 2\nf1 0.49 0.82 3\nf1 0.82 1.00 1\nf2 0.00 0.45 2\nf2 0.45 0.90 3\n"


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    d = tmp_path_factory.mktemp("scorers")
    (d / "toy.phn").write_text(PHN)
    (d / "toy.wrd").write_text(WRD)
    (d / "seg.txt").write_text(SEG)
    prepare_zr(str(d / "toy.phn"), str(d / "toy.wrd"), str(d / "data"))
    return d


def _run(toy, compat: str) -> dict:
    exp = str(toy / f"exp_{compat}")
    score_segmentation.main(["--compat", compat, str(toy / "data"), str(toy / "seg.txt"), exp])
    with open(os.path.join(exp, "scores", "scores.json")) as f:
        return json.load(f)


def test_cli_harwath(toy):
    s = _run(toy, "harwath")
    # gold f1 0.1 0.5 0.8, f2 0.0 0.4 0.9; predicted f1 0 .11 .49 .82 1, f2 0 .45 .9: 5 hits
    assert (s["word_boundary_precision"], s["word_boundary_recall"]) == (5 / 8, 5 / 6)
    assert not [k for k in s if k.startswith("word_") and not k.startswith("word_boundary_")]
    assert s["segmentation"]["definitions"]["scorer"] == "harwath"
    assert s["segmentation"]["compat"] == "harwath"


def test_cli_rasanen(toy):
    s = _run(toy, "rasanen")
    # internal boundaries: gold f1 100 500 800, f2 400; predicted f1 110 490 820, f2 450
    assert (s["word_boundary_precision"], s["word_boundary_recall"], s["word_boundary_os"]) == (0.75, 0.75, 0.0)
    assert "word_token_fscore" not in s and s["segmentation"]["definitions"]["tolerance_ms"] == 20


def test_cli_all(toy, root):
    s = _run(toy, "all")
    rows = {r["scorer"]: r for r in s["segmentation"]["compare"]}
    assert set(rows) == set(scorers.compat_choices()) - {"all"}
    assert rows["harwath"]["fscore"] == pytest.approx(2 * (5 / 8) * (5 / 6) / (5 / 8 + 5 / 6))
    assert rows["none"]["fscore"] == s["word_boundary_fscore"]      # the main scores are the default's
    table = (toy / "exp_all" / "scores" / "segmentation_compare").read_text().splitlines()
    assert len(table) == 1 + len(rows) and table[3].startswith("harwath ")
    # the wrapper: steps/score_segmentation.sh --compat all (its usage when called wrong)
    r = subprocess.run(["bash", os.path.join(root, "utils", "compare_scorers.sh"), "x"], capture_output=True, text=True)
    assert r.returncode == 1 and "Usage: utils/compare_scorers.sh" in r.stderr
    with open(os.path.join(root, "utils", "compare_scorers.sh")) as f:
        assert 'steps/score_segmentation.sh" --compat all "$@"' in f.read()


def test_cli_harwath_syllable(tmp_path, capsys):
    """--compat harwath --level syllable: SD-HuBERT's boundaries (predicted onsets only, 50 ms)
    and its cluster metrics with its label trimming (digits 0-3 removed)."""
    from termeval.bin import prepare_gold   # why: only this test prepares a syllable tier
    from termeval.run.cli import run        # why: prepare_gold's main exits
    syl = "f1 0.0 0.3 ba1\nf1 0.3 0.6 na0\nf1 0.6 1.0 ba2\nf2 0.0 0.6 na1\n"
    files = {"g.phn": "f1 0.0 0.5 a\nf1 0.5 1.0 b\nf2 0.0 0.6 c\n", "g.wrd": "f1 0.0 1.0 ab\nf2 0.0 0.6 c\n",
             "g.syl": syl, "seg.txt": "f1 0.0 0.31 x\nf1 0.31 0.7 y\nf1 0.7 1.0 x\nf2 0.0 0.6 y\n"}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    with pytest.raises(SystemExit):
        run(prepare_gold.main, ["--format", "zr", "--fill-gaps", "false", "--syllables", str(tmp_path / "g.syl"),
                                str(tmp_path / "g.phn"), str(tmp_path / "g.wrd"), str(tmp_path / "data")])
    exp = tmp_path / "exp"
    score_segmentation.main(["--compat", "harwath", "--level", "syllable", "--tolerance", "0.05",
                             str(tmp_path / "data"), str(tmp_path / "seg.txt"), str(exp)])
    s = json.loads((exp / "scores" / "scores.json").read_text())
    # gold f1 0 .3 .6 1, f2 0 .6; predicted onsets f1 0 .31 .7, f2 0: hits 0, .3~.31, f2 0
    assert (s["syllable_boundary_precision"], s["syllable_boundary_recall"]) == (3 / 4, 3 / 6)
    # trimmed labels ba, na, ba, na matched to x, y, x, y
    assert (s["syllable_purity"], s["cluster_purity"], s["snmi"]) == (1.0, 1.0, 1.0)
    assert "syllable_token_fscore" not in s and "syllable_segment_purity" not in s
    assert s["segmentation_syllable"]["definitions"]["predicted_boundaries"].endswith("onsets of the predicted segments")


def test_jobs_give_the_numbers_of_one(toy, tmp_path):
    """--nj 2 (two jobs and a merge) gives the rows and keys of one process (counts are additive)."""
    exp = str(tmp_path / "jobs")
    args = ["--compat", "all", str(toy / "data"), str(toy / "seg.txt"), exp]
    for j in (1, 2):
        score_segmentation.main(args[:2] + ["--nj", "2", "--job", str(j)] + args[2:])
    score_segmentation.main(args[:2] + ["--merge", "2"] + args[2:])
    with open(os.path.join(exp, "scores", "scores.json")) as f:
        two = json.load(f)
    one = _run(toy, "all")
    assert two["segmentation"]["compare"] == one["segmentation"]["compare"]
