"""zrc 0.9.4's output files from termeval's zrc2020 scores of each language.

scores.json, as zrc's TDETask.eval writes it (json.dump, no indent, no final newline): one
block per language in zrc's language order, keys in its order
  {"matching": null, "boundary": {P,R,F}, "token": {P,R,F}, "type": {P,R,F},
   "nlp": {"nwords": [N], "ned", "coverage", "npairs"}, "grouping": {P,R,F}}
(`nwords`, the number of distinct discovered phone strings, is a one-element list there: a
trailing comma in zrc). Values zrc would write as NaN (undefined) are written as null, so the
file stays valid JSON; zrc's 2-hour grouping limit does not exist here.

leaderboard.json: one entry of zrc's TDE17 leaderboard schema (zerospeech.leaderboards:
LeaderboardEntry with TDE17Scores), which zrc 0.9.4 cannot build itself (build_scores is
unfinished). Types are the intended ones: ned and coverage floats, nwords and npairs integers
(zrc's NLPScores validators cast ned to int and nwords to float, swapped). `details.benchmarks`
is ["TDE-17"], the value of zrc's LeaderboardBenchmarkName.TDE_17; languages not scored have
null scores (the schema requires all five keys).
"""
from __future__ import annotations

import datetime
import json
import math
from typing import Any

from termeval.zrc.submission import LANGUAGES

PRF = ("precision", "recall", "fscore")


def _num(x: Any) -> Any:
    if x is None:
        return None
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def _prf(s: dict, name: str) -> dict:
    return {k: _num(s.get(f"{name}_{k}")) for k in PRF}


def zrc_block(s: dict) -> dict:
    """One language's block of zrc's scores.json from termeval's zrc2020 scores.json."""
    return {"matching": None,
            "boundary": _prf(s, "boundary"),
            "token": _prf(s, "token"),
            "type": _prf(s, "type"),
            "nlp": {"nwords": [int(s["counts"]["types_seen"])], "ned": _num(s.get("ned")),
                    "coverage": _num(s.get("coverage")), "npairs": int(s["ned_pairs"])},
            "grouping": _prf(s, "grouping")}


def scores_json(per_lang: dict[str, dict]) -> str:
    return json.dumps({lang: zrc_block(per_lang[lang]) for lang in LANGUAGES if lang in per_lang})


def _str_or_none(v: Any) -> str | None:
    return None if v is None else str(v)


def leaderboard_entry(meta: dict, params: dict, per_lang: dict[str, dict],
                      date: datetime.datetime | None = None) -> dict:
    mi, pub = meta.get("model_info") or {}, meta.get("publication") or {}
    paper_ref = None
    if pub.get("authors") and pub.get("paper_title"):
        paper_ref = f"{pub['authors']} ({pub['publication_year']} {pub['paper_title']})"
    scores = {}
    for lang in LANGUAGES:
        if lang in per_lang:
            b = zrc_block(per_lang[lang])
            nlp = b["nlp"]
            scores[lang] = {"grouping": b["grouping"], "token": b["token"], "type": b["type"],
                            "boundary": b["boundary"], "matching": None,
                            "nlp": {"ned": None if nlp["ned"] is None else float(nlp["ned"]),
                                    "coverage": None if nlp["coverage"] is None else float(nlp["coverage"]),
                                    "nwords": int(nlp["nwords"][0]), "npairs": int(nlp["npairs"])}}
        else:
            scores[lang] = {k: None for k in ("grouping", "token", "type", "boundary", "matching", "nlp")}
    year = pub.get("publication_year")
    return {
        "model_id": _str_or_none(mi.get("model_id")),
        "submission_id": str(meta.get("submission_id") or ""),
        "index": None,
        "submission_date": (date or datetime.datetime.now()).isoformat(),
        "submitted_by": _str_or_none(meta.get("username")),
        "description": str(mi.get("system_description", "")),
        "publication": {
            "author_short": _str_or_none(pub.get("author_label", "")),
            "authors": _str_or_none(pub.get("authors")),
            "paper_title": _str_or_none(pub.get("paper_title")),
            "paper_ref": paper_ref,
            "bib_ref": _str_or_none(pub.get("bib_reference")),
            "paper_url": _str_or_none(pub.get("paper_url")),
            "pub_year": None if year is None else int(year),
            "team_name": _str_or_none(pub.get("team")),
            "institution": str(pub.get("institution", "")),
            "code": _str_or_none(meta.get("code_url")),
            "DOI": _str_or_none(pub.get("DOI")),
            "open_science": bool(meta.get("open_source", False)),
        },
        "details": {"train_set": _str_or_none(mi.get("train_set")), "benchmarks": ["TDE-17"],
                    "gpu_budget": _str_or_none(mi.get("gpu_budget")),
                    "parameters": {"quiet": bool(params.get("quiet", False)), "njobs": int(params.get("njobs", 1))}},
        "scores": scores,
        "extras": None,
    }


HEADLINE = (("NED", "ned"), ("cov", "coverage"),
            ("grp P", "grouping_precision"), ("grp R", "grouping_recall"), ("grp F", "grouping_fscore"),
            ("tok P", "token_precision"), ("tok R", "token_recall"), ("tok F", "token_fscore"),
            ("typ P", "type_precision"), ("typ R", "type_recall"), ("typ F", "type_fscore"),
            ("bnd P", "boundary_precision"), ("bnd R", "boundary_recall"), ("bnd F", "boundary_fscore"))


def summary_table(per_lang: dict[str, dict], wall: dict[str, float]) -> str:
    """Languages x headline metrics in percent (2 decimals, as the leaderboard shows them)."""
    head = ["language"] + [h for h, _ in HEADLINE] + ["nwords", "npairs", "time s"]
    rows = [head]
    for lang in LANGUAGES:
        if lang not in per_lang:
            continue
        s = per_lang[lang]
        rows.append([lang] + [("-" if _num(s.get(k)) is None else f"{100 * s[k]:.2f}") for _, k in HEADLINE]
                    + [str(s["counts"]["types_seen"]), str(s["ned_pairs"]), f"{wall[lang]:.1f}"])
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    return "\n".join("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths)))
                     for r in rows) + "\n"
