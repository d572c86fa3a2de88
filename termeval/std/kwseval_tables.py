"""KWSEval's report tables as F4DE 3.5.0 builds them (DETCurveSet::_buildHeaderTable,
_buildAutoTable, _buildBlockedAutoTable) from the engine's alignment, each cell added to an
AutoTable-like table whose columns keep the order in which they were first added (so that a
column first met in a later row, such as `Inputs|#Keyword` of a condition with several
keywords, comes after the others, as in F4DE), rendered by f4de_reports' text and CSV layout.

The figures are F4DE's (termeval.std.f4de_det): the actual-decision threshold over every block
of the set, the Maximum/Optimum/Supremum TWV analyses, and `-d`'s DET Curve Graphs columns and
`Combined DET Plot` header row. Rows of a blocked report come in the order F4DE adds them: each
set's blocks sorted by id, set after set (conditions sorted by name), then the summary rows.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from termeval.std import f4de_reports
from termeval.std.autotable_html import render_html
from termeval.std.f4de_det import Block, SetFigures, actual_threshold, block_set_calc, compute_set
from termeval.std.f4de_reports import GLOBAL_MEASURES, _pn, gm_text, kwseval_global_values, perl_num
from termeval.std.kwseval_groups import has_trials
from termeval.std.kwseval_order import det_block_order, processing_order, table_block_order, trial_insertion, \
    trial_keys
from termeval.std.perlhash import PadHash

# keys %{$totals{$key}} and keys %{$means{$key}} of DETCurveSet::_buildBlockedAutoTable as Perl
# 5.36 lists them under KWSEval.pl's PERL_HASH_SEED=0 (#Corr!Det: segment alignment only)
TOTALS_ORDER = {"occ": ("#FA", "#Miss", "#Targ", "#Corr"), "seg": ("#FA", "#Miss", "#Targ", "#Corr", "#Corr!Det")}
MEANS_ORDER = {"occ": ("PFA", "#FA", "#Miss", "#Targ", "PMISS", "#Corr"),
               "seg": ("#FA", "#Targ", "#Corr", "#Corr!Det", "PFA", "#Miss", "PMISS")}
# F4DE's hash orders of its fixed parameter sets (PERL_HASH_SEED=0, as KWSEval.pl runs Perl)
TRIAL_PARAM_ORDER = {False: ("TrialsPerSecond", "TotDur", "TotTrials", "IncludeBlocksWithNoTargets"),
                     True: ("TotTrials", "IncludeBlocksWithNoTargets")}      # segment alignment
METRIC_PARAM_ORDER = ("BETA", "Ptarg", "Cost", "Value")


class Table:
    """An AutoTable: cells by (column id `Group|Leaf`, row id), both kept in order of first use."""

    def __init__(self) -> None:
        self.cols: dict[str, None] = {}
        self.rows: dict[str, dict[str, str]] = {}
        self.specials: dict[tuple[str, str], str] = {}

    def add(self, value: str, col: str, row: str, special: str = "") -> None:
        self.cols.setdefault(col, None)
        self.rows.setdefault(row, {})[col] = value
        if special:
            self.specials[(row, col)] = special

    def _layout(self, sort_rows: bool) -> tuple[list, list]:
        groups: list[tuple[str, list[str]]] = []
        index = {}
        for col in self.cols:
            g, _, leaf = col.rpartition("|")
            if not groups or groups[-1][0] != g:
                groups.append((g, []))
            groups[-1][1].append(leaf)
            index[col] = (len(groups) - 1, leaf)
        keys = sorted(self.rows) if sort_rows else list(self.rows)
        rows = [(tuple(k.split("|", 1)) if "|" in k else (k,),
                 {index[c]: v for c, v in self.rows[k].items()}) for k in keys]
        return groups, rows

    def txt(self, row_levels: int, sort_rows: bool = False) -> str:
        groups, rows = self._layout(sort_rows)
        return f4de_reports.render(groups, rows, row_levels=row_levels)

    def csv(self, master_key: bool, sort_rows: bool = False) -> str:
        groups, rows = self._layout(sort_rows)
        return f4de_reports.render_csv(groups, rows, master_key=master_key)

    def html(self, key_column: bool, align: str = "right") -> str:
        """AutoTable's HTML: rows and columns as added (KWSEval sorts no HTML table)."""
        data = {(r, c): v for r, cells in self.rows.items() for c, v in cells.items()}
        return render_html(list(self.cols), list(self.rows), data, self.specials, key_column, align)


@dataclass
class SetData:
    """One DET of a report: its title, the engine's result, its blocks and F4DE's figures."""
    title: str
    res: object
    blocks: dict                      # id -> Block, every block of the set
    evaluated: dict                   # id -> Block, the evaluated ones
    fig: SetFigures
    params: dict                      # trial and metric parameters as F4DE prints them
    png: str = ""                     # -d: the DET and threshold PNGs (file root + dets/...)
    thresh_png: str = ""
    measures: tuple = ()
    optimum: bool = False             # -zG Optimum / Supremum: their analysis columns
    supremum: bool = False
    actual_order: list = field(default_factory=list)   # getActualDecisionRawCountBlocks' hash order
    sum_order: list = field(default_factory=list)      # _buildAutoTable's %combData order
    bsum_order: list = field(default_factory=list)     # _buildBlockedAutoTable's %combData order
    map_order: list = field(default_factory=list)      # the evaluated blocks' term indexes, getBlockIDs order


@dataclass(frozen=True)
class Echo:
    """The command line's values as KWSEval keeps them (Perl strings)."""
    cost: str = "0.1000"
    value: str = "1"
    ptarg: str = "0.0001"
    trials_per_sec: str = "1"
    articulated: bool = False
    optimum: bool = False
    supremum: bool = False
    measures: tuple = ()          # MAP, MAPpct (in -zG order)


def blocks_of(res, dets, selected: Optional[np.ndarray] = None) -> dict:
    """{term id: Block} of a set: its terms (every listed term, or `selected`), their aligned and
    unaligned detection scores, omitted targets and YES/NO extremes."""
    a = res.ali
    di = np.asarray(a["det_index"], np.int64)
    q = np.asarray(a["det_term"], np.int64)
    tgt = np.asarray(a["det_ref"]) >= 0
    yes = np.asarray(a["yes"])[di] if len(di) else np.zeros(0, bool)
    score = np.asarray(dets.score)[di] if len(di) else np.zeros(0)
    terms = res.terms
    sel = np.ones(len(terms.ids), bool) if selected is None else selected
    out = {}
    order = np.argsort(q, kind="stable")
    bounds = np.searchsorted(q[order], np.arange(len(terms.ids) + 1))
    for t in np.flatnonzero(sel).tolist():
        idx = order[bounds[t]:bounds[t + 1]]
        s, tg, y = score[idx], tgt[idx], yes[idx]
        out[terms.ids[t]] = Block(
            targ=sorted(s[tg].tolist()), nontarg=sorted(s[~tg].tolist()),
            omitted=int(res.ntrue[t]) - int(tg.sum()) if res.evaluated[t] or res.ntrue[t] else 0,
            yes_targ=int((tg & y).sum()), yes_nontarg=int((~tg & y).sum()),
            min_yes=float(s[y].min()) if y.any() else None, max_no=float(s[~y].max()) if (~y).any() else None)
    return out


def set_data(title: str, res, dets, echo: Echo, order: list[str], segment: bool,
             selected: Optional[np.ndarray] = None, pad: Optional[PadHash] = None) -> SetData:
    """A DET of the report: `order` the terms in KWSEval's processing order, `selected` the
    terms of the set (every term: None), `pad` Compute_blocked_DET_points' block hash as the
    DETs computed before left it (None when F4DE does not compute this DET)."""
    blocks = blocks_of(res, dets, selected)
    ev_ids = {res.terms.ids[t] for t in np.flatnonzero(res.evaluated).tolist()}
    tried = {res.terms.ids[t] for t in np.flatnonzero(has_trials(res)).tolist()}
    insertion = trial_insertion(order, tried & set(blocks), set(blocks) - tried, segment, res.terms.ids,
                                add_empty=getattr(res, "system_terms", None) is None)
    det_order = det_block_order(insertion, ev_ids & set(blocks), pad)
    evaluated = {b: blocks[b] for b in det_order}
    tot = int(res.extra["trials_per_term"])
    fig = compute_set(evaluated, tot, res.beta, echo.articulated)
    e = res.extra
    params = {"TrialsPerSecond": echo.trials_per_sec, "TotDur": perl_num(e["t_audio"]),
              "TotTrials": "%.0f" % (e["t_audio"] / float(echo.trials_per_sec)),
              "IncludeBlocksWithNoTargets": "1" if e.get("include_notarget_terms") else "0",
              "BETA": perl_num(res.beta), "Ptarg": echo.ptarg, "Cost": echo.cost, "Value": echo.value}
    if segment:         # TrialsDiscreteTWV: the segments are the trials, no duration
        del params["TrialsPerSecond"], params["TotDur"]
        params["TotTrials"] = str(tot)
    pos = {x: i for i, x in enumerate(res.terms.ids)}
    map_order = [pos[b] for b in trial_keys(insertion) if b in evaluated]
    return SetData(title, res, blocks, evaluated, fig, params, measures=echo.measures, optimum=echo.optimum,
                   supremum=echo.supremum, actual_order=det_block_order(insertion, ev_ids & set(blocks)),
                   map_order=map_order)


def actual_figures(s: SetData, order: list[str]) -> tuple:
    """combBlockSetCalc of the actual decisions' counts, summed in `order`."""
    counts = {b: (s.evaluated[b].n_targ - s.evaluated[b].yes_targ, s.evaluated[b].yes_nontarg) for b in order}
    return block_set_calc(counts, int(s.res.extra["trials_per_term"]), s.res.beta, s.evaluated)


def _variable(sets: list[SetData]) -> set:
    return {k for k in sets[0].params if len({s.params[k] for s in sets}) > 1}


def _last_two(path: str, whole: bool) -> str:
    """`dir/name` of a PNG path (F4DE's link target): its last two components; a path without
    a `/` stays whole for a DET cell (`whole`) and gives no link in the header."""
    m = re.search(r"([^/]+)/([^/]+)$", path)
    return f"{m.group(1)}/{m.group(2)}" if m else (path if whole else "")


def header(sets: list[SetData], combined_png: str = "", segment: bool = False) -> Table:
    """_buildHeaderTable: System Title, Decision ID, the constant parameters (sorted), the
    combined DET plot."""
    t = Table()
    col = "Performance Summary Over and Ensemble of Subsets"
    kv = [("System Title", "NA"), ("Decision ID", "Segment" if segment else "Occurrence")]
    var = _variable(sets)
    for keys in (TRIAL_PARAM_ORDER[segment], METRIC_PARAM_ORDER):
        kv += [(k, sets[0].params[k]) for k in sorted(keys) if k not in var and k in sets[0].params]
    if combined_png:
        kv.append(("Combined DET Plot", combined_png))
    for i, (k, v) in enumerate(kv):
        t.add(k, col + "|Key", str(i))
        t.add(v, col + "|Value", str(i),
              "url={%s}" % _last_two(v, False) if k == "Combined DET Plot" else "")
    return t


def _counts(s: SetData) -> dict:
    r = s.res
    m = r.metrics
    cr = int(r.extra["n_correct_rejects"])
    return {"#Targ": m["n_targets"], "#NTarg": m["n_false_alarms"] + cr, "#Sys": m["n_detections"],
            "#CorDet": m["n_hits"], "#Cor!Det": cr, "#FA": m["n_false_alarms"], "#Miss": m["n_misses"]}


def sum_table(sets: list[SetData], curves: bool) -> Table:
    """_buildAutoTable: one row per set."""
    t = Table()
    var = _variable(sets)
    for s in sets:
        k = s.title
        t.add(s.title, " |Title", k)
        for p in TRIAL_PARAM_ORDER[s.params.get("TotDur") is None] + METRIC_PARAM_ORDER:
            if p in var:
                t.add(s.params[p], "Parameters|" + p, k)
        c = _counts(s)
        if len(s.evaluated) > 1:
            t.add(str(len(s.evaluated)), "Inputs|#Keyword", k)
        for n in ("#Targ", "#NTarg", "#Sys"):
            t.add(str(c[n]), "Inputs|" + n, k)
        act = "Actual Decision TWV Analysis|"
        for n in ("#CorDet", "#Cor!Det", "#FA", "#Miss"):
            t.add(str(c[n]), act + n, k)
        comb, _, miss, _, fa, _ = actual_figures(s, s.sum_order)
        t.add(_pn("%6.5f", fa), act + "PFA", k)
        t.add(_pn("%6.3f", miss), act + "PMiss", k)
        t.add(_pn("%6.4f", comb), act + "TWV", k)
        t.add(_pn("%6.4f", actual_threshold(s.blocks)), act + "Dec. Tresh", k)
        thr, twv, pm, pf = s.fig.best
        _four(t, "Maximum TWV Analysis|", k, pf, pm, twv, thr)
        if s.optimum:
            _four(t, "Optimum TWV Analysis|", k, s.fig.optimum[2], s.fig.optimum[1], s.fig.optimum[0], None)
        if s.supremum:
            _four(t, "Supremum TWV Analysis|", k, s.fig.supremum[2], s.fig.supremum[1], s.fig.supremum[0], None)
        if curves and s.png:
            t.add(s.png, "DET Curve Graphs|DET Curve", k, "url={%s}" % _last_two(s.png, True))
            t.add(s.thresh_png, "DET Curve Graphs|Threshold Curve", k, "url={%s}" % _last_two(s.thresh_png, True))
        if s.measures:
            vals, _ = kwseval_global_values(s.res, s.measures, s.map_order)
            for m in s.measures:
                t.add(gm_text(m, vals[m]), "Global Measures|" + GLOBAL_MEASURES[m][0], k)
    return t


def _four(t: Table, g: str, k: str, pf, pm, twv, thr, thr_label: str = "Dec. Thresh") -> None:
    t.add(_pn("%6.5f", pf), g + "PFA", k)
    t.add(_pn("%6.3f", pm), g + "PMiss", k)
    t.add(_pn("%6.4f", twv), g + "TWV", k)
    if thr_label:
        t.add(thr if isinstance(thr, str) else _pn("%6.3f", thr), g + thr_label, k)


def blocked_table(sets: list[SetData], segment: bool, details: bool) -> Table:
    """_buildBlockedAutoTable: a `Keyword <id>` row per block (each set's sorted, set after
    set), its set columns; `details` (bsum, not cond.bsum): the Optimum/Supremum and Global
    Measures columns F4DE adds when KWSEval passes its DET options."""
    t = Table()
    for s in sets:
        r = s.res
        gm_ap = kwseval_global_values(r, s.measures, s.map_order)[1] if details and s.measures else None
        ids = r.terms.ids
        pos = {x: i for i, x in enumerate(ids)}
        for b in sorted(s.blocks):
            row = "Keyword|" + b
            t.add(r.terms.texts[pos[b]], "MetaData|Text", row)
            if b not in s.evaluated:
                continue
            f4de_block_cells(t, s, b, pos[b], row, segment)
            if details:
                _block_details(t, s, b, row, gm_ap, pos[b])
    for s in sets:
        _summary_rows(t, s, segment)
        if details:
            _summary_details(t, s)
    return t


def _summary_rows(t: Table, s: SetData, segment: bool) -> None:
    """The `Summary` rows of a set: Totals (sums over its evaluated blocks), Means (`%.0f` of
    the block means, and the set's PFA and PMiss) and the set's TWV. F4DE adds these cells in
    the order of Perl hashes (TOTALS_ORDER, MEANS_ORDER), which shows as the column order of a
    set without evaluated blocks."""
    ev = [s.evaluated[b] for b in sorted(s.evaluated)]
    counts = {"#Targ": [b.n_targ for b in ev], "#Corr": [b.yes_targ for b in ev],
              "#Corr!Det": [len(b.nontarg) - b.yes_nontarg for b in ev],
              "#FA": [b.yes_nontarg for b in ev], "#Miss": [b.n_targ - b.yes_targ for b in ev]}
    comb, _, miss, _, fa, _ = actual_figures(s, s.bsum_order)
    means = {k: "%.0f" % (sum(v) / len(v)) if v else "0" for k, v in counts.items()}
    means.update({"PFA": _pn("%6.5f", fa), "PMISS": _pn("%6.3f", miss)})
    seg = "seg" if segment else "occ"
    for k in TOTALS_ORDER[seg]:
        t.add(str(sum(counts[k])), f"{s.title}|{k}", "Summary|Totals")
    for k in MEANS_ORDER[seg]:
        t.add(means[k], f"{s.title}|{k}", "Summary|Means")
    t.add(_pn("%6.4f", comb), f"{s.title}|TWV", "Summary|TWV")


def f4de_block_cells(t: Table, s: SetData, b: str, q: int, row: str, segment: bool) -> None:
    """A block's counts and its TWV, PFA, PMISS (MetricTWV's block functions: no PMiss without
    targets, no PFA when every trial is a target (segments), no TWV without both; an undefined
    PFA shows as 0)."""
    blk = s.evaluated[b]
    nt, nfa, nmiss = blk.n_targ, blk.yes_nontarg, blk.n_targ - blk.yes_targ
    tot = int(s.res.extra["trials_per_term"])
    miss = nmiss / nt if nt > 0 else None
    fa = nfa / (tot - nt) if tot != nt else None
    twv = 1 - (miss + s.res.beta * fa) if miss is not None and fa is not None else None
    cells = [("#Targ", str(nt)), ("#Corr", str(blk.yes_targ))]
    if segment:
        cells.append(("#Corr!Det", str(len(blk.nontarg) - blk.yes_nontarg)))
    pfa = _pn("%6.5f", fa)
    cells += [("#FA", str(nfa)), ("#Miss", str(nmiss)), ("TWV", _pn("%6.4f", twv)),
              ("PFA", pfa if pfa != "NA" else "0"), ("PMISS", _pn("%6.3f", miss))]
    for leaf, v in cells:
        t.add(v, f"{s.title}|{leaf}", row)


def _block_details(t: Table, s: SetData, b: str, row: str, gm_ap, q: int) -> None:
    if s.optimum:
        thr, twv, pm, pf = s.fig.block_optimum.get(b, (None, None, None, None))
        _four(t, "Optimum TWV|", row, pf, pm, twv, thr)
    if s.supremum:
        thr, twv, pm, pf = s.fig.block_supremum.get(b, (None, None, None, None))
        _four(t, "Supremum TWV|", row, pf, pm, twv, thr)
    if gm_ap is not None:       # an evaluated block without targets (-inc) has AP 0 (DETCurve)
        for m in s.measures:
            t.add(gm_text(m, gm_ap[m][q]), "Global Measures|" + GLOBAL_MEASURES[m][1], row)


def _summary_details(t: Table, s: SetData) -> None:
    means = "Summary|Means"
    if s.measures:
        vals, _ = kwseval_global_values(s.res, s.measures, s.map_order)
        targets = (np.asarray(s.res.ntrue) > 0)[s.map_order].any()
        for m in s.measures:
            t.add(gm_text(m, vals[m]) if targets else "NA", "Global Measures|" + GLOBAL_MEASURES[m][1], means)
    if s.optimum:
        c, pm, pf = s.fig.optimum
        _four(t, "Optimum TWV|", means, pf, pm, c, None, thr_label="")
    if s.supremum:
        c, pm, pf = s.fig.supremum
        _four(t, "Supremum TWV|", means, pf, pm, c, None, thr_label="")


def report_texts(res, dets, echo: Echo, fmt_types: tuple, conds: list, det_root: str, curves: bool,
                 segment: bool, asked: tuple = (True, True, True, True)) -> tuple[dict, SetData]:
    """({`sum.txt`, `sum.csv`, `bsum.txt`, ...: text} of KWSEval's reports, the main set);
    `conds` the (name, StdResult, selected) conditions, `det_root` the DET files' prefix
    (`<root>dets/sum`), `asked` the reports -o -b -O -B (the order F4DE computes its DETs and
    tables in: each `my` hash of its subs keeps the buckets of its earlier uses)."""
    label = "Segment" if segment else "Occurrence"
    order = processing_order(res.terms.ids, dets.blocks, getattr(res, "system_terms", None) is not None
                             and not segment)
    o, b, co, cb = asked
    det_pad, auto_pad, blocked_pad = PadHash(), PadHash(), PadHash()
    main_det = o or (b and (echo.optimum or echo.supremum))
    main = set_data(label, res, dets, echo, order, segment, getattr(res, "system_terms", None),
                    det_pad if main_det else None)
    combined = ""
    if curves:      # a DET without system detections gets no files (DETCurveGnuplotRenderer)
        if res.metrics["n_detections"] > 0:
            main.png, main.thresh_png = f"{det_root}.{label}.png", f"{det_root}.{label}.thresh.png"
        combined = f"{det_root}.png"
    sets = [set_data(n, r, dets, echo, order, segment, sel, det_pad if co else None)
            for n, r, sel in sorted(conds, key=lambda c: c[0])]
    for on, pad, attr, group in ((o, auto_pad, "sum_order", [main]), (b, blocked_pad, "bsum_order", [main]),
                                 (co, auto_pad, "sum_order", sets), (cb, blocked_pad, "bsum_order", sets)):
        for s in group:         # in F4DE's order of reports; a table not asked: a new hash
            setattr(s, attr, table_block_order(set(s.evaluated), pad if on else None))
    tables = {"sum": (header([main], combined, segment), sum_table([main], curves), 0),
              "bsum": (header([main], "", segment), blocked_table([main], segment, True), 2)}
    if sets:
        tables["cond.sum"] = (header(sets, "", segment), sum_table(sets, False), 0)
        tables["cond.bsum"] = (header(sets, "", segment), blocked_table(sets, segment, False), 2)
    out = {}
    for name, (head, table, levels) in tables.items():
        if "TXT" in fmt_types:
            out[name + ".txt"] = head.txt(0) + "\n\n" + table.txt(levels, sort_rows=levels == 0)
        if "CSV" in fmt_types:
            out[name + ".csv"] = table.csv(master_key=levels > 0, sort_rows=levels == 0)
        if "HTML" in fmt_types:     # rows as added; the blocked tables keep their key column
            out[name + ".html"] = head.html(False, "left") + "<br><br>" + table.html(levels > 0)
    return out, main
