"""termeval's side of the differential tests: a whole fixture's cases written as one corpus
(every utterance named after its case), read once by the segmentation stage's own readers
(prepare_gold's data dir, the interval file, the stage's load), then each case scored as a job
of --nj would score its utterances (stats.job_stats, report.merge, report.metric_values): the
numbers scores.json would hold for that case alone. Also the fixtures' loading and comparison.
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections.abc import Callable, Iterable

import pytest

from termeval.gold import prepare_texts, write_data_dir
from termeval.gold.options import GoldOptions
from termeval.segmentation.compare import RowSettings
from termeval.segmentation.options import SegmentationOptions
from termeval.segmentation.report import merge, metric_values
from termeval.segmentation.stage import SegmentationStage, settings_of
from termeval.segmentation.stats import job_stats
from tests.differential import cases as gen
from tests.differential.cases import Case, Utt, sec

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures", "differential")
TOL = 1e-9


def load_fixture(tool: str) -> dict:
    path = os.path.join(FIXTURES, f"{tool}.json")
    with open(path) as f:
        return json.load(f)


def check_digests(fixture: dict, cases: list[Case], digest: Callable[[Case], str] = Case.digest) -> None:
    """The generator still builds the recorded inputs (else: re-record, see record.py)."""
    assert fixture["generator"] == gen.VERSION
    rows = fixture["cases"]
    assert len(rows) == len(cases)
    for r, c in zip(rows, cases):
        assert (r["case"], r["seed"], r["kind"]) == (c.index, c.seed, c.kind)
        assert r["digest"] == digest(c), (f"case {c.index}: the generator changed; re-record "
                                          f"with local/record_scorer_fixtures.sh {fixture['tool']}")


def same(a, b, tol: float = TOL) -> bool:
    """Equal values: both undefined, or floats within tol (absolute and relative)."""
    if a is None or b is None or isinstance(a, str) or isinstance(b, str):
        return a == b
    return math.isclose(float(a), float(b), rel_tol=tol, abs_tol=tol)


def compare(got: dict, want: dict, keys: Iterable[str], where: str) -> list[str]:
    return [f"{where} {k}: termeval {got.get(k)!r} tool {want.get(k)!r}" for k in keys if not same(got.get(k), want.get(k))]


# ---------------------------------------------------------------- corpus

def _rows(name: str, rows: list[tuple[int, int, str]], time=sec) -> list[str]:
    return [f"{name} {time(a)} {time(b)} {lab}\n" for a, b, lab in rows]


def write_gold(utts: list[Utt], d: str, syllables: str | None = None, syllable_time=sec) -> str:
    """gold.phn, gold.wrd prepared as steps/prepare_gold.sh --format zr --fill-gaps false does,
    with the syllable tier of --syllables: "zr" (gold.syl written from the utterances, times
    through `syllable_time`) or a file of another format (SD-HuBERT's JSON); the data dir."""
    os.makedirs(d, exist_ok=True)
    files = {"gold.phn": [], "gold.wrd": [], "gold.syl": []}
    for u in utts:
        files["gold.phn"] += _rows(u.name, u.phones)
        files["gold.wrd"] += _rows(u.name, u.words)
        files["gold.syl"] += _rows(u.name, [(a, b, lab.replace(" ", "_")) for a, b, lab in u.syllables],
                                   syllable_time)
    for name, lines in files.items():
        with open(os.path.join(d, name), "w") as f:
            f.writelines(lines)
    syl = os.path.join(d, "gold.syl") if syllables == "zr" else (syllables or "")
    opts = GoldOptions(format="zr", fill_gaps=False, syllables=syl,
                       inputs=(os.path.join(d, "gold.phn"), os.path.join(d, "gold.wrd"), os.path.join(d, "data")))
    texts, used, _ = prepare_texts(opts)
    write_data_dir(texts, opts.data_dir, used)
    return opts.data_dir


def write_pred(utts: list[Utt], path: str, time=sec, labelled: bool = True) -> str:
    with open(path, "w") as f:
        for u in utts:
            f.writelines(f"{u.name} {time(a)} {time(b)}" + (f" {lab}\n" if labelled else "\n") for a, b, lab in u.pred)
    return path


class Scored:
    """The stage loaded once on a corpus; `case(names)` scores the utterances `names` alone."""

    def __init__(self, data_dir: str, segmentation: str, segments: str = "none", **options) -> None:
        self.opts = SegmentationOptions(data_dir=data_dir, segmentation=segmentation, segments=segments, **options)
        self.stage = SegmentationStage(settings_of(self.opts))
        self.ctx = self.stage.load(self.opts)
        self.index = {u: i for i, u in enumerate(self.ctx.utts.ids)}
        self.done: dict[tuple, dict] = {}

    def case(self, names: list[str]) -> dict:
        key = tuple(names)
        if key not in self.done:
            self.done[key] = self._case(names)
        return self.done[key]

    def _case(self, names: list[str]) -> dict:
        import numpy as np
        sel = np.array(sorted(self.index[n] for n in names), dtype=np.int64)
        ctx, s = self.ctx, RowSettings(**vars(self.stage.main))     # no tolerance sweep
        st = job_stats(ctx.ref, ctx.pred, ctx.utts, sel, s)
        st["has_labels"] = bool(ctx.pred.labels) and self.stage.settings.compat in ("none", "vqwordseg")
        m = merge([st], hungarian=s.compat != "vqwordseg")
        labels = sorted({ctx.pred.labels[k] for k in ctx.pred.label[np.isin(ctx.pred.utt, sel)].tolist()})
        metrics, _, _ = metric_values(m, s, labels, st["has_labels"], [])
        return {x.name: x.value for x in metrics}


# ---------------------------------------------------------------- live runs

def live(tool: str, var: str, cases: list[Case], python: str | None = None) -> list[dict]:
    """The tool run now on `cases` (record.py's way), when ${var} names its checkout; skips
    otherwise. $TERMEVAL_REF_PYTHON: an interpreter with the tool's dependencies (default this one)."""
    checkout = os.environ.get(var)
    if not checkout or not os.path.isdir(checkout):
        pytest.skip(f"${var} (the tool's checkout) is not set: compared with the recorded fixture only")
    import tempfile
    from tests.differential import record
    with tempfile.TemporaryDirectory() as work:
        jobs, _ = record.write_inputs(tool, cases, work)
        return record.run_tool(tool, checkout, jobs, python or os.environ.get("TERMEVAL_REF_PYTHON", sys.executable),
                               work)


def root_dir() -> str:
    return os.path.normpath(os.path.join(HERE, "..", ".."))


def run_module(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, cwd=root_dir())
