"""termeval.score_zrc_submission (termeval/zrc/step.py): the command's scores.json, as a mapping."""
from __future__ import annotations

import json

import termeval
from test_zrc_submission import layout, run_main  # noqa: F401  (layout: the fixture)


def test_api_returns_what_the_command_writes(layout):
    tmp, ds, sub = layout
    text, _ = run_main(sub, ds)
    r = termeval.score_zrc_submission(sub, zrc_dataset=str(ds), partial=True)
    assert r == json.loads(text)
    with open(sub / "scores" / "scores.json") as f:
        assert json.load(f) == r
    one = termeval.score_zrc_submission(sub, zrc_dataset=ds, languages=["wolof"], nj=1)
    assert list(one) == ["wolof"] and one["wolof"] == r["wolof"]
