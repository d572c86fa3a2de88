"""`details/per-category-score.txt` as Kaldi's per_category_stats.pl writes it (score.sh runs
it with `--sweep-step 0.005 <trials> <categories>` over details/alignment.csv); rules in
docs/std-kaldi-compat.md.

Per keyword of the categories file, from the CSV: #Targ (ntrue) = YES-CORR + MISS lines; corr,
fa, miss, CorrNDet counts; lattice misses = MISS lines without a decision; for every line whose
score text is neither "" nor "0" (Perl truth), count it and add 1 to bins 0..int(min(score,1)/step)
of the "corr" sweep (ref_bt not empty) or the "fa" sweep. Categories: each category named on a
keyword's line plus ALL (once per line), sorted as strings; their keywords sorted as strings
(a keyword listed twice counts twice), those without targets skipped. Running means
(K*m + v)/(K+1) of TWV, Pmiss, Pfa, STWV; the per-keyword optimum over the sweep (OTWV, OTHR =
(i-1)*step of the first best bin, "NA" when the category has more than one keyword); MTWV the
first maximum of the averaged sweep (MTHR = (i-1)*step, 0 for bin 0). #NTarg is printed as
CorrNDet + FA, as the script does.
"""
from __future__ import annotations

import math

import numpy as np

from termeval.core.errors import InputError

CAT_BETA = 999.9
SWEEP_STEP = 0.005
FIELD = 9
INT_HEAD = "#KW #Targ #NTarg #Sys #CorrDet #CorrNDet #FA #MISS".split()
FLOAT_HEAD = "ATWV MTWV OTWV STWV PFA MPFA OPFA PMISS MPMISS OPMISS THR MTHR OTHR".split()


def _width(s: str) -> int:
    return len(s.encode("utf-8"))  # the script reads bytes: Perl pads by bytes


def _pad(s: str, width: int) -> str:
    return " " * max(0, width - _width(s)) + s


def per_category_table(csv_lines: list[str], trials: float, categories: list[tuple[str, list[str]]],
                       beta: float = CAT_BETA, step: float = SWEEP_STEP, path: str = "") -> str:
    """The text per_category_stats.pl prints (module doc)."""
    L = int(1.0 / step) + 1
    cats, stats, cat_maxlen = _term_stats(csv_lines, categories, step, L, path)
    head = " ".join([_pad("CATEGORY", cat_maxlen - 1)] + [_pad(h, FIELD) for h in INT_HEAD + FLOAT_HEAD])
    nums = " ".join([_pad("1", cat_maxlen - 1)] + [_pad(str(i), FIELD) for i in range(2, 2 + len(INT_HEAD) + len(FLOAT_HEAD))])
    out = ["#" + head, "#" + nums]
    cache: dict[str, tuple] = {}
    for cat in sorted(cats):
        K = 0
        ATWV = STWV = PMISS = PFA = OTWV = OPMISS = OPFA = 0.0
        OTHR: object = 0
        NTRUE = CORR = FA = MISS = COUNT = CORRNDET = 0
        MTWV_S = [0.0] * (L + 1)
        MPMISS_S = [0.0] * (L + 1)
        MPFA_S = [0.0] * (L + 1)
        for kw in sorted(cats[cat]):
            st = stats[kw]
            nt = st["ntrue"]
            if nt == 0:
                continue
            pmiss = 1 - st["corr"] / nt
            pfa = st["fa"] / (trials - nt)
            twv = 1 - pmiss - beta * pfa
            stwv = 1 - st["lattice_miss"] / nt
            NTRUE += nt
            CORR += st["corr"]
            CORRNDET += st["corrndet"]
            FA += st["fa"]
            MISS += st["miss"]
            COUNT += st["count"]
            ATWV = (K * ATWV + twv) / (K + 1)
            PMISS = (K * PMISS + pmiss) / (K + 1)
            PFA = (K * PFA + pfa) / (K + 1)
            STWV = (K * STWV + stwv) / (K + 1)
            if kw not in cache:     # (the script keeps a term's sweep, with the threshold of then)
                cache[kw] = _sweep(st, trials, beta, step, L, OTHR)
            pfa, pmiss, twv, OTHR, tw, pf, pm = cache[kw]
            MTWV_S = [(K * MTWV_S[i] + tw[i]) / (K + 1) for i in range(L + 1)]
            MPFA_S = [(K * MPFA_S[i] + pf[i]) / (K + 1) for i in range(L + 1)]
            MPMISS_S = [(K * MPMISS_S[i] + pm[i]) / (K + 1) for i in range(L + 1)]
            OTWV = (K * OTWV + twv) / (K + 1)
            OPMISS = (K * OPMISS + pmiss) / (K + 1)
            OPFA = (K * OPFA + pfa) / (K + 1)
            K += 1
        MTWV, MPMISS, MPFA, MTHR = MTWV_S[0], MPMISS_S[0], MPFA_S[0], 0.0
        for i in range(1, L + 1):
            if MTWV_S[i] > MTWV:
                MTWV, MPMISS, MPFA, MTHR = MTWV_S[i], MPMISS_S[i], MPFA_S[i], (i - 1) * step
        if K > 1:
            OTHR = "NA"
        ints = [K, NTRUE, CORRNDET + FA, COUNT, CORR, CORRNDET, FA, MISS]
        flts = [ATWV, MTWV, OTWV, STWV, PFA, MPFA, OPFA, PMISS, MPMISS, OPMISS, 0.5, MTHR, OTHR]
        cells = [f"{v:{FIELD}d}" for v in ints]
        cells += [_pad("%6s" % v if v == "NA" else _g3(v), FIELD) for v in flts]
        out.append(_pad(cat, cat_maxlen) + " " + " ".join(cells) + " ")
    return "\n".join(out) + "\n"


def _term_stats(csv_lines: list[str], categories: list[tuple[str, list[str]]], step: float, L: int,
                path: str) -> tuple[dict[str, list[str]], dict[str, dict], int]:
    """(category -> its terms, term -> its counts and threshold sweeps, width of the category
    column) from the alignment CSV."""
    cats: dict[str, list[str]] = {}
    stats: dict[str, dict] = {}
    cat_maxlen = 9
    for kw, entries in categories:
        if kw not in stats:
            stats[kw] = {"fa": 0, "corr": 0, "miss": 0, "lattice_miss": 0, "ntrue": 0, "count": 0,
                         "corrndet": 0, "fa_q": [], "corr_q": []}
        for cat in entries + ["ALL"]:
            cat_maxlen = max(cat_maxlen, _width(cat))
            cats.setdefault(cat, []).append(kw)
    for lineno, line in enumerate(csv_lines[1:], 2):
        e = line.rstrip("\n").split(",")
        while e and e[-1] == "":
            e.pop()
        if len(e) != 12:
            raise InputError(f"expected 12 comma-separated fields, got {len(e)}", path, lineno)
        st = stats.get(e[3])
        if st is None:
            continue  # the script skips (with a message) terms without a category
        ref_time, score_text, decision, ref = e[5], e[9], e[10], e[11]
        if score_text not in ("", "0"):
            score = float(score_text)
            if score > 1.0:
                score = 1.0
            # bins 0..q-1 get one more: kept as q, counted per bin below (integers: any order)
            (st["corr_q"] if ref_time != "" else st["fa_q"]).append(int(score / step) + 1)
            st["count"] += 1
        if decision == "YES" and ref == "FA":
            st["fa"] += 1
        elif decision == "YES" and ref == "CORR":
            st["corr"] += 1
            st["ntrue"] += 1
        elif ref == "MISS":
            if not decision:
                st["lattice_miss"] += 1
            st["miss"] += 1
            st["ntrue"] += 1
        elif ref == "CORR!DET":
            st["corrndet"] += 1
    for st in stats.values():
        for name in ("corr", "fa"):
            q = np.clip(np.asarray(st.pop(name + "_q"), dtype=np.int64), 0, L + 1)
            above = np.bincount(q, minlength=L + 2)[::-1].cumsum()[::-1]   # above[i] = #(q >= i)
            st[name + "_sweep"] = above[1:L + 2].tolist()                  # bin i: #(q > i)
    return cats, stats, cat_maxlen


def _sweep(st: dict, trials: float, beta: float, step: float, L: int, othr: object) -> tuple:
    """(P_FA, P_miss, TWV, threshold of the best sweep point, then the TWV, P_FA, P_miss of every
    point) of a term; `othr`, the threshold when no point beats the start value, is kept."""
    nt = st["ntrue"]
    best_twv, best_pfa, best_pmiss = -99999.0, 0.0, 0.0
    tw, pf, pm = [0.0] * (L + 1), [0.0] * (L + 1), [0.0] * (L + 1)
    for i in range(L + 1):
        sp_miss = 1 - st["corr_sweep"][i] / nt
        sp_fa = st["fa_sweep"][i] / (trials - nt)
        sp_twv = 1 - sp_miss - beta * sp_fa
        if best_twv < sp_twv:
            best_pfa, best_pmiss, best_twv, othr = sp_fa, sp_miss, sp_twv, (i - 1) * step
        tw[i], pf[i], pm[i] = sp_twv, sp_fa, sp_miss
    return best_pfa, best_pmiss, best_twv, othr, tw, pf, pm


def _g3(v: float) -> str:
    if math.isnan(v):
        return "   NaN"
    if math.isinf(v):
        return "%6s" % ("Inf" if v > 0 else "-Inf")
    return "% 6.3g" % v
