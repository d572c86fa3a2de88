#!/usr/bin/env python3
"""Score a spoken term detection system (STD / QbE-STD / KWS) the way MediaEval SWS 2013 and
NIST F4DE KWSEval do: ATWV, MTWV (+threshold), OTWV, STWV, Pmiss/Pfa, Cnxe, Cmin_nxe, counts,
per-term table, alignment CSV, DET points and plots.

Usage: python -m termeval.bin.score_std [options] <kws-data-dir> <detections> <exp-dir>

<kws-data-dir>: ecf.xml + rttm + tlist.xml|kwlist.xml, or Kaldi hitlist (+ utt.map,
  segments, frame_length, utt2dur|reco2dur|trials, keywords.txt).
<detections>: STDLIST or KWSLIST XML, or Kaldi text `kwid utt start end score` (auto-detected).
Writes <exp-dir>/scores/std, <exp-dir>/scores/std_operating (FA/hour at recall, recall at
FA/hour, MAP, F4DE's MAP, mean P@N, mean R-precision), <exp-dir>/scores/scores.json (with the
per-group headline values under "breakdowns" -> "std") and <exp-dir>/details/ (per_term.tsv,
ranking_per_term.tsv, breakdown_<kind>.tsv, ...). Definitions: docs/std-metrics.md. Also writes the per-term statistics units/units.std_term.npz
(steps/compare_systems.sh); with --bootstrap N, percentile intervals of ATWV/MTWV/OTWV over
terms (docs/uncertainty.md).

Jobs (steps/score_std.sh --nj N): `--nj N --job J` aligns only job J's range of terms (ranges
balanced by detections) into <exp-dir>/std/align.J.npz; `--merge N` then scores from the N
alignments; the output is identical to a single run. --compat kaldi is scored whole in the
merge (the jobs do nothing): compute-atwv's float32 running means follow the whole list.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

import numpy as np

from termeval.cli import (
    add_bootstrap_options, add_check, add_job_options, finite_float, make_parser, nonneg_float,
    number_list, open_prob, positive_float, run, str2bool)
from termeval.std.termlist import term_attr_option
from termeval.errors import InputError
from termeval.scores import Metric, write_scores
from termeval.textio import atomic_write

KEYS = ["atwv", "mtwv", "mtwv_threshold", "otwv", "stwv", "p_miss", "p_fa", "p_miss_at_mtwv",
        "p_fa_at_mtwv", "cnxe", "cmin_nxe", "effective_prior", "n_terms", "n_targets",
        "n_detections", "n_hits", "n_false_alarms", "n_misses", "actual_threshold", "beta"]


def get_parser() -> argparse.ArgumentParser:
    p = make_parser(__doc__)
    p.add_argument("kws_dir")
    p.add_argument("detections")
    p.add_argument("exp_dir")
    p.add_argument("--preset", default=None, choices=["sws2013", "nist2006", "sws2012", "quesst"],
                   help="operating point (default sws2013; --compat kaldi: compute-atwv's own unless given)")
    p.add_argument("--p-target", type=open_prob, default=None)
    p.add_argument("--c-miss", type=positive_float, default=None)
    p.add_argument("--c-fa", type=positive_float, default=None)
    p.add_argument("--trials-per-sec", type=positive_float, default=1.0)
    p.add_argument("--include-notarget-terms", type=str2bool, default=False)
    p.add_argument("--align", default="f4de", choices=["f4de", "kaldi"])
    p.add_argument("--tolerance", type=nonneg_float, default=0.5)
    p.add_argument("--compat", default="none", choices=["none", "f4de", "kaldi"],
                   help="f4de: F4DE KWSEval's rules; kaldi: compute-atwv's numbers (docs/std-kaldi-compat.md)")
    p.add_argument("--cmin", default="newton", choices=["newton", "pav"])
    p.add_argument("--default-score", type=finite_float, default=None)
    p.add_argument("--decision-threshold", type=finite_float, default=0.5)
    p.add_argument("--format", default="auto", choices=["auto", "stdlist", "kwslist", "kaldi"])
    p.add_argument("--ecf", default=None, help="override <kws-data-dir>/ecf.xml")
    p.add_argument("--rttm", default=None, help="override <kws-data-dir>/rttm")
    p.add_argument("--termlist", default=None, help="override tlist.xml/kwlist.xml")
    p.add_argument("--term-attr", default=None, type=term_attr_option, help="NAME:REGEX, score only terms whose attribute matches (F4DE -q)")
    p.add_argument("--source-type", default=None, help="comma-separated ECF source types to score (F4DE -Y)")
    p.add_argument("--write-alignment", type=str2bool, default=True)
    p.add_argument("--plots", type=str2bool, default=True)
    p.add_argument("--breakdown", default="",
                   help="comma list of attr:NAME, ngram, freq, oov; 'none' for no breakdown "
                        "(default: ngram,freq, plus oov when --lexicon is given)")
    p.add_argument("--lexicon", default=None, help="words.txt: terms with a word not in it are OOV")
    p.add_argument("--freq-bins", default="1,2,5,10", help="lower edges of the reference-count bins")
    p.add_argument("--fa-per-hour", default="1,10", type=number_list(0.0), help="report recall at these FA/hour (comma list)")
    p.add_argument("--recall", default="0.5", type=number_list(0.0, 1.0), help="report FA/hour at these recalls (comma list)")
    p.add_argument("--p-at", default="10", type=number_list(1, integer=True), help="report mean precision at these ranks (comma list)")
    add_bootstrap_options(p, "terms")
    add_job_options(p, "terms", "<exp-dir>/std/align.J.npz")
    from termeval.std.kaldi_atwv import check_options
    add_check(p, check_options)
    return p


def _floats(spec: str, name: str, lo: float, hi: float | None = None) -> list[float]:
    try:
        v = [float(x) for x in spec.split(",") if x.strip()]
    except ValueError:
        raise InputError(f"--{name} must be a comma list of numbers, got '{spec}'") from None
    if any(not (lo <= x and (hi is None or x <= hi)) for x in v):
        raise InputError(f"--{name}: values must lie in [{lo}, {hi if hi is not None else 'inf'}]")
    return v


def main(argv: Sequence[str] | None = None) -> int:
    args = get_parser().parse_args(argv)
    preset_given, args.preset = args.preset is not None, args.preset or "sws2013"
    import math
    from termeval.std.kwsdir import load_kws_dir
    from termeval.std.score import Params
    from termeval.std.detections import read_detections
    for path in (args.kws_dir, args.detections):
        if not os.path.exists(path):
            raise InputError("not found", path)
    if args.tolerance < 0 or not math.isfinite(args.tolerance):
        raise InputError("--tolerance must be >= 0")
    if args.trials_per_sec <= 0:
        raise InputError("--trials-per-sec must be > 0")
    if args.job is not None and args.merge is not None:
        raise InputError("--job and --merge exclude each other")
    if args.nj < 1 or (args.merge is not None and args.merge < 1):
        raise InputError("--nj and --merge must be >= 1")
    if args.compat == "kaldi":
        # compute-atwv's running float32 means follow the keyword order of the whole list, so
        # --compat kaldi is not split: the jobs do nothing and the merge scores everything.
        if args.job is not None:
            print(f"{os.path.basename(sys.argv[0])}: --compat kaldi is scored in the merge step", file=sys.stderr)
            return 0
        from termeval.std import kaldi_atwv
        return kaldi_atwv.run_compat(args, preset_given)
    from termeval.std.termlist import parse_term_attr
    term_attr = parse_term_attr(args.term_attr) if args.term_attr else None
    params = Params(preset=args.preset, p_target=args.p_target, c_miss=args.c_miss, c_fa=args.c_fa,
                    trials_per_sec=args.trials_per_sec, include_notarget_terms=args.include_notarget_terms,
                    align=args.align, tolerance=args.tolerance, compat_f4de=args.compat == "f4de",
                    cmin=args.cmin, default_score=args.default_score,
                    decision_threshold=args.decision_threshold, term_attr=term_attr,
                    source_types=args.source_type.split(",") if args.source_type else None)
    from termeval.std import breakdown
    kinds = breakdown.parse_kinds(args.breakdown, args.lexicon is not None)
    bins = breakdown.parse_bins(args.freq_bins)
    lexicon = breakdown.read_lexicon(args.lexicon) if args.lexicon else None
    fa_h = _floats(args.fa_per_hour, "fa-per-hour", 0.0)
    recalls = _floats(args.recall, "recall", 0.0, 1.0)
    p_at = tuple(int(x) for x in _floats(args.p_at, "p-at", 1.0))
    kws = load_kws_dir(args.kws_dir, args.ecf, args.rttm, args.termlist)
    breakdown.check_attributes(kinds, kws.terms.attrs, kws.terms.path or None)
    dets = read_detections(args.detections, args.format, kws.frame_length, kws.utt_map, kws.segments)
    from termeval.std import jobs
    from termeval.std.score import align_terms, finish, prepare
    prep = prepare(kws, dets, params)
    if args.job is not None:     # one job of score_std.sh --nj: align a term range, no output
        jobs.run_std_job(prep, args.exp_dir, args.nj, args.job)
        return 0
    res = finish(prep, jobs.merge_std_jobs(prep, args.exp_dir, args.merge) if args.merge else align_terms(prep))
    for w in res.warnings:
        print(f"{os.path.basename(sys.argv[0])}: warning: {w}", file=sys.stderr)
    details = os.path.join(args.exp_dir, "details")
    os.makedirs(details, exist_ok=True)
    write_details(details, res, kws, dets, args)
    m = res.metrics
    support = {"atwv": f"{m['n_hits']} hits, {m['n_false_alarms']} FA, {m['n_misses']} misses",
               "mtwv": f"threshold {m['mtwv_threshold']}" if m["mtwv_threshold"] is not None else "",
               "n_terms": f"of {res.extra['n_terms_listed']} listed"}
    ci, more = std_intervals(args, res, dets)
    metrics = [Metric(k, m[k], support.get(k, ""), ci.get(k)) for k in KEYS]
    from termeval.std import figures
    rk = figures.std_ranking(res, p_at)
    figures.write_ranking_table(os.path.join(details, "ranking_per_term.tsv"), res.terms.ids,
                                res.ntrue, rk, res.evaluated)
    terms = res.terms
    groups = figures.write_breakdowns(
        details, kinds,
        lambda kind: breakdown.labels(kind, terms.texts, terms.attrs, res.ntrue, bins, lexicon),
        lambda mask: figures.std_group(res, mask, rk), figures.STD_COLUMNS, figures.HEADLINE["std"], bins,
        res.evaluated)
    extra = {"std": res.extra, "breakdowns": figures.merged_breakdowns(args.exp_dir, "std", groups), **more}
    write_scores(args.exp_dir, "std", metrics, benchmark=args.preset, extra=extra, warnings=res.warnings)
    write_scores(args.exp_dir, "std_operating", figures.std_operating(res, fa_h, recalls, rk),
                 benchmark=None)
    with open(os.path.join(args.exp_dir, "scores", "std"), encoding="utf-8") as f:
        sys.stdout.write(f.read())
    return 0


def std_intervals(args, res, dets) -> tuple[dict, dict]:
    """Per-term table saved for compare_systems, intervals with --bootstrap, data identity."""
    from termeval.bootstrap.engine import bootstrap_ci
    from termeval.bootstrap.std import term_table
    from termeval.bootstrap.units import data_identity, save_units, units_path
    if args.bootstrap < 0 or not 0 < args.ci < 1:
        raise InputError(f"--bootstrap must be >= 0 and --ci in (0, 1), got {args.bootstrap} and {args.ci}")
    us = term_table(res, dets)
    save_units(units_path(args.exp_dir, "std_term"), us)
    ci = bootstrap_ci(us, args.bootstrap, args.seed, args.ci) if args.bootstrap > 0 else {}
    files = [os.path.join(args.kws_dir, f) for f in sorted(os.listdir(args.kws_dir))] \
        if os.path.isdir(args.kws_dir) else [args.kws_dir]
    files = [f for f in files + [args.ecf, args.rttm, args.termlist] if f and os.path.isfile(f)]
    settings = {k: getattr(args, k) for k in ("preset", "p_target", "c_miss", "c_fa", "trials_per_sec",
                                              "include_notarget_terms", "align", "tolerance", "compat",
                                              "term_attr", "source_type")}
    more = {"data_id": data_identity(files, settings),
            "bootstrap": {"n": args.bootstrap, "seed": args.seed, "level": args.ci, "unit": "term"}}
    return ci, more


def _f(x, fmt="{:.6f}"):
    if x is None or (isinstance(x, float) and x != x):
        return "NA"
    return fmt.format(x)


def write_details(d: str, res, kws, dets, args) -> None:
    from termeval.std import det
    tw = res.twv
    terms = res.terms
    # per-term table
    with atomic_write(os.path.join(d, "per_term.tsv")) as f:
        f.write("termid\ttext\tevaluated\tn_targ\tn_det\tn_corr\tn_fa\tn_miss\ttwv\tpfa\tpmiss\totwv\n")
        for q, tid in enumerate(terms.ids):
            ev = bool(res.evaluated[q])
            f.write("\t".join([tid, terms.texts[q].replace("\t", " "), str(int(ev)), str(int(res.ntrue[q])),
                               str(int(res.n_det[q])), str(int(res.n_hits[q])), str(int(res.n_fa[q])),
                               str(int(res.n_miss[q])) if ev else "NA",
                               _f(tw.term_twv[q]) if ev else "NA", _f(tw.term_pfa[q]) if ev else "NA",
                               _f(tw.term_pmiss[q]) if ev else "NA",
                               _f(tw.term_otwv[q]) if ev else "NA"]) + "\n")
    # DET points (articulated) and plots
    k = det.articulated(tw.det_thr, tw.det_pmiss, tw.det_pfa)
    det.write_det_points(os.path.join(d, "det_points.tsv"), tw.det_thr[k], tw.det_pmiss[k],
                             tw.det_pfa[k], tw.det_twv[k])
    m = res.metrics
    if args.write_alignment:
        write_alignment_csv(os.path.join(d, "alignment.csv"), res, kws, dets)
    write_report(os.path.join(d, "report.txt"), res, args)
    if args.plots and res.twv.n_terms_with_targets > 0:
        act = (m["p_fa"], m["p_miss"])
        best = (m["p_fa_at_mtwv"], m["p_miss_at_mtwv"])
        det.plot_det(os.path.join(d, "det"), tw.det_pmiss[k], tw.det_pfa[k], res.beta, act, best,
                         f"DET (ATWV {m['atwv']:.4f}, MTWV {m['mtwv']:.4f})")
        thr_act = tw.actual_threshold
        det.plot_twv(os.path.join(d, "twv"), tw.det_thr, tw.det_twv,
                         (thr_act, m["atwv"]) if thr_act is not None else None,
                         (m["mtwv_threshold"], m["mtwv"]), "TWV against threshold")


def _fmt_col(a: np.ndarray) -> list[str]:
    """Shortest round-trip text of each float (one C-level repr of the whole list)."""
    if len(a) == 0:
        return []
    return repr(np.asarray(a, dtype=np.float64).tolist())[1:-1].split(", ")


def write_alignment_csv(path: str, res, kws, dets) -> None:
    """F4DE/Kaldi alignment CSV: language,file,channel,termid,term,ref_bt,ref_et,sys_bt,
    sys_et,sys_score,sys_decision,alignment (CORR, MISS, FA, CORR!DET)."""
    a = res.ali
    di, dref = a["det_index"], a["det_ref"]
    ri, rdet = a["ref_index"], a["ref_det"]
    occ = kws.occ
    lang = (kws.terms.language or "").replace(",", " ")
    tid = np.asarray([t.replace(",", " ") for t in kws.terms.ids], dtype=object)
    ttxt = np.asarray([t.replace(",", " ") for t in kws.terms.texts], dtype=object)
    fids = np.asarray([f.replace(",", " ") for f in dets.file_ids], dtype=object)
    yes = a["yes"][di]
    aligned = dref >= 0
    label = np.where(aligned, np.where(yes, "CORR", "MISS"), np.where(yes, "FA", "CORR!DET"))
    j = np.maximum(dref, 0)
    rb = np.asarray(_fmt_col(occ.beg[j]) if len(occ) else [""] * len(j), dtype=object)
    re_ = np.asarray(_fmt_col(occ.end[j]) if len(occ) else [""] * len(j), dtype=object)
    rb[~aligned] = ""
    re_[~aligned] = ""
    with atomic_write(path) as f:
        f.write("language,file,channel,termid,term,ref_bt,ref_et,sys_bt,sys_et,sys_score,sys_decision,alignment\n")
        if len(di):
            cols = [fids[dets.file[di]], dets.chan[di].astype(str), tid[a["det_term"]], ttxt[a["det_term"]],
                    rb, re_, _fmt_col(dets.tbeg[di]), _fmt_col(dets.tbeg[di] + dets.dur[di]),
                    _fmt_col(dets.score[di]), np.where(yes, "YES", "NO"), label]
            cols = [c.tolist() if isinstance(c, np.ndarray) else c for c in cols]
            pre = lang + ","
            f.writelines(pre + ",".join(row) + "\n" for row in zip(*cols))
        miss = ri[rdet < 0]
        if len(miss):
            mc = [[x.replace(",", " ") for x in occ.file[miss]], occ.chan[miss].astype(str).tolist(),
                  tid[occ.term[miss]].tolist(), ttxt[occ.term[miss]].tolist(),
                  _fmt_col(occ.beg[miss]), _fmt_col(occ.end[miss])]
            pre = lang + ","
            f.writelines(pre + ",".join(row) + ",,,,,MISS\n" for row in zip(*mc))


def write_report(path: str, res, args) -> None:
    """Human summary plus grep-friendly Kaldi-style and QUESST-style lines."""
    m, e = res.metrics, res.extra
    lines = [
        f"T_audio {e['t_audio']:g} s, trials per term {e['trials_per_term']}, beta {res.beta:.6g}, "
        f"P_target {e['p_target']:g}, C_miss {e['c_miss']:g}, C_fa {e['c_fa']:g}, effective prior {m['effective_prior']:.7g}",
        f"terms {m['n_terms']} (listed {e['n_terms_listed']}), targets {m['n_targets']}, detections {m['n_detections']} "
        f"(read {e['n_detections_read']}, outside ECF {e['n_detections_outside_ecf']}), hits {m['n_hits']}, "
        f"FA {m['n_false_alarms']}, misses {m['n_misses']}, correct rejects {e['n_correct_rejects']}",
        f"ATWV = {_f(m['atwv'], '{:.4f}')}",
        f"STWV = {_f(m['stwv'], '{:.4f}')}",
        f"MTWV = {_f(m['mtwv'], '{:.4f}')}, THRESHOLD = {_f(m['mtwv_threshold'], '{:.4f}')}",
        f"OTWV = {_f(m['otwv'], '{:.4f}')}",
        f"actTWV: {_f(m['atwv'], '{:.8f}')}  maxTWV: {_f(m['mtwv'], '{:.8f}')}  Threshold: {_f(m['mtwv_threshold'], '{:.4f}')}",
        f"actCnxe: {_f(m['cnxe'], '{:.8f}')}  minCnxe: {_f(m['cmin_nxe'], '{:.8f}')}",
    ]
    for w in res.warnings:
        lines.append(f"warning: {w}")
    with atomic_write(path) as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    run(main)
