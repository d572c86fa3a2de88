"""The counted seed modes against the literal enumeration (brute.py) on random small corpora:
overlapping, duplicated and multi-class fragments, pauses (SIL and gaps), two speakers;
every key to 1e-9, fold by fold."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from termeval.run import driver as jobs
from termeval.tde.seeddoc.stage import SeedStage
from tests.seeddoc.brute import Brute, close
from tests.seeddoc.corpora import options, random_corpus, write_corpus

KEYS_PAIRS = ("ned", "within_ned", "coverage", "coverage_discoverable")


def compare(got: dict, want: dict, where: str) -> None:
    for k, v in want.items():
        assert k in got, f"{where}: {k} missing"
        assert close(got[k], v), f"{where}: {k} = {got[k]!r}, literal definition gives {v!r}"


@pytest.mark.parametrize("mode", ["zr2015-doc", "lrec2014"])
@pytest.mark.parametrize("seed", range(12))
def test_folds_none_equals_enumeration(tmp_path, mode, seed):
    corpus = random_corpus(seed, nclasses=3 + seed % 3, alphabet="ab" if seed % 2 else "abc")
    c = write_corpus(str(tmp_path), *corpus)
    got = jobs.run(SeedStage(mode), options(c, mode, "none"), None, echo=False)
    want = Brute(*corpus, mode).scores()
    compare(got, want, f"{mode} seed {seed}")


def equal_parts_literal(phones, n):
    files = sorted(f for f in phones if any(l != "SIL" for _, _, l in phones[f]))
    d = [sum(b - a for a, b, l in phones[f] if l != "SIL") for f in files]
    D = sum(d)
    parts = [[] for _ in range(n)]
    c = 0
    for f, df in zip(files, d):
        parts[min(n - 1, math.floor(Fraction(n * (2 * c + df), 2 * D)))].append(f)
        c += df
    return parts


def test_equal_folds_fold_by_fold(tmp_path):
    corpus = random_corpus(101, nfiles=4, nclasses=5)
    c = write_corpus(str(tmp_path), *corpus)
    got = jobs.run(SeedStage("zr2015-doc"), options(c, "zr2015-doc", "equal:2"), None, echo=False)
    parts = equal_parts_literal(corpus[0], 2)
    assert len(got["folds"]) == 2
    for fold, files in zip(got["folds"], parts):
        want = Brute(*corpus, "zr2015-doc", files=files).scores()
        compare(fold, want, f"fold {files}")
        assert fold["files"] == len(files)


def test_random_batches_fold_by_fold(tmp_path):
    corpus = random_corpus(202, nfiles=5, nclasses=5)
    c = write_corpus(str(tmp_path), *corpus)
    got = jobs.run(SeedStage("lrec2014"), options(c, "lrec2014", "random:3x0.6:5"), None, echo=False)
    files = sorted(corpus[0])
    rng = np.random.default_rng(5)
    k = max(1, math.floor(Fraction("0.6") * len(files) + Fraction(1, 2)))
    assert k == 3
    whole = Brute(*corpus, "lrec2014").scores(pairs=False)
    compare(got["folds"][0], whole, "whole corpus")
    for b in range(3):
        sel = sorted(files[i] for i in np.argsort(rng.random(len(files)), kind="stable")[:k])
        want = Brute(*corpus, "lrec2014", files=sel).scores(others=False)
        compare(got["folds"][b + 1], want, f"batch {b}")


def test_nj_changes_no_value(tmp_path):
    corpus = random_corpus(7, nfiles=4, nclasses=5)
    c = write_corpus(str(tmp_path), *corpus)
    stage = SeedStage("zr2015-doc")
    a, b = (options(c, "zr2015-doc", "equal:3", str(tmp_path / x)) for x in "ab")
    one = jobs.run(stage, a, a.exp_dir, echo=False)
    stage.prepare(b)                                 # the plan prepares once, before the jobs
    for j in (1, 2, 3):
        jobs.run(stage, b, b.exp_dir, nj=3, job=j, run_id="r", echo=False)
    three = jobs.run(stage, b, b.exp_dir, merge=3, run_id="r", echo=False)
    strip = lambda r: {k: v for k, v in r.items() if k != "command"}
    assert strip(one) == strip(three)
    assert (tmp_path / "a/scores/matching").read_text() == (tmp_path / "b/scores/matching").read_text()
