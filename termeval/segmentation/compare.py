"""--compat all: the boundary scores of every scorer on the same segmentation, side by side.

Each row is one definition: termeval's (`none`), kamperh/vqwordseg's (`vqwordseg`) and every
named scorer of termeval.segmentation.scorers, each with its own rules for reading the
segmentation and for which utterances count. All rows use --tolerance; the frame shift of a
frame-based row is --frame-shift when given, else its scorer's own (Scorer.frame_shift; 0.01
for vqwordseg); a row whose settings its scorer refuses (a tolerance that is not a whole number
of its frames) shows the error. The per-row counts [n_ref, n_pred, hits] are additive over utterances, so a job
of --nj N holds its share and the merge adds them up. The table is written as
scores/<stage>_compare, kept in scores.json (`compare`), and printed.
"""
from __future__ import annotations

import numpy as np

from termeval.core.numbers import fmt_value
from termeval.core.errors import InputError
from termeval.segmentation import checks
from termeval.segmentation import scorer_registry as scorers
from termeval.segmentation.rvalue import prf
from termeval.segmentation.rvalue import standard_values
from termeval.segmentation.stats import Settings, frame_shift_for, job_stats


def modes() -> tuple[str, ...]:
    """The rows of the table, in order."""
    return scorers.OTHER_MODES + tuple(scorers.SCORERS)


class RowSettings(Settings):
    """The settings of a row: no tolerance sweep (the table holds the boundary counts only)."""

    def sweep(self) -> list[float]:
        return []


def settings_of(s: Settings, mode: str) -> Settings:
    """The settings of one row: --tolerance; --frame-shift when given, else the scorer's own
    frame shift when it has one (0.01 for vqwordseg)."""
    fs = frame_shift_for(mode, s.frame_shift if s.frame_shift_given else None)
    return RowSettings(s.tolerance, fs, s.level, mode, s.frame_shift_given)


def reading(mode: str) -> str:
    sc = scorers.get(mode)
    return sc.reading if sc is not None else mode


def counts(ref, preds: dict, utts, sel: np.ndarray, s: Settings) -> dict[str, list]:
    """Per row: [utterances scored, n_ref, n_pred, hits(, reference hits of a lenient scorer)]
    of the utterances `sel`, or [the error text] when the row's reading or scorer refused the input."""
    out: dict[str, list] = {}
    for mode in modes():
        pred = preds[reading(mode)]
        if isinstance(pred, str):
            out[mode] = [pred]
            continue
        try:
            checks.check_settings(settings_of(s, mode))
            st = job_stats(ref, pred, utts, sel, settings_of(s, mode))
        except InputError as e:
            out[mode] = [str(e)]
            continue
        width = len(st["boundary"][0]) if st["boundary"] else 3
        b = np.asarray(st["boundary"], dtype=np.int64).reshape(-1, width).sum(axis=0)
        out[mode] = [len(st["utts"])] + [int(x) for x in b]
    return out


def merge(parts: list[dict]) -> dict[str, list]:
    """Add up the rows of the jobs (an error of any job is the row's)."""
    out: dict[str, list] = {}
    for mode in modes():
        rows = [p[mode] for p in parts]
        bad = [r[0] for r in rows if isinstance(r[0], str)]
        out[mode] = [bad[0]] if bad else [sum(r[k] for r in rows) for k in range(len(rows[0]))]
    return out


def rows(merged: dict[str, list], s: Settings) -> list[dict]:
    """One dict per row: scorer, tolerance, frame shift, counts, P, R, F (None: undefined)."""
    table = []
    for mode in modes():
        r, rs = merged[mode], settings_of(s, mode)
        row = {"scorer": mode, "tolerance": rs.tolerance,
               "frame_shift": rs.frame_shift if _framed(mode) else None}
        if isinstance(r[0], str):
            table.append({**row, "error": r[0]})
            continue
        sc = scorers.get(mode)
        values = getattr(sc.impl(), "values", standard_values) if sc is not None else None
        c = np.asarray(r[1:], dtype=np.int64)
        p, rec, f = (values(c)[k] for k in ("precision", "recall", "fscore")) if values else prf(r[3], r[2], r[1])
        table.append({**row, "ref": r[1], "pred": r[2], "hits": r[3], "utterances": r[0],
                      **({"ref_hits": r[4]} if len(r) > 4 else {}), "precision": p, "recall": rec, "fscore": f})
    return table


def _framed(mode: str) -> bool:
    return Settings(compat=mode).framed


def _v(x) -> str:
    return fmt_value(x)


def format_table(table: list[dict], level: str) -> str:
    """The table as text: one line per scorer."""
    head = f"# {level} boundaries: scorer tolerance_s frame_shift_s ref pred hits precision recall fscore\n"
    lines = []
    for r in table:
        fs = "-" if r["frame_shift"] is None else f"{r['frame_shift']:g}"
        if "error" in r:
            lines.append(f"{r['scorer']:<14} {r['tolerance']:g} {fs} - - - - - -  # {r['error']}")
        else:
            lines.append(f"{r['scorer']:<14} {r['tolerance']:g} {fs} {r['ref']} {r['pred']} {r['hits']} "
                         f"{_v(r['precision'])} {_v(r['recall'])} {_v(r['fscore'])}")
    return head + "".join(x + "\n" for x in lines)
