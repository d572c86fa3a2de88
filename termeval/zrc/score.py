"""Score a zrc TDE17 submission: each language's gold data dir and termeval zrc2020 scores
under scores/termeval/<lang>/, then zrc's scores.json and leaderboard.json. Everything is
written into a temporary directory beside scores/ and moved into place at the end: a failed
run leaves the previous scores/ as it was."""
from __future__ import annotations

import datetime
import json
import os
import sys
import time

from termeval.core import publish, usercache
from termeval.core.guard import check_outputs
from termeval.core.textio import atomic_write
from termeval.run import plan
from termeval.run.launcher import cap
from termeval.tde.benchmarks import stage_for
from termeval.tde.options import TdeOptions
from termeval.zrc import gold as zrc_gold
from termeval.zrc.leaderboard import leaderboard_entry, scores_json, summary_table
from termeval.zrc.submission import Submission


def score_language(data_dir: str, class_file: str, exp_dir: str, nj: int = 1, bootstrap: int = 0,
                   shown: dict | None = None) -> dict:
    """termeval's zrc2020 scores of one class file against a gold data dir, written to exp_dir
    (classes/, scores/, details/, units/); returns its scores.json mapping: score_tde's zrc2020
    stage (TdeOptions) through the one plan (termeval/run/plan.py), in one process or as nj
    local jobs and a merge. `shown`: the report options (--report, --report-files, --textgrids:
    report.html and TextGrids in exp_dir)."""
    opts = TdeOptions(benchmark="zrc2020", bootstrap=bootstrap, data_dir=data_dir, class_file=class_file,
                      exp_dir=exp_dir, **(shown or {})).validate()
    return plan.run_stage(stage_for(opts.benchmark), opts, "score_tde", nj=nj, echo=False)


def score_submission(sub: Submission, dataset: str | None, nj: int, bootstrap: int = 0,
                     log=sys.stderr, shown: dict | None = None) -> tuple[dict[str, dict], dict[str, float], str]:
    """Score every class file of the submission; returns (termeval scores per language, wall
    time per language in seconds, the stdout summary)."""
    golds = {lang: zrc_gold.locate(lang, dataset) for lang in sub.class_files}   # all missing gold first
    scores_dir = os.path.join(sub.path, "scores")
    check_outputs("score_zrc_submission", list(sub.class_files.values()), [scores_dir], [scores_dir])
    jobs = cap(nj, "score_zrc_submission", "jobs (njobs)") if nj > 1 else 1   # local processes
    inputs = list(sub.class_files.values()) + [p for g in golds.values() for p in (g.phn, g.wrd)]
    # written into a temporary sibling of scores/ (termeval.core.publish), put in place whole at
    # the end: a failed run leaves the previous scores/ as it was; temporaries of dead runs go.
    # The user cache is refused when its directory is, holds or lies in one of these paths.
    with usercache.guarding("score_zrc_submission", inputs, [scores_dir], uses=True), \
            publish.output_dir(scores_dir) as tmp:
        per_lang: dict[str, dict] = {}
        wall: dict[str, float] = {}
        for lang, class_file in sub.class_files.items():
            t = time.time()
            exp = os.path.join(tmp, "termeval", lang)
            print(f"score_zrc_submission: {lang}: gold from {golds[lang].source}", file=log)
            zrc_gold.prepare_exp(golds[lang], exp)     # <exp>/data (from the store when there)
            per_lang[lang] = score_language(os.path.join(exp, "data"), class_file, exp, jobs, bootstrap, shown)
            wall[lang] = time.time() - t
            print(f"score_zrc_submission: {lang}: scored in {wall[lang]:.1f} s", file=log)
        with atomic_write(os.path.join(tmp, "scores.json")) as f:
            f.write(scores_json(per_lang))
        entry = leaderboard_entry(sub.meta, sub.params, per_lang, datetime.datetime.now())
        with atomic_write(os.path.join(tmp, "leaderboard.json")) as f:
            json.dump(entry, f, indent=2, ensure_ascii=False)
            f.write("\n")
        table = summary_table(per_lang, wall)
        record = {"languages": {lang: {"class_file": sub.class_files[lang], "gold_phones": golds[lang].phn,
                                       "gold_words": golds[lang].wrd, "gold_source": golds[lang].source,
                                       "wall_time_s": round(wall[lang], 3)} for lang in per_lang},
                  "skipped_empty": sub.skipped, "nj": nj, "bootstrap": bootstrap,
                  "benchmark": "zrc2020 (tdev2 definitions), as zrc 0.9.4 tde17",
                  "warnings": sub.warnings}
        with atomic_write(os.path.join(tmp, "termeval", "run.json")) as f:
            json.dump(record, f, indent=1)
            f.write("\n")
        with atomic_write(os.path.join(tmp, "termeval", "summary.txt")) as f:
            f.write(table)
    return per_lang, wall, table
