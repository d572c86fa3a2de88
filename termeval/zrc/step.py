"""score_zrc_submission as a library function: read and check the submission, score every
language (termeval.zrc.score), return zrc's scores.json mapping and the summary table."""
from __future__ import annotations

import json
import os
import sys
from typing import IO, Any

from termeval.core import lock
from termeval.core.warn import warn
from termeval.zrc.leaderboard import scores_json
from termeval.zrc.options import ZrcOptions
from termeval.zrc.score import score_submission
from termeval.zrc.submission import read_submission
from termeval.zrc.template import init_submission


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


def run(opts: ZrcOptions, run_task: Any = None) -> dict:
    """score_zrc_submission on its ZrcOptions: --init writes the template ({"written": paths});
    otherwise the submission is scored ({"scores": zrc's scores.json mapping, "table"})."""
    if opts.init is not None:
        return {"written": init_submission(opts.init)}
    scores, table = score_directory(opts)
    return {"scores": scores, "table": table}


def show(opts: ZrcOptions, res: dict) -> None:
    if "written" in res:
        for path in res["written"]:
            print(f"score_zrc_submission: wrote {path}", file=sys.stderr)
        print(f"score_zrc_submission: next: fill in {os.path.join(opts.init, 'meta.yaml')} (every <...> value), "
              f"copy the class files to {os.path.join(opts.init, '<lang>.txt')}, then score {opts.init}",
              file=sys.stderr)
        return
    sys.stdout.write(res["table"])
    print(f"score_zrc_submission: scores in {os.path.join(opts.submission_dir, 'scores')} "
          "(scores.json, leaderboard.json, termeval/<lang>/)", file=sys.stderr)
