"""`score_std --compat kaldi` outputs, named as Kaldi's local/kws/score.sh names them
(termeval.std.kaldi.recipe computes them): details/{score.txt,alignment.csv,results,ntrue,
ntrue_raw,per-category-score.txt}, scoring/score.k.txt, metrics.txt, f4de/{sum,bsum}.txt and
scores/std. Every output is computed before the first is written."""
from __future__ import annotations

import os
import tempfile
from typing import Optional

from termeval.core.errors import InputError
from termeval.core.scores import Metric, write_scores
from termeval.core.textio import write_text
from termeval.std.categories import read_categories
from termeval.std.detections import read_detections
from termeval.std.f4de_reports import bsum_text, sum_text
from termeval.std import kaldi_refs as kaldi
from termeval.std.kaldi import atwv as ka
from termeval.std.kaldi.category_stats import per_category_table
from termeval.std.kaldi.recipe import RecipeRun, _trials_or_none, check_options, known_keywords, score_recipe
from termeval.std.kwsdir import load_kws_dir
from termeval.std.oracle import oracle_metrics
from termeval.std.score import Params, score_std
from termeval.std.xmlsafe import sniff_root


def _categories_source(args) -> Optional[str]:
    for kind in (args.breakdown or "").split(","):
        kind = kind.strip()
        if kind.startswith("categories:"):
            path = kind[len("categories:"):]
            if not os.path.isfile(path):
                raise InputError("--breakdown categories:FILE: not found", path)
            return path
    p = os.path.join(args.kws_dir, "categories")
    return p if os.path.isfile(p) else None


def check(args) -> None:
    """The --compat kaldi input and option checks (before any work)."""
    if args.format not in ("auto", "kaldi"):
        raise InputError("--compat kaldi reads Kaldi results text (--format kaldi)")
    if sniff_root(args.detections) is not None:
        raise InputError("--compat kaldi reads Kaldi results 'KWID utt start-frame end-frame score', not XML",
                         args.detections)
    check_options(args)
    _categories_source(args)


def kaldi_costs(args) -> tuple[float, float, float]:
    """compute-atwv's (--cost-fa, --value-corr, --prior-kw-probability): an explicit --preset's
    (kaldi_atwv.kaldi_costs; args.preset None: not given), else compute-atwv's own defaults (0.1, 1, 1e-4: beta 999.9)."""
    c = ka.kaldi_costs(args.preset, args.p_target, args.c_miss, args.c_fa)
    return (0.1 if c[0] is None else c[0], 1.0 if c[1] is None else c[1], 1e-4 if c[2] is None else c[2])


def compute(args) -> RecipeRun:
    """score.sh's path on the options of `args` (termeval.std.kaldi.recipe.score_recipe)."""
    check(args)
    kst_on, scale, nbest = check_options(args)
    frames = int(round(args.tolerance / kaldi.read_frame_length(args.kws_dir)))
    cost_fa, value_corr, prior = kaldi_costs(args)
    beta = ka.beta_kaldi(cost_fa, value_corr, prior)
    return score_recipe(args.kws_dir, args.detections, kst_on, scale, nbest, beta, args.decision_threshold, frames)


def write_into(out: str, args, r: RecipeRun, into: dict | None = None) -> tuple[str, list[str]]:
    """Every output of the run into the directory `out` (laid out as the exp dir); returns
    compute-atwv's five lines and the warnings (printed on stderr as they arise); `into`
    receives the scores.json mapping. All contents are computed before the first file is written."""
    kst_on, scale, nbest = check_options(args)
    files: dict[str, str] = {}
    text = "\n".join(r.twv.lines()) + "\n"
    files["details/score.txt"] = text
    files["details/alignment.csv"] = "\n".join(r.csv) + "\n"
    if kst_on or nbest is not None:
        files["details/results"] = "".join(" ".join(x[:5]) + "\n" for x in r.rows)
    if kst_on:
        files["details/ntrue"] = r.ntrue + "\n"
        if r.ntrue_raw is not None:
            files["details/ntrue_raw"] = f"{r.ntrue_raw}\n"
        for k, _, t in r.sweep:
            files[f"scoring/score.{k}.txt"] = "\n".join(t.lines()) + "\n"
    trials_text = r.trials_text or _trials_or_none(args.kws_dir)
    duration = float(trials_text) if trials_text else float(r.trials)
    warnings: list[str] = []

    warn = warnings.append           # printed once by the driver (the Report's warnings)
    try:
        oracle = oracle_metrics(r.csv, duration, path="details/alignment.csv")
    except ZeroDivisionError:   # the Perl script dies there too
        oracle = None
        warn(f"a keyword has as many references as trials ({duration:g}): "
             "kws_oracle_threshold.pl divides by zero, no metrics.txt")
    if oracle is not None:
        files["metrics.txt"] = oracle.text()
    cat_path = _categories_source(args)
    if cat_path:
        cats = read_categories(cat_path, known_keywords(args.kws_dir, r.ref, r.rows))
        try:
            files["details/per-category-score.txt"] = per_category_table(r.csv, duration, cats)
        except ZeroDivisionError:
            warn(f"a keyword has as many references as trials ({duration:g}): "
                 "per_category_stats.pl divides by zero, no per-category-score.txt")
    if args.f4de_reports:
        files.update(f4de_report_files(args, r))
    t = r.twv
    metrics = [Metric("atwv", t.atwv, f"{t.n_corr} hits, {t.n_fa} FA, {t.n_miss} misses"),
               Metric("mtwv", t.mtwv, f"threshold {t.mtwv_threshold:.4f}"),
               Metric("mtwv_threshold", t.mtwv_threshold), Metric("otwv", t.otwv), Metric("stwv", t.stwv),
               Metric("n_terms", t.n_keywords), Metric("n_targets", t.n_targets),
               Metric("n_detections", t.n_hyps), Metric("n_hits", t.n_corr),
               Metric("n_false_alarms", t.n_fa), Metric("n_misses", t.n_miss), Metric("beta", t.beta)]
    if oracle is not None:
        metrics += [Metric("oracle_otwv", oracle.otwv, "kws_oracle_threshold.pl"),
                    Metric("oracle_mtwv", oracle.mtwv, f"threshold {oracle.mtwv_threshold}"),
                    Metric("lattice_recall", oracle.lattice_recall)]
    extra = {"compat": "kaldi", "trials": t.duration, "n_unseen": t.n_unseen, "kst": kst_on,
             "ntrue_scale": r.ntrue if kst_on else None, "ntrue_scale_requested": scale if kst_on else None,
             "nbest": nbest, "kst_dropped_keywords": r.dropped,
             "preset": args.preset}
    extra.update(zip(("cost_fa", "value_corr", "prior_kw_probability"), kaldi_costs(args)))
    for rel, content in files.items():
        path = os.path.join(out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_text(path, content)
    benchmark = f"kaldi_{args.preset}" if args.preset is not None else "kaldi"
    write_scores(out, "std", metrics, benchmark=benchmark, extra={"std": extra}, into=into)
    if r.dropped:
        warn(f"KST dropped {len(r.dropped)} keyword(s) whose "
             f"threshold reached 0.9999: {' '.join(r.dropped[:10])}")
    return text, warnings


def f4de_report_files(args, r: RecipeRun) -> dict[str, str]:
    """score.sh stage 2: KWSEval on the scored results (details/results, or the input) against
    the kws dir's ecf.xml/rttm/kwlist.xml, F4DE's rules (--compat f4de, YES iff score >= the
    decision threshold): <exp>/f4de/sum.txt and bsum.txt."""
    kws = load_kws_dir(args.kws_dir, args.ecf, args.rttm, args.termlist)
    if kws.kind != "xml":
        raise InputError("--f4de-reports with --compat kaldi needs ecf.xml, rttm and kwlist.xml in the kws dir "
                         "(steps/prepare_kws.sh writes them)", args.kws_dir)
    with tempfile.TemporaryDirectory(prefix="termeval_f4de.") as tmp:
        path = args.detections
        if r.rows:
            path = os.path.join(tmp, "results")
            with open(path, "w", encoding="utf-8") as f:
                f.writelines(" ".join(x[:5]) + "\n" for x in r.rows)
        dets = read_detections(path, "kaldi", kws.frame_length, kws.utt_map, kws.segments)
    params = Params(preset="nist2006", p_target=args.p_target, c_miss=args.c_miss, c_fa=args.c_fa,
                    trials_per_sec=args.trials_per_sec, compat_f4de=True,
                    decision_threshold=args.decision_threshold)
    res = score_std(kws, dets, params)
    return {"f4de/sum.txt": sum_text(res, trials_per_sec=args.trials_per_sec),
            "f4de/bsum.txt": bsum_text(res, args.trials_per_sec)}


def view(args, r: RecipeRun):
    """report.html's section and --textgrids' tiers of the run (termeval/std/kaldi/view.py)."""
    from termeval.std.kaldi import view as kaldi_view    # the report's modules: only with --report/--textgrids
    return kaldi_view.view(args, r)
