"""Score files and diagnostics of the zrc2020 (tdev2) evaluation."""
from __future__ import annotations

import math
import os

from termeval.core.scores import TDE_STAGES, Metric, format_line, fscore, write_scores
from termeval.core.textio import atomic_write
from termeval.tde.zrc2020.tables import zrc2020_tables
from termeval.tde.zrc2020.transcribe import SIL, Phones

# the zrc2020 metrics in score-file order: the term discovery stages without matching P/R/F
SCORE_KEYS = tuple(k for names in TDE_STAGES.values() for k in names if not k.startswith("matching_"))


def _v(x):
    """NaN (undefined in the reference) -> None."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return None
    return x


def gold_warnings(phones: Phones, data_dir: str) -> list[str]:
    """What makes the numbers differ from tdev2's published ones without being an error: a gold
    without SIL phones (pauses as gaps, the 2015/2017 layout; the opposite case is warned about
    by steps/score_tde_folds.sh)."""
    if phones.sil >= 0 or not len(phones):
        return []
    return [f"{os.path.join(data_dir, 'phones')} has no {SIL} phone: the zrc2020 (tdev2) definitions "
            "expect pauses labelled SIL (steps/prepare_gold.sh --fill-gaps true, the default); with "
            "gaps instead, NED, coverage and the transcriptions differ from the published ones"]


def final_scores(m: dict) -> dict:
    """The 15 scores.json values, with F = 0 when P + R = 0 (the reference crashes there)."""
    s = {k: _v(m.get(k)) for k in SCORE_KEYS if not k.endswith("_fscore")}
    for name in ("grouping", "type", "token", "boundary"):
        s[f"{name}_fscore"] = fscore(s[f"{name}_precision"], s[f"{name}_recall"])
    return {k: s[k] for k in SCORE_KEYS}


def stage_metrics(s: dict, c: dict, ci: dict | None = None) -> dict[str, list[Metric]]:
    """The lines of scores/{matching,clustering,parsing}: the scores `s`, the counts `c` (for
    the support text) and the intervals `ci`."""
    ci = ci or {}
    support = {
        "ned": f"{c['ned_pairs']} pairs",
        "coverage": f"{c['phones_covered']} / {c['phones_speech']} phones",
        "grouping_precision": f"{c['grouping_found_tokens']} found tokens",
        "grouping_recall": f"{c['grouping_gold_tokens']} gold tokens",
        "type_precision": f"{c['type_hits']} / {c['types_seen']} types",
        "type_recall": f"{c['type_hits']} / {c['gold_types']} word types",
        "token_precision": f"{c['token_hits']} / {c['fragments_distinct']} fragments",
        "token_recall": f"{c['token_hits']} / {c['gold_tokens']} words",
        "boundary_precision": f"{c['boundary_hits']} / {c['boundaries_discovered']}",
        "boundary_recall": f"{c['boundary_hits']} / {c['boundaries_gold']}",
    }
    return {stage: [Metric(k, s[k], support.get(k, ""), ci.get(k)) for k in names if k in s]
            for stage, names in TDE_STAGES.items()}


def summary_lines(result: dict) -> str:
    """`<stage>: <score line>` for every score line, from the scores.json mapping."""
    per_stage = stage_metrics({k: result.get(k) for k in SCORE_KEYS}, result["counts"], result.get("ci"))
    return "".join(f"{stage}: {format_line(m)}\n" for stage, ms in per_stage.items() for m in ms)


def write_report(exp_dir: str, m: dict, counts: dict, shards, benchmark: str = "zrc2020",
                 ci: dict | None = None, more: dict | None = None, tables: tuple | None = None,
                 into: dict | None = None) -> dict:
    """Score files and diagnostics; `ci` maps metric names to intervals (termeval.bootstrap),
    `more` adds top-level keys to scores.json (data_id, bootstrap settings); `tables` =
    (corpus, parts) of the merge: details/per_file.tsv and per_speaker.tsv; `into` receives
    the scores.json mapping (core.scores.write_scores)."""
    s = final_scores(m)
    c = counts
    extra = {"counts": c, "discarded": {k[len("fragments_discarded_"):]: v for k, v in c.items()
                                        if k.startswith("fragments_discarded_")}, **(more or {})}
    warnings = extra.pop("warnings", None)     # scores.json "warnings" -> {"matching": [...]}
    for stage, metrics in stage_metrics(s, c, ci).items():
        write_scores(exp_dir, stage, metrics, benchmark, extra, warnings=warnings if stage == "matching" else None,
                     into=into)
    details = os.path.join(exp_dir, "details")
    with atomic_write(os.path.join(details, "clusters.txt")) as f:
        f.write("# class-key class-id listed kept mean-ned top-share top-transcription\n")
        for st in shards:
            f.write("".join(x + "\n" for x in st.clusters))
    with atomic_write(os.path.join(details, "discarded")) as f:     # never an empty file: a header
        f.write("# fragment-id file onset offset reason (fragments left without a transcription)\n")
        for st in shards:
            f.write("".join(x + "\n" for x in st.discarded))
    if tables is not None:
        zrc2020_tables(details, tables[0], shards, tables[1], c)
    return s
