#!/usr/bin/env python3
"""Score a term-discovery class file with the ZeroSpeech 2015/2017 definitions, per fold.

Usage (normally through steps/score_tde_folds.sh):
  score_tde_folds.py [options] --job J --nj N <data-dir> <class-file> <exp-dir>
      score the J-th share of the folds; writes <exp-dir>/tde15/folds.J.json
  score_tde_folds.py [options] --merge N <data-dir> <class-file> <exp-dir>
      merge folds.1..N.json; writes exp-dir/scores/{matching,clustering,parsing,tde15_input},
      scores.json (cross_/within_ keys, "folds" and "data_id"), exp-dir/details/tde15/* and the
      file (or speaker) fold table exp-dir/units/units.tde15_file.npz (steps/compare_systems.sh)

<data-dir>: gold data dir prepared SIL-less (steps/prepare_gold.sh --format zr --fill-gaps false);
<class-file>: a class file (or a class dir prepared by steps/prepare_classes.sh).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Sequence

import numpy as np

from termeval.bootstrap.folds import COLUMNS, SETS, FoldUnits, bootstrap_ci, build, full_values, pack, save_table
from termeval.bootstrap.units import data_identity, units_path
from termeval.cli import add_bootstrap_options, make_parser, positive_int, progress, run, str2bool
from termeval.errors import InputError
from termeval.tde_tables import zr2015_tables
from termeval.scores import TDE_STAGES, Metric, write_scores
from termeval.zr2015.evaluate import ALL_MEASURES, MODE_OF, prepare, score_fold
from termeval.zr2015.report import SUFFIXES, add_fscores, details_text, summarise
from termeval.textio import atomic_write


def resolve_folds(folds: str, data_dir: str) -> str:
    if folds == "auto":
        prefix = os.path.join(data_dir, "folds")
        if os.path.isfile(prefix + ".intervals.cross"):
            return prefix
        raise InputError("--folds auto: the data dir has no fold files (folds.split, "
                         "folds.intervals.cross, folds.intervals.within); pass --folds <prefix> "
                         "(e.g. <challenge-dir>/mandarin) or --folds none", data_dir)
    return folds


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def do_job(args) -> None:
    measures = ALL_MEASURES if args.measures == "all" else tuple(args.measures.split(","))
    bad = set(measures) - set(ALL_MEASURES)
    if bad:
        raise InputError(f"unknown measure(s) {sorted(bad)}; choose from {','.join(ALL_MEASURES)}")
    t0 = time.time()
    p = prepare(args.data_dir, args.class_file, resolve_folds(args.folds, args.data_dir),
                MODE_OF[args.benchmark], log=log)
    if not args.lenient:
        cf = p.counts["classfile"]
        problems = [f"{v} {k.replace('_', ' ')}" for k, v in cf.items() if v and k != "extra_columns"]
        if problems:
            raise InputError(f"{'; '.join(problems)} (the original tool silently accepted these; "
                             "use --lenient true to score as it did, with counts)", args.class_file)
    out = {"folds": {}, "labels": {}, "nsamples": {}, "nfolds": {}}
    units: dict = {"cross": {}, "within": {}}       # per-fold unit statistics (always: compare_systems)
    k = 0
    for name in ("cross", "within"):
        fs = p.foldsets[name]
        out["labels"][name] = fs.labels
        out["nsamples"][name] = int(sum(f.nlines for f in fs.folds))
        out["nfolds"][name] = len(fs.folds)
        res = {}
        for i, fold in progress(list(enumerate(fs.folds)), desc=f"{name} folds", unit="fold"):
            if k % args.nj == args.job - 1:
                t = time.time()
                u: dict = {}
                res[i] = add_fscores(score_fold(p, fold, measures, units=u))
                units[name][str(i)] = pack(u)
                log(f"{name} fold {i}: {time.time() - t:.2f} s")
            k += 1
        out["folds"][name] = res
    occ = p.disc.occ_cls
    sizes = np.bincount(occ, minlength=p.disc.nclasses)
    out["counts"] = p.counts
    out["nclusters"] = int(np.count_nonzero(sizes))
    out["npairs"] = int((sizes * (sizes - 1) // 2).sum())
    out["units"] = units
    out["unit_ids"] = {"files": p.gold.files, "speakers": p.gold.speaker, "nclasses": int(p.disc.nclasses)}
    out["seconds"] = time.time() - t0
    path = os.path.join(args.exp_dir, "tde15", f"folds.{args.job}.json")
    with atomic_write(path) as f:
        json.dump(out, f, allow_nan=True)
    log(f"job {args.job}/{args.nj}: {time.time() - t0:.2f} s")


def flatten_counts(counts: dict, prefix: str = "") -> list[tuple[str, int]]:
    rows = []
    for k, v in counts.items():
        if isinstance(v, dict):
            rows += flatten_counts(v, f"{prefix}{k}_")
        elif isinstance(v, (int,)) and not isinstance(v, bool):
            rows.append((f"{prefix}{k}", v))
    return rows


def fold_tables(args, parts: list[dict]) -> list[FoldUnits]:
    """The unit tables of the fold means (termeval.bootstrap.folds): discovered classes (NED,
    grouping) and files or speakers (the rest); matching has none."""
    ui = parts[0].get("unit_ids")
    if ui is None:
        raise InputError("job outputs hold no unit statistics: re-run the jobs with this termeval")
    packed = {t: {s: [None] * parts[0]["nfolds"][s] for s in SETS} for t in COLUMNS}
    for pt in parts:
        for s in SETS:
            for i, u in pt["units"][s].items():
                for t in COLUMNS:
                    if t in u:
                        packed[t][s][int(i)] = u[t]
    nc = ui["nclasses"]
    tables = [build("class", "class", [str(c) for c in range(nc)], np.arange(nc), packed["class"],
                    args.benchmark, keep_empty=False)]
    if args.bootstrap_unit == "speaker":
        ids, owner = np.unique(np.asarray(ui["speakers"], dtype=str), return_inverse=True)
        tables.append(build("file", "speaker", ids.tolist(), owner.ravel(), packed["file"], args.benchmark))
    else:
        tables.append(build("file", "file", ui["files"], np.arange(len(ui["files"])), packed["file"],
                            args.benchmark))
    return tables


def data_files(args) -> list[str]:
    """The files the scores depend on besides the submission (for data_id)."""
    files = [os.path.join(args.data_dir, f) for f in ("phones", "words", "utt2spk", "reco2dur")]
    folds = resolve_folds(args.folds, args.data_dir)
    if folds != "none":
        files += [f"{folds}.{s}" for s in ("split", "intervals.cross", "intervals.within", "classes")]
    return [f for f in files if os.path.isfile(f)]


def do_merge(args) -> None:
    parts = []
    for j in range(1, args.merge + 1):
        path = os.path.join(args.exp_dir, "tde15", f"folds.{j}.json")
        if not os.path.isfile(path):
            raise InputError("missing job output (did a job fail? see the logs)", path)
        with open(path, encoding="utf-8") as f:
            parts.append(json.load(f))
    first = parts[0]
    folds: dict[str, list[dict]] = {}
    for name in ("cross", "within"):
        merged: dict[int, dict] = {}
        for pt in parts:
            merged.update({int(i): v for i, v in pt["folds"][name].items()})
        n = first["nfolds"][name]
        if sorted(merged) != list(range(n)):
            raise InputError(f"{name}: job outputs hold folds {sorted(merged)}, expected 0..{n - 1}")
        folds[name] = [merged[i] for i in range(n)]
    values: dict = {}
    for name in ("cross", "within"):
        values.update(summarise(folds[name], name))
    tables = fold_tables(args, parts)
    ci = bootstrap_ci(tables, values, args.bootstrap, args.seed, args.ci) if args.bootstrap > 0 else {}
    # the file/speaker table is paired across systems scored on the same data (compare_systems)
    ftab = tables[1]
    ftab.exact = {k: values.get(k) for k in full_values(ftab)}
    save_table(units_path(args.exp_dir, "tde15_file"), ftab)
    data_id = data_identity(data_files(args), {"benchmark": args.benchmark, "folds": args.folds == "none",
                                               "measures": args.measures})
    for stage, names in TDE_STAGES.items():
        metrics = []
        for k in ("cross", "within"):
            for m in names:
                key = f"{k}_{m}"
                if key not in values:
                    continue
                for suf in SUFFIXES:
                    v = values[key + suf]
                    support = ""
                    if suf == "":
                        support = f"{values[key + '_nfolds']}/{first['nfolds'][k]} folds"
                    metrics.append(Metric(key + suf, v, support, ci.get(key) if suf == "" else None))
        if metrics:
            extra = {"folds": {k: folds[k] for k in folds}, "fold_labels": first["labels"],
                     "counts": first["counts"], "data_id": data_id}
            if args.bootstrap > 0:
                extra["bootstrap"] = {"n": args.bootstrap, "seed": args.seed, "level": args.ci,
                                      "unit": args.bootstrap_unit, "class_metrics_unit": "class"}
            write_scores(args.exp_dir, stage, metrics, args.benchmark, extra=extra)
    counts = [Metric(k, v) for k, v in flatten_counts(first["counts"])]
    counts += [Metric("classes_after_annotation", first["nclusters"]),
               Metric("pairs_after_annotation", first["npairs"])]
    write_scores(args.exp_dir, "tde15_input", counts, args.benchmark)
    details = os.path.join(args.exp_dir, "details", "tde15")
    zr2015_tables(os.path.join(args.exp_dir, "details"), parts, values, args.benchmark)
    texts = details_text(folds, first["nsamples"], args.benchmark, first["nclusters"], first["npairs"])
    for fname, text in texts.items():
        with atomic_write(os.path.join(details, fname)) as f:
            f.write(text)
    version = "VERSION_0.2.1" if args.benchmark == "zr2015" else "VERSION_0.2.2"
    with atomic_write(os.path.join(details, version)) as f:
        f.write("")
    c = first["counts"]["disc"]
    log(f"{args.benchmark}: {c['fragments_kept']}/{c['fragments_in']} fragments kept "
        f"({c['dropped_unknown_file']} unknown file, {c.get('dropped_outside_split', 0)} outside "
        f"the split, {c['dropped_no_segment']} in no segment; "
        f"{c.get('truncated_to_split', 0)} truncated to the split)")
    for k in ("matching_fscore", "ned", "coverage", "grouping_fscore", "token_fscore",
              "type_fscore", "boundary_fscore"):
        if f"cross_{k}" in values:
            log(f"  {k:16s} cross {values['cross_' + k]:.4f}  within {values.get('within_' + k, float('nan')):.4f}")


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help)."""
    ap = make_parser(__doc__)
    ap.add_argument("--benchmark", choices=sorted(MODE_OF), default="zr2015")
    ap.add_argument("--folds", default="auto",
                    help="<prefix> of .split/.intervals.cross/.intervals.within[/.classes], "
                         "'none' (whole corpus; within = one fold per speaker) or 'auto'")
    ap.add_argument("--measures", default="all", help=f"comma list of {','.join(ALL_MEASURES)}")
    ap.add_argument("--lenient", type=str2bool, default=False,
                    help="true: accept unknown files, duplicate class ids and fragments before the "
                         "first header as the original did (dropped/merged, and counted)")
    add_bootstrap_options(ap, "discovered classes (NED, grouping) and files or speakers (the rest)")
    ap.add_argument("--bootstrap-unit", default="file", choices=("file", "speaker"),
                    help="unit of coverage, token, type and boundary intervals (default file)")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--job", type=positive_int)
    g.add_argument("--merge", type=positive_int, metavar="N")
    ap.add_argument("--nj", type=positive_int, default=1)
    ap.add_argument("data_dir")
    ap.add_argument("class_file")
    ap.add_argument("exp_dir")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    ap = get_parser()
    args = ap.parse_args(argv)
    if args.job is not None:
        if not 1 <= args.job <= args.nj:
            ap.error("--job must be in 1..--nj")
        do_job(args)
    else:
        do_merge(args)
    return 0


if __name__ == "__main__":
    run(main)
