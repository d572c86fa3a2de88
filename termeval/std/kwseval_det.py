"""KWSEval's DET data files (`-d`): `dets/sum.Occurrence.dat.1` (one line per DET point) and
`.dat.2` (the Best, Actual, Optimum and Supremum points), in the column layout of F4DE 3.5.0's
DETCurveGnuplotRenderer::writeGNUGraph, from the engine's term-weighted DET points
(termeval.std.twv: thresholds decreasing, mean P_miss and P_fa over the terms with targets).

Columns of .dat.1: `score ppndf(PMiss) ppndf(PFA) PMiss PFA TWV` then 10 standard-error columns,
written `NA` (F4DE writes NA when it has at most one block; termeval does not keep per-term
spreads of every point). ppndf is NIST's rational approximation of the normal deviate (DETware's,
probabilities clamped to [2.2204e-16, 1 - 2.2204e-16]). Numbers as Perl prints them (%.15g).
.dat.2: Best = the maximum-TWV point, Actual = the actual decisions; Optimum (OTWV: each term at
its own best threshold) and Supremum (STWV: every detected reference kept, no false alarm) are
written only when asked (`--zGlobalMeasures Optimum|Supremum`), empty as in F4DE otherwise.
The `# Trial Params` line lists fixed names in a fixed order (F4DE's follows a Perl hash order,
which changes from run to run).
"""
from __future__ import annotations

import math

from termeval.std.f4de_reports import perl_num

EPS = 2.2204e-16


def ppndf(p: float | None) -> str:
    """NIST's ppndf of `p` as Perl prints it; NA for an undefined value."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "NA"
    p = min(max(p, EPS), 1 - EPS)
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


def _n(x) -> str:
    return "NA" if x is None or (isinstance(x, float) and math.isnan(x)) else perl_num(x)


def det_files(res, measures: tuple[str, ...] = ()) -> dict[str, str]:
    """{"dat.1": text, "dat.2": text} of a StdResult."""
    tw, m, e = res.twv, res.metrics, res.extra
    head = ["# DET Graph made by DETCurve",
            f"# Trial Params = {{ ('TOTALTRIALS' => '{int(e['trials_per_term'])}', "
            f"'TrialsPerSecond' => '1', 'IncludeBlocksWithNoTargets' => "
            f"'{1 if e.get('include_notarget_terms') else 0}', 'TotDur' => '{perl_num(e['t_audio'])}', ) }}",
            f"# Metric Params = BETA => {perl_num(res.beta)}, Ptarg => {perl_num(e['p_target'])}",
            "# Abbreviations: ssd() is the sample Standard Deviation of a Variable",
            "#                ppndf() is the normal deviant of a probability. ppndf(.5)=0",
            "#                -2SE(v) is v - 2(StandardError(v)) = v - 2 * (sampleStandardDev / sqrt(n-1)",
            '#                        the value "NA" is used when n <= 1',
            "# 1:score 2:ppndf(PMiss) 3:ppndf(PFA) 4:PMiss 5:PFA 6:TWV 7:ppndf(-2SE(PMiss)) "
            "8:ppndf(-2SE(PFA)) 9:ppndf(+2SE(PMiss)) 10:ppndf(+2SE(PFA)) 11:-2SE(PMiss) 12:-2SE(PFA) "
            "13:+2SE(PMiss) 14:+2SE(PFA) 15:-2SE(TWV) 16:+2SE(TWV)"]
    rows = [" ".join([perl_num(t), ppndf(pm), ppndf(pf), _n(pm), _n(pf), _n(v)] + ["NA"] * 8) + " "
            for t, pm, pf, v in zip(tw.det_thr.tolist(), tw.det_pmiss.tolist(), tw.det_pfa.tolist(),
                                    tw.det_twv.tolist())]
    dat1 = "\n".join(head + rows) + "\n"
    best = (m["mtwv_threshold"], m["mtwv"], m["p_miss_at_mtwv"], m["p_fa_at_mtwv"])
    act = (m["atwv"], m["p_miss"], m["p_fa"])
    opt = ("", "", "") if "Optimum" not in measures else (m["otwv"], None, None)
    sup = ("", "", "") if "Supremum" not in measures else (m["stwv"], 1.0 - m["stwv"], 0.0)
    cols = [_n(best[0]), _n(best[1]), _n(best[2]), _n(best[3]), ppndf(best[2]), ppndf(best[3]),
            _n(act[0]), _n(act[1]), _n(act[2]), ppndf(act[1]), ppndf(act[2])]
    for c in (opt, sup):
        if c[0] == "":
            cols += ["", "", "", ppndf(0.0), ppndf(0.0)]     # Perl: ppndf(undef) = ppndf(0)
        else:
            cols += [_n(c[0]), _n(c[1]), _n(c[2]), ppndf(c[1]), ppndf(c[2])]
    dat2 = ("# Points for DET Graph made by DETCurve\n"
            "# 1:BestTWVDetectionScore 2:BestTWVValue 3:BestPMiss 4:BestPFA 5:ppndf(BestPMiss) "
            "6:ppndf(BestPFA) 7:ActualComb 8:ActualPMiss 9:ActualPFA 10:ppndf(ActualPMiss) "
            "11:ppndf(ActualPFA) 12:OptimumComb 13:OptimumPMiss 14:OptimumPFA 15:ppndf(OptimumPMiss) "
            "16:ppndf(OptimumPFA) 17:SupremumComb 18:SupremumPMiss 19:SupremumPFA "
            "20:ppndf(SupremumPMiss) 21:ppndf(SupremumPFA)\n" + " ".join(cols) + "\n")
    return {"dat.1": dat1, "dat.2": dat2}
