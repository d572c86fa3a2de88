"""Score files and diagnostics of the zrc2020 (tdev2) evaluation."""
from __future__ import annotations

import math
import os

from termeval.scores import Metric, fscore, write_scores
from termeval.textio import atomic_write

SCORE_KEYS = ("ned", "ned_pairs", "coverage", "grouping_precision", "grouping_recall",
              "grouping_fscore", "type_precision", "type_recall", "type_fscore",
              "token_precision", "token_recall", "token_fscore", "boundary_precision",
              "boundary_recall", "boundary_fscore")


def _v(x):
    """NaN (undefined in the reference) -> None."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return None
    return x


def final_scores(m: dict) -> dict:
    """The 15 scores.json values, with F = 0 when P + R = 0 (the reference crashes there)."""
    s = {k: _v(m.get(k)) for k in SCORE_KEYS if not k.endswith("_fscore")}
    for name in ("grouping", "type", "token", "boundary"):
        s[f"{name}_fscore"] = fscore(s[f"{name}_precision"], s[f"{name}_recall"])
    return {k: s[k] for k in SCORE_KEYS}


def write_report(exp_dir: str, m: dict, counts: dict, shards, benchmark: str = "zrc2020",
                 ci: dict | None = None, more: dict | None = None) -> dict:
    """Score files and diagnostics; `ci` maps metric names to intervals (termeval.bootstrap),
    `more` adds top-level keys to scores.json (data_id, bootstrap settings)."""
    s = final_scores(m)
    c = counts
    extra = {"counts": c, "discarded": {k[len("fragments_discarded_"):]: v for k, v in c.items()
                                        if k.startswith("fragments_discarded_")}, **(more or {})}
    ci = ci or {}

    def line(name: str, value, support: str = "") -> Metric:     # with its interval, if any
        return Metric(name, value, support, ci.get(name))
    write_scores(exp_dir, "matching", [
        line("ned", s["ned"], f"{c['ned_pairs']} pairs"),
        line("ned_pairs", s["ned_pairs"]),
        line("coverage", s["coverage"], f"{c['phones_covered']} / {c['phones_speech']} phones"),
    ], benchmark, extra)
    write_scores(exp_dir, "clustering", [
        line("grouping_precision", s["grouping_precision"], f"{c['grouping_found_tokens']} found tokens"),
        line("grouping_recall", s["grouping_recall"], f"{c['grouping_gold_tokens']} gold tokens"),
        line("grouping_fscore", s["grouping_fscore"]),
        line("type_precision", s["type_precision"], f"{c['type_hits']} / {c['types_seen']} types"),
        line("type_recall", s["type_recall"], f"{c['type_hits']} / {c['gold_types']} word types"),
        line("type_fscore", s["type_fscore"]),
    ], benchmark, extra)
    write_scores(exp_dir, "parsing", [
        line("token_precision", s["token_precision"], f"{c['token_hits']} / {c['fragments_distinct']} fragments"),
        line("token_recall", s["token_recall"], f"{c['token_hits']} / {c['gold_tokens']} words"),
        line("token_fscore", s["token_fscore"]),
        line("boundary_precision", s["boundary_precision"], f"{c['boundary_hits']} / {c['boundaries_discovered']}"),
        line("boundary_recall", s["boundary_recall"], f"{c['boundary_hits']} / {c['boundaries_gold']}"),
        line("boundary_fscore", s["boundary_fscore"]),
    ], benchmark, extra)
    details = os.path.join(exp_dir, "details")
    with atomic_write(os.path.join(details, "clusters.txt")) as f:
        f.write("# class-key class-id listed kept mean-ned top-share top-transcription\n")
        for st in shards:
            f.write("".join(x + "\n" for x in st.clusters))
    with atomic_write(os.path.join(details, "discarded")) as f:
        for st in shards:
            f.write("".join(x + "\n" for x in st.discarded))
    return s
