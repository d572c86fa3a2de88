"""KWSEval's DET files (`-d`), as F4DE 3.5.0's DETCurveGnuplotRenderer::writeGNUGraph writes
them, from F4DE's DET figures (termeval.std.f4de_det): `dets/sum.<DecisionID>.dat.1` (one line
per DET point, in F4DE's order: thresholds ascending) and `.dat.2` (the Best, Actual, Optimum
and Supremum points), and the plots `sum.<DecisionID>.png` (the DET curve),
`sum.<DecisionID>.thresh.png` (TWV against the threshold) and `sum.png` (the combined DET),
drawn with matplotlib when it is installed (F4DE draws them with gnuplot; its .plt command
files and serialized DET are not written).

.dat.1 columns: `score ppndf(PMiss) ppndf(PFA) PMiss PFA TWV`, then the -2SE/+2SE columns from the
blocks' sample standard deviations (`v -/+ 2 ssd / sqrt(n)`; eight `NA` with one block).
The `# Trial Params` and `# Metric Params` lines list F4DE's keys in the order Perl's hash gives
them under KWSEval.pl's PERL_HASH_SEED=0 (a fixed order for these fixed key sets). ppndf is
NIST's rational approximation of the normal deviate (DETware's; a probability of at least 1 is
taken as 1 - 2.2204e-16, one of at most 0 as 2.2204e-16). Numbers as Perl prints them (%.15g); thresholds as the system
file wrote the score.
"""
from __future__ import annotations

import math
import shutil

from termeval.std.kwseval_tables import actual_figures
from termeval.core.publish import atomic_file
from termeval.std.f4de_reports import perl_num

EPS = 2.2204e-16
TRIAL_ORDER = ("TrialsPerSecond", "TotDur", "TotTrials", "IncludeBlocksWithNoTargets")   # those present
METRIC_ORDER = ("BETA", "Ptarg", "Cost", "Value")


def ppndf(p: float | None) -> str:
    """NIST's ppndf of `p` as Perl prints it (an undefined value counts as 0, as in Perl)."""
    p = 0.0 if p is None or (isinstance(p, float) and math.isnan(p)) else p
    p = 1 - EPS if p >= 1.0 else EPS if p <= 0.0 else p   # only outside (0, 1), as F4DE
    q = p - 0.5
    if abs(q) <= 0.42:
        r = q * q
        v = q * (((-25.4410604963 * r + 41.3911977353) * r - 18.6150006252) * r + 2.5066282388) / \
            ((((3.1308290983 * r - 21.0622410182) * r + 23.0833674374) * r - 8.4735109309) * r + 1.0)
    else:
        r = math.sqrt(-math.log(1.0 - p if q > 0 else p))
        v = (((2.3212127685 * r + 4.8501412713) * r - 2.2979647913) * r - 2.7871893113) / \
            ((1.6370678189 * r + 3.5438892476) * r + 1.0)
        v = -v if q < 0 else v
    return perl_num(v)


def _n(x, na: str = "NA") -> str:
    return na if x is None or (isinstance(x, float) and math.isnan(x)) else perl_num(x)


def _score(x, texts: dict) -> str:
    if isinstance(x, str):
        return x
    return texts.get(x, perl_num(x)) if x is not None else ""


def _point_line(p: tuple, texts: dict) -> str:
    thr, pm, pf, twv, sm, sf, sc, n = p
    a = [_score(thr, texts), ppndf(pm), ppndf(pf), _n(pm), _n(pf), _n(twv)]
    if n - 1 <= 0:
        a.append("NA NA NA NA NA NA NA NA")
    else:
        r = math.sqrt(n)
        pm0 = 0.0 if pm is None else pm
        a += [ppndf(pm0 - 2 * (sm / r)) if sm is not None else "NA",
              ppndf(pf - 2 * (sf / r)) if sf is not None else "NA",
              ppndf(pm0 + 2 * ((sm or 0.0) / r)) if sf is not None else "NA",
              ppndf(pf + 2 * (sf / r)) if sf is not None else "NA",
              perl_num(pm0 - 2 * (sm / r)) if sm is not None else "NA",
              perl_num(pf - 2 * (sf / r)) if sf is not None else "NA",
              perl_num(pm0 + 2 * (sm / r)) if sm is not None else "NA",
              perl_num(pf + 2 * (sf / r)) if sf is not None else "NA",
              perl_num(twv - 2 * (sc / r)) if sc is not None else "NA",
              perl_num(twv + 2 * (sc / r)) if sc is not None else "NA"]
    return " ".join(a) + " "


def det_files(s, texts: dict | None = None) -> dict[str, str]:
    """{"dat.1": text, "dat.2": text} of one DET (a kwseval_tables.SetData); `texts`: the
    system file's score texts by value."""
    texts = texts or {}
    pr = s.params
    trial = "".join(f"'{k}' => '{pr[k]}', " for k in TRIAL_ORDER if k in pr)
    metric = "".join(f"{k} => '{pr[k]}', " for k in METRIC_ORDER if k in pr)
    head = ["# DET Graph made by DETCurve", f"# Trial Params = {{ ({trial}) }}",
            f"# Metric Params = {{ ({metric}) }}",
            "# Abbreviations: ssd() is the sample Standard Deviation of a Variable",
            "#                ppndf() is the normal deviant of a probability. ppndf(.5)=0",
            "#                -2SE(v) is v - 2(StandardError(v)) = v - 2 * (sampleStandardDev / sqrt(n-1)",
            '#                        the value "NA" is used when n <= 1',
            "# 1:score 2:ppndf(PMiss) 3:ppndf(PFA) 4:PMiss 5:PFA 6:TWV 7:ppndf(-2SE(PMiss)) "
            "8:ppndf(-2SE(PFA)) 9:ppndf(+2SE(PMiss)) 10:ppndf(+2SE(PFA)) 11:-2SE(PMiss) 12:-2SE(PFA) "
            "13:+2SE(PMiss) 14:+2SE(PFA) 15:-2SE(TWV) 16:+2SE(TWV)"]
    dat1 = "\n".join(head + [_point_line(p, texts) for p in s.fig.points]) + "\n"
    thr, comb, miss, fa = s.fig.best
    # getActualDecisionPerformance: its own new hash of the evaluated blocks
    ac, _, am, _, af, _ = actual_figures(s, s.actual_order)
    oc, om, of = s.fig.optimum
    sc, sm, sf = s.fig.supremum
    cols = [_score(thr, texts), _n(comb, ""), _n(miss, ""), _n(fa, ""), ppndf(miss), ppndf(fa),
            _n(ac, ""), _n(am, ""), _n(af, ""), ppndf(am), ppndf(af),
            _n(oc, ""), _n(om, ""), _n(of, ""), ppndf(om), ppndf(of),
            _n(sc, ""), _n(sm, ""), _n(sf, ""), ppndf(sm), ppndf(sf)]
    dat2 = ("# Points for DET Graph made by DETCurve\n"
            "# 1:BestTWVDetectionScore 2:BestTWVValue 3:BestPMiss 4:BestPFA 5:ppndf(BestPMiss) "
            "6:ppndf(BestPFA) 7:ActualComb 8:ActualPMiss 9:ActualPFA 10:ppndf(ActualPMiss) "
            "11:ppndf(ActualPFA) 12:OptimumComb 13:OptimumPMiss 14:OptimumPFA 15:ppndf(OptimumPMiss) "
            "16:ppndf(OptimumPFA) 17:SupremumComb 18:SupremumPMiss 19:SupremumPFA "
            "20:ppndf(SupremumPMiss) 21:ppndf(SupremumPFA)\n" + " ".join(cols) + "\n")
    return {"dat.1": dat1, "dat.2": dat2}


def det_pngs(prefix: str, combined: str, s) -> None:
    """<prefix>.png (DET), <prefix>.thresh.png (TWV by threshold), <combined>.png (every DET of
    the report: here the one); a DET without system detections (no `s.png`, as F4DE skips its
    files) only the combined plot; nothing without matplotlib (after one note)."""
    from termeval.std import det     # matplotlib: only with -d
    pts = [p for p in s.fig.points if not isinstance(p[0], str) and p[1] is not None and p[2] is not None]
    pm = [p[1] for p in pts]
    pf = [p[2] for p in pts]
    thr, twv, bm, bf = s.fig.best
    best = None if bm is None or bf is None else (bf, bm)
    drawn = det.plot_det(prefix if s.png else combined, pm, pf, s.res.beta, None, best, "DET", formats=("png",))
    if s.png and drawn:     # the combined plot of one DET is that DET's plot (a DET without data: combined only)
        with atomic_file(combined + ".png", "wb") as dst, open(drawn[0], "rb") as src:
            shutil.copyfileobj(src, dst)
    if s.png:
        det.plot_twv(prefix + ".thresh", [p[0] for p in pts], [p[3] for p in pts], None,
                     None if isinstance(thr, str) or thr is None else (thr, twv), "TWV", formats=("png",))
