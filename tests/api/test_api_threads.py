"""The API from two threads at once (issue 30): the same results as one call after the other,
warnings still on stderr, and sys.stderr and the gold memo as they were afterwards."""
from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor

import termeval
from termeval.core import datadir


def _calls(example: str) -> list:
    gold = os.path.join(example, "data/example")
    cls = os.path.join(example, "data/local/example/classes/example.classes")
    std = os.path.join(example, "data/local/example_std")
    return [
        lambda: termeval.score_tde(gold, cls),
        lambda: termeval.score_segmentation(gold, cls),
        lambda: termeval.score_std(f"{std}/kws", f"{std}/detections.stdlist.xml", plots=False),
        lambda: termeval.score_quesst(f"{std}/kws", f"{std}/detections.stdlist.xml"),
    ]


def _plain(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in ("command", "date", "stages")}


def test_two_threads_get_what_one_gets(example):
    calls = _calls(example)
    alone = [_plain(c()) for c in calls]
    stderr, memo = sys.stderr, datadir.gold_memo
    with ThreadPoolExecutor(max_workers=2) as pool:
        for _ in range(2):
            together = [_plain(f.result()) for f in [pool.submit(c) for c in calls]]
            assert together == alone
    assert sys.stderr is stderr and datadir.gold_memo is memo
