"""F4DE KWSEval's text reports `sum.txt` (-o) and `bsum.txt` (-b), occurrence mode, in its
layout (F4DE 3.5.0 DETCurveSet::renderReport / renderBlockedReport drawn by AutoTable's text
renderer with a gap of 2), so that scripts reading them by line or by `|` column keep working
(docs/std-kaldi-compat.md, "F4DE report files").

Layout rules (AutoTable, re-derived): a data column is 2*gap + the longest of its label and its
cells wide; a group label wider than its columns (+2*gap) spreads the missing width over them
(int(missing/n) each, the rest to the last); labels are centred (left margin int(free/2)), cells
right-justified between one space on each side. Both files start with the 10-line key/value
header (System Title, Decision ID, IncludeBlocksWithNoTargets, TotDur, TotTrials,
TrialsPerSecond, BETA, Cost, Ptarg, Value) framed by 3 lines, then 2 blank lines, then the
table: 3 header lines (the last a +---+ rule), then the rows. So TotDur is line 7 of both
files, and bsum.txt's keyword rows follow line 18. Numbers: MetricFuncs' %6.5f (PFA), %6.3f (PMiss, maximum-TWV threshold), %6.4f (TWV, actual
threshold): a cell's width counts the padding even where the column is right-justified; means
of counts %.0f, other numbers as Perl prints them (%.15g).
"""
from __future__ import annotations

import math
import os
from typing import Optional

from termeval.core.textio import write_text

GAP = 2


def perl_num(x) -> str:
    if isinstance(x, (int,)) and not isinstance(x, bool):
        return str(x)
    x = float(x)
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return "%.15g" % x


def _pn(fmt: str, v: Optional[float]) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "NA"
    return fmt % v


def _center(s: str, w: int) -> str:
    left = (w - len(s)) // 2 if w >= len(s) else int((w - len(s)) / 2)
    right = w - (len(s) + left)
    return " " * max(0, left) + s + " " * max(0, right)


def render(groups: list[tuple[str, list[str]]], rows: list[tuple[tuple, dict]], row_levels: int = 0,
           gap: int = GAP) -> str:
    """An AutoTable text table: column groups (label, leaf labels), rows (row labels, {(group
    index, leaf): text}); `row_levels` > 0 shows the row labels as leading columns."""
    widths: list[list[int]] = []
    for gi, (glab, leaves) in enumerate(groups):
        w = []
        for leaf in leaves:
            data = max((len(r[1][(gi, leaf)]) for r in rows if (gi, leaf) in r[1]), default=0)
            w.append(2 * gap + max(len(leaf), data))
        need = len(glab) + 2 * gap
        have = sum(w) + len(w) - 1
        if need > have:
            resid = need - have
            per = int(resid / len(w))
            for k in range(len(w)):
                w[k] += per if k < len(w) - 1 else resid - (len(w) - 1) * per
        widths.append(w)
    rw = [max(len(r[0][lv]) for r in rows) for lv in range(row_levels)]
    lead = "".join(_center("", x) + _center("", gap) for x in rw)
    out = []
    out.append(lead + "|" + "|".join(_center(g, sum(w) + len(w) - 1) for (g, _), w in zip(groups, widths)) + "|")
    out.append(lead + "|" + "|".join(_center(leaf, x) for (_, leaves), w in zip(groups, widths)
                                     for leaf, x in zip(leaves, w)) + "|")
    sep = ("".join("-" * (x + gap) for x in rw) + "+") if row_levels else "|"
    out.append(sep + "".join("-" * x + "+" for w in widths for x in w))
    last = [None] * row_levels
    for labels, cells in rows:
        head = ""
        reset = False
        for lv in range(row_levels):
            show = reset or labels[lv] != last[lv]
            reset = reset or show
            txt = labels[lv] if show else ""
            head += txt + " " * (rw[lv] - len(txt)) + " " * gap
            last[lv] = labels[lv]
        line = head + "|"
        for gi, ((_, leaves), w) in enumerate(zip(groups, widths)):
            for leaf, x in zip(leaves, w):
                v = cells.get((gi, leaf), "")
                line += " " + " " * (x - 2 - len(v)) + v + " |"
        out.append(line)
    return "\n".join(out) + "\n"


def header_text(res, trials_per_sec: float = 1.0) -> str:
    e, beta = res.extra, res.beta
    cost = e["c_fa"] / e["c_miss"]
    keyvals = [("System Title", "NA"), ("Decision ID", "Occurrence"),
               ("IncludeBlocksWithNoTargets", "1" if e.get("include_notarget_terms") else "0"),
               ("TotDur", perl_num(e["t_audio"])), ("TotTrials", str(int(e["trials_per_term"]))),
               ("TrialsPerSecond", perl_num(trials_per_sec)), ("BETA", perl_num(beta)),
               # KWSEval's Cost/Value pair (-k/-K): the cost ratio with Value 1; its default Cost is
               # sprintf("%.4f", 0.1)
               ("Cost", "0.1000" if cost == 0.1 else perl_num(cost)),
               ("Ptarg", perl_num(e["p_target"])), ("Value", "1")]
    rows = [((), {(0, "Key"): k, (0, "Value"): v}) for k, v in keyvals]
    return render([("Performance Summary Over and Ensemble of Subsets", ["Key", "Value"])], rows)


def sum_text(res, title: str = "Occurrence", trials_per_sec: float = 1.0) -> str:
    m, e = res.metrics, res.extra
    n_eval = int(res.evaluated.sum())
    inputs = (["#Keyword"] if n_eval > 1 else []) + ["#Targ", "#NTarg", "#Sys"]
    groups = [(" ", ["Title"]), ("Inputs", inputs),
              ("Actual Decision TWV Analysis", ["#CorDet", "#Cor!Det", "#FA", "#Miss", "PFA", "PMiss", "TWV",
                                                 "Dec. Tresh"]),
              ("Maximum TWV Analysis", ["PFA", "PMiss", "TWV", "Dec. Thresh"])]
    cr = int(e["n_correct_rejects"])
    cells = {(0, "Title"): title, (1, "#Keyword"): str(n_eval), (1, "#Targ"): str(m["n_targets"]),
             (1, "#NTarg"): str(m["n_false_alarms"] + cr), (1, "#Sys"): str(m["n_detections"]),
             (2, "#CorDet"): str(m["n_hits"]), (2, "#Cor!Det"): str(cr), (2, "#FA"): str(m["n_false_alarms"]),
             (2, "#Miss"): str(m["n_misses"]), (2, "PFA"): _pn("%6.5f", m["p_fa"]),
             (2, "PMiss"): _pn("%6.3f", m["p_miss"]), (2, "TWV"): _pn("%6.4f", m["atwv"]),
             (2, "Dec. Tresh"): _pn("%6.4f", m["actual_threshold"]), (3, "PFA"): _pn("%6.5f", m["p_fa_at_mtwv"]),
             (3, "PMiss"): _pn("%6.3f", m["p_miss_at_mtwv"]), (3, "TWV"): _pn("%6.4f", m["mtwv"]),
             (3, "Dec. Thresh"): _pn("%6.3f", m["mtwv_threshold"])}
    return header_text(res, trials_per_sec) + "\n\n" + render(groups, [((), cells)])


def bsum_text(res, trials_per_sec: float = 1.0) -> str:
    tw, terms = res.twv, res.terms
    leaves = ["#Targ", "#Corr", "#FA", "#Miss", "TWV", "PFA", "PMISS"]
    groups = [("MetaData", ["Text"]), ("Occurrence", leaves)]
    rows = []
    ev = res.evaluated
    for q in sorted(range(len(terms.ids)), key=lambda q: terms.ids[q]):
        cells = {(0, "Text"): terms.texts[q]}
        if ev[q]:
            pfa = _pn("%6.5f", tw.term_pfa[q])
            cells.update({(1, "#Targ"): str(int(res.ntrue[q])), (1, "#Corr"): str(int(res.n_hits[q])),
                          (1, "#FA"): str(int(res.n_fa[q])), (1, "#Miss"): str(int(res.n_miss[q])),
                          (1, "TWV"): _pn("%6.4f", tw.term_twv[q]), (1, "PFA"): pfa if pfa != "NA" else "0",
                          (1, "PMISS"): _pn("%6.3f", tw.term_pmiss[q])})
        rows.append((("Keyword", terms.ids[q]), cells))
    k = int(ev.sum())
    tot = [int(x[ev].sum()) for x in (res.ntrue, res.n_hits, res.n_fa, res.n_miss)]
    rows.append((("Summary", "Totals"), {(1, c): str(v) for c, v in zip(leaves[:4], tot)}))
    means = {(1, c): ("%.0f" % (v / k) if k else "NA") for c, v in zip(leaves[:4], tot)}
    means[(1, "PFA")] = _pn("%6.5f", res.metrics["p_fa"])
    means[(1, "PMISS")] = _pn("%6.3f", res.metrics["p_miss"])
    rows.append((("Summary", "Means"), means))
    rows.append((("Summary", "TWV"), {(1, "TWV"): _pn("%6.4f", res.metrics["atwv"])}))
    return header_text(res, trials_per_sec) + "\n\n" + render(groups, rows, row_levels=2)


def write_reports(directory: str, res, trials_per_sec: float = 1.0) -> None:
    """<directory>/sum.txt and bsum.txt (each written whole, then renamed)."""
    os.makedirs(directory, exist_ok=True)
    write_text(os.path.join(directory, "sum.txt"), sum_text(res, trials_per_sec=trials_per_sec))
    write_text(os.path.join(directory, "bsum.txt"), bsum_text(res, trials_per_sec))
