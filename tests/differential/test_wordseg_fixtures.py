"""score_text_segmentation --compat wordseg against bootphon/wordseg's wordseg.evaluate
(evaluate: token, type, boundary P/R/F and the adjusted Rand index; summary: the over/under/mis
segmentation counts), on 200 generated text corpora (tests/differential/cases.py: units of one
or two characters, multi-character IPA, wordseg's `_`; segmentations cutting everywhere,
nowhere or at random), recorded in tests/fixtures/differential/wordseg.json and compared on every
run; against wordseg itself when $WORDSEG_DIR names its checkout. termeval's side is the stage
of the step (its readers, its job statistics, its merge, its report's evaluate), one case at a
time: what the step writes for that corpus.
"""
from __future__ import annotations

import json
import os

import pytest

from termeval.textseg import summary
from termeval.textseg.options import TextSegmentationOptions
from termeval.textseg.report import evaluate
from termeval.textseg.stage import TextSegmentationStage
from tests.differential import cases as gen
from tests.differential.harness import check_digests, compare, live, load_fixture

CASES = gen.wordseg_cases()


def _ours(tmp: str, c: gen.Case) -> dict:
    paths = {}
    for name in ("gold", "seg", "prep"):
        paths[name] = os.path.join(tmp, f"{c.index}.{name}.txt")
        with open(paths[name], "w", encoding="utf-8") as f:
            f.write("\n".join(c.params[name]) + "\n")
    opts = TextSegmentationOptions(gold=paths["gold"], segmented=paths["seg"], compat="wordseg", prepared=paths["prep"],
                                   summary=os.path.join(tmp, f"{c.index}.summary.json"))
    stage = TextSegmentationStage(opts)
    ctx = stage.load(opts)
    merged = stage.merge(ctx, [stage.compute(ctx, 0, len(ctx.gold.words))])
    scores, _ = evaluate(ctx, merged)
    return {"evaluate": dict(scores), "summary": summary.to_json(merged["summary"])}


def _check(tmp: str, c: gen.Case, out: dict) -> list[str]:
    ours = _ours(tmp, c)
    bad = compare(ours["evaluate"], out["evaluate"], out["evaluate"], f"case {c.index} ({c.kind})")
    if list(ours["evaluate"]) != list(out["evaluate"]):
        bad.append(f"case {c.index}: the scores' order {list(ours['evaluate'])}")
    if ours["summary"] != json.dumps(out["summary"], indent=4):
        bad.append(f"case {c.index}: summary {ours['summary'][:200]} != {out['summary']}")
    return bad


def test_recorded_cases_equal(tmp_path):
    fx = load_fixture("wordseg")
    check_digests(fx, CASES)
    bad = []
    for c, row in zip(CASES, fx["cases"]):
        bad += _check(str(tmp_path), c, row["out"])
    assert not bad, "\n".join(bad[:20])


def test_live_wordseg(tmp_path):
    sub = CASES[::6]
    res = live("wordseg", "WORDSEG_DIR", sub)
    bad = []
    for c, r in zip(sub, res):
        bad += _check(str(tmp_path), c, r["out"])
    assert not bad, "\n".join(bad[:20])
