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

import numpy as np

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


def render_csv(groups: list[tuple[str, list[str]]], rows: list[tuple[tuple, dict]], master_key: bool = False) -> str:
    """AutoTable's CSV rendering (-y CSV): one header line of `group|leaf` column ids, one line
    per row, every field double-quoted (Text::CSV always_quote), a missing cell empty; with
    `master_key` a first `MasterKey` column holding the row labels joined by `|`."""
    q = lambda v: '"' + str(v).replace('"', '""') + '"'     # noqa: E731
    cols = [(gi, leaf) for gi, (_, leaves) in enumerate(groups) for leaf in leaves]
    head = (["MasterKey"] if master_key else []) + [f"{groups[gi][0]}|{leaf}" for gi, leaf in cols]
    out = [",".join(q(h) for h in head)]
    for labels, cells in rows:
        line = ([q("|".join(labels))] if master_key else []) + \
               [q(cells[c]) if c in cells else "" for c in cols]
        out.append(",".join(line))
    return "\n".join(out) + "\n"


def _segment(res) -> bool:
    return res.extra.get("alignment") == "segment"


def header_text(res, trials_per_sec: float = 1.0) -> str:
    e, beta = res.extra, res.beta
    cost = e["c_fa"] / e["c_miss"]
    seg = _segment(res)
    keyvals = [("System Title", "NA"), ("Decision ID", "Segment" if seg else "Occurrence"),
               ("IncludeBlocksWithNoTargets", "1" if e.get("include_notarget_terms") else "0"),
               ("TotDur", perl_num(e["t_audio"])), ("TotTrials", str(int(e["trials_per_term"]))),
               ("TrialsPerSecond", perl_num(trials_per_sec)), ("BETA", perl_num(beta)),
               # KWSEval's Cost/Value pair (-k/-K): the cost ratio with Value 1; its default Cost is
               # sprintf("%.4f", 0.1)
               ("Cost", "0.1000" if cost == 0.1 else perl_num(cost)),
               ("Ptarg", perl_num(e["p_target"])), ("Value", "1")]
    if seg:     # segment trials have no duration (F4DE's TrialsDiscreteTWV)
        keyvals = [kv for kv in keyvals if kv[0] not in ("TotDur", "TrialsPerSecond")]
    rows = [((), {(0, "Key"): k, (0, "Value"): v}) for k, v in keyvals]
    return render([("Performance Summary Over and Ensemble of Subsets", ["Key", "Value"])], rows)


# KWSEval --zGlobalMeasures (-zG) ranked-retrieval measures: (set label, block label, format, scale)
GLOBAL_MEASURES = {"MAP": ("MAP", "AP", "%.2f", 1.0), "MAPpct": ("MAP%", "AP%", "%.1f", 100.0)}


def _ranked(res):
    """The run's Ranking (the stage's merge ranked the whole run; a condition's result is
    ranked here), or None without trials."""
    from termeval.std.ranking import ranking   # only with -zG measures
    t = getattr(res, "trials", None)
    if not t:
        return None
    rk = getattr(res, "ranking", None)
    if rk is None:
        rk = ranking(t["term"], t["score"], t["target"], res.ntrue, res.evaluated, p_at=())
    return rk


def _global_values(res, measures: tuple) -> tuple[dict, np.ndarray]:
    """{measure: set value or None} and the per-term AP (F4DE's string-ordered AP, NaN where
    undefined) of the -zG measures asked; a set without a computable AP has None (F4DE divides
    by zero there)."""
    rk = _ranked(res) if measures else None
    if rk is None:
        return {m: None for m in measures}, np.full(len(res.terms.ids), np.nan)
    return {m: rk.map_f4de for m in measures}, np.asarray(rk.ap_f4de, np.float64)


def kwseval_global_values(res, measures: tuple, order: list[int]) -> tuple[dict, dict]:
    """KWSEval's -zG MAP / MAPpct of a DET as DETCurve::_computeMeanForAP computes them, in the
    measure's unit: ({measure: value, None where F4DE divides by zero}, {measure: per-term AP,
    0 for a term without targets}). APpct multiplies each precision by 100 before the sum (its
    last digit can differ from 100 x AP); the mean sums the DET's evaluated blocks (`order`:
    their term indexes in getBlockIDs order) one after the other."""
    rk = _ranked(res) if measures else None
    has = np.asarray(res.ntrue) > 0
    if rk is None:
        nan = np.where(has, np.nan, 0.0)
        return {m: None for m in measures}, {m: nan for m in measures}
    vals, per = {}, {}
    for m in measures:
        ap = np.where(has, rk.ap_f4de_pct if m == "MAPpct" else rk.ap_f4de, 0.0)
        total = 0.0
        for q in order:
            total += float(ap[q])
        vals[m] = total / len(order) if order else None
        per[m] = ap
    return vals, per


def gm_text(m: str, v) -> str:
    """A -zG measure's cell from its value in the measure's unit."""
    return _pn(GLOBAL_MEASURES[m][2], None if v is None or not np.isfinite(v) else v)


def _gm_cell(m: str, v) -> str:
    _, _, fmt, scale = GLOBAL_MEASURES[m]
    return _pn(fmt, None if v is None or not np.isfinite(v) else v * scale)


def _sum_table(results: list[tuple[str, object]], measures: tuple = ()) -> tuple[list, list]:
    """The summary table of one DET set: one row per (title, StdResult); `measures`: the -zG
    global measures (MAP, MAPpct) as a last `Global Measures` group."""
    keyword = any(int(r.evaluated.sum()) > 1 for _, r in results)
    inputs = (["#Keyword"] if keyword else []) + ["#Targ", "#NTarg", "#Sys"]
    groups = [(" ", ["Title"]), ("Inputs", inputs),
              ("Actual Decision TWV Analysis", ["#CorDet", "#Cor!Det", "#FA", "#Miss", "PFA", "PMiss", "TWV",
                                                 "Dec. Tresh"]),
              ("Maximum TWV Analysis", ["PFA", "PMiss", "TWV", "Dec. Thresh"])]
    rows = [((), _sum_cells(r, title)) for title, r in results]
    if measures:
        groups.append(("Global Measures", [GLOBAL_MEASURES[m][0] for m in measures]))
        for (_, cells), (_, r) in zip(rows, results):
            vals, _ = _global_values(r, measures)
            cells.update({(4, GLOBAL_MEASURES[m][0]): _gm_cell(m, vals[m]) for m in measures})
    return groups, rows


def _sum_cells(res, title: str) -> dict:
    m, e = res.metrics, res.extra
    n_eval = int(res.evaluated.sum())
    cr = int(e["n_correct_rejects"])
    cells = {(0, "Title"): title, (1, "#Targ"): str(m["n_targets"]),
             (1, "#NTarg"): str(m["n_false_alarms"] + cr), (1, "#Sys"): str(m["n_detections"]),
             (2, "#CorDet"): str(m["n_hits"]), (2, "#Cor!Det"): str(cr), (2, "#FA"): str(m["n_false_alarms"]),
             (2, "#Miss"): str(m["n_misses"]), (2, "PFA"): _pn("%6.5f", m["p_fa"]),
             (2, "PMiss"): _pn("%6.3f", m["p_miss"]), (2, "TWV"): _pn("%6.4f", m["atwv"]),
             (2, "Dec. Tresh"): _pn("%6.4f", m["actual_threshold"]), (3, "PFA"): _pn("%6.5f", m["p_fa_at_mtwv"]),
             (3, "PMiss"): _pn("%6.3f", m["p_miss_at_mtwv"]), (3, "TWV"): _pn("%6.4f", m["mtwv"]),
             # F4DE's best threshold of a set without an evaluated block is Perl's NaN
             (3, "Dec. Thresh"): _pn("%6.3f", m["mtwv_threshold"]) if n_eval else "NaN"}
    if n_eval > 1:
        cells[(1, "#Keyword")] = str(n_eval)
    return cells


def sum_text(res, title: str | None = None, trials_per_sec: float = 1.0) -> str:
    groups, rows = _sum_table([(title or ("Segment" if _segment(res) else "Occurrence"), res)])
    return header_text(res, trials_per_sec) + "\n\n" + render(groups, rows)


def cond_sum_text(conds: list, trials_per_sec: float = 1.0) -> str:
    """cond.sum.txt (KWSEval -O): one row per condition (name, StdResult, selected), sorted by name."""
    conds = sorted(conds, key=lambda c: c[0])
    groups, rows = _sum_table([(name, r) for name, r, _ in conds])
    return header_text(conds[0][1], trials_per_sec) + "\n\n" + render(groups, rows)


# A set without an evaluated block gets its columns from the summary rows, in Perl hash order:
# this is the order of F4DE's reference output res_test2b.txt/res_test2c.txt (Characters-5; its
# tester compares Perl >= 5.18 runs with res_test2b.518.txt, another order).
EMPTY_SET_LEAVES = ["#Miss", "#FA", "#Corr", "#Targ", "PFA", "PMISS", "TWV"]


def _block_leaves(res) -> list[str]:
    if not res.evaluated.any():
        return EMPTY_SET_LEAVES[:3] + (["#Corr!Det"] if _segment(res) else []) + EMPTY_SET_LEAVES[3:]
    return ["#Targ", "#Corr"] + (["#Corr!Det"] if _segment(res) else []) + ["#FA", "#Miss", "TWV", "PFA", "PMISS"]


def _block_cells(res, gi: int, q: int, corr_nodet: np.ndarray) -> dict:
    tw = res.twv
    pfa = _pn("%6.5f", tw.term_pfa[q])
    cells = {(gi, "#Targ"): str(int(res.ntrue[q])), (gi, "#Corr"): str(int(res.n_hits[q])),
             (gi, "#FA"): str(int(res.n_fa[q])), (gi, "#Miss"): str(int(res.n_miss[q])),
             # a block without targets (-inc) has no PMiss, hence no TWV (MetricTWV::combBlockCalc)
             (gi, "TWV"): _pn("%6.4f", tw.term_twv[q] if res.ntrue[q] > 0 else None),
             (gi, "PFA"): pfa if pfa != "NA" else "0",
             (gi, "PMISS"): _pn("%6.3f", tw.term_pmiss[q])}
    if _segment(res):
        cells[(gi, "#Corr!Det")] = str(int(corr_nodet[q]))
    return cells


def _corr_nodet(res) -> np.ndarray:
    t = getattr(res, "trials", None)
    if not t or not len(t["term"]):
        return np.zeros(len(res.terms.ids), np.int64)
    return np.bincount(t["term"][~t["target"] & ~t["yes"]], minlength=len(res.terms.ids))


def _summary_rows(res, gi: int) -> list[tuple[tuple, dict]]:
    leaves = _block_leaves(res)
    counts = [c for c in leaves if c.startswith("#")]
    ev = res.evaluated
    k = int(ev.sum())
    cnd = _corr_nodet(res)
    src = {"#Targ": res.ntrue, "#Corr": res.n_hits, "#Corr!Det": cnd, "#FA": res.n_fa, "#Miss": res.n_miss}
    tot = {c: int(src[c][ev].sum()) for c in counts}
    means = {(gi, c): ("%.0f" % (v / k) if k else "0") for c, v in tot.items()}
    means[(gi, "PFA")] = _pn("%6.5f", res.metrics["p_fa"])
    means[(gi, "PMISS")] = _pn("%6.3f", res.metrics["p_miss"])
    return [(("Summary", "Totals"), {(gi, c): str(v) for c, v in tot.items()}),
            (("Summary", "Means"), means),
            (("Summary", "TWV"), {(gi, "TWV"): _pn("%6.4f", res.metrics["atwv"])})]


def _bsum_table(conds: list, measures: tuple = ()) -> tuple[list, list]:
    """The blocked table of (group label, StdResult, selected-terms mask) sets: one `Keyword`
    row per term selected by some set (id order), then Summary Totals / Means / TWV; `measures`
    (-zG MAP, MAPpct) add a `Global Measures` group of per-term AP and its mean."""
    terms = conds[0][1].terms
    groups = [("MetaData", ["Text"])] + [(name, _block_leaves(r)) for name, r, _ in conds]
    gm = len(groups)
    if measures:
        groups.append(("Global Measures", [GLOBAL_MEASURES[m][1] for m in measures]))
    shown = np.zeros(len(terms.ids), bool)
    for _, _, sel in conds:
        shown |= sel
    cnds = [_corr_nodet(r) for _, r, _ in conds]
    gvals = [_global_values(r, measures) for _, r, _ in conds]
    aps = [g[1] for g in gvals]
    rows = []
    for q in sorted(np.flatnonzero(shown).tolist(), key=lambda q: terms.ids[q]):
        cells = {(0, "Text"): terms.texts[q]}
        for gi, (_, r, _) in enumerate(conds, start=1):
            if r.evaluated[q]:
                cells.update(_block_cells(r, gi, q, cnds[gi - 1]))
                if measures:   # F4DE's AutoTable keeps one cell: the last set's
                    cells.update({(gm, GLOBAL_MEASURES[m][1]): _gm_cell(m, aps[gi - 1][q]) for m in measures})
        rows.append((("Keyword", terms.ids[q]), cells))
    summary = [dict() for _ in range(3)]
    labels = []
    for gi, (_, r, _) in enumerate(conds, start=1):
        for k, (lab, cells) in enumerate(_summary_rows(r, gi)):
            summary[k].update(cells)
            labels.append(lab) if gi == 1 else None
    if measures:
        summary[1].update({(gm, GLOBAL_MEASURES[m][1]): _gm_cell(m, gvals[-1][0][m]) for m in measures})
    rows += list(zip(labels, summary))
    return groups, rows


def _shown(res) -> np.ndarray:
    """The terms of bsum.txt: every listed term, or with -j (--just-system-terms) those of the
    system's blocks (F4DE's trials hold no other)."""
    shown = getattr(res, "system_terms", None)      # a --compat kaldi result has none
    return np.ones(len(res.terms.ids), bool) if shown is None else shown


def bsum_text(res, trials_per_sec: float = 1.0) -> str:
    label = "Segment" if _segment(res) else "Occurrence"
    groups, rows = _bsum_table([(label, res, _shown(res))])
    return header_text(res, trials_per_sec) + "\n\n" + render(groups, rows, row_levels=2)


def cond_bsum_text(conds: list, trials_per_sec: float = 1.0) -> str:
    """cond.bsum.txt (KWSEval -B): one column group per condition (sorted by name)."""
    conds = sorted(conds, key=lambda c: c[0])
    groups, rows = _bsum_table(conds)
    return header_text(conds[0][1], trials_per_sec) + "\n\n" + render(groups, rows, row_levels=2)


def report_texts(res, conds: list | None = None, trials_per_sec: float = 1.0, fmt: str = "txt",
                 measures: tuple = ()) -> dict:
    """{file name: text} of the F4DE reports: sum/bsum (and cond.sum/cond.bsum when `conds`,
    a list of (name, StdResult, selected mask), is given) as .txt and/or .csv (fmt txt|csv|both);
    `measures`: KWSEval -zG MAP / MAPpct columns."""
    label = "Segment" if _segment(res) else "Occurrence"
    measures = tuple(measures)
    bad = [m for m in measures if m not in GLOBAL_MEASURES]
    if bad:
        raise ValueError(f"unknown global measure(s) {bad} (MAP, MAPpct)")
    tables = {"sum": (_sum_table([(label, res)], measures), 0, res),
              "bsum": (_bsum_table([(label, res, _shown(res))], measures), 2, res)}
    if conds:
        cs = sorted(conds, key=lambda c: c[0])
        tables["cond.sum"] = (_sum_table([(n, r) for n, r, _ in cs], measures), 0, cs[0][1])
        tables["cond.bsum"] = (_bsum_table(cs, measures), 2, cs[0][1])
    out = {}
    for name, ((groups, rows), levels, hres) in tables.items():
        if fmt in ("txt", "both"):
            out[name + ".txt"] = header_text(hres, trials_per_sec) + "\n\n" + render(groups, rows, row_levels=levels)
        if fmt in ("csv", "both"):
            out[name + ".csv"] = render_csv(groups, rows, master_key=levels > 0)
    return out


def write_reports(directory: str, res, trials_per_sec: float = 1.0, conds: list | None = None,
                  fmt: str = "txt", measures: tuple = ()) -> None:
    """<directory>/sum.txt and bsum.txt (+ cond.sum.txt, cond.bsum.txt with conditions; .csv
    with fmt csv|both), each written whole, then renamed."""
    os.makedirs(directory, exist_ok=True)
    for name, text in report_texts(res, conds, trials_per_sec, fmt, measures).items():
        write_text(os.path.join(directory, name), text)
