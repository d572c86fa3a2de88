"""score_zrc_submission as a library function: read and check the submission, score every
language (termeval.zrc.score), return zrc's scores.json mapping and the summary table."""
from __future__ import annotations

import json
import sys
from typing import IO, Any

from termeval.core import lock
from termeval.core.warn import warn
from termeval.zrc.leaderboard import scores_json
from termeval.zrc.options import ZrcOptions
from termeval.zrc.score import score_submission
from termeval.zrc.submission import read_submission


def score_directory(opts: ZrcOptions, log: IO[str] | None = None) -> tuple[dict[str, Any], str]:
    """Score the submission of `opts` into <submission-dir>/scores; (the content of its
    scores.json, zrc's file, and the languages x metrics table). Bad input: InputError
    (several meta.yaml problems: MetaErrors, every line in .lines)."""
    log = sys.stderr if log is None else log
    # one run per submission dir (<submission-dir>/.termeval.lock; nothing when the calling
    # shell step holds it already)
    with lock.hold(opts.submission_dir):
        sub = read_submission(opts.submission_dir, opts.language_list(), opts.partial)
        for w in sub.warnings:
            warn("score_zrc_submission", w, stream=log)
        nj = opts.nj or int(sub.params.get("njobs", 1))
        shown = {"report": opts.report, "report_files": opts.report_files, "textgrids": opts.textgrids}
        per_lang, _, table = score_submission(sub, opts.zrc_dataset, nj, opts.bootstrap, log=log, shown=shown)
    return json.loads(scores_json(per_lang)), table
