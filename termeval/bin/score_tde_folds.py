#!/usr/bin/env python3
"""Score a term-discovery class file with the ZeroSpeech 2015/2017 definitions, per fold.

Usage (normally through steps/score_tde_folds.sh):
  score_tde_folds.py [options] --job J --nj N <data-dir> <class-file> <exp-dir>
      score the J-th share of the folds; writes <exp-dir>/tde15/folds.J.json
  score_tde_folds.py [options] --merge N <data-dir> <class-file> <exp-dir>
      merge folds.1..N.json; writes exp-dir/scores/{matching,clustering,parsing,tde15_input},
      scores.json (cross_/within_ keys and "folds") and exp-dir/details/tde15/*

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

from termeval.cli import make_parser, positive_int, progress, run, str2bool
from termeval.errors import InputError
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
                res[i] = add_fscores(score_fold(p, fold, measures))
                log(f"{name} fold {i}: {time.time() - t:.2f} s")
            k += 1
        out["folds"][name] = res
    occ = p.disc.occ_cls
    sizes = np.bincount(occ, minlength=p.disc.nclasses)
    out["counts"] = p.counts
    out["nclusters"] = int(np.count_nonzero(sizes))
    out["npairs"] = int((sizes * (sizes - 1) // 2).sum())
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
                    metrics.append(Metric(key + suf, v, support))
        if metrics:
            write_scores(args.exp_dir, stage, metrics, args.benchmark,
                         extra={"folds": {k: folds[k] for k in folds},
                                "fold_labels": first["labels"], "counts": first["counts"]})
    counts = [Metric(k, v) for k, v in flatten_counts(first["counts"])]
    counts += [Metric("classes_after_annotation", first["nclusters"]),
               Metric("pairs_after_annotation", first["npairs"])]
    write_scores(args.exp_dir, "tde15_input", counts, args.benchmark)
    details = os.path.join(args.exp_dir, "details", "tde15")
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
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--job", type=positive_int)
    g.add_argument("--merge", type=positive_int, metavar="N")
    ap.add_argument("--nj", type=positive_int, default=1)
    ap.add_argument("data_dir")
    ap.add_argument("class_file")
    ap.add_argument("exp_dir")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = get_parser().parse_args(argv)
    if args.job is not None:
        if not 1 <= args.job <= args.nj:
            ap.error("--job must be in 1..--nj")
        do_job(args)
    else:
        do_merge(args)
    return 0


if __name__ == "__main__":
    run(main)
